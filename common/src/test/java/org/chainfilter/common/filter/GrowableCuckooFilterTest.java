package org.chainfilter.common.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.chainfilter.common.bloom.KeyEncoder;
import org.junit.jupiter.api.Test;

class GrowableCuckooFilterTest {

    /** From 1,000 to 256,000 items the filter grows, loses nothing and stays under P = 1%. */
    @Test
    void growsWithoutLosingItemsAndKeepsTheBound() {
        GrowableCuckooFilter<Long> filter = GrowableCuckooFilter.create(KeyEncoder.longs(), 1_000, 0.01);
        long n = 256_000;
        for (long i = 0; i < n; i++) {
            filter.put(i);
        }
        assertTrue(filter.tableCount() >= 6, "tables: " + filter.tableCount());
        for (long i = 0; i < n; i++) {
            assertTrue(filter.mightContain(i), "lost " + i);
        }
        long falsePositives = 0;
        for (long i = 0; i < 1_000_000; i++) {
            if (filter.mightContain((1L << 40) + i)) {
                falsePositives++;
            }
        }
        double measured = falsePositives / 1e6;
        assertTrue(measured <= 0.01, "measured " + measured);
        assertTrue(filter.expectedFpp() <= 0.01, "expectedFpp " + filter.expectedFpp());
        assertEquals(n, filter.approximateElementCount());
        long ambiguous = 0;
        for (long i = 0; i < n; i += 2) {
            if (!filter.remove(i)) {
                ambiguous++;
            }
        }
        assertTrue(ambiguous < 0.01 * n / 2, "ambiguous removes: " + ambiguous);
        assertEquals(n - n / 2 + ambiguous, filter.approximateElementCount());
        for (long i = 1; i < n; i += 2) {
            assertTrue(filter.mightContain(i), "lost after removes " + i);
        }
    }

    /**
     * Puts of one item do not grow the filter: the ninth copy is refused in the newest table (found by a review: 100
     * puts of one key opened 12 tables, 23 MB for a filter sized for 1,000 items, and more ran out of memory).
     */
    @Test
    void repeatedPutsOfOneItemDoNotGrowTheFilter() {
        GrowableCuckooFilter<Long> filter = GrowableCuckooFilter.create(KeyEncoder.longs(), 1_000, 0.01);
        int refused = 0;
        for (int i = 0; i < 100; i++) {
            try {
                filter.put(42L);
            } catch (FilterFullException e) {
                refused++;
            }
        }
        assertEquals(92, refused);
        assertEquals(1, filter.tableCount());
        assertEquals(8, filter.approximateElementCount());
        for (long i = 0; i < 900; i++) {
            filter.put(i + 1000);
        }
        assertEquals(1, filter.tableCount());
    }

    @Test
    void eachTableHasOneMoreFingerprintBitAndTwiceTheBuckets() {
        GrowableCuckooFilter<Long> filter = GrowableCuckooFilter.create(KeyEncoder.longs(), 100, 0.01);
        for (long i = 0; i < 2_000; i++) {
            filter.put(i);
        }
        int f0 = CuckooFilter.fingerprintBitsFor(0.005);
        for (int i = 0; i < filter.tableCount(); i++) {
            assertEquals(f0 + i, filter.table(i).fingerprintBits());
            assertEquals(32L << i, filter.table(i).bucketCount());
        }
    }
}
