package org.chainfilter.common.filter;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import org.chainfilter.common.bloom.KeyEncoder;
import org.chainfilter.common.math.Shape;

/**
 * A scalable Bloom filter (Almeida, Baquero, Preguiça and Hutchison, "Scalable Bloom Filters", Information Processing
 * Letters 101(6), 2007): a chain of {@link BloomFilter} stages that grows when the current stage is full, so the
 * number of items need not be known in advance while the false-positive rate stays under a bound.
 *
 * <p>Stage {@code i} (from 0) is sized for {@code n_i = n_0 s^i} items at rate {@code P_i = P_0 r^i}, with growth
 * {@code s = 2} and tightening {@code r = 0.8} (the paper's recommended pair for fast growth), and
 * {@code P_0 = P (1 - r)}. A query is positive if any stage is, so the compound rate is
 * <pre>
 *   1 - Π_i (1 - P_i)  ≤  Σ_i P_0 r^i  ≤  P_0 / (1 - r)  =  P
 * </pre>
 * however many stages there are (section 4 of the paper). A stage counts as full by the paper's fill-ratio criterion,
 * taken exactly: a stage of {@code m} bits and {@code k} probes with {@code X} bits set answers a random query
 * positive with probability {@code (X/m)^k}, so it takes a new item only while {@code X + k ≤ m P_i^{1/k}} (an item
 * sets at most {@code k} more bits). Each stage's rate therefore stays at most {@code P_i} whatever its size and
 * however its items fell, which holds the compound bound; an optimally sized stage fills up at about {@code n_i}
 * items. (An earlier rule, a fill-based estimate of the item count reaching {@code n_i}, let small stages take an item
 * or two more than they were sized for, and a first stage for a handful of items break the bound: measured 4.4% at
 * {@code P} = 1% with {@code n_0} = 1.) The rule reads only the stage's bits, so a filter read back from its binary
 * form goes on exactly as it would have.
 *
 * <p>{@link #put} first asks every stage, so an item already present (or a false positive) is not added again and
 * does not use up capacity. {@link #put} and {@link #mightContain} allocate nothing for the built-in key encoders,
 * except when a put opens a new stage. Not thread-safe.
 *
 * @param <T> the element type
 */
public final class ScalableBloomFilter<T> implements MembershipFilter<T> {
    static final String KIND = "scalable Bloom filter";
    /** {@code s}: each stage holds twice the items of the one before. */
    public static final int GROWTH = 2;
    /** {@code r}: each stage's rate is 0.8 times the one before. */
    public static final double TIGHTENING = 0.8;
    /** The most stages: {@code n_0 2^39} items, beyond any bit store's size for every {@code n_0}. */
    public static final int MAX_STAGES = 40;

    private final KeyEncoder<? super T> encoder;
    private final long initialCapacity;
    private final double falsePositiveRate;
    private final List<BloomFilter<T>> stages;
    private BloomFilter<T> current;
    /** The most bits the current stage may have set before an item is put: {@code m P_i^{1/k} - k}. */
    private double currentFillLimit;

    private ScalableBloomFilter(KeyEncoder<? super T> encoder, long initialCapacity, double falsePositiveRate,
            List<BloomFilter<T>> stages) {
        this.encoder = encoder;
        this.initialCapacity = initialCapacity;
        this.falsePositiveRate = falsePositiveRate;
        this.stages = stages;
        this.current = stages.get(stages.size() - 1);
        this.currentFillLimit = fillLimit(current.shape(), stageRate(falsePositiveRate, stages.size() - 1));
    }

    /**
     * The set-bit count up to which a stage of {@code shape} may take another item and keep its rate at most
     * {@code rate}: {@code m rate^{1/k} - k}.
     */
    static double fillLimit(Shape shape, double rate) {
        int k = shape.hashFunctionCount();
        return shape.bitCount() * Math.pow(rate, 1.0 / k) - k;
    }

    /**
     * The most bits the puts of a stage of {@code shape} at {@code rate} can leave set: a put goes in while at most
     * {@code ⌊fillLimit⌋} bits are set and sets at most k more; a stage whose limit is negative takes no item.
     */
    static long mostSetBits(Shape shape, double rate) {
        double limit = fillLimit(shape, rate);
        return limit < 0 ? 0 : (long) Math.floor(limit) + shape.hashFunctionCount();
    }

