package org.chainfilter.common.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import org.chainfilter.common.Hex;
import org.chainfilter.common.bloom.KeyEncoder;
import org.junit.jupiter.api.Test;

class ScalableBloomFilterTest {

    /** Almeida et al.'s promise: from 1,000 to 1,000,000 items (1,000x) the measured rate stays under P = 1%. */
    @Test
    void rateStaysUnderTheBoundAsTheFilterGrowsAThousandfold() {
        ScalableBloomFilter<Long> filter = ScalableBloomFilter.create(KeyEncoder.longs(), 1_000, 0.01);
        fillAndCheckTheBound(filter, 1_000, 10_000, 100_000, 1_000_000);
        // 1000 (2^10 - 1) = 1,023,000 >= 10^6: ten stages.
        assertEquals(10, filter.stageCount());
    }

    /**
     * The bound holds for first stages of a handful of items too, where a stage of a few dozen bits has a rate far from
     * the classic formula's: stages fill by their set bits, not by a count. The rule this replaced measured 4.4% at
     * P = 1% with n0 = 1 (1,000 items) and 1.25% with n0 = 2 (10^6 items).
     */
    @Test
    void smallFirstStagesKeepTheBound() {
        for (long n0 : new long[] {1, 2, 5, 30}) {
            fillAndCheckTheBound(ScalableBloomFilter.create(KeyEncoder.longs(), n0, 0.01), 1, 10, 1_000, 20_000);
        }
    }

    /**
     * The bound holds at 0.1% too, where the first stages are a few dozen bits with k = 12 or 13. With enhanced double
     * hashing, whose m^2 position sequences put a floor of about n/m^2 under each stage's rate, it did not: measured
     * 0.22% with n0 = 1, 0.24% with n0 = 2, 0.17% with n0 = 5, and 0.13% with n0 = 10 at 10^5 items.
     */
    @Test
    void smallFirstStagesKeepALowBound() {
        for (long n0 : new long[] {1, 2, 5}) {
            fillAndCheckTheBound(ScalableBloomFilter.create(KeyEncoder.longs(), n0, 0.001), 10, 100, 1_000, 10_000);
        }
    }

    /**
     * Puts keys 0, 1, ... up to each target in turn; at each, the rate measured on 400,000 keys never put and
     * {@code expectedFpp} are at most the bound P. Then every key put is found.
     */
    private static void fillAndCheckTheBound(ScalableBloomFilter<Long> filter, long... targets) {
        long put = 0;
        for (long target : targets) {
            while (put < target) {
                filter.put(put++);
            }
            long probes = 400_000;
            long falsePositives = 0;
            for (long i = 0; i < probes; i++) {
                falsePositives += filter.mightContain((1L << 40) + i) ? 1 : 0;
            }
            double measured = (double) falsePositives / probes;
            String where = target + " items, " + filter;
            double bound = filter.falsePositiveRateBound();
            assertTrue(measured <= bound, "measured " + measured + " at " + where);
            assertTrue(filter.expectedFpp() <= bound, "expectedFpp " + filter.expectedFpp() + " at " + where);
        }
        for (long i = 0; i < put; i++) {
            assertTrue(filter.mightContain(i));
        }
    }

    /**
     * The golden filter of the contract test, rebuilt from classic filters: stage 0 (m = 17, k = 6, 2 items at 2%)
     * may take an item while at most 17 * 0.02^(1/6) - 6 = 2.86 bits are set, so key 1 (6 bits) fills it; stage 1
     * (m = 35, k = 6, limit 11.57) takes keys 2, 3 and 4; stage 2 (m = 73, k = 6) keys 5 and -1.
     */
    @Test
    void stagesFillByTheirSetBits() {
        ScalableBloomFilter<Long> filter = ScalableBloomFilter.create(KeyEncoder.longs(), 2, 0.1);
        for (long key : new long[] {1, 2, 3, 4, 5, -1}) {
            assertTrue(filter.put(key));
        }
        long[][] stageKeys = {{1}, {2, 3, 4}, {5, -1}};
        StringBuilder expected = new StringBuilder("4346464d0201" + "3fb999999999999a" + "0000000000000002" + "03");
        for (int i = 0; i < stageKeys.length; i++) {
            BloomFilter<Long> stage = BloomFilter.create(KeyEncoder.longs(), ScalableBloomFilter.stageShape(2, 0.1, i));
            for (long key : stageKeys[i]) {
                stage.put(key);
            }
            expected.append(Hex.encode(stage.toByteArray()));
        }
        assertEquals(expected.toString(), Hex.encode(filter.toByteArray()));
        assertEquals(2.857, ScalableBloomFilter.fillLimit(ScalableBloomFilter.stageShape(2, 0.1, 0), 0.02), 1e-3);
    }

