package org.chainfilter.bip158.property;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.chainfilter.bip158.CFCheckpt;
import org.chainfilter.bip158.CFHeaders;
import org.chainfilter.bip158.CFilter;
import org.chainfilter.bip158.FilterRangeRequest;
import org.chainfilter.bip158.GcsFilter;
import org.chainfilter.bip158.GcsParams;
import org.chainfilter.btcwire.Hash256;
import org.junit.jupiter.api.Test;

/**
 * Seeded property tests over the whole parameter space, where the module's own tests use BIP158's P = 19: Golomb-coded
 * sets for every P from 0 to 32 and M from 1 to 2^32 - 1 (random keys, random sets of 0..400 elements) parse back
 * equal from their encoding, decode to ascending values that are exactly the elements' hash-to-range values, and match
 * every element; and every BIP157 message with random contents up to its limit round-trips byte for byte.
 */
class Bip158RoundTripPropertyTest {
    private final SplittableRandom random = new SplittableRandom(158_157);

    @Test
    void setsOfEveryPAndMRoundTripAndHaveNoFalseNegatives() {
        for (int p = 0; p <= GcsParams.MAX_P; p++) {
            for (int trial = 0; trial < 6; trial++) {
                // M up to 2^(P+6): a stream of at most about 64 unary bits per element (see the refusal below).
                long maxM = Math.min(GcsParams.MAX_M, 1L << (p + 6));
                long m = trial == 0 ? 1 : trial == 1 ? maxM : 1 + random.nextLong(maxM);
                GcsParams params = GcsParams.of(random.nextLong(), random.nextLong(), p, m);
                List<byte[]> elements = new ArrayList<>();
                int size = random.nextInt(5) == 0 ? 0 : 1 + random.nextInt(400);
                for (int i = 0; i < size; i++) {
                    elements.add(bytes(random.nextInt(40)));
                }
                GcsFilter filter = GcsFilter.build(params, elements);
                GcsFilter parsed = GcsFilter.parse(params, filter.encoded());
                String where = "P=" + p + " M=" + m + " N=" + filter.elementCount();
                assertEquals(filter, parsed, where);
                long[] values = parsed.values();
                // Distinct by content (ByteBuffer equality): byte[] equality is identity, under which every element
                // was distinct and nothing about N or the values was checked. Sizes 0 and 1 repeat often here.
                long[] expected = elements.stream().map(ByteBuffer::wrap).distinct()
                        .mapToLong(e -> params.hashToRange(e.array(), filter.range())).sorted().toArray();
                assertEquals(expected.length, filter.elementCount(), where + ": N counts distinct contents");
                assertArrayEquals(expected, values, where + ": the values are the distinct elements' values");
                for (int i = 1; i < values.length; i++) {
                    assertTrue(Long.compareUnsigned(values[i - 1], values[i]) <= 0, where + ": values ascend");
                }
                for (byte[] element : elements) {
                    long value = params.hashToRange(element, filter.range());
                    assertTrue(Arrays.stream(values).anyMatch(v -> v == value), where);
                    assertTrue(parsed.match(element), where + ": no false negative");
                }
                assertTrue(parsed.matchAll(elements), where);
            }
        }
    }

    /**
     * Regression (found by this property test): with P = 0 and M near 2^32 each delta is a unary run of about 2^32
     * bits, and building 400 elements ran the JVM out of memory. The builder now refuses before writing.
     */
    @Test
    void aSetTooLargeToEncodeIsRefusedBeforeAllocating() {
        GcsParams params = GcsParams.of(1, 2, 0, GcsParams.MAX_M);
        List<byte[]> elements = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            elements.add(bytes(8));
        }
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> GcsFilter.build(params, elements));
        assertEquals("a GCS of N = 400 elements with P = 0 and M = 4294967295 would take more than 33554432 bytes"
                + " with its count; choose M near 2^P (BIP158: P = 19, M = 784931)", refused.getMessage());
    }

    @Test
    void everyBip157MessageRoundTrips() {
        for (int i = 0; i < 200; i++) {
            Hash256 stop = hash();
            CFilter cfilter = new CFilter(stop, bytes(random.nextInt(random.nextBoolean() ? 300 : 70_000)));
            assertArrayEquals(cfilter.serialize(), CFilter.parse(cfilter.serialize()).serialize());

            CFHeaders cfheaders = new CFHeaders(stop, hash(), hashes(random.nextInt(2001)));
            CFHeaders headersBack = CFHeaders.parse(cfheaders.serialize());
            assertEquals(cfheaders, headersBack);
            assertEquals(cfheaders.headers(), headersBack.headers());

            CFCheckpt checkpoint = new CFCheckpt(stop, hashes(random.nextInt(random.nextBoolean() ? 10 : 3000)));
            assertEquals(checkpoint, CFCheckpt.parse(checkpoint.serialize()));

            long start = random.nextLong(1L << 32);
            FilterRangeRequest filters = FilterRangeRequest.getCFilters(start, stop);
            assertEquals(filters, FilterRangeRequest.parse(FilterRangeRequest.Command.GETCFILTERS,
                    filters.serialize()));
            FilterRangeRequest headers = FilterRangeRequest.getCFHeaders(start, stop);
            assertEquals(headers, FilterRangeRequest.parse(FilterRangeRequest.Command.GETCFHEADERS,
                    headers.serialize()));
        }
    }

    private List<Hash256> hashes(int count) {
        List<Hash256> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(hash());
        }
        return out;
    }

    private Hash256 hash() {
        return Hash256.fromInternalBytes(bytes(32));
    }

    private byte[] bytes(int length) {
        byte[] out = new byte[length];
        random.nextBytes(out);
        return out;
    }
}
