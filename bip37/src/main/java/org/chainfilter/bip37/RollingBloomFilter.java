package org.chainfilter.bip37;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Objects;
import java.util.random.RandomGenerator;
import org.chainfilter.common.hash.Murmur3;

/**
 * Bitcoin Core's {@code CRollingBloomFilter} ({@code common/bloom.cpp}): a set that remembers at least the last N
 * items inserted and at most about 1.5·N, with false-positive rate about fp. Core uses it for known-inventory and
 * address sets; it is never sent on the wire, so only its behaviour, not its layout, has to match.
 *
 * <p>Parameters, as Core computes them:
 * <pre>
 *   nHashFuncs            = clamp(round(ln fp / ln 0.5), 1, 50)
 *   nEntriesPerGeneration = (N + 1) / 2,  nMaxElements = 3 · nEntriesPerGeneration
 *   nFilterBits           = ceil(-nHashFuncs · nMaxElements / ln(1 - exp(ln fp / nHashFuncs)))
 *   words                 = ((nFilterBits + 63) / 64) · 2 uint64
 * </pre>
 * Each position is a 2-bit cell split over the word pair {@code (pos & ~1, pos | 1)}, holding the generation (1..3)
 * that last set it, 0 for none. Hash {@code n} of a key is {@code h = MurmurHash3(n · 0xFBA4C795 + nTweak, key)}
 * with no modulo; the cell is bit {@code h & 63} of word pair {@code FastRange32(h, words) = (h · words) >>> 32}. When
 * a generation has taken nEntriesPerGeneration keys the generation advances 1 → 2 → 3 → 1 and every cell holding the
 * new number is wiped. nTweak is random, from a {@link SecureRandom} unless a generator is passed. Insert and contains
 * allocate nothing. Not thread-safe.
 *
 * <p><b>Equality.</b> Two filters are equal when they are in the same state: the same nHashFuncs, nEntriesPerGeneration,
 * nEntriesThisGeneration, current generation, nTweak and cell words. Equal filters answer every sequence of
 * {@link #insert} and {@link #contains} calls alike and stay equal under the same inserts. The random generator is not
 * part of the state compared: it is consulted only by {@link #reset()}, which discards all of that state and draws a
 * new nTweak from each filter's own generator (so a filter and its {@link #copy()}, which share one generator, draw
 * different tweaks). {@code hashCode} follows the mutable state, so a filter must not be changed while it is a key in a
 * hash-based collection. {@link #toString()} leaves out nTweak: unlike BIP37's, this filter never goes on the wire,
 * and its tweak is what keeps its collisions unpredictable.
 */
public final class RollingBloomFilter {
    private final int hashFunctionCount;
    private final int entriesPerGeneration;
    private final long[] data;
    private final RandomGenerator random;
    private int entriesThisGeneration;
    private int generation;
    private int tweak;

    private RollingBloomFilter(int hashFunctionCount, int entriesPerGeneration, long[] data, RandomGenerator random) {
        this.hashFunctionCount = hashFunctionCount;
        this.entriesPerGeneration = entriesPerGeneration;
        this.data = data;
        this.random = random;
        reset();
    }

    private RollingBloomFilter(RollingBloomFilter other) {
        this.hashFunctionCount = other.hashFunctionCount;
        this.entriesPerGeneration = other.entriesPerGeneration;
        this.data = other.data.clone();
        this.random = other.random;
        this.entriesThisGeneration = other.entriesThisGeneration;
        this.generation = other.generation;
        this.tweak = other.tweak;
    }

    /** An independent copy with the same nTweak, generation and cells (it shares the random generator). */
    public RollingBloomFilter copy() {
        return new RollingBloomFilter(this);
    }

    /** A filter remembering the last {@code elementCount} items at {@code falsePositiveRate}, random nTweak. */
    public static RollingBloomFilter create(int elementCount, double falsePositiveRate) {
        return create(elementCount, falsePositiveRate, new SecureRandom());
    }

    /**
     * As {@link #create(int, double)}, nTweak drawn from {@code random} (at construction and at every
     * {@link #reset()}).
     *
     * @param elementCount      N, at least 1
     * @param falsePositiveRate fp in (0, 1)
     */
    public static RollingBloomFilter create(int elementCount, double falsePositiveRate, RandomGenerator random) {
        if (elementCount < 1) {
            throw new IllegalArgumentException("rolling filter element count is " + elementCount
                    + "; it must be at least 1");
        }
        if (!(falsePositiveRate > 0 && falsePositiveRate < 1)) {
            throw new IllegalArgumentException("rolling filter false-positive rate is " + falsePositiveRate
                    + "; it must be in (0, 1)");
        }
        double logRate = Math.log(falsePositiveRate);
        int hashFunctions = (int) Math.max(1, Math.min(Math.round(logRate / Math.log(0.5)), 50));
        int perGeneration = (int) ((elementCount + 1L) / 2);
        long maxElements = perGeneration * 3L;
        long filterBits = (long) Math.ceil(-1.0 * hashFunctions * maxElements
                / Math.log(1.0 - Math.exp(logRate / hashFunctions)));
        long words = ((filterBits + 63) / 64) << 1;
        if (words > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("rolling filter for " + elementCount + " elements at "
                    + falsePositiveRate + " needs " + filterBits + " bits; too large for one array");
        }
        return new RollingBloomFilter(hashFunctions, perGeneration, new long[(int) words], random);
    }

