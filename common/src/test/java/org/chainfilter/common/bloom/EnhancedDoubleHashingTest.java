package org.chainfilter.common.bloom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.chainfilter.common.bits.LongArrayBitStore;
import org.chainfilter.common.hash.Murmur3;
import org.junit.jupiter.api.Test;

class EnhancedDoubleHashingTest {
    private static final EnhancedDoubleHashing STRATEGY = EnhancedDoubleHashing.INSTANCE;

    private static long[] positions(long h1, long h2, int k, long m) {
        long[] out = new long[k];
        int[] n = {0};
        assertTrue(STRATEGY.forEachIndex(h1, h2, k, m, index -> {
            out[n[0]++] = index;
            return true;
        }));
        assertEquals(k, n[0]);
        return out;
    }

    /** k below 1 is refused by every walk; it used to visit, test or set one position (found by a review). */
    @Test
    void aCountBelowOneIsRefused() {
        LongArrayBitStore bits = new LongArrayBitStore(100);
        for (int k : new int[] {0, -5}) {
            var ask = assertThrows(IllegalArgumentException.class,
                    () -> EnhancedDoubleHashing.INSTANCE.forEachIndex(1, 2, k, 100, i -> true));
            assertEquals("k is " + k + "; it must be at least 1", ask.getMessage());
            assertThrows(IllegalArgumentException.class, () -> EnhancedDoubleHashing.INSTANCE.allSet(1, 2, k, bits));
            assertThrows(IllegalArgumentException.class, () -> EnhancedDoubleHashing.INSTANCE.setAll(1, 2, k, bits));
        }
        assertEquals(0, bits.cardinality());
    }

    @Test
    void handComputedSequence() {
        // reduce(0, 10) = 0; reduce(2^63, 10) = floor(2^63 * 10 / 2^64) = 5
        // x: 0, 0+5=5, 5+6=11-10=1, 1+8=9, 9+1=10-10=0; y: 5, 6, 8, 11-10=1, 5
        assertArrayEquals(new long[] {0, 5, 1, 9, 0}, positions(0, Long.MIN_VALUE, 5, 10));
    }

    /** The branch-free step at its edges: sums just below, at and just above m, and the largest m (2^62). */
    @Test
    void addModBelowWrapsExactlyOnceAtTheEdges() {
        for (long m : new long[] {1, 2, 3, 64, 1000, (1L << 33) + 7, 1L << 62}) {
            long[][] pairs = {{0, 0}, {0, m - 1}, {m - 1, 0}, {m - 1, m - 1}, {m / 2, m - m / 2 - 1},
                {m / 2, m - m / 2}, {1 % m, m - 1}};
            for (long[] pair : pairs) {
                long expected = BigInteger.valueOf(pair[0]).add(BigInteger.valueOf(pair[1]))
                        .mod(BigInteger.valueOf(m)).longValueExact();
                assertEquals(expected, EnhancedDoubleHashing.addModBelow(pair[0], pair[1], m),
                        pair[0] + " + " + pair[1] + " mod " + m);
            }
        }
    }

    /** The incremental sequence equals the closed form g_i = x + i y + (i^3 - i)/6 (mod m), in exact arithmetic. */
    @Test
    void matchesTheClosedFormInExactArithmetic() {
        SplittableRandom random = new SplittableRandom(11);
        long[] bitCounts = {1, 2, 3, 63, 64, 65, 1000, 9586, (1L << 33) + 7, 1L << 62};
        for (long m : bitCounts) {
            for (int trial = 0; trial < 50; trial++) {
                long h1 = random.nextLong();
                long h2 = random.nextLong();
                int k = 1 + random.nextInt(40);
                BigInteger bm = BigInteger.valueOf(m);
                BigInteger x = exactReduce(h1, m);
                BigInteger y = exactReduce(h2, m);
                long[] expected = new long[k];
                for (int i = 0; i < k; i++) {
                    BigInteger bi = BigInteger.valueOf(i);
                    expected[i] = x.add(bi.multiply(y)).add(bi.pow(3).subtract(bi).divide(BigInteger.valueOf(6)))
                            .mod(bm).longValueExact();
                }
                assertArrayEquals(expected, positions(h1, h2, k, m), "m=" + m + " k=" + k);
            }
        }
    }

