package org.chainfilter.common.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.chainfilter.common.bloom.KeyEncoder;
import org.chainfilter.common.math.BloomMath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class BlockedBloomMathTest {

    /**
     * At 10 bits per item (λ = 51.2 items per 512-bit block) with one probe in each of the 8 words the rate is 1.049%
     * (the Poisson sum computed apart, in Python), against 0.819% for a classic filter of the same size and 0.955% that
     * RocksDB's documentation gives for FastLocalBloom, whose 6 probes may fall anywhere in the block. With 7 probes a
     * word goes unused and the rate rises to 1.81%; with 16 to 3.61%.
     */
    @Test
    void tenBitsPerItem() {
        assertEquals(0.0104898, BlockedBloomMath.falsePositiveRate(51.2, 8), 1e-6);
        assertEquals(0.0180865, BlockedBloomMath.falsePositiveRate(51.2, 7), 1e-6);
        assertEquals(0.0361053, BlockedBloomMath.falsePositiveRate(51.2, 16), 1e-6);
        assertEquals(0.00819, BloomMath.falsePositiveRate(1000, 10_000, 7), 0.00001);
        assertEquals(8, BlockedBloomMath.optimalHashFunctionCount(51.2));
    }

    /**
     * A load beyond any real filter (2^63 items in one block) is answered at once with 1, not by a sum with a term per
     * item; just below the cut-off the sum itself gives 1 for every k (to its own rounding, 10^-9 over 33,000 terms), so
     * the cut-off changes no answer. (The timeout
     * only turns the old endless loop into a failure.)
     */
    @Test
    @Timeout(60)
    void anOverloadedFilterIsSaturatedWithoutSummingPerItem() {
        assertEquals(1.0, BlockedBloomMath.falsePositiveRate(1e15, 6));
        assertEquals(1.0, BlockedBloomFilter.withShape(KeyEncoder.longs(), 1, 24).falsePositiveRate(Long.MAX_VALUE));
        for (int k = 1; k <= BlockedBloomMath.MAX_HASH_FUNCTIONS; k++) {
            assertEquals(1.0, BlockedBloomMath.falsePositiveRate(Math.nextDown(BlockedBloomMath.SATURATED_LOAD), k), 1e-9);
            assertEquals(1.0, BlockedBloomMath.falsePositiveRate(BlockedBloomMath.SATURATED_LOAD, k));
        }
    }

    /**
     * One item in one block: a new item's probes must hit the one bit set in each word it probes, so with k = 3 (one
     * probe in each of words 0, 1, 2) the rate is (1/64)^3, times the chance λ of one item in the block.
     */
    @Test
    void aSingleLoadTermIsTheRateOfOneItemPerWord() {
        // λ tiny: the sum is dominated by i = 1, Poisson(1; λ) ≈ λ.
        double lambda = 1e-6;
        double inner = Math.pow(1.0 / 64, 3);
        assertEquals(lambda * inner, BlockedBloomMath.falsePositiveRate(lambda, 3), lambda * inner * 1e-5);
        assertEquals(0.0, BlockedBloomMath.falsePositiveRate(0, 3));
    }

    /**
     * Bits per item and k the sizing picks (figures from the same Python sum): 8 probes from a rate of 0.5 down to
     * 0.1%, 16 at 0.01% and 10^-6, 24 at 10^-9.
     */
    @Test
    void sizingPicksEightProbesForCommonRates() {
        double load = BlockedBloomMath.elementsPerBlockFor(0.01);
        assertEquals(10.10, 512 / load, 0.01);
        assertEquals(8, BlockedBloomMath.optimalHashFunctionCount(load));
        BlockedBloomFilter<Long> filter = BlockedBloomFilter.create(KeyEncoder.longs(), 1_000_000, 0.01);
        assertEquals(8, filter.hashFunctionCount());
        assertTrue(filter.falsePositiveRate(1_000_000) <= 0.01);
        double[][] expected = {{0.5, 3.23, 8}, {0.1, 5.88, 8}, {0.001, 15.72, 8}, {1e-4, 22.80, 16}, {1e-6, 38.85, 16},
            {1e-9, 80.25, 24}};
        for (double[] row : expected) {
            double perBlock = BlockedBloomMath.elementsPerBlockFor(row[0]);
            assertEquals(row[1], 512 / perBlock, 0.01, "bits per item at " + row[0]);
            assertEquals((int) row[2], BlockedBloomMath.optimalHashFunctionCount(perBlock), "k at " + row[0]);
        }
    }

    /**
     * A filter of few blocks: the items in a block are Binomial(n, 1/B), not Poisson(n/B), and the Poisson average
     * rated one block of 50 items at 0.935% where it measured 0.753% (-19%, 40 filters, 8 × 10^6 probes), two blocks
     * of 101 at 0.981% against 0.900%. The filter's a-priori rate averages over the binomial: one block holds exactly
     * n, so its rate is {@code Π_j (1 - (63/64)^{n c_j})^{c_j}}; many blocks agree with the Poisson form.
     */
    @Test
    void fewBlocksAverageOverTheBinomialLoad() {
        double oneBlock = -Math.expm1(50 * Math.log1p(-1.0 / 64));
        assertEquals(Math.pow(oneBlock, 8), BlockedBloomMath.falsePositiveRate(50, 1, 8), 1e-15);
        assertEquals(Math.pow(oneBlock, 8),
                BlockedBloomFilter.withShape(KeyEncoder.longs(), 1, 8).falsePositiveRate(50), 1e-15);
        double poisson = BlockedBloomMath.falsePositiveRate(51.2, 8);
        assertEquals(poisson, BlockedBloomMath.falsePositiveRate(51_200_000, 1_000_000, 8), poisson * 1e-5);
        assertEquals(0.0, BlockedBloomMath.falsePositiveRate(0, 3, 8));
        assertEquals(1.0, BlockedBloomMath.falsePositiveRate(Long.MAX_VALUE, 1, 8));
        java.util.SplittableRandom random = new java.util.SplittableRandom(3);
        for (int blocks : new int[] {1, 2, 4}) {
            long n = 50 * blocks;
            long positives = 0;
            for (int filters = 0; filters < 20; filters++) {
                BlockedBloomFilter<Long> filter = BlockedBloomFilter.withShape(KeyEncoder.longs(), blocks, 8);
                for (long i = 0; i < n; i++) {
                    filter.putLong(random.nextLong());
                }
                for (int i = 0; i < 200_000; i++) {
                    positives += filter.mightContainLong(random.nextLong()) ? 1 : 0;
                }
            }
            double measured = positives / 4e6;
            double formula = BlockedBloomFilter.withShape(KeyEncoder.longs(), blocks, 8).falsePositiveRate(n);
            assertEquals(formula, measured, 0.1 * formula, blocks + " blocks of " + n + " items");
        }
        var e = assertThrows(IllegalArgumentException.class, () -> BlockedBloomMath.falsePositiveRate(-1, 3, 8));
        assertEquals("element count is -1; it must not be negative", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> BlockedBloomMath.falsePositiveRate(1, 0, 8));
        assertEquals("block count is 0; it must be at least 1", e.getMessage());
    }

    /**
     * An infinite load is refused like a negative one or NaN, not rated 1 as a saturated filter: without the check of
     * infinity it passed every test (from a mutation review).
     */
    @Test
    void aLoadThatIsNotAFiniteNumberIsRefused() {
        for (double load : new double[] {Double.POSITIVE_INFINITY, Double.NaN}) {
            var e = assertThrows(IllegalArgumentException.class, () -> BlockedBloomMath.falsePositiveRate(load, 8));
            assertEquals("elements per block is " + load + "; it must be a finite number >= 0", e.getMessage());
        }
    }

    /**
     * Where every k gives the same rate (no items: 0; a saturated load: 1) the best k is the fewest probes, 1, not
     * the last k tried: taking a tie passed every test (from a mutation review).
     */
    @Test
    void aLoadThatEveryKRatesAlikeTakesOneProbe() {
        assertEquals(1, BlockedBloomMath.optimalHashFunctionCount(0));
        assertEquals(1, BlockedBloomMath.optimalHashFunctionCount(BlockedBloomMath.SATURATED_LOAD));
        assertEquals(1, BlockedBloomMath.optimalHashFunctionCount(5_000));
    }

    @Test
    void badArgumentsAreRefused() {
        var e = assertThrows(IllegalArgumentException.class, () -> BlockedBloomMath.falsePositiveRate(-1, 3));
        assertEquals("elements per block is -1.0; it must be a finite number >= 0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> BlockedBloomMath.falsePositiveRate(3, 0));
        assertEquals("hash function count is 0; a blocked filter takes 1 to 24", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> BlockedBloomMath.elementsPerBlockFor(0));
        assertEquals("false-positive rate is 0.0; a blocked filter supports rates in [1e-9, 0.5]", e.getMessage());
    }
}
