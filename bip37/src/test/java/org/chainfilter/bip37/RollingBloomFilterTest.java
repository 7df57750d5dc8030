package org.chainfilter.bip37;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.random.RandomGenerator;
import org.chainfilter.common.hash.Murmur3;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Core's CRollingBloomFilter. The behaviour checks are the portable properties of bitcoin/bitcoin
 * src/test/bloom_tests.cpp rolling_bloom (e3f416dbf7); Core's exact hit counts (71 and 3) depend on its seeded RNG and
 * random nTweak, so only its bounds carry over.
 */
class RollingBloomFilterTest {

    private static byte[] random32(Random random) {
        byte[] out = new byte[32];
        random.nextBytes(out);
        return out;
    }

    /**
     * Parameters from Core's formulas (spec digest §5, computed with IEEE doubles). The last three, computed with
     * Core's expressions in C: an odd N rounds nEntriesPerGeneration up ((N + 1) / 2), and nHashFuncs is clamped to
     * 1 (fp 0.9 rounds to 0) and to 50 (fp 1e-20 gives 66). In the two after them nFilterBits is a ceiling just
     * past a multiple of 64 (3712.47 to 3713, 768.38 to 769), so a truncation would leave one word pair fewer; without
     * them only the bcoin peer test noticed.
     */
    @ParameterizedTest
    @CsvSource({"100, 0.01, 7, 46, 50", "1000, 0.001, 10, 674, 500", "50000, 0.000001, 20, 67396, 25000",
        "101, 0.01, 7, 46, 51", "100, 0.9, 1, 4, 50", "100, 1e-20, 50, 462, 50",
        "257, 0.01, 7, 118, 129", "81, 0.05, 4, 26, 41"})
    void coreParameters(int n, double fp, int hashFunctions, int words, int perGeneration) {
        RollingBloomFilter filter = RollingBloomFilter.create(n, fp, new Random(1));
        assertEquals(hashFunctions, filter.hashFunctionCount());
        assertEquals(words, filter.wordCount());
        assertEquals(perGeneration, filter.entriesPerGeneration());
    }

    @Test
    void coreRollingBloomProperties() {
        Random random = new Random(0);
        RollingBloomFilter filter = RollingBloomFilter.create(100, 0.01, random);
        byte[][] data = new byte[399][];
        for (int i = 0; i < 399; i++) {
            data[i] = random32(random);
            filter.insert(data[i]);
            assertTrue(filter.contains(data[i]));
        }
        for (int i = 299; i < 399; i++) {
            assertTrue(filter.contains(data[i]), "last 100 items are remembered");
        }
        int hits = 0;
        for (int i = 0; i < 10000; i++) {
            if (filter.contains(random32(random))) {
                hits++;
            }
        }
        assertTrue(hits > 25 && hits < 175, "false positives ~100 expected, got " + hits);

        filter.insert(data[398]);
        filter.reset();
        assertFalse(filter.contains(data[398]));
        for (int i = 0; i < 399; i++) {
            if (i >= 100) {
                assertTrue(filter.contains(data[i - 100]), "item " + (i - 100));
            }
            filter.insert(data[i]);
            assertTrue(filter.contains(data[i]));
        }
        for (int i = 0; i < 999; i++) {
            filter.insert(random32(random));
        }
        int old = 0;
        for (byte[] item : data) {
            if (filter.contains(item)) {
                old++;
            }
        }
        assertTrue(old < 100, "~5 old items expected, got " + old);

        RollingBloomFilter big = RollingBloomFilter.create(1000, 0.001, random);
        for (byte[] item : data) {
            big.insert(item);
        }
        for (byte[] item : data) {
            assertTrue(big.contains(item));
        }
    }