    @Test
    void reduceIsTheHighWordOfTheUnsignedProduct() {
        SplittableRandom random = new SplittableRandom(12);
        for (int i = 0; i < 1000; i++) {
            long h = random.nextLong();
            long m = 1 + (random.nextLong() >>> 2);
            assertEquals(exactReduce(h, m).longValueExact(), EnhancedDoubleHashing.reduce(h, m));
        }
        assertEquals(9, EnhancedDoubleHashing.reduce(-1L, 10));
        assertEquals(0, EnhancedDoubleHashing.reduce(0, 1L << 62));
    }

    /** Golden: a change to the index sequence would break every stored filter, so it must fail this test. */
    @Test
    void goldenPositionsForSeventeenHashesOverAnOddBitCount() {
        long[] hash = Murmur3.x64_128(0, "chainfilter".getBytes(StandardCharsets.US_ASCII));
        long[] got = positions(hash[0], hash[1], 17, 1001);
        assertEquals(GOLDEN, Arrays.toString(got));
    }

    private static final String GOLDEN = "[556, 742, 929, 117, 309, 505, 706, 913, 126, 348, 579, 820, 71, 335, 612, 903, 208]";

    /**
     * The specialised allSet/setAll agree with the generic defaults (reached through a strategy that only implements
     * forEachIndex) on a hand-checkable shape: m = 1001 (not a multiple of 64), k = 17.
     */
    @Test
    void specialisedMembershipAndInsertionMatchTheDefaults() {
        IndexStrategy generic = new IndexStrategy() {
            @Override
            public int id() {
                return 99;
            }

            @Override
            public boolean forEachIndex(long h1, long h2, int k, long m, java.util.function.LongPredicate position) {
                return STRATEGY.forEachIndex(h1, h2, k, m, position);
            }
        };
        SplittableRandom random = new SplittableRandom(13);
        LongArrayBitStore fast = new LongArrayBitStore(1001);
        LongArrayBitStore slow = new LongArrayBitStore(1001);
        for (int i = 0; i < 300; i++) {
            long h1 = random.nextLong();
            long h2 = random.nextLong();
            assertEquals(generic.allSet(h1, h2, 17, slow), STRATEGY.allSet(h1, h2, 17, fast));
            assertEquals(generic.setAll(h1, h2, 17, slow), STRATEGY.setAll(h1, h2, 17, fast));
            assertTrue(STRATEGY.allSet(h1, h2, 17, fast));
            assertEquals(slow, fast);
        }
        assertEquals(fast.cardinality(), slow.cardinality());
    }

    @Test
    void setAllCountsARepeatedPositionOnce() {
        // m = 1: all 17 positions are bit 0
        LongArrayBitStore one = new LongArrayBitStore(1);
        assertFalse(STRATEGY.allSet(5, 6, 17, one));
        assertEquals(1, STRATEGY.setAll(5, 6, 17, one));
        assertEquals(0, STRATEGY.setAll(7, 8, 17, one));
        assertTrue(STRATEGY.allSet(9, 10, 17, one));
    }

    @Test
    void stopsAtTheFirstRefusal() {
        int[] visited = {0};
        assertFalse(STRATEGY.forEachIndex(1, 2, 7, 100, index -> ++visited[0] < 3));
        assertEquals(3, visited[0]);
    }

    @Test
    void bitCountOutsideTheRangeIsRefused() {
        assertEquals("bit count is 0; it must be within [1, 2^62]", assertThrows(IllegalArgumentException.class,
                () -> STRATEGY.forEachIndex(1, 2, 3, 0, i -> true)).getMessage());
        assertEquals("bit count is " + ((1L << 62) + 1) + "; it must be within [1, 2^62]",
                assertThrows(IllegalArgumentException.class,
                        () -> STRATEGY.forEachIndex(1, 2, 3, (1L << 62) + 1, i -> true)).getMessage());
    }

    @Test
    void strategiesAreFoundById() {
        assertEquals(STRATEGY, IndexStrategy.forId(1));
        assertEquals("index strategy id is 9; the known ids are 1 (enhanced double hashing)",
                assertThrows(IllegalArgumentException.class, () -> IndexStrategy.forId(9)).getMessage());
    }

    private static BigInteger exactReduce(long h, long m) {
        BigInteger unsigned = new BigInteger(Long.toUnsignedString(h));
        return unsigned.multiply(BigInteger.valueOf(m)).shiftRight(64);
    }
}
