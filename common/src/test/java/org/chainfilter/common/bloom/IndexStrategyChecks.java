package org.chainfilter.common.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.function.LongPredicate;
import org.chainfilter.common.bits.LongArrayBitStore;

/** What every built-in index strategy does alike, checked once for each by its own test class. */
final class IndexStrategyChecks {
    private IndexStrategyChecks() {
    }

    /** The {@code k} positions {@code forEachIndex} visits. */
    static long[] positions(IndexStrategy strategy, long h1, long h2, int k, long m) {
        long[] out = new long[k];
        int[] n = {0};
        assertTrue(strategy.forEachIndex(h1, h2, k, m, index -> {
            out[n[0]++] = index;
            return true;
        }));
        assertEquals(k, n[0]);
        return out;
    }

    /**
     * The specialised allSet/setAll agree with the generic defaults (reached through a strategy that only implements
     * forEachIndex) on a hand-checkable shape: m = 1001 (not a multiple of 64), k = 17.
     */
    static void specialisedMembershipAndInsertionMatchTheDefaults(IndexStrategy strategy) {
        IndexStrategy generic = new IndexStrategy() {
            @Override
            public int id() {
                return 99;
            }

            @Override
            public boolean forEachIndex(long h1, long h2, int k, long m, LongPredicate position) {
                return strategy.forEachIndex(h1, h2, k, m, position);
            }
        };
        SplittableRandom random = new SplittableRandom(13);
        LongArrayBitStore fast = new LongArrayBitStore(1001);
        LongArrayBitStore slow = new LongArrayBitStore(1001);
        for (int i = 0; i < 300; i++) {
            long h1 = random.nextLong();
            long h2 = random.nextLong();
            assertEquals(generic.allSet(h1, h2, 17, slow), strategy.allSet(h1, h2, 17, fast));
            assertEquals(generic.setAll(h1, h2, 17, slow), strategy.setAll(h1, h2, 17, fast));
            assertTrue(strategy.allSet(h1, h2, 17, fast));
            assertEquals(slow, fast);
        }
        assertEquals(fast.cardinality(), slow.cardinality());
    }

    /** m = 1: all 17 positions are bit 0, set once; and a walk stops at the first position its caller refuses. */
    static void setAllCountsARepeatedPositionOnceAndWalksStopAtTheFirstRefusal(IndexStrategy strategy) {
        LongArrayBitStore one = new LongArrayBitStore(1);
        assertFalse(strategy.allSet(5, 6, 17, one));
        assertEquals(1, strategy.setAll(5, 6, 17, one));
        assertEquals(0, strategy.setAll(7, 8, 17, one));
        assertTrue(strategy.allSet(9, 10, 17, one));
        int[] visited = {0};
        assertFalse(strategy.forEachIndex(1, 2, 7, 100, index -> ++visited[0] < 3));
        assertEquals(3, visited[0]);
    }

    /**
     * k below 1 is refused by every walk, leaving the store as it was (it used to visit, test or set one position:
     * found by a review), and a bit count outside [1, 2^62].
     */
    static void badArgumentsAreRefused(IndexStrategy strategy) {
        LongArrayBitStore bits = new LongArrayBitStore(100);
        for (int k : new int[] {0, -5}) {
            var ask = assertThrows(IllegalArgumentException.class, () -> strategy.forEachIndex(1, 2, k, 100, i -> true));
            assertEquals("k is " + k + "; it must be at least 1", ask.getMessage());
            assertThrows(IllegalArgumentException.class, () -> strategy.allSet(1, 2, k, bits));
            assertThrows(IllegalArgumentException.class, () -> strategy.setAll(1, 2, k, bits));
        }
        assertEquals(0, bits.cardinality());
        assertEquals("bit count is 0; it must be within [1, 2^62]", assertThrows(IllegalArgumentException.class,
                () -> strategy.forEachIndex(1, 2, 3, 0, i -> true)).getMessage());
        assertEquals("bit count is " + ((1L << 62) + 1) + "; it must be within [1, 2^62]",
                assertThrows(IllegalArgumentException.class,
                        () -> strategy.forEachIndex(1, 2, 3, (1L << 62) + 1, i -> true)).getMessage());
    }
}
