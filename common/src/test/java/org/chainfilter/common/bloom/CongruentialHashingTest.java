package org.chainfilter.common.bloom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.chainfilter.common.hash.Murmur3;
import org.junit.jupiter.api.Test;

class CongruentialHashingTest {
    private static final CongruentialHashing STRATEGY = CongruentialHashing.INSTANCE;

    private static long[] positions(long h1, long h2, int k, long m) {
        return IndexStrategyChecks.positions(STRATEGY, h1, h2, k, m);
    }

    /**
     * h1 = h2 = 0: the states are 0, 1 (the increment h2 | 1), M + 1 = 0xd1342543de82ef96 and
     * (M + 1) M + 1 = 0x82edf9c07e0e7c4f, whose high parts floor(a 10 / 2^64) are 0, 0, 8 and 5.
     */
    @Test
    void handComputedSequence() {
        assertArrayEquals(new long[] {0, 0, 8, 5}, Arrays.copyOf(positions(0, 0, 5, 10), 4));
    }

    /** The positions are the class comment's recurrence, computed here in exact arithmetic, for m up to 2^62. */
    @Test
    void matchesTheRecurrenceInExactArithmetic() {
        SplittableRandom random = new SplittableRandom(11);
        BigInteger twoTo64 = BigInteger.ONE.shiftLeft(64);
        BigInteger multiplier = new BigInteger("d1342543de82ef95", 16);
        for (long m : new long[] {1, 2, 3, 63, 64, 65, 1000, 9586, (1L << 33) + 7, 1L << 62}) {
            for (int trial = 0; trial < 50; trial++) {
                long h1 = random.nextLong();
                long h2 = random.nextLong();
                int k = 1 + random.nextInt(40);
                BigInteger state = new BigInteger(Long.toUnsignedString(h1));
                BigInteger increment = new BigInteger(Long.toUnsignedString(h2 | 1));
                long[] expected = new long[k];
                for (int i = 0; i < k; i++) {
                    expected[i] = state.multiply(BigInteger.valueOf(m)).shiftRight(64).longValueExact();
                    state = state.multiply(multiplier).add(increment).mod(twoTo64);
                }
                assertArrayEquals(expected, positions(h1, h2, k, m), "m=" + m + " k=" + k);
            }
        }
    }

    /**
     * Golden: a change to the index sequence would break every stored filter, so it must fail this test. Computed
     * outside Java (Python: MurmurHash3 x64_128 of "chainfilter" and the recurrence of the class comment).
     */
    @Test
    void goldenPositionsForSeventeenHashesOverAnOddBitCount() {
        long[] hash = Murmur3.x64_128(0, "chainfilter".getBytes(StandardCharsets.US_ASCII));
        assertEquals("[556, 978, 356, 419, 121, 45, 868, 849, 436, 418, 736, 586, 8, 817, 487, 151, 609]",
                Arrays.toString(positions(hash[0], hash[1], 17, 1001)));
    }

    @Test
    void specialisedMembershipAndInsertionMatchTheDefaults() {
        IndexStrategyChecks.specialisedMembershipAndInsertionMatchTheDefaults(STRATEGY);
    }

    @Test
    void setAllCountsARepeatedPositionOnceAndWalksStopAtTheFirstRefusal() {
        IndexStrategyChecks.setAllCountsARepeatedPositionOnceAndWalksStopAtTheFirstRefusal(STRATEGY);
    }

    @Test
    void badArgumentsAreRefused() {
        IndexStrategyChecks.badArgumentsAreRefused(STRATEGY);
    }

    @Test
    void isFoundById() {
        assertSame(STRATEGY, IndexStrategy.forId(2));
        assertEquals("CongruentialHashing", STRATEGY.toString());
    }
}