    /**
     * The layout of Core's CRollingBloomFilter::insert, computed here from its text (spec digest §5) for a fixed nTweak
     * above 2^31: hash n is MurmurHash3(n · 0xFBA4C795 + nTweak, key) unreduced, its cell is bit {@code h & 63} of the
     * word pair {@code FastRange32(h, words) & ~1}, and generation 1 sets the low word of the pair only. A plain modulo,
     * the pre-2018 {@code (h >> 6) % size}, another seed step or another generation encoding fails it.
     */
    @Test
    void cellsFollowCoresHashAndFastRange32() {
        int tweak = 0x9e3779b9;
        RollingBloomFilter filter = RollingBloomFilter.create(100, 0.01, () -> (long) tweak << 32);
        byte[] key = "rolling".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        long[] expected = new long[filter.wordCount()];
        for (int n = 0; n < filter.hashFunctionCount(); n++) {
            int h = Murmur3.x86_32(n * 0xFBA4C795 + tweak, key);
            int pair = (int) ((Integer.toUnsignedLong(h) * expected.length) >>> 32) & ~1;
            expected[pair] |= 1L << (h & 63);
        }
        filter.insert(key);
        assertArrayEquals(expected, filter.cellWords());
        assertTrue(filter.contains(key));
    }

    @Test
    void generationsCycleOneTwoThree() {
        RollingBloomFilter filter = RollingBloomFilter.create(4, 0.01, new Random(3));
        assertEquals(2, filter.entriesPerGeneration());
        int[] expected = {1, 1, 2, 2, 3, 3, 1, 1, 2};
        for (int i = 0; i < expected.length; i++) {
            filter.insert(new byte[] {(byte) i});
            assertEquals(expected[i], filter.generation(), "after insert " + i);
        }
    }

    /**
     * A filter whose nTweak comes from {@code new Random(seed)} (the same seed gives the same nTweak), after inserting
     * the one-byte keys {@code keys} in order.
     */
    private static RollingBloomFilter seeded(int elementCount, long seed, int... keys) {
        RollingBloomFilter filter = RollingBloomFilter.create(elementCount, 0.001, new Random(seed));
        for (int key : keys) {
            filter.insert(new byte[] {(byte) key});
        }
        return filter;
    }

    /**
     * A key range outside the array is refused before the generation rolls: the roll used to come first, so refused
     * inserts could cycle the generations and wipe the items inserted last (found by a review).
     */
    @Test
    void aRefusedInsertLeavesTheFilterAsItWas() {
        RollingBloomFilter filter = RollingBloomFilter.create(1, 0.01, new Random(1));
        byte[] key = {1, 2, 3};
        filter.insert(key);
        RollingBloomFilter before = filter.copy();
        for (int i = 0; i < 3; i++) {
            assertThrows(IndexOutOfBoundsException.class, () -> filter.insert(key, 0, 100));
            assertThrows(IndexOutOfBoundsException.class, () -> filter.insert(key, -1, 2));
        }
        assertEquals(before, filter);
        assertTrue(filter.contains(key));
        assertEquals(1, filter.generation());
    }

    @Test
    void equalAfterTheSameInserts() {
        RollingBloomFilter a = seeded(10, 5);
        RollingBloomFilter b = seeded(10, 5);
        assertEquals(a, b);
        for (int i = 0; i < 23; i++) {
            a.insert(new byte[] {(byte) i, -1});
            b.insert(new byte[] {(byte) i, -1});
            assertEquals(a, b, "after insert " + i);
            assertEquals(a.hashCode(), b.hashCode(), "after insert " + i);
        }
        assertEquals(a.toString(), b.toString());
        assertNotEquals(a, null);
        assertNotEquals(a, (Object) Bip37BloomFilter.fromElementsAndRate(10, 0.001, 0, 0));
    }

    @Test
    void unequalAfterADifferentInsert() {
        RollingBloomFilter a = seeded(10, 5, 1);
        RollingBloomFilter b = seeded(10, 5, 2);
        assertNotEquals(a, b);
        assertEquals(a.generation(), b.generation());
    }

    /** Inserting a key again writes the same cells; only nEntriesThisGeneration tells the two filters apart. */
    @Test
    void theEntryCountIsPartOfTheState() {
        RollingBloomFilter once = seeded(10, 5, 7);
        RollingBloomFilter twice = seeded(10, 5, 7, 7);
        assertNotEquals(once, twice);
        assertTrue(once.toString().endsWith("generation 1 with 1 entries}"), once.toString());
        assertTrue(twice.toString().endsWith("generation 1 with 2 entries}"), twice.toString());
    }

