package org.chainfilter.common.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.chainfilter.common.Hex;
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

    /**
     * A filter whose first table holds a few items starts with tables of 1, 2, 4 ... buckets, whose rates dominate the
     * compound one; each reported the rate of 8 slots per query where a table of B buckets meets 8 - 4/B on average,
     * so grown to 10,000 items the filter reported 0.45% and measured 0.29% (P = 1%, n0 = 1).
     */
    @Test
    void aFilterGrownFromOneBucketReportsTheRateItMeasures() {
        GrowableCuckooFilter<Long> filter = GrowableCuckooFilter.create(KeyEncoder.longs(), 1, 0.01);
        for (long i = 0; i < 10_000; i++) {
            filter.put(i);
        }
        assertEquals(1, filter.table(0).bucketCount());
        long positives = 0;
        long probes = 1_000_000;
        for (long i = 0; i < probes; i++) {
            positives += filter.mightContain((1L << 40) + i) ? 1 : 0;
        }
        double measured = positives / (double) probes;
        assertEquals(filter.expectedFpp(), measured, 0.15 * filter.expectedFpp(), filter.toString());
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

    /**
     * Both ends of the documented range of rates, [2e-8, 0.5], make a filter (first tables of 31- and 6-bit
     * fingerprints, sized for P / 2) that grows, holds its items and reads back. At 2e-8 the second table's 32 bits are
     * the most, so 30 items (two tables of 4 and 8 buckets) are about what it holds. Refusing 0.5 passed every test
     * (from a mutation review).
     */
    @Test
    void theEndsOfTheRateRangeAreTaken() throws Exception {
        for (double rate : new double[] {2e-8, 0.5}) {
            GrowableCuckooFilter<Long> filter = GrowableCuckooFilter.create(KeyEncoder.longs(), 10, rate);
            assertEquals(rate == 0.5 ? 6 : 31, filter.table(0).fingerprintBits());
            for (long key = 0; key < 30; key++) {
                filter.put(key);
            }
            assertEquals(2, filter.tableCount());
            GrowableCuckooFilter<Long> back = GrowableCuckooFilter.readFrom(
                    new ByteArrayInputStream(filter.toByteArray()), KeyEncoder.longs(), 1 << 20);
            assertEquals(filter, back);
            for (long key = 0; key < 30; key++) {
                assertTrue(back.mightContain(key), "P = " + rate + ", key " + key);
            }
        }
    }

    /**
     * The reader checks each table's fingerprint size against P as well as its bucket count: a form whose first table
     * has 11-bit fingerprints where P = 1% gives 12 (a smaller table, so within the bound the reader gives it) is
     * refused. Checking the bucket count alone passed every test (from a mutation review).
     */
    @Test
    void readerRefusesATableWhoseFingerprintSizeIsNotTheOnePGives() {
        byte[] form = GrowableCuckooFilter.create(KeyEncoder.longs(), 10, 0.01).toByteArray();
        int f = FamilyBinaryForm.CHAIN_HEADER_BYTES + FamilyBinaryForm.HEADER_BYTES;
        assertEquals(12, form[f]);
        form[f] = 11;
        var e = assertThrows(IllegalArgumentException.class, () -> GrowableCuckooFilter.readFrom(
                new ByteArrayInputStream(form), KeyEncoder.longs(), 1000));
        assertEquals("table 0 has 4 buckets of 11 bits; P = 0.01 and capacity 10 give 4 of 12", e.getMessage());
    }

    /**
     * A table with fewer buckets than P and the capacity give (within the size the header allows) is refused. Comparing
     * only its fingerprint size passed every test (from a mutation review).
     */
    @Test
    void readerRefusesATableWithFewerBucketsThanTheCapacityGives() throws IOException {
        ByteArrayOutputStream form = new ByteArrayOutputStream();
        form.write(GrowableCuckooFilter.create(KeyEncoder.longs(), 10, 0.01).toByteArray(), 0,
                FamilyBinaryForm.CHAIN_HEADER_BYTES);
        CuckooFilter.withShape(KeyEncoder.longs(), 2, 12).writeTo(form);
        var e = assertThrows(IllegalArgumentException.class, () -> GrowableCuckooFilter.readFrom(
                new ByteArrayInputStream(form.toByteArray()), KeyEncoder.longs(), 1000));
        assertEquals("table 0 has 2 buckets of 12 bits; P = 0.01 and capacity 10 give 4 of 12", e.getMessage());
    }

    /**
     * Equality covers the initial capacity, which the binary form holds: capacities 10 and 11 both make a first table
     * of 4 buckets, yet the filters are different (their forms differ). Leaving the capacity out of equals passed every
     * test (from a mutation review).
     */
    @Test
    void filtersOfAnotherInitialCapacityAreNotEqualEvenWithEqualTables() {
        GrowableCuckooFilter<Long> ten = GrowableCuckooFilter.create(KeyEncoder.longs(), 10, 0.01);
        GrowableCuckooFilter<Long> eleven = GrowableCuckooFilter.create(KeyEncoder.longs(), 11, 0.01);
        assertEquals(ten.table(0), eleven.table(0));
        assertNotEquals(ten, eleven);
    }

    /**
     * clear drops the tables the filter grew and empties the first: the cleared filter equals a new one. Keeping the
     * later tables (only the first emptied, so their items were still found) passed every test, the contract clearing
     * a filter that never grew (from a mutation review).
     */
    @Test
    void clearDropsTheTablesTheFilterGrew() {
        GrowableCuckooFilter<Long> filter = GrowableCuckooFilter.create(KeyEncoder.longs(), 1, 0.01);
        long keys = 0;
        while (filter.tableCount() < 3) {
            filter.put(keys++);
        }
        filter.clear();
        assertEquals(1, filter.tableCount());
        for (long key = 0; key < keys; key++) {
            assertFalse(filter.mightContain(key), "key " + key);
        }
        assertEquals(GrowableCuckooFilter.create(KeyEncoder.longs(), 1, 0.01), filter);
    }

    /**
     * A form whose later tables would need more than 32-bit fingerprints is refused by its header, before a table is
     * read: at P = 2e-8 the first table has 31 bits, so a third table would have 33. Checking only the bucket count
     * there left the refusal to the stream's end or to the table's own reader (from a mutation review).
     */
    @Test
    void readerRefusesAChainWhoseTablesWouldPassThirtyTwoBits() {
        String header = "4346464d0601" + Long.toHexString(Double.doubleToLongBits(2e-8)) + "0000000000000001" + "03";
        var e = assertThrows(IllegalArgumentException.class, () -> GrowableCuckooFilter.readFrom(
                new ByteArrayInputStream(Hex.decode(header)), KeyEncoder.longs(), Long.MAX_VALUE));
        assertEquals("table 2 would have 4 buckets of 33-bit fingerprints, past the limits of 1073741824 buckets and 32"
                + " bits", e.getMessage());
    }
}