    /**
     * An empty filter whose first stage holds {@code initialCapacity} items and whose compound rate stays at most
     * {@code falsePositiveRate} as it grows.
     *
     * @throws IllegalArgumentException if the capacity is below 1, the rate is not in (0, 1), or the first stage cannot
     *     be made (its shape or its bit store is refused; the message names {@code P}, {@code n_0} and the stage's
     *     rate {@code P (1 - r)})
     */
    public static <T> ScalableBloomFilter<T> create(
            KeyEncoder<? super T> encoder, long initialCapacity, double falsePositiveRate) {
        Objects.requireNonNull(encoder, "encoder");
        checkParameters(initialCapacity, falsePositiveRate);
        List<BloomFilter<T>> stages = new ArrayList<>();
        try {
            stages.add(BloomFilter.create(encoder, stageShape(initialCapacity, falsePositiveRate, 0)));
        } catch (IllegalArgumentException e) {
            // The shape's refusal names the first stage's rate P (1 - r), which the caller never gave.
            throw new IllegalArgumentException("false-positive rate bound is " + falsePositiveRate
                    + " with initial capacity " + initialCapacity + ": the first stage, for " + initialCapacity
                    + " items at P (1 - r) = " + stageRate(falsePositiveRate, 0) + ", cannot be made: "
                    + e.getMessage(), e);
        }
        return new ScalableBloomFilter<>(encoder, initialCapacity, falsePositiveRate, stages);
    }

    private static void checkParameters(long initialCapacity, double falsePositiveRate) {
        if (initialCapacity < 1) {
            throw new IllegalArgumentException("initial capacity is " + initialCapacity + "; it must be at least 1");
        }
        if (!(falsePositiveRate > 0 && falsePositiveRate < 1)) {
            throw new IllegalArgumentException(
                    "false-positive rate is " + falsePositiveRate + "; it must be strictly between 0 and 1");
        }
    }

    /** {@code n_0 s^i}. */
    static long stageCapacity(long initialCapacity, int stage) {
        return Math.multiplyExact(initialCapacity, 1L << stage);
    }

    /** {@code P_i = P (1 - r) r^i}. */
    static double stageRate(double falsePositiveRate, int stage) {
        return falsePositiveRate * (1 - TIGHTENING) * Math.pow(TIGHTENING, stage);
    }

    /** The optimal shape for stage {@code i}: {@code n_0 s^i} items at {@code P_i}. */
    static Shape stageShape(long initialCapacity, double falsePositiveRate, int stage) {
        return Shape.fromElementsAndRate(
                stageCapacity(initialCapacity, stage), stageRate(falsePositiveRate, stage));
    }

    /**
     * Adds {@code element} to the current stage unless a stage already reports it; opens a new stage when the current
     * one is full.
     *
     * @return whether the element was added (no stage reported it)
     * @throws FilterFullException if the filter already has {@link #MAX_STAGES} stages, or the next stage would not fit
     *     a bit store; the filter then holds the same items as before
     */
    @Override
    public boolean put(T element) {
        if (mightContain(element)) {
            return false;
        }
        // A stage too small to take even one item at its rate (a first stage for a handful of items) is passed by.
        while (current.setBitCount() > currentFillLimit) {
            addStage();
        }
        return current.put(element);
    }

    private void addStage() {
        int next = stages.size();
        Shape shape;
        try {
            if (next >= MAX_STAGES) {
                throw new IllegalArgumentException("it has " + MAX_STAGES + " stages, the most allowed");
            }
            shape = stageShape(initialCapacity, falsePositiveRate, next);
            stages.add(BloomFilter.create(encoder, shape));
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new FilterFullException("scalable Bloom filter cannot grow past stage " + (next - 1) + ": "
                    + e.getMessage());
        }
        current = stages.get(next);
        currentFillLimit = fillLimit(shape, stageRate(falsePositiveRate, next));
    }

