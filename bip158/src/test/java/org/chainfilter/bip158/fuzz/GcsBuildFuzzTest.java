package org.chainfilter.bip158.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.chainfilter.bip158.GcsFilter;
import org.chainfilter.bip158.GcsParams;
import org.chainfilter.bip158.GcsQuery;
import org.chainfilter.btcwire.CompactSize;
import org.chainfilter.testkit.ParserContract;

/**
 * Fuzzes {@link GcsFilter#build(GcsParams, java.util.Collection)} over small parameters and element lists. The input,
 * zero-padded to 21 bytes: byte 0 chooses P ({@code byte % 33}, 0..32); bytes 1..4 are M, big-endian unsigned (0 reads
 * as 1, so M is 1..2^32 - 1); bytes 5..20 are the SipHash key. Then come at most {@value #MAX_ELEMENTS} elements, each
 * led by a tag byte {@code t}: below 0x80, a new element of the next {@code t} bytes (fewer where the input ends, 0 for
 * an empty element); from 0x80, a fresh copy of element {@code (t & 0x7f) % count} (an empty element when there is
 * none yet), so that byte-equal repeats are one byte away. Checks, against a model that merges the elements by content,
 * maps each to {@code [0, N * M)} with {@link GcsParams#hashToRange} and sums the Golomb-Rice code lengths:
 * <ul>
 *   <li>build refuses only with an {@link IllegalArgumentException} with a message, allocation stays bounded
 *       ({@link ParserContract}: a refused set is refused before anything is sized by it), and it refuses exactly the
 *       sets whose serialization (N's CompactSize and the stream) would exceed {@link CompactSize#MAX_SIZE} bytes;</li>
 *   <li>an accepted filter has the model's N (byte-distinct elements), range and length, parses back under the same
 *       parameters to the same bytes, decodes to the model's values (ascending unsigned, each below {@code N * M}),
 *       and is the same whatever the order of the elements;</li>
 *   <li>every element matches: {@code match} of each, {@code matchAll} of all of them; {@code matchAny} of all of
 *       them exactly when there is one.</li>
 * </ul>
 * A set whose model length is above {@value #MAX_BUILT_BYTES} bytes but within the limit is skipped, so that an
 * execution stays well under a millisecond (P = 0 with M near 2^32 builds up to 32 MiB); the limit itself is pinned by
 * {@code GcsFilterTest.buildRefusesASerializationLongerThanCoreReadsCountingN}. Sets over the limit are built: they
 * must be refused, cheaply.
 *
 * <p>Seeds ({@code GcsBuildFuzzTestInputs/build}), written byte by byte (a few lines of Python) in the layout above,
 * key 00..0f unless named: {@code empty-set} (P = 19, M = 784931, no element: the filter {@code 00}); {@code repeat}
 * (P = 19, M = 784931: "abc", a copy of it, "abd", a copy of "abc": N = 2); {@code empty-element} (P = 19, M = 784931:
 * an empty element, "x", a copy of the empty one: N = 2); {@code p0-m4} (P = 0, M = 4, five one-byte elements);
 * {@code p0-mmax-refused} (P = 0, M = 2^32 - 1, the element {@code 2a}: its value, 413,304,418, is as many unary bits,
 * more than the 268,435,448 that fit, so build refuses it); {@code p32-mmax} (P = 32, M = 2^32 - 1, three elements);
 * {@code m1-colliding-values} (P = 2, M = 1, eight elements in a range of 8, so that distinct elements share values,
 * deltas of 0); {@code bip158-testnet-0} (the genesis row of Bitcoin Core {@code src/test/data/blockfilters.json} at
 * commit c7efb652f3543b001b4dd22186a354605b14f47e: P = 19, M = 784931, the block hash's first 16 internal bytes as the
 * key, its coinbase output script: the filter {@code 019dfca8}).
 */
class GcsBuildFuzzTest {
    private static final ParserContract<GcsFilter> BUILD =
            ParserContract.refusing("GcsFilter.build", IllegalArgumentException.class);
    private static final int HEADER_BYTES = 21;
    private static final int MAX_ELEMENTS = 64;
    private static final long MAX_BUILT_BYTES = 1 << 16;

