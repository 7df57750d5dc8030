package org.chainfilter.common.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.chainfilter.common.bloom.KeyEncoder;
import org.chainfilter.common.math.Shape;
import org.junit.jupiter.api.Test;

class FamilyEstimatesTest {
    /** A filter of one bit: one put fills it, so its Swamidass–Baldi count is unbounded. */
    private static BloomFilter<Long> full() {
        BloomFilter<Long> filter = BloomFilter.create(KeyEncoder.longs(), Shape.of(1, 1));
        filter.put(7L);
        return filter;
    }

    @Test
    void classicEstimatesOfAHandCheckableFill() {
        Shape shape = Shape.of(100, 3);
        assertEquals(0.001, FamilyEstimates.classicFpp(10, shape), 1e-15);
        // -(100/3) ln(1 - 10/100) = 3.512...
        assertEquals(4, FamilyEstimates.classicElementCount(10, shape));
        assertEquals(Long.MAX_VALUE, FamilyEstimates.classicElementCount(100, shape));
    }

    @Test
    void compoundRateIsOneMinusTheProductOfTheMembersNegatives() {
        BloomFilter<Long> empty = BloomFilter.create(KeyEncoder.longs(), Shape.of(64, 2));
        assertEquals(0, FamilyEstimates.compoundFpp(List.of(empty, empty)));
        assertEquals(1, FamilyEstimates.compoundFpp(List.of(empty, full())));
        BloomFilter<Long> half = BloomFilter.create(KeyEncoder.longs(), Shape.of(2, 1));
        for (long i = 0; half.setBitCount() < 1; i++) {
            half.put(i);
        }
        assertEquals(1 - 0.5 * 0.5, FamilyEstimates.compoundFpp(List.of(half, half)), 1e-15);
    }

    /** A full member reports Long.MAX_VALUE; adding another member's count must not wrap to a negative count. */
    @Test
    void summedCountSaturatesInsteadOfOverflowing() {
        BloomFilter<Long> one = BloomFilter.create(KeyEncoder.longs(), Shape.of(1_000, 3));
        one.put(1L);
        assertEquals(1, one.approximateElementCount());
        assertEquals(2, FamilyEstimates.summedElementCount(List.of(one, one)));
        assertEquals(Long.MAX_VALUE, FamilyEstimates.summedElementCount(List.of(full(), one)));
        assertEquals(Long.MAX_VALUE, FamilyEstimates.summedElementCount(List.of(one, full(), full())));
    }
}