    /**
     * After {@link ScalableBloomFilter#clear} the first stage fills by its own limit again: in the example above stage
     * 0 (limit 2.86 bits) takes key 1 and key 2 opens stage 1. Keeping the limit of the last stage (stage 2, m = 73,
     * k = 6, {@code 73 * 0.0128^(1/6) - 6 = 29.3} bits) let the cleared first stage take keys 2, 3 and 4 past its
     * rate, and passed every test (from a mutation review).
     */
    @Test
    void afterClearTheFirstStageFillsByItsOwnLimit() {
        ScalableBloomFilter<Long> filter = ScalableBloomFilter.create(KeyEncoder.longs(), 2, 0.1);
        for (long key : new long[] {1, 2, 3, 4, 5, -1}) {
            assertTrue(filter.put(key));
        }
        assertEquals(3, filter.stageCount());
        filter.clear();
        assertTrue(filter.put(1L));
        assertEquals(1, filter.stageCount());
        assertTrue(filter.put(2L));
        assertEquals(2, filter.stageCount(), "the cleared first stage took a second key past its limit");
    }

    /**
     * The class comment: the fill rule reads only the stage's bits, so a filter read back from its binary form (or
     * copied) goes on exactly as it would have. Copied and read back while its third stage is half full, it must open
     * its fourth stage at the same put as the original. Giving a copy or a read filter the limit of stage 0's rate
     * {@code P (1 - r)} instead of its last stage's {@code P (1 - r) r^i} let that stage take items past its rate, and
     * passed every test (from a mutation review).
     */
    @Test
    void aCopyAndAReadFilterGoOnAsTheOriginalWould() throws Exception {
        ScalableBloomFilter<Long> original = ScalableBloomFilter.create(KeyEncoder.longs(), 100, 0.01);
        long key = 0;
        while (original.stageCount() < 3) {
            original.put(key++);
        }
        for (long i = 0; i < 200; i++) {
            original.put(key++);
        }
        ScalableBloomFilter<Long> copy = original.copy();
        ScalableBloomFilter<Long> read = ScalableBloomFilter.readFrom(
                new ByteArrayInputStream(original.toByteArray()), KeyEncoder.longs(), 1 << 20);
        while (original.stageCount() < 4) {
            original.put(key);
            copy.put(key);
            read.put(key);
            key++;
            assertEquals(original.stageCount(), copy.stageCount(), "copy, after key " + key);
            assertEquals(original.stageCount(), read.stageCount(), "read filter, after key " + key);
        }
        assertEquals(Hex.encode(original.toByteArray()), Hex.encode(copy.toByteArray()));
        assertEquals(Hex.encode(original.toByteArray()), Hex.encode(read.toByteArray()));
    }

    @Test
    void stageRatesFormTheGeometricSeries() {
        assertEquals(0.002, ScalableBloomFilter.stageRate(0.01, 0), 1e-15);
        assertEquals(0.0016, ScalableBloomFilter.stageRate(0.01, 1), 1e-15);
        double sum = 0;
        for (int i = 0; i < ScalableBloomFilter.MAX_STAGES; i++) {
            sum += ScalableBloomFilter.stageRate(0.01, i);
        }
        assertTrue(sum < 0.01, "sum " + sum);
        assertEquals(4_000, ScalableBloomFilter.stageCapacity(1_000, 2));
    }

    /** A negative element count is refused, as BloomMath refuses it; the a-priori rate came back 0 for it. */
    @Test
    void theAPrioriRateRefusesANegativeCount() {
        ScalableBloomFilter<Long> filter = ScalableBloomFilter.create(KeyEncoder.longs(), 10, 0.01);
        var e = assertThrows(IllegalArgumentException.class, () -> filter.falsePositiveRate(-1));
        assertEquals("element count is -1; it must not be negative", e.getMessage());
        assertEquals(0.0, filter.falsePositiveRate(0));
        // Past what 40 stages hold (10 * (2^40 - 1) items) there is no such filter: put would have refused it.
        e = assertThrows(IllegalArgumentException.class, () -> filter.falsePositiveRate(10L << 40));
        assertEquals("element count is 10995116277760; a scalable filter of n0 = 10 cannot hold that many: it has at"
                + " most 40 stages", e.getMessage());
    }