    private int hash(int n, byte[] key, int offset, int length) {
        return Murmur3.x86_32(n * Bip37BloomFilter.SEED_STEP + tweak, key, offset, length);
    }

    /** Core's {@code FastRange32}: maps a uniform 32-bit value onto [0, range) by a multiply-shift. */
    private static int fastRange32(int hash, int range) {
        return (int) ((Integer.toUnsignedLong(hash) * range) >>> 32);
    }

    /** Inserts all of {@code key}; allocates nothing. */
    public void insert(byte[] key) {
        insert(key, 0, key.length);
    }

    /** Inserts {@code key[offset, offset + length)}, first rolling the generation when the current one is full. */
    public void insert(byte[] key, int offset, int length) {
        // Checked before the generation rolls: a refused insert must leave the filter as it was.
        Objects.checkFromIndexSize(offset, length, key.length);
        if (entriesThisGeneration == entriesPerGeneration) {
            entriesThisGeneration = 0;
            generation++;
            if (generation == 4) {
                generation = 1;
            }
            long mask1 = -(long) (generation & 1);
            long mask2 = -(long) (generation >> 1);
            for (int p = 0; p < data.length; p += 2) {
                long p1 = data[p];
                long p2 = data[p + 1];
                long keep = (p1 ^ mask1) | (p2 ^ mask2);
                data[p] = p1 & keep;
                data[p + 1] = p2 & keep;
            }
        }
        entriesThisGeneration++;
        long low = generation & 1;
        long high = generation >> 1;
        for (int n = 0; n < hashFunctionCount; n++) {
            int h = hash(n, key, offset, length);
            int bit = h & 63;
            int pos = fastRange32(h, data.length);
            int even = pos & ~1;
            int odd = pos | 1;
            data[even] = (data[even] & ~(1L << bit)) | low << bit;
            data[odd] = (data[odd] & ~(1L << bit)) | high << bit;
        }
    }

    /** Whether all of {@code key} is (probably) among the recent items; allocates nothing. */
    public boolean contains(byte[] key) {
        return contains(key, 0, key.length);
    }

    /** Whether {@code key[offset, offset + length)} is (probably) among the recent items. */
    public boolean contains(byte[] key, int offset, int length) {
        for (int n = 0; n < hashFunctionCount; n++) {
            int h = hash(n, key, offset, length);
            int bit = h & 63;
            int pos = fastRange32(h, data.length);
            if ((((data[pos & ~1] | data[pos | 1]) >>> bit) & 1) == 0) {
                return false;
            }
        }
        return true;
    }

    /** Forgets everything and draws a new nTweak (Core {@code reset()}). */
    public void reset() {
        tweak = random.nextInt();
        entriesThisGeneration = 0;
        generation = 1;
        Arrays.fill(data, 0L);
    }

    /** nHashFuncs = clamp(round(ln fp / ln 0.5), 1, 50). */
    public int hashFunctionCount() {
        return hashFunctionCount;
    }

    /** nEntriesPerGeneration = (N + 1) / 2. */
    public int entriesPerGeneration() {
        return entriesPerGeneration;
    }

    /** The number of uint64 words (two per 64 cells). */
    public int wordCount() {
        return data.length;
    }

    /** A copy of the cell words, for tests that pin Core's layout. */
    long[] cellWords() {
        return data.clone();
    }

    /** The current generation, 1..3. */
    public int generation() {
        return generation;
    }

    /** Whether {@code o} is a rolling filter in the same state (see "Equality" on the class). */
    @Override
    public boolean equals(Object o) {
        return o instanceof RollingBloomFilter f && f.hashFunctionCount == hashFunctionCount
                && f.entriesPerGeneration == entriesPerGeneration && f.entriesThisGeneration == entriesThisGeneration
                && f.generation == generation && f.tweak == tweak && Arrays.equals(f.data, data);
    }

    @Override
    public int hashCode() {
        int result = Objects.hash(hashFunctionCount, entriesPerGeneration, entriesThisGeneration, generation, tweak);
        return 31 * result + Arrays.hashCode(data);
    }

    @Override
    public String toString() {
        return "RollingBloomFilter{nHashFuncs " + hashFunctionCount + ", " + entriesPerGeneration
                + " entries per generation, " + data.length + " words, generation " + generation + " with "
                + entriesThisGeneration + " entries}";
    }
}
