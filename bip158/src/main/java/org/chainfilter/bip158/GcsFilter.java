package org.chainfilter.bip158;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import org.chainfilter.btcwire.ByteReader;
import org.chainfilter.btcwire.ByteWriter;
import org.chainfilter.btcwire.CompactSize;
import org.chainfilter.common.Hex;
import org.chainfilter.common.bits.BitWriter;

/**
 * A Golomb-coded set (BIP158 "Golomb-Coded Sets"; Core {@code GCSFilter}, src/blockfilter.cpp), immutable.
 *
 * <p>Construction: the {@code N} distinct elements (byte-equal elements count once) map to
 * {@code v = floor(SipHash-2-4(k, x) * F / 2^64)} with {@code F = N * M}; the values are sorted (unsigned) and each
 * difference {@code d} to the previous value (the first to 0) is Golomb-Rice coded: {@code d >> P} one-bits, a zero
 * bit, then the low {@code P} bits of {@code d}, most significant bit first. Equal values of distinct elements are
 * kept (a delta of 0), as Core keeps them. The serialization is {@code CompactSize(N)} followed by the bit stream,
 * zero-padded to a whole byte; the empty set is the single byte {@code 00}.
 *
 * <p>Parsing follows Core's {@code GCSFilter(params, encoded_filter)}: N is a canonical CompactSize of at most
 * {@link #MAX_ELEMENT_COUNT} (0x02000000), all N values must decode inside the bytes, and no whole byte may follow
 * the last value ("excess data"). Before decoding, N is also bounded by what the bytes can hold (every element takes
 * at least {@code P + 1} bits), and parsing and matching allocate nothing from N ({@link #values()} returns all N
 * values, 8 bytes each). Like Core, the reader does not require the pad
 * bits to be zero nor the values to stay below F: a filter header commits to the exact bytes anyway.
 *
 * <p>Matching decodes the stream on the fly, {@code O(N)}, with the bit position in a local variable
 * ({@link GolombRice}): {@link #match(byte[])}, {@link #matchAny(GcsQuery)} and {@link #matchAll(GcsQuery)} allocate
 * nothing per call, with or without the JIT's escape analysis. Matching many items hashes the query once, sorts it and
 * walks it against the stream in one merge pass (BIP158 Appendix B {@code gcs_match_any}; Core {@code MatchInternal}).
 * The instance methods are thread-safe.
 */
public final class GcsFilter {
    /**
     * The largest N: the count is read with Core's {@code ReadCompactSize}, which refuses sizes above
     * {@code MAX_SIZE} (0x02000000 = 33,554,432), so {@link #parse} refuses more and {@link #build} builds no more.
     */
    public static final long MAX_ELEMENT_COUNT = CompactSize.MAX_SIZE;

    private final GcsParams params;
    private final long elementCount;
    private final long range;
    private final byte[] encoded;
    private final int bitStreamOffset;

    private GcsFilter(GcsParams params, long elementCount, byte[] encoded, int bitStreamOffset) {
        this.params = params;
        this.elementCount = elementCount;
        this.range = params.range(elementCount);
        this.encoded = encoded;
        this.bitStreamOffset = bitStreamOffset;
    }

    /**
     * Builds the set of the distinct {@code elements} (compared by content) under {@code params}. The elements are
     * not kept.
     *
     * @throws IllegalArgumentException when {@code elements} or one of them is null (naming its index in iteration
     *                                  order), when there are more than {@link #MAX_ELEMENT_COUNT} distinct elements (the
     *                                  count is known once the hashes are sorted and byte-equal elements merged, and is
     *                                  checked before anything is sized by it or written), or the serialization (N
     *                                  and the stream) would exceed {@link CompactSize#MAX_SIZE} bytes
     */
    public static GcsFilter build(GcsParams params, Collection<byte[]> elements) {
        return build(params, elements, MAX_ELEMENT_COUNT);
    }

