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
     * At 10 bits per item (λ = 51.2 items per 512-bit block) the best k is 6 or 7 and the rate about 0.957%, against
     * 0.819% for a classic filter of the same size: RocksDB's filter documentation gives 0.955% for FastLocalBloom at
     * 10 bits per key.
     */
    @Test
    void tenBitsPerItemMatchesRocksDbsFigure() {
        double blocked = BlockedBloomMath.falsePositiveRate(51.2, 6);
        assertEquals(0.00958, blocked, 0.00005);
        assertEquals(0.00819, BloomMath.falsePositiveRate(1000, 10_000, 7), 0.00001);
        assertTrue(blocked > BloomMath.falsePositiveRate(1000, 10_000, 6));
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

    /** One item in one block with k probes: the rate is 1 - (1 - 1/512)^k ... averaged over Poisson(λ) loads. */
    @Test
    void aSingleLoadTermIsTheClassicRateOfOneBlock() {
        // λ tiny: the sum is dominated by i = 1, Poisson(1; λ) ≈ λ, inner (1 - (511/512)^k)^k.
        double lambda = 1e-6;
        double inner = Math.pow(1 - Math.pow(511.0 / 512, 3), 3);
        assertEquals(lambda * inner, BlockedBloomMath.falsePositiveRate(lambda, 3), lambda * inner * 1e-5);
        assertEquals(0.0, BlockedBloomMath.falsePositiveRate(0, 3));
    }

    @Test
    void sizingForOnePercentUsesSixProbes() {
        double load = BlockedBloomMath.elementsPerBlockFor(0.01);
        assertEquals(9.90, 512 / load, 0.01);
        assertEquals(6, BlockedBloomMath.optimalHashFunctionCount(load));
        BlockedBloomFilter<Long> filter = BlockedBloomFilter.create(KeyEncoder.longs(), 1_000_000, 0.01);
        assertEquals(6, filter.hashFunctionCount());
        assertTrue(filter.falsePositiveRate(1_000_000) <= 0.01);
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
