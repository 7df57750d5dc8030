package org.chainfilter.common.filter;

/**
 * Thrown by an insert into a filter that has no room left and does not grow; the filter is unchanged and every item
 * put before is still found.
 */
public final class FilterFullException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /** An exception whose message says which filter is full and how full. */
    public FilterFullException(String message) {
        super(message);
    }
}