    /** Whether any stage might contain the element; the newest (largest) stage is asked first. */
    @Override
    public boolean mightContain(T element) {
        for (int i = stages.size() - 1; i >= 0; i--) {
            if (stages.get(i).mightContain(element)) {
                return true;
            }
        }
        return false;
    }

    /** {@code 1 - Π_i (1 - p_i)} with {@code p_i} each stage's rate from its fill. */
    @Override
    public double expectedFpp() {
        return FamilyEstimates.compoundFpp(stages);
    }

    /**
     * The a-priori compound rate after {@code elements} distinct puts: the items fill the stages in order, stage
     * {@code i} taking {@code n_0 2^i} (where the fill rule stops a stage of the optimal shape; a stage too small to
     * take one item at its rate takes none), and the rate is {@code 1 - Π_i (1 - (1 - e^{-k_i n_i/m_i})^{k_i})}.
     *
     * @throws IllegalArgumentException if {@code elements} is negative, or more than {@link #MAX_STAGES} stages hold
     *     (or than stages that fit a bit store hold)
     */
    public double falsePositiveRate(long elements) {
        if (elements < 0) {
            throw new IllegalArgumentException("element count is " + elements + "; it must not be negative");
        }
        double allNegative = 1;
        long left = elements;
        for (int i = 0; left > 0; i++) {
            Shape shape;
            try {
                if (i >= MAX_STAGES) {
                    throw new IllegalArgumentException("it has at most " + MAX_STAGES + " stages");
                }
                shape = stageShape(initialCapacity, falsePositiveRate, i);
            } catch (IllegalArgumentException | ArithmeticException e) {
                throw new IllegalArgumentException("element count is " + elements + "; a scalable filter of n0 = "
                        + initialCapacity + " cannot hold that many: " + e.getMessage(), e);
            }
            if (fillLimit(shape, stageRate(falsePositiveRate, i)) < 0) {
                continue;
            }
            long here = Math.min(left, stageCapacity(initialCapacity, i));
            allNegative *= 1 - shape.falsePositiveRate(here);
            left -= here;
        }
        return 1 - allNegative;
    }

    /** The sum of the stages' Swamidass–Baldi estimates ({@link Long#MAX_VALUE} once a stage is full). */
    @Override
    public long approximateElementCount() {
        return FamilyEstimates.summedElementCount(stages);
    }

    /** The number of stages so far. */
    public int stageCount() {
        return stages.size();
    }

    /** The compound rate bound {@code P} the filter keeps. */
    public double falsePositiveRateBound() {
        return falsePositiveRate;
    }

    /** Empties the filter back to its first stage. */
    @Override
    public void clear() {
        stages.subList(1, stages.size()).clear();
        current = stages.get(0);
        current.clear();
        currentFillLimit = fillLimit(current.shape(), stageRate(falsePositiveRate, 0));
    }

    @Override
    public ScalableBloomFilter<T> copy() {
        return new ScalableBloomFilter<>(encoder, initialCapacity, falsePositiveRate,
                stages.stream().map(BloomFilter::copy).collect(Collectors.toCollection(ArrayList::new)));
    }

    /**
     * Writes the binary form: the family header (kind 2, see {@link FamilyBinaryForm}), the rate bound {@code P}
     * (8-byte IEEE double), {@code n_0} (8 bytes), the stage count (1 byte), then each stage in {@link BloomFilter}'s
     * binary form. The stages' shapes follow from {@code P} and {@code n_0}, so a reader knows the total size from
     * the first 23 bytes.
     */
    @Override
    public void writeTo(OutputStream out) throws IOException {
        FamilyBinaryForm.writeChain(out, FamilyBinaryForm.SCALABLE, falsePositiveRate, initialCapacity, stages);
    }

