package org.chainfilter.bip37;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import org.chainfilter.common.bits.LongArrayBitStore;
import org.chainfilter.common.hash.Murmur3;
import org.junit.jupiter.api.Test;

/**
 * The fast probe path equals {@code Murmur3.x86_32(seed, item) mod m}, unsigned, for every length, seed and m, and
 * {@code allSet} equals the AND of the bits at those indices.
 */
class Bip37ProbesTest {

    private static long reference(int seed, byte[] item, int offset, int length, long m) {
        return Integer.toUnsignedLong(Murmur3.x86_32(seed, item, offset, length)) % m;
    }

    /**
     * For the {@code allSet} check, bits set with density {@code 1 - 2^-n} (n random words ORed; 0 = all set): low
     * densities stop at the first group, full ones run every group.
     */
    private static final int[] ORED_WORDS = {1, 3, 5, 0};

    private static LongArrayBitStore randomBits(long m, int oredWords, Random random) {
        long[] words = new long[(int) ((m + 63) / 64)];
        for (int w = 0; w < words.length; w++) {
            long word = oredWords == 0 ? -1L : 0;
            for (int i = 0; i < oredWords; i++) {
                word |= random.nextLong();
            }
            words[w] = word;
        }
        if (m % 64 != 0) {
            words[words.length - 1] &= (1L << m) - 1;
        }
        return LongArrayBitStore.fromWords(m, words);
    }

    @Test
    void equalsFullHashAndPlainModulo() {
        Random random = new Random(41);
        long[] sizes = {8, 16, 24, 64, 72, 8 * 35, 8 * 36_000, 8 * 35_943, 8 * 13, 8 * 4093};
        for (int round = 0; round < 20_000; round++) {
            long m = round < sizes.length * 100 ? sizes[round % sizes.length] : 8L * (1 + random.nextInt(36_000));
            Bip37Probes probes = new Bip37Probes(m);
            int length = round % 97 == 0 ? 521 + random.nextInt(400) : random.nextInt(80);
            byte[] item = new byte[length + 3];
            random.nextBytes(item);
            int offset = random.nextInt(4);
            length = Math.min(length, item.length - offset);
            probes.load(item, offset, length);
            int seed = round % 5 == 0 ? 0xfffffff0 + round % 16 : random.nextInt();
            assertEquals(reference(seed, item, offset, length, m), probes.index(seed), "round " + round);
            assertEquals(reference(seed, item, offset, length, m), probes.firstIndex(seed, item, offset, length));
            int count = random.nextInt(51);
            long[] all = new long[Math.max(count, 8)];
            probes.indices(seed, Bip37BloomFilter.SEED_STEP, count, all);
            for (int j = 0; j < count; j++) {
                assertEquals(reference(seed + j * Bip37BloomFilter.SEED_STEP, item, offset, length, m), all[j],
                        "round " + round + " function " + j);
            }
            LongArrayBitStore bits = randomBits(m, ORED_WORDS[round % ORED_WORDS.length], random);
            boolean expected = true;
            for (int j = 0; j < count; j++) {
                expected &= bits.get(reference(seed + j * Bip37BloomFilter.SEED_STEP, item, offset, length, m));
            }
            assertEquals(expected, probes.allSet(bits, seed, Bip37BloomFilter.SEED_STEP, count, new long[8]),
                    "round " + round + ", " + count + " functions");
        }
    }

    /** Every 32-bit hash value at the edges of the reduction, against m near its extremes. */
    @Test
    void reductionIsExactAtTheEdges() {
        int[] hashes = {0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, 287_999, 288_000, 288_001, -288_000};
        for (long m : new long[] {8, 9, 287_999, 288_000}) {
            Bip37Probes probes = new Bip37Probes(m);
            probes.load(new byte[0], 0, 0);
            for (int seed = 0; seed < 5000; seed++) {
                assertEquals(reference(seed, new byte[0], 0, 0, m), probes.index(seed));
            }
            for (int h : hashes) {
                assertEquals(Integer.toUnsignedLong(h) % m, probes.reduce(h), h + " mod " + m);
                assertEquals(Integer.toUnsignedLong(h) % m, probes.reduceInWalk(h), h + " mod " + m + " in a walk");
            }
        }
    }

    /**
     * Both reductions, so also the 32-bit cut of Lemire's fraction, are exact for every m a BIP37 filter can have
     * (1 .. 288,000 bits, not only multiples of 8): hashes at and around multiples of m (where a remainder wraps), at
     * the ends of the 32-bit range, and random ones.
     */
    @Test
    void reductionIsExactForEveryBitCount() {
        Random random = new Random(43);
        for (long m = 1; m <= 288_000; m++) {
            Bip37Probes probes = new Bip37Probes(m);
            long top = 0xffffffffL / m * m;
            long[] hashes = {0, m - 1, m, m + 1, top - 1, top, 0xffffffffL, 0x80000000L, 0x7fffffffL,
                    Integer.toUnsignedLong(random.nextInt()), Integer.toUnsignedLong(random.nextInt())};
            for (long h : hashes) {
                long hash = h & 0xffffffffL;
                assertEquals(hash % m, probes.reduce((int) hash), hash + " mod " + m);
                assertEquals(hash % m, probes.reduceInWalk((int) hash), hash + " mod " + m + " in a walk");
            }
        }
    }

    @Test
    void refusesBitCountsNoFilterHas() {
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> new Bip37Probes(0));
        assertEquals("bit count is 0; BIP37 filters have 1 .. 288000", zero.getMessage());
        IllegalArgumentException large = assertThrows(IllegalArgumentException.class,
                () -> new Bip37Probes(288_001));
        assertEquals("bit count is 288001; BIP37 filters have 1 .. 288000", large.getMessage());
    }
}
