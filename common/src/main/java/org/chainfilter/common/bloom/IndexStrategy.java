package org.chainfilter.common.bloom;

import java.util.function.LongPredicate;
import org.chainfilter.common.bits.BitStore;

/**
 * How an element's 128-bit hash {@code (h1, h2)} becomes its {@code k} bit positions in {@code [0, m)}. The generic
 * strategy is {@link CongruentialHashing} (filters written before it use {@link EnhancedDoubleHashing}, whose small
 * filters miss their rate, and are read with it); a protocol filter whose positions are fixed by its specification
 * (BIP37's seeded Murmur3 x86_32 probes, logsBloom's Keccak slices) does not go through this interface.
 *
 * <p>An implementation is stateless and thread-safe, and allocates nothing per call.
 */
public interface IndexStrategy {

    /**
     * The strategy's stable identifier, written into serialized filters; a change of the index sequence for the same
     * id would silently corrupt stored filters, so a new sequence gets a new id.
     */
    int id();

    /**
     * Passes the {@code k} positions of the element hashed to {@code (h1, h2)} to {@code position}, in order, and
     * stops at the first position for which it answers {@code false}.
     *
     * @param k the number of positions, at least 1
     * @param m the number of bits, at least 1; every position is in {@code [0, m)}
     * @return {@code true} if {@code position} accepted all {@code k} positions, {@code false} if it stopped early
     */
    boolean forEachIndex(long h1, long h2, int k, long m, LongPredicate position);

    /**
     * Whether all {@code k} positions of {@code (h1, h2)} are set in {@code bits} ({@code m = bits.bitCount()}): a
     * filter's membership test. An implementation may read all {@code k} positions without stopping at the first
     * clear one. The default goes through {@link #forEachIndex} and may allocate a method reference;
     * the built-in strategies override it without allocation.
     */
    default boolean allSet(long h1, long h2, int k, BitStore bits) {
        return forEachIndex(h1, h2, k, bits.bitCount(), bits::get);
    }

    /**
     * Sets the {@code k} positions of {@code (h1, h2)} in {@code bits} ({@code m = bits.bitCount()}), in order: a
     * filter's insertion.
     *
     * @return how many bits went from 0 to 1 (a position repeated within the {@code k} counts once)
     */
    default int setAll(long h1, long h2, int k, BitStore bits) {
        int[] changed = {0};
        forEachIndex(h1, h2, k, bits.bitCount(), index -> {
            if (bits.set(index)) {
                changed[0]++;
            }
            return true;
        });
        return changed[0];
    }

    /** The strategy with identifier {@code id}. */
    static IndexStrategy forId(int id) {
        if (id == EnhancedDoubleHashing.ID) {
            return EnhancedDoubleHashing.INSTANCE;
        }
        if (id == CongruentialHashing.ID) {
            return CongruentialHashing.INSTANCE;
        }
        throw new IllegalArgumentException("index strategy id is " + id + "; the known ids are "
                + EnhancedDoubleHashing.ID + " (enhanced double hashing) and " + CongruentialHashing.ID
                + " (congruential hashing)");
    }
}