    @Test
    void putOfAPresentItemIsRefusedAndUsesNoCapacity() {
        ScalableBloomFilter<Long> filter = ScalableBloomFilter.create(KeyEncoder.longs(), 10, 0.01);
        assertTrue(filter.put(1L));
        for (int i = 0; i < 100; i++) {
            assertTrue(!filter.put(1L));
        }
        assertEquals(1, filter.stageCount());
        assertEquals(1, filter.approximateElementCount());
    }

    /**
     * A form's n0 and P are refused as create refuses them, naming the value: without that check the reader went on to
     * size stage 0 and refused it with the stage's longer message (from a mutation review).
     */
    @Test
    void readerRefusesTheRateBoundAndCapacityAsCreateDoes() {
        byte[] bytes = ScalableBloomFilter.create(KeyEncoder.longs(), 2, 0.1).toByteArray();
        java.nio.ByteBuffer.wrap(bytes).putLong(6 + 8, 0);
        assertEquals("initial capacity is 0; it must be at least 1", refusal(bytes));
        java.nio.ByteBuffer.wrap(bytes).putLong(6 + 8, 2).putDouble(6, 0.0);
        assertEquals("false-positive rate is 0.0; it must be strictly between 0 and 1", refusal(bytes));
    }

    @Test
    void readerRefusesAStageOfTheWrongShape() {
        ScalableBloomFilter<Long> filter = ScalableBloomFilter.create(KeyEncoder.longs(), 2, 0.1);
        byte[] bytes = filter.toByteArray();
        bytes[6 + 8 + 8 + 1 + 6] = 5; // stage 0's k
        assertEquals("stage 0 has shape Shape[m=17, k=5]; P = 0.1 and n0 = 2 give Shape[m=17, k=6]", refusal(bytes));
        bytes[6 + 8 + 8] = 0;
        assertEquals("stage count is 0; it must be 1 to 40", refusal(bytes));
    }

    /**
     * A form whose stage holds more set bits than puts can leave there (a stage goes on taking items while at most
     * ⌊m P_i^{1/k} - k⌋ bits are set, and a put sets at most k) is refused: read, it would answer past its stage rate,
     * and the filter past P, while every rate it reports is computed from P.
     */
    @Test
    void readerRefusesAStageFullerThanPutsLeaveIt() {
        byte[] bytes = ScalableBloomFilter.create(KeyEncoder.longs(), 100, 0.01).toByteArray();
        // Stage 0 (m = 1,294, k = 9 for 100 items at P (1 - r) = 0.002) starts after the chain's header and its own.
        int words = FamilyBinaryForm.CHAIN_HEADER_BYTES + BloomFilter.HEADER_BYTES;
        // Its first 20 of 21 words all ones (bits past m in the last word are refused on their own).
        java.util.Arrays.fill(bytes, words, words + 8 * 20, (byte) 0xff);
        // ⌊1294 · 0.002^(1/9) - 9⌋ + 9 = ⌊639.71⌋ + 9 = 648 (0.002^(1/9) = 0.501319).
        assertEquals("stage 0 has 1280 bits set; puts leave at most 648 of its 1294 set at P = 0.01 and n0 = 100",
                refusal(bytes));
    }

    /**
     * A stage too small to take one item at its rate (fill limit below 0) takes none, so a form with any bit set in it
     * is refused: n0 = 1 at P = 1% gives stage 0 of m = 13, k = 9, whose limit is 13 · 0.002^(1/9) - 9 = -2.48.
     * Bounding it by ⌊limit⌋ + k = 6 like a stage that takes items passed every test (from a mutation review).
     */
    @Test
    void readerRefusesAnyBitInAStageTooSmallToTakeAnItem() {
        byte[] bytes = ScalableBloomFilter.create(KeyEncoder.longs(), 1, 0.01).toByteArray();
        int word = FamilyBinaryForm.CHAIN_HEADER_BYTES + BloomFilter.HEADER_BYTES;
        bytes[word + 7] = 1; // bit 0: the low byte of the big-endian word
        assertEquals("stage 0 has 1 bits set; puts leave at most 0 of its 13 set at P = 0.01 and n0 = 1",
                refusal(bytes));
    }

