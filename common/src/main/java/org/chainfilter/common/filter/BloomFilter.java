package org.chainfilter.common.filter;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Locale;
import java.util.Objects;
import org.chainfilter.common.bits.LongArrayBitStore;
import org.chainfilter.common.bloom.CongruentialHashing;
import org.chainfilter.common.bloom.EnhancedDoubleHashing;
import org.chainfilter.common.bloom.IndexStrategy;
import org.chainfilter.common.bloom.KeyEncoder;
import org.chainfilter.common.hash.Hash128Function;
import org.chainfilter.common.hash.Murmur3;
import org.chainfilter.common.math.BloomMath;
import org.chainfilter.common.math.Shape;

/**
 * The generic Bloom filter: {@code m} bits in a {@link LongArrayBitStore}; an element is hashed by its
 * {@link KeyEncoder} with MurmurHash3 x64_128 (seed 0) and its {@code k} bit positions come from an
 * {@link IndexStrategy} ({@link CongruentialHashing} unless chosen otherwise; a filter written with
 * {@link EnhancedDoubleHashing}, the default before, is read back with it).
 *
 * <p>{@link #put} and {@link #mightContain} allocate nothing for the built-in encoders ({@code byte[]},
 * {@code CharSequence}) and for {@link #putLong}/{@link #mightContainLong}; {@code BloomFilterBenchmark} in
 * {@code bench/} shows 0 B/op with JMH's {@code -prof gc}. ({@code put(Long)} may box; the {@code long} methods do
 * not.)
 *
 * <p>Not thread-safe for writes: one writer, or many readers once the last write has been safely published. The
 * filter family's concurrent kind serves many writers.
 *
 * <p>The versioned binary form (all integers big-endian, {@link DataOutputStream} order):
 *
 * <pre>
 *   offset  size        field
 *   0       4           magic "CFBF" (0x43464246)
 *   4       1           format version, 1
 *   5       1           index strategy id ({@link EnhancedDoubleHashing#ID} = 1, {@link CongruentialHashing#ID} = 2)
 *   6       1           k, the hash function count, 1..255
 *   7       8           m, the bit count, at least 1
 *   15      8 * ceil(m/64)  the words: word i holds bits 64i..64i+63, bit 64i+j at mask 1 &lt;&lt; j; bits at or above
 *                       m are zero
 * </pre>
 *
 * The key encoding and the hash seed (0) are not recorded: a reader supplies the same {@link KeyEncoder}. The reader
 * knows the strategies of {@link IndexStrategy#forId}; a filter built on another strategy can be written but not read.
 *
 * @param <T> the element type
 */
public final class BloomFilter<T> implements MembershipFilter<T> {
    /** The first four bytes of the binary form: "CFBF". */
    public static final int MAGIC = 0x43464246;
    /** The binary form version this class writes and reads. */
    public static final int FORMAT_VERSION = 1;
    /** The size of the binary form's header, before the words. */
    public static final int HEADER_BYTES = 15;
    /** The MurmurHash3 x64_128 seed of the generic filter; fixed by format version 1. */
    static final int HASH_SEED = 0;
    /** The most words a {@link LongArrayBitStore} can hold (Java's array limit). */
    private static final long MAX_WORDS = Integer.MAX_VALUE - 8;

    private final KeyEncoder<? super T> encoder;
    private final IndexStrategy strategy;
    private final Shape shape;
    private final long bitCount;
    private final int hashFunctionCount;
    private final LongArrayBitStore bits;
    private long setBitCount;

    // One instance of each per filter, created here, so the hot paths allocate nothing.
    private final Hash128Function putHash;
    private final Hash128Function containsHash;

    private BloomFilter(KeyEncoder<? super T> encoder, IndexStrategy strategy, Shape shape, LongArrayBitStore bits) {
        this.encoder = Objects.requireNonNull(encoder, "encoder");
        this.strategy = Objects.requireNonNull(strategy, "strategy");
        this.shape = shape;
        this.bitCount = shape.bitCount();
        this.hashFunctionCount = shape.hashFunctionCount();
        this.bits = bits;
        this.setBitCount = bits.cardinality();
        this.putHash = (h1, h2) -> {
            int changed = strategy.setAll(h1, h2, hashFunctionCount, bits);
            setBitCount += changed;
            return changed != 0;
        };
        this.containsHash = (h1, h2) -> strategy.allSet(h1, h2, hashFunctionCount, bits);
    }

    /**
     * An empty filter sized for {@code expectedElements} at {@code falsePositiveRate}:
     * {@code m = ceil(-n ln p / (ln 2)^2)} bits and {@code k = round((m/n) ln 2)} (see {@link BloomMath}).
     *
     * @throws IllegalArgumentException if {@code n < 1}, {@code p} is not in (0, 1), or the bits do not fit a bit store
     */
    public static <T> BloomFilter<T> create(KeyEncoder<? super T> encoder, long expectedElements,
            double falsePositiveRate) {
        return create(encoder, Shape.fromElementsAndRate(expectedElements, falsePositiveRate));
    }

