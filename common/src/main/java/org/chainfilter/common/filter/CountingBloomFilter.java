package org.chainfilter.common.filter;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.LongPredicate;
import org.chainfilter.common.bloom.CongruentialHashing;
import org.chainfilter.common.bloom.EnhancedDoubleHashing;
import org.chainfilter.common.bloom.IndexStrategy;
import org.chainfilter.common.bloom.KeyEncoder;
import org.chainfilter.common.hash.Hash128Function;
import org.chainfilter.common.math.BloomMath;
import org.chainfilter.common.math.Shape;

/**
 * A counting Bloom filter (Fan, Cao, Almeida and Broder, "Summary Cache", IEEE/ACM ToN 8(3), 2000): each of the
 * {@code m} positions is a 4-bit counter instead of a bit, so items can be removed. Positions come from the generic
 * {@link CongruentialHashing} of the key's MurmurHash3 x64_128 hash under seed 0, exactly as in the plain
 * {@link BloomFilter} (a filter read from a form written with {@link EnhancedDoubleHashing}, the default before, keeps
 * it); a position is "set" when its counter is non-zero, so the false-positive rate is the classic
 * {@code (1 - e^{-kn/m})^k} of {@link BloomMath}.
 *
 * <p><b>Saturation rule.</b> A counter that reaches 15 stays at 15: further inserts leave it there and removals never
 * decrement it. Its true count is unknown once it has overflowed, and decrementing it could bring it to 0 while items
 * still map to it. Hence: an item that was put and not removed is never reported absent (no false negatives), at the
 * price that a saturated counter never clears (Fan et al. show that with 4 bits and the optimal {@code k} the chance
 * of any counter reaching 16 is below {@code 1.37e-15 * m}).
 *
 * <p><b>Removing an absent item.</b> {@link #remove} first reads the item's {@code k} counters. If any is 0, or a
 * counter that the item hits {@code j} times holds less than {@code j} (and is not saturated), the item cannot have
 * been put: {@code remove} returns {@code false} and changes nothing. Otherwise it decrements the counters. An item
 * that was never put but whose counters are all non-zero (a false positive) cannot be told apart from a member; removing
 * it takes counts that belong to other items and can make them false negatives, so callers must only remove items they
 * put.
 *
 * <p>{@link #put}, {@link #mightContain} and {@link #remove} allocate nothing for the built-in key encoders. Not
 * thread-safe (the operations keep per-call state in fields).
 *
 * @param <T> the element type
 */
public final class CountingBloomFilter<T> implements RemovableFilter<T> {
    static final String KIND = "counting Bloom filter";

    private final KeyEncoder<? super T> encoder;
    private final IndexStrategy strategy;
    private final Shape shape;
    private final long cellCount;
    private final int hashFunctionCount;
    private final FourBitCells cells;
    /** The item's positions during {@link #remove}. */
    private final long[] positions;
    private int positionCount;
    private boolean sawZero;

    private final LongPredicate increment = this::increment;
    private final LongPredicate nonZero = this::nonZero;
    private final LongPredicate collectNonZero = this::collectNonZero;
    private final Hash128Function putHash = this::putHash;
    private final Hash128Function containsHash = this::containsHash;
    private final Hash128Function removeHash = this::removeHash;

    private CountingBloomFilter(KeyEncoder<? super T> encoder, IndexStrategy strategy, Shape shape,
            FourBitCells cells) {
        this.encoder = encoder;
        this.strategy = strategy;
        this.shape = shape;
        this.cellCount = shape.bitCount();
        this.hashFunctionCount = shape.hashFunctionCount();
        this.cells = cells;
        this.positions = new long[hashFunctionCount];
    }

    private boolean increment(long cell) {
        sawZero |= cells.increment(cell) == 0;
        return true;
    }

    private boolean nonZero(long cell) {
        return cells.get(cell) != 0;
    }

    private boolean collectNonZero(long cell) {
        positions[positionCount++] = cell;
        return cells.get(cell) != 0;
    }

    /**
     * A filter for {@code expectedElements} items at {@code falsePositiveRate}, with the classic optimal shape
     * ({@link Shape#fromElementsAndRate}); it takes 4 bits per position, so 4 times a plain filter's memory.
     *
     * @throws IllegalArgumentException if {@code n < 1}, the rate is not in (0, 1), or the filter would exceed
     *     {@link FourBitCells#MAX_CELLS} counters
     */
    public static <T> CountingBloomFilter<T> create(KeyEncoder<? super T> encoder,
            long expectedElements, double falsePositiveRate) {
        return withShape(encoder, Shape.fromElementsAndRate(expectedElements, falsePositiveRate));
    }

    /** A filter of {@code shape.bitCount()} 4-bit counters and {@code shape.hashFunctionCount()} positions per item. */
    public static <T> CountingBloomFilter<T> withShape(KeyEncoder<? super T> encoder, Shape shape) {
        Objects.requireNonNull(encoder, "encoder");
        Objects.requireNonNull(shape, "shape");
        return new CountingBloomFilter<>(encoder, CongruentialHashing.INSTANCE, shape,
                new FourBitCells(shape.bitCount()));
    }

    /**
     * Increments the item's {@code k} counters (a saturated one stays at 15).
     *
     * @return whether any of them was 0 before, i.e. whether the item was certainly new (the plain Bloom filter's
     *     "a bit changed")
     */
    @Override
    public boolean put(T element) {
        return encoder.hash128(element, 0, putHash);
    }