    @FuzzTest(maxDuration = "5m")
    void build(byte[] input) {
        byte[] header = Arrays.copyOf(input, HEADER_BYTES);
        int p = (header[0] & 0xff) % (GcsParams.MAX_P + 1);
        long m = Math.max(1, ByteBuffer.wrap(header, 1, 4).getInt() & 0xffffffffL);
        GcsParams params = GcsParams.of(Arrays.copyOfRange(header, 5, HEADER_BYTES), p, m);
        List<byte[]> elements = elements(input);

        long[] values = modelValues(params, elements);
        long range = params.range(values.length);
        long length = modelLength(p, values);
        if (length > MAX_BUILT_BYTES && length <= CompactSize.MAX_SIZE) {
            return;
        }
        GcsFilter filter = BUILD.parse(input.length, () -> GcsFilter.build(params, elements)).orElse(null);
        if (filter == null) {
            if (length <= CompactSize.MAX_SIZE) {
                throw new AssertionError("build refused " + values.length + " distinct elements under " + params
                        + " whose serialization takes " + length + " bytes");
            }
            return;
        }
        if (length > CompactSize.MAX_SIZE) {
            throw new AssertionError("build accepted a serialization of " + length + " bytes, over "
                    + CompactSize.MAX_SIZE + ": " + filter);
        }
        if (filter.elementCount() != values.length || filter.range() != range || filter.encodedLength() != length) {
            throw new AssertionError("built " + filter + " (range " + Long.toUnsignedString(filter.range())
                    + ") for " + values.length + " distinct elements; the model takes " + length + " bytes");
        }
        GcsFilter parsed = GcsFilter.parse(params, filter.encoded());
        ParserContract.assertCanonical("built GCS filter parsed back", filter.encoded(), parsed.encoded());
        if (!parsed.equals(filter) || parsed.elementCount() != values.length) {
            throw new AssertionError("a built filter parses back as " + parsed + ", not " + filter);
        }
        checkValues(filter, values);
        checkMatching(filter, elements);
        List<byte[]> reversed = new ArrayList<>();
        for (int i = elements.size() - 1; i >= 0; i--) {
            reversed.add(elements.get(i).clone());
        }
        if (!GcsFilter.build(params, reversed).equals(filter)) {
            throw new AssertionError("the elements in reverse order build another filter than " + filter);
        }
    }

    /** The elements after the header, as the class javadoc describes; each a fresh array. */
    private static List<byte[]> elements(byte[] input) {
        List<byte[]> elements = new ArrayList<>();
        int at = HEADER_BYTES;
        while (at < input.length && elements.size() < MAX_ELEMENTS) {
            int tag = input[at++] & 0xff;
            if (tag >= 0x80) {
                elements.add(elements.isEmpty() ? new byte[0] : elements.get((tag & 0x7f) % elements.size()).clone());
            } else {
                int end = Math.min(input.length, at + tag);
                elements.add(Arrays.copyOfRange(input, at, end));
                at = end;
            }
        }
        return elements;
    }

    /** The values of the byte-distinct elements in {@code [0, N * M)}, ascending unsigned (equal ones kept). */
    private static long[] modelValues(GcsParams params, List<byte[]> elements) {
        Set<ByteBuffer> distinct = new HashSet<>();
        for (byte[] element : elements) {
            distinct.add(ByteBuffer.wrap(element));
        }
        long range = params.range(distinct.size());
        long[] values = new long[distinct.size()];
        int i = 0;
        for (ByteBuffer element : distinct) {
            // Flipping the sign bit makes signed order unsigned order.
            values[i++] = params.hashToRange(element.array(), range) ^ Long.MIN_VALUE;
        }
        Arrays.sort(values);
        for (i = 0; i < values.length; i++) {
            values[i] ^= Long.MIN_VALUE;
        }
        return values;
    }

    /** CompactSize(N) and the stream: {@code (d >> P) + 1 + P} bits per delta, padded to a whole byte. */
    private static long modelLength(int p, long[] values) {
        long bits = 0;
        long previous = 0;
        for (long value : values) {
            bits += ((value - previous) >>> p) + 1 + p;
            previous = value;
        }
        return CompactSize.encodedLength(values.length) + (bits + 7) / 8;
    }

    private static void checkValues(GcsFilter filter, long[] expected) {
        long[] decoded = filter.values();
        for (int i = 0; i < decoded.length; i++) {
            if ((i > 0 && Long.compareUnsigned(decoded[i - 1], decoded[i]) > 0)
                    || Long.compareUnsigned(decoded[i], filter.range()) >= 0) {
                throw new AssertionError("value " + i + " of " + filter + " is " + Long.toUnsignedString(decoded[i])
                        + ": not ascending or not below N * M = " + Long.toUnsignedString(filter.range()));
            }
        }
        if (!Arrays.equals(decoded, expected)) {
            throw new AssertionError(filter + " decodes to " + Arrays.toString(decoded) + ", not the model's "
                    + Arrays.toString(expected));
        }
    }

    private static void checkMatching(GcsFilter filter, List<byte[]> elements) {
        for (byte[] element : elements) {
            if (!filter.match(element)) {
                throw new AssertionError("the element " + Arrays.toString(element) + " does not match " + filter);
            }
        }
        GcsQuery all = GcsQuery.of(elements);
        if (filter.matchAny(all) == elements.isEmpty()) {
            throw new AssertionError("matchAny of its " + elements.size() + " elements is " + elements.isEmpty()
                    + " on " + filter);
        }
        if (!filter.matchAll(all)) {
            throw new AssertionError("matchAll of its " + elements.size() + " elements is false on " + filter);
        }
    }
}