    /** An empty filter of the given shape, with {@link CongruentialHashing}. */
    public static <T> BloomFilter<T> create(KeyEncoder<? super T> encoder, Shape shape) {
        return create(encoder, shape, CongruentialHashing.INSTANCE);
    }

    /** An empty filter of the given shape and index strategy. */
    public static <T> BloomFilter<T> create(KeyEncoder<? super T> encoder, Shape shape, IndexStrategy strategy) {
        Objects.requireNonNull(shape, "shape");
        return new BloomFilter<>(encoder, strategy, shape, new LongArrayBitStore(shape.bitCount()));
    }

    /**
     * Adds {@code element}: sets its {@code k} bits. No allocation for the built-in encoders.
     *
     * @return whether any bit changed from 0 to 1 ({@code true} proves the element was not in the filter)
     */
    @Override
    public boolean put(T element) {
        return encoder.hash128(element, HASH_SEED, putHash);
    }

    /** Whether all {@code k} bits of {@code element} are set. No allocation for the built-in encoders. */
    @Override
    public boolean mightContain(T element) {
        return encoder.hash128(element, HASH_SEED, containsHash);
    }

    /**
     * Adds the element whose canonical bytes are the 8 little-endian bytes of {@code value}, without boxing: the same
     * element as {@code put(value)} with {@link KeyEncoder#longs()}. No allocation.
     */
    public boolean putLong(long value) {
        return Murmur3.x64_128OfLong(HASH_SEED, value, putHash);
    }

    /** {@link #mightContain} for the element {@link #putLong} adds. No allocation. */
    public boolean mightContainLong(long value) {
        return Murmur3.x64_128OfLong(HASH_SEED, value, containsHash);
    }

    /** The false-positive rate of the real fill, {@code (X/m)^k} for {@code X} set bits. */
    @Override
    public double expectedFpp() {
        return FamilyEstimates.classicFpp(setBitCount, shape);
    }

    /**
     * The Swamidass–Baldi estimate {@code round(-(m/k) ln(1 - X/m))} of the distinct elements put;
     * {@link Long#MAX_VALUE} once every bit is set.
     */
    @Override
    public long approximateElementCount() {
        return FamilyEstimates.classicElementCount(setBitCount, shape);
    }

    /**
     * ORs {@code other} into this filter: afterwards it answers {@code true} for everything either answered
     * {@code true} for.
     *
     * @throws IllegalArgumentException if the shapes, index strategies or key encoders differ
     */
    public void merge(BloomFilter<T> other) {
        checkCompatible(other);
        bits.or(other.bits);
        setBitCount = bits.cardinality();
    }

    /** Whether {@link #merge} would accept {@code other}: the same shape, index strategy and key encoder. */
    public boolean isCompatible(BloomFilter<?> other) {
        return shape.equals(other.shape) && strategy.id() == other.strategy.id() && encoder.equals(other.encoder);
    }

    private void checkCompatible(BloomFilter<?> other) {
        if (!shape.equals(other.shape)) {
            throw new IllegalArgumentException("cannot merge a filter of " + other.shape + " into one of " + shape);
        }
        if (strategy.id() != other.strategy.id()) {
            throw new IllegalArgumentException("cannot merge a filter with index strategy " + other.strategy
                    + " into one with " + strategy);
        }
        if (!encoder.equals(other.encoder)) {
            throw new IllegalArgumentException("cannot merge a filter with key encoder " + other.encoder
                    + " into one with " + encoder + "; pass the same encoder instance to both");
        }
    }

    @Override
    public void clear() {
        bits.clear();
        setBitCount = 0;
    }

    @Override
    public BloomFilter<T> copy() {
        return new BloomFilter<>(encoder, strategy, shape, bits.copy());
    }

    /** {@code m} and {@code k}. */
    public Shape shape() {
        return shape;
    }

    /** How many of the {@code m} bits are set. */
    public long setBitCount() {
        return setBitCount;
    }

    /** The index strategy. */
    public IndexStrategy indexStrategy() {
        return strategy;
    }

    /** Writes the binary form documented on the class. */
    @Override
    public void writeTo(OutputStream out) throws IOException {
        DataOutputStream data = new DataOutputStream(out);
        data.writeInt(MAGIC);
        data.writeByte(FORMAT_VERSION);
        data.writeByte(strategy.id());
        data.writeByte(hashFunctionCount);
        data.writeLong(bitCount);
        for (int i = 0, n = bits.wordCount(); i < n; i++) {
            data.writeLong(bits.word(i));
        }
        data.flush();
    }

