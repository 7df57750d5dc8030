package org.chainfilter.common.filter;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import java.util.function.LongPredicate;
import org.chainfilter.common.bits.AtomicBitStore;
import org.chainfilter.common.bloom.CongruentialHashing;
import org.chainfilter.common.bloom.EnhancedDoubleHashing;
import org.chainfilter.common.bloom.IndexStrategy;
import org.chainfilter.common.bloom.KeyEncoder;
import org.chainfilter.common.hash.Hash128Function;
import org.chainfilter.common.math.Shape;

/**
 * A Bloom filter that any number of threads may {@link #put} into and query at once, without a lock. The bits live in
 * an {@link AtomicBitStore}: setting a bit is one atomic {@code getAndBitwiseOr} on its 64-bit word (a
 * {@code VarHandle} operation, {@code LOCK OR} on x86), so two writers setting bits of the same word never lose each
 * other's bit, and bits are only ever set (never cleared, except by {@link #clear}). Positions are the generic
 * {@link CongruentialHashing} of the key's MurmurHash3 x64_128 hash under seed 0, as in {@link BloomFilter} (a filter
 * read from a form written with {@link EnhancedDoubleHashing}, the default before, keeps it), so the rate is the
 * classic {@code (1 - e^{-kn/m})^k}.
 *
 * <p><b>Guarantees.</b> Once {@code put(x)} has returned in one thread, {@code mightContain(x)} is {@code true} in every
 * thread that observes that return (a happens-before edge, e.g. a join or a volatile flag): the reads use acquire and
 * the writes release semantics. A {@code mightContain} that overlaps the {@code put} may see some of its bits and answer
 * either way. {@link #clear}, {@link #copy} and {@link #writeTo} are word-wise atomic but not a snapshot while writers
 * run.
 *
 * <p><b>Why no shards.</b> Lock striping would help a lock-based filter; this one has no lock. Contention is only on
 * the cache line of a word two threads set at the same moment, and with {@code m} in the millions that is rare; the
 * atomic write is skipped entirely when the bit is already set (most puts into a filling filter). Splitting the array
 * into shards changes none of that, so there is no sharded variant.
 *
 * <p>{@link #put} and {@link #mightContain} allocate nothing for the built-in key encoders.
 *
 * @param <T> the element type
 */
public final class ConcurrentBloomFilter<T> implements MembershipFilter<T> {
    static final String KIND = "concurrent Bloom filter";

    private final KeyEncoder<? super T> encoder;
    private final IndexStrategy strategy;
    private final Shape shape;
    private final long bitCount;
    private final int hashFunctionCount;
    private final AtomicBitStore bits;
    private final LongPredicate isSet;
    private final LongPredicate setBit;
    private final Hash128Function putHash = this::putHash;
    private final Hash128Function containsHash = this::containsHash;

    private ConcurrentBloomFilter(KeyEncoder<? super T> encoder, IndexStrategy strategy, Shape shape,
            AtomicBitStore bits) {
        this.encoder = encoder;
        this.strategy = strategy;
        this.shape = shape;
        this.bitCount = shape.bitCount();
        this.hashFunctionCount = shape.hashFunctionCount();
        this.bits = bits;
        this.isSet = bits::get;
        this.setBit = position -> {
            bits.set(position);
            return true;
        };
    }

    /** A filter for {@code expectedElements} items at {@code falsePositiveRate} with the classic optimal shape. */
    public static <T> ConcurrentBloomFilter<T> create(KeyEncoder<? super T> encoder,
            long expectedElements, double falsePositiveRate) {
        return withShape(encoder, Shape.fromElementsAndRate(expectedElements, falsePositiveRate));
    }

    /** A filter of {@code shape.bitCount()} bits and {@code shape.hashFunctionCount()} positions per item. */
    public static <T> ConcurrentBloomFilter<T> withShape(KeyEncoder<? super T> encoder, Shape shape) {
        Objects.requireNonNull(encoder, "encoder");
        Objects.requireNonNull(shape, "shape");
        return new ConcurrentBloomFilter<>(encoder, CongruentialHashing.INSTANCE, shape,
                new AtomicBitStore(shape.bitCount()));
    }

    /**
     * Sets the item's {@code k} bits; safe from any thread.
     *
     * @return whether any of the bits was clear when this call looked (two threads putting the same new item at once
     *     may both answer {@code true})
     */
    @Override
    public boolean put(T element) {
        return encoder.hash128(element, 0, putHash);
    }

    /** Whether all {@code k} of the item's bits are set; safe from any thread. */
    @Override
    public boolean mightContain(T element) {
        return encoder.hash128(element, 0, containsHash);
    }