    @Test
    void unequalAfterAGenerationRoll() {
        RollingBloomFilter a = seeded(4, 5, 1, 2);
        RollingBloomFilter b = seeded(4, 5, 1, 2);
        assertEquals(a, b);
        a.insert(new byte[] {3});
        assertEquals(2, a.generation());
        assertEquals(1, b.generation());
        assertNotEquals(a, b);
        b.insert(new byte[] {3});
        assertEquals(a, b, "the same roll in both");
    }

    /** Empty filters of the same shape differ only in nTweak, which decides every future cell. */
    @Test
    void theTweakIsPartOfTheState() {
        assertNotEquals(seeded(10, 5), seeded(10, 6));
        assertNotEquals(seeded(10, 5, 9), seeded(10, 6, 9));
    }

    @Test
    void copyIsEqualAndIndependent() {
        RollingBloomFilter filter = seeded(10, 4, 1);
        RollingBloomFilter copy = filter.copy();
        assertEquals(filter, copy);
        assertEquals(filter.hashCode(), copy.hashCode());
        RollingBloomFilter snapshot = filter.copy();
        copy.insert(new byte[] {2});
        assertTrue(copy.contains(new byte[] {1}));
        assertTrue(copy.contains(new byte[] {2}));
        assertFalse(filter.contains(new byte[] {2}));
        assertNotEquals(filter, copy);
        assertEquals(snapshot, filter, "inserting into the copy leaves the original as it was");
        filter.insert(new byte[] {3});
        assertFalse(copy.contains(new byte[] {3}));
    }

    /** reset() draws from the filter's own generator: a copy shares it, two seeded filters each have their own. */
    @Test
    void resetDrawsFromEachFiltersGenerator() {
        RollingBloomFilter a = seeded(10, 8, 1);
        RollingBloomFilter b = seeded(10, 8, 1);
        a.reset();
        b.reset();
        assertEquals(a, b, "the second draw of two generators seeded alike");
        RollingBloomFilter copy = a.copy();
        a.reset();
        copy.reset();
        assertNotEquals(a, copy, "a copy shares the generator, so the two resets draw different tweaks");
    }

    /**
     * Core's CRollingBloomFilter::reset() zeroes the cells and sets nEntriesThisGeneration to 0 and nGeneration to 1
     * (spec §5). With a generator that draws the same nTweak again, a filter reset in its second generation equals a
     * new one, forgets its keys, and takes a whole generation of inserts before it rolls.
     */
    @Test
    void resetForgetsTheCellsAndTheGeneration() {
        RandomGenerator sameTweak = () -> 0x5eed_0000_0000_0000L;
        RollingBloomFilter filter = RollingBloomFilter.create(10, 0.001, sameTweak);
        for (int key = 0; key < 7; key++) {
            filter.insert(new byte[] {(byte) key});
        }
        assertEquals(2, filter.generation());
        filter.reset();
        assertEquals(RollingBloomFilter.create(10, 0.001, sameTweak), filter);
        assertFalse(filter.contains(new byte[] {6}));
        for (int key = 0; key < filter.entriesPerGeneration(); key++) {
            filter.insert(new byte[] {(byte) (100 + key)});
        }
        assertEquals(1, filter.generation());
    }

    @Test
    void invalidParametersAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RollingBloomFilter.create(0, 0.01));
        assertEquals("rolling filter element count is 0; it must be at least 1", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> RollingBloomFilter.create(10, 1.0));
        assertEquals("rolling filter false-positive rate is 1.0; it must be in (0, 1)", e.getMessage());
    }

    /**
     * Core's words = ((nFilterBits + 63) / 64) · 2: (637281033, 1e-15) has nHashFuncs 50 and needs 68,719,476,482
     * bits, 2,147,483,642 words, above the largest array a JVM allocates (Integer.MAX_VALUE - 8). It is refused naming
     * what it needs, not left to an OutOfMemoryError.
     */
    @Test
    void aFilterTooLargeForOneArrayIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RollingBloomFilter.create(637281033, 1e-15));
        assertEquals("rolling filter for 637281033 elements at 1.0E-15 needs 68719476482 bits; too large for one array",
                e.getMessage());
    }
}