    /** {@link #build(GcsParams, Collection)} under a lower limit on N, so that a test can reach the limit. */
    static GcsFilter build(GcsParams params, Collection<byte[]> elements, long maxElementCount) {
        if (elements == null) {
            throw new IllegalArgumentException("GCS elements are null; the empty set is an empty collection");
        }
        byte[][] items = elements.toArray(new byte[0][]);
        for (int i = 0; i < items.length; i++) {
            if (items[i] == null) {
                throw new IllegalArgumentException("GCS element " + i + " is null");
            }
        }
        long[] hashes = new long[items.length];
        for (int i = 0; i < items.length; i++) {
            hashes[i] = params.hash(items[i]) ^ Long.MIN_VALUE;
        }
        long[] sorted = hashes.clone();
        Arrays.sort(sorted);
        int distinct = dropDuplicateElements(items, hashes, sorted);
        checkElementCount(distinct, maxElementCount);
        long range = params.range(distinct);
        checkEncodable(params, sorted, distinct, range);
        // About P + 2 bits per element (BIP158: 21.05 for the basic parameters); the writer grows if a set needs more.
        long expectedBytes = (long) distinct * (params.p() + 2) / 8 + 8;
        BitWriter bits = new BitWriter((int) Math.min(Integer.MAX_VALUE - 16, expectedBytes));
        long previous = 0;
        for (int i = 0; i < distinct; i++) {
            // Mapping is monotone in the hash, so hashes sorted unsigned give values sorted unsigned.
            long value = GcsParams.mapToRange(sorted[i] ^ Long.MIN_VALUE, range);
            long delta = value - previous;
            bits.writeUnary(delta >>> params.p());
            bits.writeBits(delta, params.p());
            previous = value;
        }
        int prefixLength = CompactSize.encodedLength(distinct);
        ByteWriter prefix = new ByteWriter(prefixLength);
        CompactSize.write(prefix, distinct);
        byte[] encoded = new byte[prefixLength + bits.byteCount()];
        System.arraycopy(prefix.toByteArray(), 0, encoded, 0, prefixLength);
        bits.copyTo(encoded, prefixLength);
        return new GcsFilter(params, distinct, encoded, prefixLength);
    }

    /**
     * Refuses N above {@code maxElementCount}: with small parameters (P = 0 and M = 1 take about 2 bits an element)
     * 2^25 + 1 elements pass the byte limit of {@link #checkEncodable}, but no parser, ours or Core's, would read the
     * filter back.
     */
    static void checkElementCount(long distinctCount, long maxElementCount) {
        if (distinctCount > maxElementCount) {
            throw new IllegalArgumentException("a GCS of " + distinctCount + " distinct elements cannot be built: N is"
                    + " at most " + maxElementCount + ", the largest count a filter's parser accepts");
        }
    }

    /**
     * Refuses, before anything is written, a set whose serialization (N's CompactSize and the stream) would exceed
     * {@link CompactSize#MAX_SIZE} bytes, the most Core reads as a filter's byte vector: each element costs
     * {@code (delta >> P) + 1 + P} bits, so an M far above {@code 2^P} (e.g. P = 0 with M near 2^32) makes every delta
     * a unary run of billions of bits.
     */
    private static void checkEncodable(GcsParams params, long[] sorted, int count, long range) {
        long limitBits = 8 * (CompactSize.MAX_SIZE - CompactSize.encodedLength(count));
        long bits = 0;
        long previous = 0;
        for (int i = 0; i < count; i++) {
            long value = GcsParams.mapToRange(sorted[i] ^ Long.MIN_VALUE, range);
            bits += ((value - previous) >>> params.p()) + 1 + params.p();
            previous = value;
            if (bits > limitBits || bits < 0) {
                throw new IllegalArgumentException("a GCS of N = " + count + " elements with P = " + params.p()
                        + " and M = " + params.m() + " would take more than " + CompactSize.MAX_SIZE
                        + " bytes with its count; choose M near 2^P (BIP158: P = 19, M = 784931)");
            }
        }
    }

