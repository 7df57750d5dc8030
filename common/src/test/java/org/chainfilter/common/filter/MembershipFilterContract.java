package org.chainfilter.common.filter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import org.chainfilter.common.Hex;
import org.chainfilter.common.bloom.KeyEncoder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.function.Executable;

/**
 * The contract every {@link MembershipFilter} kind meets, written once (Apache Commons Collections' abstract-test
 * idea); each kind has one small subclass that says how to build, read and size it. Keys are {@code long}s: the members
 * are {@code 0 .. n-1} and the probes for false positives are {@code 2^40 + i}, never put, so the test is
 * deterministic.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class MembershipFilterContract<F extends MembershipFilter<Long>> {
    static final long ELEMENTS = 1_000_000;
    static final long PROBES = 1_000_000;
    static final double RATE = 0.01;
    static final long PROBE_BASE = 1L << 40;

    private F large;

    /** A filter sized for {@code expectedElements} at {@code falsePositiveRate}, keyed by {@code long}s. */
    abstract F create(long expectedElements, double falsePositiveRate);

    /** The kind's own a-priori formula for its rate after {@code elements} distinct puts. */
    abstract double formulaRate(F filter, long elements);

    /** The kind's reader, with the key encoder and the caller's bound. */
    abstract F readFrom(InputStream in, KeyEncoder<Long> encoder, long maxBytes) throws IOException;

    /** The kind's reader for {@code long} keys ({@link KeyEncoder#longs()}), with the caller's bound. */
    final F readFrom(InputStream in, long maxBytes) throws IOException {
        return readFrom(in, KeyEncoder.longs(), maxBytes);
    }

    /** {@link #readFrom} of the bytes. */
    final F read(byte[] bytes, long maxBytes) throws IOException {
        return readFrom(new ByteArrayInputStream(bytes), maxBytes);
    }

    /** A small fixed filter whose exact bytes {@link #goldenHex()} pins. */
    abstract F smallFixedFilter();

    /** The hex of {@link #smallFixedFilter()}'s binary form. */
    abstract String goldenHex();

    /** Each bad parameter of the kind's factories, with the exact message of its {@link IllegalArgumentException}. */
    abstract Map<String, Executable> badParameters();

    /** The batch reader of a filter filled to about half its sized rate answers exactly as {@code mightContain}. */
    @Test
    void batchReaderAnswersAsMightContain() {
        assertBatchReaderAgrees(create(1_000, 0.2), new SplittableRandom(11));
    }

    /** A null element is refused by name, by an empty filter as by a full one, and the filter is left as it was. */
    @Test
    void nullElementsAreRefused() {
        F filter = create(100, RATE);
        for (int round = 0; round < 2; round++) {
            var e = assertThrows(NullPointerException.class, () -> filter.put(null));
            assertEquals("the element is null; a filter holds no null element", e.getMessage());
            e = assertThrows(NullPointerException.class, () -> filter.mightContain(null));
            assertEquals("the element is null; a filter holds no null element", e.getMessage());
            filter.put(7L);
        }
        assertTrue(filter.mightContain(7L));
    }

    @Test
    void batchReaderRefusesRangesOutsideItsArraysAndNullKeys() {
        MembershipFilter.BatchReader<Long> reader = create(100, RATE).batchReader();
        Long[] keys = {1L, 2L, 3L};
        var e = assertThrows(IndexOutOfBoundsException.class,
                () -> reader.mightContain(keys, 2, 2, new boolean[8], 0));
        assertEquals("Range [2, 2 + 2) out of bounds for length 3", e.getMessage());
        e = assertThrows(IndexOutOfBoundsException.class, () -> reader.mightContain(keys, 0, 3, new boolean[4], 2));
        assertEquals("Range [2, 2 + 3) out of bounds for length 4", e.getMessage());
        e = assertThrows(IndexOutOfBoundsException.class, () -> reader.mightContain(keys, 0, -1, new boolean[4], 0));
        assertEquals("Range [0, 0 + -1) out of bounds for length 3", e.getMessage());
        Long[] withNull = {1L, null};
        assertThrows(NullPointerException.class, () -> reader.mightContain(withNull, 0, 2, new boolean[2], 0));
    }

    /**
     * Puts every third of 3,000 random keys, then checks the batch reader against {@code mightContain} on all of
     * them (members, non-members and false positives) over ranges that start anywhere and end inside a group of
     * sixteen; it must write only its range and count the trues.
     */
    static void assertBatchReaderAgrees(MembershipFilter<Long> filter, SplittableRandom random) {
        Long[] keys = new Long[3_000];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = random.nextLong();
            if (i % 3 == 0) {
                filter.put(keys[i]);
            }
        }
        MembershipFilter.BatchReader<Long> reader = filter.batchReader();
        int positives = 0;
        for (int[] range : new int[][] {{0, 0}, {0, 1}, {5, 15}, {7, 16}, {9, 17}, {100, 1_000}, {0, 3_000}}) {
            boolean[] results = new boolean[range[1] + 4];
            Arrays.fill(results, true);
            results[2] = false;
            int maybe = reader.mightContain(keys, range[0], range[1], results, 3);
            int expectedMaybe = 0;
            for (int i = 0; i < range[1]; i++) {
                boolean expected = filter.mightContain(keys[range[0] + i]);
                expectedMaybe += expected ? 1 : 0;
                assertEquals(expected, results[3 + i], filter + ", key " + (range[0] + i));
            }
            assertEquals(expectedMaybe, maybe, filter + ", range " + range[0] + "+" + range[1]);
            assertTrue(results[0] && results[1] && !results[2] && results[range[1] + 3], "outside the range");
            positives = expectedMaybe;
        }
        assertTrue(positives >= 1_000 && positives < 3_000, "the keys mix members and non-members: " + positives);
    }

    /** The binary-form version the kind writes. */
    int formVersion() {
        return 1;
    }

    /** Where the version byte is in the binary form. */
    int versionOffset() {
        return FamilyBinaryForm.HEADER_BYTES - 1;
    }

    /** The reader's message for a binary form whose first byte was zeroed. */
    String badMagicMessage() {
        return "magic is 0x0046464d; a chainfilter family filter starts with 0x4346464d (\"CFFM\")";
    }

    /** Whether the binary form carries the family's kind byte (the generic {@link BloomFilter} has its own magic). */
    boolean hasKindByte() {
        return true;
    }

    @BeforeAll
    void fillLargeFilter() {
        large = create(ELEMENTS, RATE);
        for (long i = 0; i < ELEMENTS; i++) {
            large.put(i);
        }
    }

    @Test
    void everyElementPutIsFound() {
        long missing = 0;
        for (long i = 0; i < ELEMENTS; i++) {
            if (!large.mightContain(i)) {
                missing++;
            }
        }
        assertEquals(0, missing, "false negatives among " + ELEMENTS + " elements");
    }

    @Test
    void measuredRateIsWithinFifteenPercentOfTheFormula() {
        long falsePositives = 0;
        for (long i = 0; i < PROBES; i++) {
            if (large.mightContain(PROBE_BASE + i)) {
                falsePositives++;
            }
        }
        double measured = (double) falsePositives / PROBES;
        double formula = formulaRate(large, ELEMENTS);
        assertTrue(Math.abs(measured - formula) <= 0.15 * formula,
                "measured " + measured + " vs formula " + formula + " for " + large);
        double fromState = large.expectedFpp();
        assertTrue(Math.abs(measured - fromState) <= 0.15 * fromState,
                "measured " + measured + " vs expectedFpp " + fromState + " for " + large);
        assertTrue(measured <= RATE * 1.15, "measured " + measured + " for a requested " + RATE);
    }

    @Test
    void approximateCountIsNearTheNumberPut() {
        long count = large.approximateElementCount();
        assertTrue(Math.abs(count - ELEMENTS) <= 0.02 * ELEMENTS, "count " + count);
    }

    @Test
    void binaryFormMatchesTheGoldenBytes() throws IOException {
        F small = smallFixedFilter();
        assertEquals(goldenHex(), Hex.encode(small.toByteArray()));
        F back = read(Hex.decode(goldenHex()), Long.MAX_VALUE);
        assertEquals(goldenHex(), Hex.encode(back.toByteArray()));
    }

    @Test
    void roundTripKeepsEveryAnswer() throws IOException {
        F filter = create(2_000, RATE);
        for (long i = 0; i < 1_000; i++) {
            filter.put(i * 7919);
        }
        byte[] bytes = filter.toByteArray();
        F back = read(bytes, bytes.length);
        assertArrayEquals(bytes, back.toByteArray());
        assertEquals(filter, back);
        assertEquals(filter.hashCode(), back.hashCode());
        for (long i = 0; i < 20_000; i++) {
            assertEquals(filter.mightContain(i), back.mightContain(i), "key " + i);
        }
        assertEquals(filter.approximateElementCount(), back.approximateElementCount());
        assertEquals(filter.expectedFpp(), back.expectedFpp());
    }

    /** A reader stops at the end of its filter (FamilyBinaryForm: trailing bytes are the caller's to check). */
    @Test
    void readerConsumesExactlyItsFilter() throws IOException {
        byte[] bytes = smallFixedFilter().toByteArray();
        ByteArrayInputStream in = new ByteArrayInputStream(
                java.nio.ByteBuffer.allocate(bytes.length + 3).put(bytes).put(new byte[] {7, 8, 9}).array());
        F back = readFrom(in, Long.MAX_VALUE);
        assertEquals(Hex.encode(bytes), Hex.encode(back.toByteArray()));
        assertArrayEquals(new byte[] {7, 8, 9}, in.readAllBytes());
    }

    @Test
    void readerRefusesAFilterOverTheCallersBoundBeforeAllocating() {
        byte[] bytes = smallFixedFilter().toByteArray();
        var e = assertThrows(IllegalArgumentException.class, () -> read(bytes, bytes.length - 1));
        assertTrue(e.getMessage().endsWith(" is " + bytes.length + " bytes; the caller allows at most "
                + (bytes.length - 1)), e.getMessage());
    }

    @Test
    void readerRefusesBadMagicAndTruncation() {
        byte[] bytes = smallFixedFilter().toByteArray();
        byte[] badMagic = bytes.clone();
        badMagic[0] = 0;
        var e = assertThrows(IllegalArgumentException.class, () -> read(badMagic, Long.MAX_VALUE));
        assertEquals(badMagicMessage(), e.getMessage());
        byte[] badVersion = bytes.clone();
        badVersion[versionOffset()] = 9;
        e = assertThrows(IllegalArgumentException.class, () -> read(badVersion, Long.MAX_VALUE));
        assertTrue(e.getMessage().endsWith(" version is 9; this reader knows version " + formVersion()),
                e.getMessage());
        var eof = assertThrows(EOFException.class, () -> read(Arrays.copyOf(bytes, bytes.length - 1), Long.MAX_VALUE));
        assertTrue(eof.getMessage().endsWith(
                " binary form is truncated: the stream ends before the last byte the form declares"), eof.getMessage());
        eof = assertThrows(EOFException.class, () -> read(Arrays.copyOf(bytes, 2), Long.MAX_VALUE));
        assertTrue(eof.getMessage().endsWith(
                " binary form is truncated: the stream ends before the last byte the form declares"), eof.getMessage());
    }

    /**
     * Every single-byte corruption of the golden form is either read or refused with {@link IllegalArgumentException}
     * or an {@link IOException} (end of stream): never another exception, a hang or an allocation past the bound.
     */
    @Test
    void corruptedFormsAreReadOrRefusedCleanly() {
        byte[] golden = Hex.decode(goldenHex());
        Random random = new Random(7);
        for (int trial = 0; trial < 3_000; trial++) {
            byte[] bytes = golden.clone();
            int at = random.nextInt(bytes.length);
            bytes[at] = (byte) (bytes[at] ^ (1 + random.nextInt(255)));
            try {
                read(bytes, 1 << 16);
            } catch (IllegalArgumentException | IOException expected) {
                // a clean refusal
            } catch (RuntimeException e) {
                throw new AssertionError("byte " + at + " of " + Hex.encode(bytes) + " gave " + e, e);
            }
        }
    }

    @Test
    void readerRefusesAnotherKind() {
        if (!hasKindByte()) {
            return;
        }
        byte[] bytes = smallFixedFilter().toByteArray();
        bytes[4] = (byte) (bytes[4] == 1 ? 2 : 1);
        var e = assertThrows(IllegalArgumentException.class, () -> read(bytes, Long.MAX_VALUE));
        assertTrue(e.getMessage().startsWith("filter kind is " + bytes[4] + "; expected "), e.getMessage());
    }

    @Test
    void badParametersAreRefusedWithClearMessages() {
        Map<String, Executable> cases = badParameters();
        assertFalse(cases.isEmpty());
        cases.forEach((message, call) -> {
            var e = assertThrows(IllegalArgumentException.class, call, message);
            assertEquals(message, e.getMessage());
        });
    }

    /**
     * Equality is by content: the same puts into the same shape give equal filters with equal hash codes; another
     * shape, or one more element, does not.
     */
    @Test
    void equalityIsByContent() {
        F one = create(1_000, RATE);
        F two = create(1_000, RATE);
        assertEquals(one, two);
        for (long i = 0; i < 300; i++) {
            one.put(i);
            two.put(i);
        }
        assertEquals(one, two);
        assertEquals(one.hashCode(), two.hashCode());
        assertNotEquals(one, create(1_000, 0.05));
        assertNotEquals(one, create(50_000, RATE));
        assertNotEquals(one, null);
        assertNotEquals(one, one.toByteArray());
        two.put(1L << 50);
        assertNotEquals(one, two);
        assertTrue(one.equals(one));
    }

    /**
     * A filter is its bytes and its key encoder: the same form read under another encoder of {@code long}s answers
     * for other keys, so it is another filter. Leaving the encoder out of equals passed every test (from a mutation
     * review).
     */
    @Test
    void theSameFormUnderAnotherEncoderIsAnotherFilter() throws IOException {
        byte[] bytes = smallFixedFilter().toByteArray();
        KeyEncoder<Long> bigEndian = KeyEncoder.viaBytes(key -> ByteBuffer.allocate(8).putLong(key).array());
        F filter = read(bytes, Long.MAX_VALUE);
        F underAnother = readFrom(new ByteArrayInputStream(bytes), bigEndian, Long.MAX_VALUE);
        assertArrayEquals(bytes, underAnother.toByteArray());
        assertNotEquals(filter, underAnother);
        assertNotEquals(underAnother, filter);
        assertEquals(underAnother, readFrom(new ByteArrayInputStream(bytes), bigEndian, Long.MAX_VALUE));
    }

    @Test
    void copyIsIndependent() {
        F filter = create(1_000, RATE);
        filter.put(1L);
        @SuppressWarnings("unchecked")
        F copy = (F) filter.copy();
        assertArrayEquals(filter.toByteArray(), copy.toByteArray());
        assertEquals(filter, copy);
        assertEquals(filter.hashCode(), copy.hashCode());
        for (long i = 2; i < 200; i++) {
            copy.put(i);
        }
        assertNotEquals(Hex.encode(filter.toByteArray()), Hex.encode(copy.toByteArray()));
        assertNotEquals(filter, copy);
        assertTrue(copy.mightContain(1L) && copy.mightContain(150L));
        assertEquals(1, filter.approximateElementCount());
    }

    @Test
    void clearEmptiesTheFilter() {
        F filter = create(1_000, RATE);
        for (long i = 0; i < 100; i++) {
            filter.put(i);
        }
        filter.clear();
        for (long i = 0; i < 100; i++) {
            assertFalse(filter.mightContain(i));
        }
        assertEquals(0, filter.approximateElementCount());
        assertEquals(0.0, filter.expectedFpp());
    }

    @Test
    void newElementsReportAChange() {
        F filter = create(1_000, RATE);
        assertTrue(filter.put(42L));
        assertTrue(filter.mightContain(42L));
    }
}