    /** The size of this filter's binary form in bytes: {@code 15 + 8 ceil(m/64)}. */
    public long serializedSize() {
        return serializedSize(bitCount);
    }

    private static long serializedSize(long bitCount) {
        return HEADER_BYTES + 8 * wordCount(bitCount);
    }

    /** {@code ceil(m / 64)} without overflow for any {@code m}. */
    private static long wordCount(long bitCount) {
        return (bitCount >>> 6) + ((bitCount & 63) == 0 ? 0 : 1);
    }

    /**
     * Reads a filter in the binary form documented on the class, refusing before any allocation a declared size over
     * {@code maxBytes}.
     *
     * @param encoder the key encoder the filter was written with (the form does not record it)
     * @param maxBytes the largest binary form the caller accepts, header included
     * @throws IllegalArgumentException if the magic, version, strategy, {@code k} or {@code m} is invalid, the size
     *     exceeds {@code maxBytes}, or bits at or above {@code m} are set
     * @throws EOFException if the stream ends before the declared words ("Bloom filter binary form is truncated: ...")
     */
    public static <T> BloomFilter<T> readFrom(InputStream in, KeyEncoder<? super T> encoder, long maxBytes)
            throws IOException {
        return FamilyBinaryForm.namingTruncation("Bloom filter", () -> read(in, encoder, maxBytes, false));
    }

    private static <T> BloomFilter<T> read(InputStream in, KeyEncoder<? super T> encoder, long maxBytes,
            boolean boundIsTheInput) throws IOException {
        Objects.requireNonNull(encoder, "encoder");
        DataInputStream data = new DataInputStream(in);
        int magic = data.readInt();
        if (magic != MAGIC) {
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                    "magic is 0x%08x; a chainfilter Bloom filter starts with 0x%08x (\"CFBF\")", magic, MAGIC));
        }
        int version = data.readUnsignedByte();
        if (version != FORMAT_VERSION) {
            throw new IllegalArgumentException(
                    "Bloom filter format version is " + version + "; this reader knows version " + FORMAT_VERSION);
        }
        IndexStrategy strategy = IndexStrategy.forId(data.readUnsignedByte());
        int k = data.readUnsignedByte();
        long m = data.readLong();
        if (m < 1) {
            throw new IllegalArgumentException("bit count is " + m + "; it must be at least 1");
        }
        Shape shape = Shape.of(m, k);
        long wordCount = wordCount(m);
        long size = HEADER_BYTES + 8 * wordCount;
        if (size > maxBytes) {
            throw new IllegalArgumentException(boundIsTheInput
                    ? "Bloom filter header declares " + size + " bytes; " + maxBytes + " are given"
                    : "Bloom filter is " + size + " bytes; the caller allows at most " + maxBytes);
        }
        if (wordCount > MAX_WORDS) {
            throw new IllegalArgumentException(
                    "bit count is " + m + "; a filter holds at most " + MAX_WORDS * 64 + " bits");
        }
        long[] words = FamilyBinaryForm.readWords(data, (int) wordCount);
        return new BloomFilter<>(encoder, strategy, shape, LongArrayBitStore.fromWords(m, words));
    }

    /**
     * Reads a filter from exactly the bytes of its binary form.
     *
     * @throws IllegalArgumentException as {@link #readFrom(InputStream, KeyEncoder, long)}, and if the bytes are
     *     fewer or more than the header declares
     */
    public static <T> BloomFilter<T> fromByteArray(byte[] bytes, KeyEncoder<? super T> encoder) {
        ByteArrayInputStream in = new ByteArrayInputStream(bytes);
        BloomFilter<T> filter;
        try {
            filter = read(in, encoder, bytes.length, true);
        } catch (EOFException e) {
            // the words cannot run short: the declared size was checked against the input's length
            throw new IllegalArgumentException("Bloom filter is truncated: " + bytes.length
                    + " bytes end inside the " + HEADER_BYTES + "-byte header");
        } catch (IOException e) {
            throw new IllegalStateException("a byte array stream cannot fail", e);
        }
        if (in.available() > 0) {
            throw new IllegalArgumentException("Bloom filter of " + filter.serializedSize() + " bytes is followed by "
                    + in.available() + " more bytes");
        }
        return filter;
    }

    /** Equal when the shape, index strategy, key encoder and bits are equal. */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof BloomFilter)) {
            return false;
        }
        BloomFilter<?> other = (BloomFilter<?>) o;
        return isCompatible(other) && bits.equals(other.bits);
    }

    @Override
    public int hashCode() {
        return Objects.hash(shape, strategy.id(), bits);
    }

    @Override
    public String toString() {
        return "BloomFilter[m=" + bitCount + ", k=" + hashFunctionCount + ", setBits=" + setBitCount
                + ", strategy=" + strategy + ", encoder=" + encoder + "]";
    }
}