    private boolean putHash(long h1, long h2) {
        // A read-only pass first: an item whose bits are all set needs no atomic write at all.
        if (strategy.forEachIndex(h1, h2, hashFunctionCount, bitCount, isSet)) {
            return false;
        }
        return strategy.forEachIndex(h1, h2, hashFunctionCount, bitCount, setBit);
    }

    private boolean containsHash(long h1, long h2) {
        return strategy.forEachIndex(h1, h2, hashFunctionCount, bitCount, isSet);
    }

    /** {@code (X/m)^k} with {@code X} the set bits (a moment's count while writers run). */
    @Override
    public double expectedFpp() {
        return FamilyEstimates.classicFpp(bits.cardinality(), shape);
    }

    /** Swamidass–Baldi over the set bits; {@link Long#MAX_VALUE} if every bit is set. */
    @Override
    public long approximateElementCount() {
        return FamilyEstimates.classicElementCount(bits.cardinality(), shape);
    }

    /** The shape: {@code m} bits, {@code k} positions per item. */
    public Shape shape() {
        return shape;
    }

    @Override
    public void clear() {
        bits.clear();
    }

    @Override
    public ConcurrentBloomFilter<T> copy() {
        return new ConcurrentBloomFilter<>(encoder, strategy, shape, bits.copy());
    }

    /**
     * Writes the binary form: the family header (kind 4, see {@link FamilyBinaryForm}), the index strategy id (1 byte,
     * 2 = congruential hashing, or 1 = enhanced double hashing for a filter read from a form of it), {@code k}
     * (1 byte), {@code m} (8 bytes), then the {@code ceil(m / 64)} words, bit {@code i} at mask
     * {@code 1L << (i mod 64)} of word {@code i / 64}.
     */
    @Override
    public void writeTo(OutputStream out) throws IOException {
        FamilyBinaryForm.writeShapeAndWords(out, FamilyBinaryForm.CONCURRENT, strategy, shape, bits.wordCount(),
                bits::word);
    }

    /**
     * Reads a filter written by {@link #writeTo}, refusing one larger than {@code maxBytes} before allocating it.
     *
     * @throws IllegalArgumentException if the header is not this kind's, a field is out of range, bits past the end are
     *     set, or the filter is larger than {@code maxBytes}
     * @throws IOException if the stream fails, or ends early (an {@link java.io.EOFException} naming the kind)
     */
    public static <T> ConcurrentBloomFilter<T> readFrom(InputStream in, KeyEncoder<? super T> encoder, long maxBytes)
            throws IOException {
        return FamilyBinaryForm.namingTruncation(KIND, () -> read(in, encoder, maxBytes));
    }

    private static <T> ConcurrentBloomFilter<T> read(InputStream in, KeyEncoder<? super T> encoder, long maxBytes)
            throws IOException {
        Objects.requireNonNull(encoder, "encoder");
        FamilyBinaryForm.ShapeAndWords read = FamilyBinaryForm.readShapeAndWords(in, FamilyBinaryForm.CONCURRENT,
                KIND, 1, ConcurrentBloomFilter::wordsFor, maxBytes, "bits at or above %d are set");
        AtomicBitStore bits = new AtomicBitStore(read.shape().bitCount());
        long[] words = read.words();
        for (int w = 0; w < words.length; w++) {
            for (long rest = words[w]; rest != 0; rest &= rest - 1) {
                bits.set(((long) w << 6) + Long.numberOfTrailingZeros(rest));
            }
        }
        return new ConcurrentBloomFilter<>(encoder, read.strategy(), read.shape(), bits);
    }

    private static int wordsFor(long bitCount) {
        if (bitCount > (long) (Integer.MAX_VALUE - 8) * 64) {
            throw new IllegalArgumentException("bit count is " + bitCount + "; a bit store holds at most "
                    + (long) (Integer.MAX_VALUE - 8) * 64 + " bits");
        }
        return (int) ((bitCount + 63) >>> 6);
    }

    /**
     * Equal when the index strategy, the shape, the key encoder and every bit are equal. The bits are read one word
     * at a time, so with writers running the answer is of no single moment.
     */
    @Override
    public boolean equals(Object o) {
        if (o == this) {
            // Reflexive even while writers run, when comparing the bits with themselves could see two moments.
            return true;
        }
        if (!(o instanceof ConcurrentBloomFilter)) {
            return false;
        }
        ConcurrentBloomFilter<?> other = (ConcurrentBloomFilter<?>) o;
        return strategy.id() == other.strategy.id() && shape.equals(other.shape) && encoder.equals(other.encoder)
                && bits.equals(other.bits);
    }

    @Override
    public int hashCode() {
        return 31 * shape.hashCode() + bits.hashCode();
    }

    @Override
    public String toString() {
        return "ConcurrentBloomFilter[bits=" + bitCount + ", k=" + hashFunctionCount + "]";
    }
}
