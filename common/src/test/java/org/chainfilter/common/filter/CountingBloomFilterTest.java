package org.chainfilter.common.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.chainfilter.common.bloom.KeyEncoder;
import org.chainfilter.common.math.Shape;
import org.junit.jupiter.api.Test;

class CountingBloomFilterTest {

    @Test
    void removedItemsGoAndTheRestStay() {
        CountingBloomFilter<Long> filter = CountingBloomFilter.create(KeyEncoder.longs(), 100_000, 0.01);
        for (long i = 0; i < 100_000; i++) {
            filter.put(i);
        }
        for (long i = 0; i < 100_000; i += 2) {
            assertTrue(filter.remove(i));
        }
        long stillThere = 0;
        for (long i = 0; i < 100_000; i++) {
            if (i % 2 == 1) {
                assertTrue(filter.mightContain(i), "false negative for " + i);
            } else if (filter.mightContain(i)) {
                stillThere++;
            }
        }
        // The removed half now answers like never-put items: about the rate of a half-full filter.
        double rate = stillThere / 50_000.0;
        assertTrue(rate < 0.002, "removed items still found at rate " + rate);
    }

    @Test
    void removingAnItemNeverPutIsRefusedWhenACounterIsZero() {
        CountingBloomFilter<Long> filter = CountingBloomFilter.create(KeyEncoder.longs(), 1_000, 0.01);
        filter.put(1L);
        byte[] before = filter.toByteArray();
        assertFalse(filter.remove(2L));
        assertEquals(org.chainfilter.common.Hex.encode(before), org.chainfilter.common.Hex.encode(filter.toByteArray()));
        assertTrue(filter.remove(1L));
        assertFalse(filter.remove(1L), "a second remove of the only copy");
        assertFalse(filter.mightContain(1L));
    }

    /** One counter, k = 3: every position is counter 0, hit three times per put. */
    @Test
    void aCounterHitSeveralTimesMustHoldThatManyCounts() {
        CountingBloomFilter<Long> filter = CountingBloomFilter.withShape(KeyEncoder.longs(), Shape.of(1, 3));
        filter.put(5L);
        assertEquals(3, filter.counter(0));
        assertTrue(filter.remove(5L));
        assertEquals(0, filter.counter(0));
        filter.put(5L);
        assertTrue(filter.remove(6L)); // indistinguishable from 5: a false positive, removed as documented
        assertFalse(filter.remove(5L));
    }

    /**
     * The class comment's second refusal: a counter that the item hits {@code j} times but that holds fewer than
     * {@code j} counts (and is not saturated) proves the item absent, so {@code remove} returns {@code false} and
     * changes nothing. With one counter and k = 3 every item hits counter 0 three times; a form holding 1 there (the
     * documented layout: counter 0 in the low nibble of the last word) has every counter non-zero, so only this rule
     * can refuse. Removing on the non-zero test alone passed every test (from a mutation review).
     */
    @Test
    void aCounterHoldingFewerCountsThanItsHitsRefusesTheRemove() throws Exception {
        CountingBloomFilter<Long> filter = CountingBloomFilter.withShape(KeyEncoder.longs(), Shape.of(1, 3));
        filter.put(5L);
        byte[] form = filter.toByteArray();
        assertEquals(3, form[form.length - 1]);
        form[form.length - 1] = 1;
        CountingBloomFilter<Long> one = CountingBloomFilter.readFrom(
                new java.io.ByteArrayInputStream(form), KeyEncoder.longs(), 1_000);
        assertEquals(1, one.counter(0));
        assertTrue(one.mightContain(5L));
        assertFalse(one.remove(5L), "3 hits on a counter holding 1");
        assertEquals(1, one.counter(0), "a refused remove changed the counter");
        form[form.length - 1] = 2;
        CountingBloomFilter<Long> two = CountingBloomFilter.readFrom(
                new java.io.ByteArrayInputStream(form), KeyEncoder.longs(), 1_000);
        assertFalse(two.remove(5L), "3 hits on a counter holding 2");
        assertEquals(2, two.counter(0));
    }

    /** The saturation rule: a counter at 15 stays 15, so items sharing it are never lost. */
    @Test
    void aSaturatedCounterIsNeverDecremented() {
        CountingBloomFilter<Long> filter = CountingBloomFilter.withShape(KeyEncoder.longs(), Shape.of(1, 1));
        for (long i = 0; i < 20; i++) {
            filter.put(i);
        }
        assertEquals(15, filter.counter(0));
        for (long i = 0; i < 19; i++) {
            assertTrue(filter.remove(i));
        }
        assertEquals(15, filter.counter(0));
        assertTrue(filter.mightContain(19L), "the last item must still be found");
    }

    /**
     * A saturated counter holds an unknown count, so it never proves an item absent, however many times the item hits
     * it: with one counter and k = 16, a put leaves it at 15 (saturated) and its remove succeeds, leaving it at 15.
     * Refusing because 15 is below the 16 hits passed every test (from a mutation review).
     */
    @Test
    void aSaturatedCounterNeverRefusesARemove() {
        CountingBloomFilter<Long> filter = CountingBloomFilter.withShape(KeyEncoder.longs(), Shape.of(1, 16));
        assertTrue(filter.put(5L));
        assertEquals(15, filter.counter(0));
        assertTrue(filter.remove(5L), "16 hits on a saturated counter");
        assertEquals(15, filter.counter(0));
        assertTrue(filter.mightContain(5L));
    }

    @Test
    void putReportsWhetherTheItemWasCertainlyNew() {
        CountingBloomFilter<Long> filter = CountingBloomFilter.create(KeyEncoder.longs(), 1_000, 0.01);
        assertTrue(filter.put(3L));
        assertFalse(filter.put(3L));
        assertEquals(2, filter.counter(firstPosition(filter)));
    }

    /**
     * {@code put} answers whether any of the item's counters was 0, not only the last one it touched: over 200 items
     * put into copies of a filter about a third full, the answer is checked against the counters that went up from 0.
     * Keeping only the last counter's answer passed every test (from a mutation review).
     */
    @Test
    void putIsTrueWhenAnyOfTheItemsCountersWasZero() {
        CountingBloomFilter<Long> filter = CountingBloomFilter.withShape(KeyEncoder.longs(), Shape.of(64, 4));
        for (long key = 0; key < 6; key++) {
            filter.put(key);
        }
        int answeredNew = 0;
        for (long key = 100; key < 300; key++) {
            CountingBloomFilter<Long> copy = filter.copy();
            boolean anyWasZero = false;
            boolean put = copy.put(key);
            for (long cell = 0; cell < 64; cell++) {
                anyWasZero |= filter.counter(cell) == 0 && copy.counter(cell) != 0;
            }
            assertEquals(anyWasZero, put, "key " + key);
            answeredNew += put ? 1 : 0;
        }
        assertTrue(answeredNew > 100 && answeredNew < 200, "new " + answeredNew + " of 200");
    }

    private static long firstPosition(CountingBloomFilter<Long> filter) {
        for (long cell = 0; ; cell++) {
            if (filter.counter(cell) != 0) {
                return cell;
            }
        }
    }

    @Test
    void nonZeroCountFoldsEveryNibble() {
        FourBitCells cells = new FourBitCells(40);
        for (long c = 0; c < 40; c += 3) {
            for (int i = 0; i <= c % 16; i++) {
                cells.increment(c);
            }
        }
        assertEquals(14, cells.nonZeroCount());
        for (long c = 0; c < 40; c++) {
            assertEquals(c % 3 == 0 ? Math.min(15, c % 16 + 1) : 0, cells.get(c), "cell " + c);
        }
    }
}
