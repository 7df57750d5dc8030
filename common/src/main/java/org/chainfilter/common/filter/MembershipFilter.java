package org.chainfilter.common.filter;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Objects;

/**
 * An approximate set: {@link #mightContain} never answers {@code false} for an element that was {@link #put} (no false
 * negatives, unless the kind documents deletions), and answers {@code true} for an element never put with a
 * probability near {@link #expectedFpp()}. Every filter kind of the library implements it: the generic
 * {@link BloomFilter} and the counting, scalable, blocked, concurrent, cuckoo and growable cuckoo filters.
 *
 * <p>Implementations document their thread safety and whether their {@code put}/{@code mightContain} allocate.
 *
 * <p>Every kind compares by content: two filters of one kind are {@code equals} (with equal hash codes) when their
 * parameters, key encoder and cells are equal, as for a filter and its {@link #copy()} or its binary form read back.
 * A null element is refused with a {@link NullPointerException} by the built-in key encoders.
 *
 * @param <T> the element type
 */
public interface MembershipFilter<T> {

    /**
     * Adds {@code element}.
     *
     * @return whether the filter changed: for a Bloom filter, whether any bit went from 0 to 1. {@code false} means the
     *     element was already (or appeared already to be) present, so a {@code true} answer proves the element was new;
     *     a {@code false} answer does not prove it was old.
     */
    boolean put(T element);

    /** Whether {@code element} might have been put: {@code false} is certain, {@code true} is probable. */
    boolean mightContain(T element);

    /**
     * A reader for callers that hold many keys at once (the outputs of a block, a page of addresses): it answers
     * {@link #mightContain} for each, exactly, and may be faster per key than one call each. This default asks
     * {@code mightContain} once per key; {@link BlockedBloomFilter} returns one that hashes a group of keys before it
     * reads their blocks, so that their memory reads overlap.
     *
     * <p>A reader may hold scratch space, so it belongs to one thread; it reads the filter under the filter's own rule
     * for concurrent use.
     */
    default BatchReader<T> batchReader() {
        return (elements, offset, count, results, resultOffset) -> {
            BatchReader.checkRanges(elements, offset, count, results, resultOffset);
            int maybe = 0;
            for (int i = 0; i < count; i++) {
                boolean result = mightContain(elements[offset + i]);
                results[resultOffset + i] = result;
                maybe += result ? 1 : 0;
            }
            return maybe;
        };
    }

    /**
     * {@link MembershipFilter#mightContain} for a range of keys; see {@link MembershipFilter#batchReader()}.
     *
     * @param <T> the element type
     */
    @FunctionalInterface
    interface BatchReader<T> {
        /**
         * Writes {@code mightContain(elements[offset + i])} to {@code results[resultOffset + i]} for
         * {@code i = 0 .. count - 1}, and returns how many are true.
         *
         * @throws IndexOutOfBoundsException if either range is outside its array
         * @throws NullPointerException if an element in the range is null
         */
        int mightContain(T[] elements, int offset, int count, boolean[] results, int resultOffset);

        /** The range checks every implementation makes before it reads a key. */
        static void checkRanges(Object[] elements, int offset, int count, boolean[] results, int resultOffset) {
            Objects.checkFromIndexSize(offset, count, elements.length);
            Objects.checkFromIndexSize(resultOffset, count, results.length);
        }
    }

    /** The probability that {@link #mightContain} answers {@code true} for an element never put, from the filter's
     * current state (its real fill, not the element count it was sized for). */
    double expectedFpp();

    /** An estimate of how many distinct elements were put. */
    long approximateElementCount();

    /** Removes every element. */
    void clear();

    /** An independent copy: changes to either leave the other unchanged. */
    MembershipFilter<T> copy();

    /**
     * Writes the filter's versioned binary form (its kind's documented layout, starting with a magic number and a
     * version byte) to {@code out}. Each kind offers a reader that takes a caller's bound on the size.
     */
    void writeTo(OutputStream out) throws IOException;

    /** The versioned binary form of {@link #writeTo} as a byte array. */
    default byte[] toByteArray() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            writeTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException("a byte array stream cannot fail", e);
        }
        return out.toByteArray();
    }
}