    /**
     * The bound is inclusive: a stage with exactly ⌊m P_i^{1/k} - k⌋ + k bits set (648 for n0 = 100 at P = 1%, as in
     * {@link #readerRefusesAStageFullerThanPutsLeaveIt}) reads back, and one more is refused. Refusing at the bound
     * itself passed every test (from a mutation review).
     */
    @Test
    void aStageAtItsMostSetBitsReadsBack() throws Exception {
        byte[] bytes = ScalableBloomFilter.create(KeyEncoder.longs(), 100, 0.01).toByteArray();
        int words = FamilyBinaryForm.CHAIN_HEADER_BYTES + BloomFilter.HEADER_BYTES;
        java.util.Arrays.fill(bytes, words, words + 8 * 10, (byte) 0xff); // bits 0 .. 639
        bytes[words + 8 * 10 + 7] = (byte) 0xff; // bits 640 .. 647
        ScalableBloomFilter<Long> read = ScalableBloomFilter.readFrom(
                new ByteArrayInputStream(bytes), KeyEncoder.longs(), 1 << 20);
        assertEquals(Hex.encode(bytes), Hex.encode(read.toByteArray()));
        bytes[words + 8 * 10 + 6] = 1; // bit 648
        assertEquals("stage 0 has 649 bits set; puts leave at most 648 of its 1294 set at P = 0.01 and n0 = 100",
                refusal(bytes));
    }

    /**
     * A stage's bit count must be the one P and n0 give, not only its k: a stage of one bit fewer (same k, same words,
     * so within the stage's size bound) is refused. Comparing k alone passed every test (from a mutation review).
     */
    @Test
    void readerRefusesAStageOfAnotherBitCount() {
        byte[] bytes = ScalableBloomFilter.create(KeyEncoder.longs(), 100, 0.01).toByteArray();
        java.nio.ByteBuffer.wrap(bytes).putLong(FamilyBinaryForm.CHAIN_HEADER_BYTES + 7, 1293); // stage 0's m
        assertEquals("stage 0 has shape Shape[m=1293, k=9]; P = 0.01 and n0 = 100 give Shape[m=1294, k=9]",
                refusal(bytes));
    }

    /**
     * The a-priori rate passes by a stage too small to take an item, as {@code put} does: with n0 = 1 at P = 1% the
     * first item goes to stage 1, so the rate after one item is stage 1's. Counting it in stage 0 passed every test
     * (from a mutation review).
     */
    @Test
    void theAPrioriRatePassesByAStageThatTakesNoItem() {
        ScalableBloomFilter<Long> filter = ScalableBloomFilter.create(KeyEncoder.longs(), 1, 0.01);
        assertTrue(ScalableBloomFilter.fillLimit(ScalableBloomFilter.stageShape(1, 0.01, 0), 0.002) < 0);
        // 1 - (1 - p) of the one stage, so equal up to rounding.
        assertEquals(ScalableBloomFilter.stageShape(1, 0.01, 1).falsePositiveRate(1), filter.falsePositiveRate(1),
                1e-15);
        filter.put(1L);
        assertEquals(2, filter.stageCount());
    }

    /**
     * {@code put} asks every stage, not only the current one: once the filter has grown, putting an item of an earlier
     * stage again is refused and changes nothing. Asking the current stage alone passed every test (the existing test
     * repeats an item of a one-stage filter; from a mutation review).
     */
    @Test
    void putOfAnItemOfAnEarlierStageIsRefused() {
        ScalableBloomFilter<Long> filter = ScalableBloomFilter.create(KeyEncoder.longs(), 10, 0.01);
        for (long key = 0; key < 200; key++) {
            filter.put(key);
        }
        assertTrue(filter.stageCount() >= 3, filter.toString());
        String before = Hex.encode(filter.toByteArray());
        for (long key = 0; key < 10; key++) {
            assertTrue(!filter.put(key), "key " + key);
        }
        assertEquals(before, Hex.encode(filter.toByteArray()));
    }

