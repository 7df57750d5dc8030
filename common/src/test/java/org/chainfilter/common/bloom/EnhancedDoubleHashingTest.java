package org.chainfilter.common.bloom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.chainfilter.common.hash.Murmur3;
import org.junit.jupiter.api.Test;

class EnhancedDoubleHashingTest {
    private static final EnhancedDoubleHashing STRATEGY = EnhancedDoubleHashing.INSTANCE;

    private static long[] positions(long h1, long h2, int k, long m) {
        return IndexStrategyChecks.positions(STRATEGY, h1, h2, k, m);
    }

    @Test
    void badArgumentsAreRefused() {
        IndexStrategyChecks.badArgumentsAreRefused(STRATEGY);
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

    @Test
    void specialisedMembershipAndInsertionMatchTheDefaults() {
        IndexStrategyChecks.specialisedMembershipAndInsertionMatchTheDefaults(STRATEGY);
    }

    @Test
    void setAllCountsARepeatedPositionOnceAndWalksStopAtTheFirstRefusal() {
        IndexStrategyChecks.setAllCountsARepeatedPositionOnceAndWalksStopAtTheFirstRefusal(STRATEGY);
    }

    @Test
    void strategiesAreFoundById() {
        assertEquals(STRATEGY, IndexStrategy.forId(1));
        assertEquals("index strategy id is 9; the known ids are 1 (enhanced double hashing) and 2 (congruential"
                + " hashing)",
                assertThrows(IllegalArgumentException.class, () -> IndexStrategy.forId(9)).getMessage());
    }

    private static BigInteger exactReduce(long h, long m) {
        BigInteger unsigned = new BigInteger(Long.toUnsignedString(h));
        return unsigned.multiply(BigInteger.valueOf(m)).shiftRight(64);
    }
}