    /**
     * Parses and validates a serialized set (CompactSize N, then the bit stream). The bytes are copied.
     *
     * @throws IllegalArgumentException naming the value and the limit when the count is non-canonical or too large,
     *                                  the stream is truncated or whole bytes follow the last element
     */
    public static GcsFilter parse(GcsParams params, byte[] encoded) {
        byte[] bytes = encoded.clone();
        ByteReader reader = new ByteReader(bytes);
        long count = CompactSize.read(reader, "GCS element count N", MAX_ELEMENT_COUNT);
        int offset = reader.position();
        long streamBits = 8L * reader.remaining();
        long capacity = streamBits / (params.p() + 1);
        if (count > capacity) {
            throw new IllegalArgumentException("GCS filter claims N = " + count + " elements but its "
                    + reader.remaining() + "-byte bit stream holds at most " + capacity
                    + " (each element takes at least P + 1 = " + (params.p() + 1) + " bits)");
        }
        long bit = 8L * offset;
        for (long i = 0; i < count; i++) {
            try {
                long quotient = GolombRice.unaryLength(bytes, bit, offset);
                GolombRice.delta(bytes, bit, quotient, params.p(), offset);
                bit += quotient + 1 + params.p();
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("GCS filter is truncated: element " + (i + 1) + " of N = " + count
                        + " does not fit: " + e.getMessage(), e);
            }
        }
        // Core refuses whole bytes after the last value; the bits that pad the last byte are not checked.
        long untouchedBytes = (8L * bytes.length - bit) / 8;
        if (untouchedBytes != 0) {
            throw new IllegalArgumentException("GCS filter has " + untouchedBytes
                    + " bytes of excess data after its N = " + count + " elements");
        }
        return new GcsFilter(params, count, bytes, offset);
    }

    /** The parameters (key, P, M). */
    public GcsParams params() {
        return params;
    }

    /** N, the number of distinct elements. */
    public long elementCount() {
        return elementCount;
    }

    /** {@code F = N * M}, unsigned. */
    public long range() {
        return range;
    }

    /** A copy of the serialization: CompactSize N, then the bit stream. */
    public byte[] encoded() {
        return encoded.clone();
    }

    /** The length of the serialization in bytes. */
    public int encodedLength() {
        return encoded.length;
    }

    /** Appends the serialization to {@code writer}. */
    public void writeTo(ByteWriter writer) {
        writer.writeBytes(encoded);
    }

    /**
     * Whether {@code item} may be in the set: true for every member, true for a non-member with probability about
     * {@code 1/M}. Allocates nothing. Like Core's {@code MatchInternal}, the walk stops at the first value not below
     * the item's, so on a hostile set whose values do not ascend a later equal value is not seen.
     */
    public boolean match(byte[] item) {
        if (elementCount == 0) {
            return false;
        }
        long target = params.hashToRange(item, range);
        int p = params.p();
        long bit = 8L * bitStreamOffset;
        long value = 0;
        for (long i = 0; i < elementCount; i++) {
            long quotient = GolombRice.unaryLength(encoded, bit, bitStreamOffset);
            value += GolombRice.delta(encoded, bit, quotient, p, bitStreamOffset);
            bit += quotient + 1 + p;
            int order = Long.compareUnsigned(value, target);
            if (order >= 0) {
                return order == 0;
            }
        }
        return false;
    }

    /**
     * Whether any item of the query may be in the set (false for an empty query or an empty set, as Core's
     * {@code MatchAny}). One SipHash per query item, a sort of the query, one pass over the stream; nothing is
     * allocated per call (the query holds the buffer of its hashed items). A {@link GcsQuery} must not be shared
     * between threads.
     */
    public boolean matchAny(GcsQuery query) {
        int count = query.prepare(params, range);
        if (count == 0 || elementCount == 0) {
            return false;
        }
        long[] wanted = query.values();
        int next = 0;
        int p = params.p();
        long bit = 8L * bitStreamOffset;
        long value = 0;
        for (long i = 0; i < elementCount; i++) {
            long quotient = GolombRice.unaryLength(encoded, bit, bitStreamOffset);
            value += GolombRice.delta(encoded, bit, quotient, p, bitStreamOffset);
            bit += quotient + 1 + p;
            while (Long.compareUnsigned(wanted[next], value) < 0) {
                if (++next == count) {
                    return false;
                }
            }
            if (wanted[next] == value) {
                return true;
            }
        }
        return false;
    }

    /** {@link #matchAny(GcsQuery)} for a one-off collection of items (allocates the query). */
    public boolean matchAny(Collection<byte[]> items) {
        return matchAny(GcsQuery.of(items));
    }

    /**
     * Whether every item of the query may be in the set (true for an empty query). Same cost and allocation as
     * {@link #matchAny(GcsQuery)}.
     */
    public boolean matchAll(GcsQuery query) {
        int count = query.prepare(params, range);
        long[] wanted = query.values();
        int p = params.p();
        long bit = 8L * bitStreamOffset;
        long value = 0;
        long decoded = 0;
        for (int next = 0; next < count; next++) {
            while (decoded == 0 || Long.compareUnsigned(value, wanted[next]) < 0) {
                if (decoded == elementCount) {
                    return false;
                }
                long quotient = GolombRice.unaryLength(encoded, bit, bitStreamOffset);
                value += GolombRice.delta(encoded, bit, quotient, p, bitStreamOffset);
                bit += quotient + 1 + p;
                decoded++;
            }
            if (value != wanted[next]) {
                return false;
            }
        }
        return true;
    }

