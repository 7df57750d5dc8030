package org.chainfilter.bip158;

import java.util.Collection;

/**
 * The items a client looks for in Golomb-coded sets, with a reusable buffer: a wallet's scripts are hashed again for
 * every block (the key and F change per filter), and keeping one {@code GcsQuery} per wallet makes that work allocate
 * nothing. Mutable scratch state: use one instance per thread.
 */
public final class GcsQuery {
    private final byte[][] items;
    private final long[] values;

    private GcsQuery(byte[][] items) {
        this.items = items;
        this.values = new long[items.length];
    }

    /** A query for copies of the given items (duplicates are harmless). */
    public static GcsQuery of(Collection<byte[]> items) {
        byte[][] copies = new byte[items.size()][];
        int i = 0;
        for (byte[] item : items) {
            if (item == null) {
                throw new IllegalArgumentException("query item " + i + " is null");
            }
            copies[i++] = item.clone();
        }
        return new GcsQuery(copies);
    }

    /** The number of items. */
    public int size() {
        return items.length;
    }

    /**
     * Maps every item into {@code [0, range)} under {@code params}, sorted unsigned into {@link #values()}; returns the
     * number of values.
     */
    int prepare(GcsParams params, long range) {
        GcsFilter.sortedHashes(params, items, items.length, values);
        for (int i = 0; i < values.length; i++) {
            values[i] = GcsParams.mapToRange(values[i] ^ Long.MIN_VALUE, range);
        }
        return values.length;
    }

    long[] values() {
        return values;
    }

    @Override
    public String toString() {
        return "GcsQuery[" + items.length + " items]";
    }
}