    /**
     * Reads a filter written by {@link #writeTo}, refusing one larger than {@code maxBytes} before allocating it.
     *
     * @throws IllegalArgumentException if the header is not a scalable filter's, a field is out of range, a stage's
     *     shape is not the one {@code P} and {@code n_0} give, a stage has more bits set than its puts can leave (its
     *     fill limit {@code m P_i^{1/k} - k}, rounded down, plus k: such a stage would answer past its rate, and the
     *     filter past {@code P}), or the filter is larger than {@code maxBytes}
     * @throws IOException if the stream fails, or ends early (an {@link java.io.EOFException} naming the kind)
     */
    public static <T> ScalableBloomFilter<T> readFrom(InputStream in, KeyEncoder<? super T> encoder, long maxBytes)
            throws IOException {
        return FamilyBinaryForm.namingTruncation(KIND, () -> read(in, encoder, maxBytes));
    }

    private static <T> ScalableBloomFilter<T> read(InputStream in, KeyEncoder<? super T> encoder, long maxBytes)
            throws IOException {
        Objects.requireNonNull(encoder, "encoder");
        FamilyBinaryForm.ChainHeader header =
                FamilyBinaryForm.readChainHeader(in, FamilyBinaryForm.SCALABLE, KIND, "stage", MAX_STAGES);
        DataInputStream data = header.data();
        double rate = header.rateBound();
        long initialCapacity = header.initialCapacity();
        int stageCount = header.memberCount();
        checkParameters(initialCapacity, rate);
        Shape[] shapes = new Shape[stageCount];
        long[] stageBytes = new long[stageCount];
        long size = FamilyBinaryForm.CHAIN_HEADER_BYTES;
        for (int i = 0; i < stageCount; i++) {
            try {
                shapes[i] = stageShape(initialCapacity, rate, i);
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException("stage " + i + " of " + initialCapacity + " * 2^" + i
                        + " items does not fit a long", e);
            } catch (IllegalArgumentException e) {
                // As in create: the shape's refusal names only stage i's rate, which the form does not hold.
                throw new IllegalArgumentException("false-positive rate bound is " + rate + " with initial capacity "
                        + initialCapacity + ": stage " + i + ", for " + stageCapacity(initialCapacity, i)
                        + " items at P (1 - r) r^" + i + " = " + stageRate(rate, i) + ", cannot be made: "
                        + e.getMessage(), e);
            }
            stageBytes[i] = BloomFilter.HEADER_BYTES + 8 * ((shapes[i].bitCount() + 63) >>> 6);
            size += stageBytes[i];
        }
        FamilyBinaryForm.checkSize(KIND, size, maxBytes);
        List<BloomFilter<T>> stages = new ArrayList<>(stageCount);
        for (int i = 0; i < stageCount; i++) {
            // The stage's own size is the bound: a stage that declares more bits than P and n0 give is refused unread.
            BloomFilter<T> stage = BloomFilter.readFrom(data, encoder, stageBytes[i]);
            if (!stage.shape().equals(shapes[i])) {
                throw new IllegalArgumentException("stage " + i + " has shape " + stage.shape() + "; P = " + rate
                        + " and n0 = " + initialCapacity + " give " + shapes[i]);
            }
            // A stage fuller than puts leave it would answer past its rate P_i, and the compound rate past P.
            long mostBits = mostSetBits(shapes[i], stageRate(rate, i));
            if (stage.setBitCount() > mostBits) {
                throw new IllegalArgumentException("stage " + i + " has " + stage.setBitCount() + " bits set; puts"
                        + " leave at most " + mostBits + " of its " + shapes[i].bitCount() + " set at P = " + rate
                        + " and n0 = " + initialCapacity);
            }
            stages.add(stage);
        }
        return new ScalableBloomFilter<>(encoder, initialCapacity, rate, stages);
    }

    /** Equal when the first stage's capacity, the rate bound, the key encoder and every stage are equal. */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ScalableBloomFilter)) {
            return false;
        }
        ScalableBloomFilter<?> other = (ScalableBloomFilter<?>) o;
        return initialCapacity == other.initialCapacity
                && Double.compare(falsePositiveRate, other.falsePositiveRate) == 0
                && encoder.equals(other.encoder) && stages.equals(other.stages);
    }

    @Override
    public int hashCode() {
        return stages.hashCode();
    }

    @Override
    public String toString() {
        return "ScalableBloomFilter[P=" + falsePositiveRate + ", n0=" + initialCapacity + ", stages=" + stages.size()
                + "]";
    }
}
