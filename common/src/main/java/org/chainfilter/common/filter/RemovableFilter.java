package org.chainfilter.common.filter;

/**
 * A membership filter that can also delete: the counting Bloom filter and the cuckoo filter.
 *
 * <p>Deletion is only safe for elements that were put: removing an element that was never put but that the filter
 * reports as present (a false positive) deletes traces of other elements, which can then become false negatives.
 * Each kind documents what it detects.
 *
 * @param <T> the element type
 */
public interface RemovableFilter<T> extends MembershipFilter<T> {

    /**
     * Removes one occurrence of {@code element}.
     *
     * @return {@code true} if something was removed; {@code false} if nothing changed: the filter proves the element
     *     absent, or (a kind's documented case) it cannot remove the element safely
     */
    boolean remove(T element);

    @Override
    RemovableFilter<T> copy();
}