    /** {@link #matchAll(GcsQuery)} for a one-off collection of items (allocates the query). */
    public boolean matchAll(Collection<byte[]> items) {
        return matchAll(GcsQuery.of(items));
    }

    /**
     * The N decoded values in stream order (ascending for any filter this library builds). Allocates {@code 8 · N}
     * bytes: up to {@code 64 / (P + 1)} times the size of the encoded filter (about 3.2 times for BIP158's P = 19), and
     * at most 256 MiB at {@link #MAX_ELEMENT_COUNT}. Matching never needs it.
     */
    public long[] values() {
        long[] values = new long[(int) elementCount];
        int p = params.p();
        long bit = 8L * bitStreamOffset;
        long value = 0;
        for (int i = 0; i < values.length; i++) {
            long quotient = GolombRice.unaryLength(encoded, bit, bitStreamOffset);
            value += GolombRice.delta(encoded, bit, quotient, p, bitStreamOffset);
            bit += quotient + 1 + p;
            values[i] = value;
        }
        return values;
    }

    /**
     * Fills {@code out[0, count)} with the SipHash values of {@code items[0, count)}, sorted unsigned and stored with
     * the sign bit flipped (so that signed order is unsigned order; flip back before use).
     */
    static void sortedHashes(GcsParams params, byte[][] items, int count, long[] out) {
        for (int i = 0; i < count; i++) {
            out[i] = params.hash(items[i]) ^ Long.MIN_VALUE;
        }
        Arrays.sort(out, 0, count);
    }

    /**
     * Removes from the sorted hashes the copies that come from byte-equal elements, keeping one per distinct element
     * (distinct elements with equal hashes both stay); returns the number of distinct elements, now at the front.
     * {@code hashes[i]} is the flipped hash of {@code items[i]}, so that no element is hashed twice: a block that pays
     * or spends one script twice, common on mainnet, takes this path.
     */
    private static int dropDuplicateElements(byte[][] items, long[] hashes, long[] sorted) {
        int runs = 0;
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i] == sorted[i - 1] && (i == 1 || sorted[i - 1] != sorted[i - 2])) {
                runs++;
            }
        }
        if (runs == 0) {
            return sorted.length;
        }
        long[] repeated = new long[runs];
        for (int i = 1, r = 0; i < sorted.length; i++) {
            if (sorted[i] == sorted[i - 1] && (i == 1 || sorted[i - 1] != sorted[i - 2])) {
                repeated[r++] = sorted[i];
            }
        }
        // Only elements whose hash repeats are compared by content; the rest are distinct by their hash already.
        @SuppressWarnings("unchecked")
        HashSet<ByteBuffer>[] contents = new HashSet[runs];
        for (int i = 0; i < items.length; i++) {
            int run = Arrays.binarySearch(repeated, hashes[i]);
            if (run >= 0) {
                if (contents[run] == null) {
                    contents[run] = new HashSet<>();
                }
                contents[run].add(ByteBuffer.wrap(items[i]));
            }
        }
        int kept = 0;
        for (int i = 0; i < sorted.length;) {
            int run = Arrays.binarySearch(repeated, sorted[i]);
            int copies = run >= 0 ? contents[run].size() : 1;
            long hash = sorted[i];
            while (i < sorted.length && sorted[i] == hash) {
                i++;
            }
            for (int c = 0; c < copies; c++) {
                sorted[kept++] = hash;
            }
        }
        return kept;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GcsFilter other && params.equals(other.params) && Arrays.equals(encoded, other.encoded);
    }

    @Override
    public int hashCode() {
        return 31 * params.hashCode() + Arrays.hashCode(encoded);
    }

    @Override
    public String toString() {
        String hex = encoded.length <= 40 ? Hex.encode(encoded) : Hex.encode(encoded, 0, 40) + "...";
        return "GcsFilter[N=" + elementCount + ", P=" + params.p() + ", M=" + params.m() + ", " + encoded.length
                + " bytes: " + hex + "]";
    }
}