    /**
     * A stage takes an item while {@code X + k ≤ m P_i^{1/k}}, so at a fill limit that is a whole number it takes one
     * more with exactly that many bits set: P = 0.625 gives P_0 = 1/8, and n0 = 4 a stage 0 of m = 18, k = 3 with limit
     * 18 · (1/8)^(1/3) - 3 = 6 exactly. Six bits set by hand, the next new item still goes to stage 0. Opening a stage
     * at the limit itself passed every test, the limits tried being fractions (from a mutation review).
     */
    @Test
    void aStageAtItsWholeNumberFillLimitTakesOneMoreItem() throws Exception {
        byte[] bytes = ScalableBloomFilter.create(KeyEncoder.longs(), 4, 0.625).toByteArray();
        assertEquals(6.0, ScalableBloomFilter.fillLimit(ScalableBloomFilter.stageShape(4, 0.625, 0),
                ScalableBloomFilter.stageRate(0.625, 0)));
        bytes[FamilyBinaryForm.CHAIN_HEADER_BYTES + BloomFilter.HEADER_BYTES + 7] = 0x3f; // bits 0 .. 5
        ScalableBloomFilter<Long> filter = ScalableBloomFilter.readFrom(
                new ByteArrayInputStream(bytes), KeyEncoder.longs(), 1 << 20);
        long key = 0;
        while (filter.mightContain(key)) {
            key++;
        }
        assertTrue(filter.put(key));
        assertEquals(1, filter.stageCount(), "a stage at its fill limit of 6 bits refused item " + key);
    }

    /** The message of the reader's refusal of {@code bytes}. */
    private static String refusal(byte[] bytes) {
        return assertThrows(IllegalArgumentException.class, () -> ScalableBloomFilter.readFrom(
                new ByteArrayInputStream(bytes), KeyEncoder.longs(), 1 << 20)).getMessage();
    }

    /**
     * The reader's bound on a stage's set bits is reached, not only approached: every state a filter passes through
     * as it grows to seven stages, including each stage right after the put that took it past its fill limit, reads
     * back, and as the same bytes.
     */
    @Test
    void everyStateOfAGrowingFilterReadsBack() throws Exception {
        ScalableBloomFilter<Long> filter = ScalableBloomFilter.create(KeyEncoder.longs(), 10, 0.01);
        for (long key = 0; filter.stageCount() < 7; key++) {
            filter.put(key);
            byte[] bytes = filter.toByteArray();
            ScalableBloomFilter<Long> read = ScalableBloomFilter.readFrom(
                    new ByteArrayInputStream(bytes), KeyEncoder.longs(), 1 << 20);
            assertEquals(Hex.encode(bytes), Hex.encode(read.toByteArray()), "after key " + key);
        }
    }

    /**
     * A form whose rate bound or capacity no stage shape can meet is refused naming the form's own P and n0, as
     * {@code create} refuses them: the shape's refusal named only stage i's rate, 5e-77 read back as 9.99e-78, with a
     * limit of 1.2e-77 that the form's P met.
     */
    @Test
    void readerNamesTheFormsRateWhenAStageCannotBeMade() {
        var e = assertThrows(IllegalArgumentException.class, () -> ScalableBloomFilter.readFrom(
                in("4346464d0201" + "3017288e1271f513" + "000000000000000a" + "01"), KeyEncoder.longs(), 1000));
        assertEquals("false-positive rate bound is 5.0E-77 with initial capacity 10: stage 0, for 10 items at"
                + " P (1 - r) r^0 = 9.999999999999997E-78, cannot be made: false-positive rate is"
                + " 9.999999999999997E-78; its optimal shape needs 256 hash functions, more than the 255 a shape"
                + " allows (the rate must be at least about 1.2e-77)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ScalableBloomFilter.readFrom(
                in("4346464d0201" + "3f847ae147ae147b" + "0000010000000000" + "28"), KeyEncoder.longs(), 1000));
        assertEquals("false-positive rate bound is 0.01 with initial capacity 1099511627776: stage 19, for"
                + " 576460752303423488 items at P (1 - r) r^19 = 2.88230376151712E-5, cannot be made:"
                + " 576460752303423488 elements at rate 2.88230376151712E-5 need 1.2543399614298452E19 bits; at most"
                + " 9223372036854775807 are representable", e.getMessage());
    }

    private static ByteArrayInputStream in(String hex) {
        return new ByteArrayInputStream(Hex.decode(hex));
    }

    @Test
    void clearGoesBackToOneStage() {
        ScalableBloomFilter<Long> filter = ScalableBloomFilter.create(KeyEncoder.longs(), 4, 0.01);
        for (long i = 0; i < 100; i++) {
            filter.put(i);
        }
        assertTrue(filter.stageCount() > 3);
        filter.clear();
        assertEquals(1, filter.stageCount());
        assertTrue(filter.put(5L));
    }
}