    /** Whether all {@code k} of the item's counters are non-zero. */
    @Override
    public boolean mightContain(T element) {
        return encoder.hash128(element, 0, containsHash);
    }

    /**
     * Decrements the item's counters (saturated ones excepted), if they show it may be present.
     *
     * @return {@code false}, changing nothing, when a counter proves the item absent (see the class comment)
     */
    @Override
    public boolean remove(T element) {
        return encoder.hash128(element, 0, removeHash);
    }

    private boolean putHash(long h1, long h2) {
        sawZero = false;
        strategy.forEachIndex(h1, h2, hashFunctionCount, cellCount, increment);
        return sawZero;
    }

    private boolean containsHash(long h1, long h2) {
        return strategy.forEachIndex(h1, h2, hashFunctionCount, cellCount, nonZero);
    }

    private boolean removeHash(long h1, long h2) {
        positionCount = 0;
        if (!strategy.forEachIndex(h1, h2, hashFunctionCount, cellCount, collectNonZero)) {
            return false;
        }
        // The strategy may repeat a position; such a counter must hold at least as many counts as hits.
        for (int i = 0; i < hashFunctionCount; i++) {
            int value = cells.get(positions[i]);
            if (value != FourBitCells.SATURATED && value < hitsOn(positions[i])) {
                return false;
            }
        }
        for (int i = 0; i < hashFunctionCount; i++) {
            cells.decrement(positions[i]);
        }
        return true;
    }

    private int hitsOn(long cell) {
        int hits = 0;
        for (int i = 0; i < hashFunctionCount; i++) {
            if (positions[i] == cell) {
                hits++;
            }
        }
        return hits;
    }

    /** The value of counter {@code cell}, 0 to 15 (15 meaning saturated). */
    public int counter(long cell) {
        if (cell < 0 || cell >= cellCount) {
            throw new IndexOutOfBoundsException("counter index " + cell + " is outside [0, " + cellCount + ")");
        }
        return cells.get(cell);
    }

    /** {@code (X/m)^k} with {@code X} the number of non-zero counters. */
    @Override
    public double expectedFpp() {
        return FamilyEstimates.classicFpp(cells.nonZeroCount(), shape);
    }

    /** Swamidass–Baldi over the non-zero counters; {@link Long#MAX_VALUE} if every counter is non-zero. */
    @Override
    public long approximateElementCount() {
        return FamilyEstimates.classicElementCount(cells.nonZeroCount(), shape);
    }

    /** The shape: {@code m} counters, {@code k} positions per item. */
    public Shape shape() {
        return shape;
    }

    @Override
    public void clear() {
        cells.clear();
    }

    @Override
    public CountingBloomFilter<T> copy() {
        return new CountingBloomFilter<>(encoder, strategy, shape, cells.copy());
    }

    /**
     * Writes the binary form: the family header (kind 1, see {@link FamilyBinaryForm}), the index strategy id
     * (1 byte, 2 = congruential hashing, or 1 = enhanced double hashing for a filter read from a form of it), {@code k}
     * (1 byte), the counter count {@code m} (8 bytes), then the {@code ceil(m / 16)} words, counter {@code i} in bits
     * {@code 4(i mod 16)..+3} of word {@code i / 16}.
     */
    @Override
    public void writeTo(OutputStream out) throws IOException {
        long[] words = cells.words;
        FamilyBinaryForm.writeShapeAndWords(out, FamilyBinaryForm.COUNTING, strategy, shape, words.length,
                i -> words[i]);
    }

    /**
     * Reads a filter written by {@link #writeTo}, refusing one larger than {@code maxBytes} before allocating it.
     *
     * @throws IllegalArgumentException if the header is not a counting filter's, a field is out of range, counters past
     *     the end are non-zero, or the filter is larger than {@code maxBytes}
     * @throws IOException if the stream fails, or ends early (an {@link java.io.EOFException} naming the kind)
     */
    public static <T> CountingBloomFilter<T> readFrom(InputStream in, KeyEncoder<? super T> encoder, long maxBytes)
            throws IOException {
        return FamilyBinaryForm.namingTruncation(KIND, () -> read(in, encoder, maxBytes));
    }

    private static <T> CountingBloomFilter<T> read(InputStream in, KeyEncoder<? super T> encoder, long maxBytes)
            throws IOException {
        Objects.requireNonNull(encoder, "encoder");
        FamilyBinaryForm.ShapeAndWords read = FamilyBinaryForm.readShapeAndWords(in, FamilyBinaryForm.COUNTING, KIND,
                4, FourBitCells::wordsFor, maxBytes, "counters at or above %d are non-zero");
        return new CountingBloomFilter<>(encoder, read.strategy(), read.shape(),
                new FourBitCells(read.shape().bitCount(), read.words()));
    }

    /**
     * Equal when the index strategy, the shape, the key encoder and every cell are equal (what the binary form holds,
     * with the encoder).
     * Like the cells it reads, not safe against a concurrent writer.
     */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof CountingBloomFilter)) {
            return false;
        }
        CountingBloomFilter<?> other = (CountingBloomFilter<?>) o;
        return strategy.id() == other.strategy.id() && shape.equals(other.shape) && encoder.equals(other.encoder)
                && Arrays.equals(cells.words, other.cells.words);
    }

    @Override
    public int hashCode() {
        return 31 * shape.hashCode() + Arrays.hashCode(cells.words);
    }

    @Override
    public String toString() {
        return "CountingBloomFilter[counters=" + cellCount + ", k=" + hashFunctionCount + "]";
    }
}
