package org.chainfilter.common.bits;

/**
 * A fixed-size array of bits over 64-bit words, with 64-bit bit indices. Bit {@code i} lives in word {@code i >>> 6}
 * under mask {@code 1L << i}; {@link ByteLayout} says how the bits become bytes.
 *
 * <p>Two implementations: {@link LongArrayBitStore} (single-threaded, the fastest) and {@link AtomicBitStore} (setting
 * bits is lock-free and safe from many threads).
 */
public interface BitStore {

    /** The number of bits the store holds (its size, not how many are set). */
    long bitCount();

    /** Whether bit {@code index} is set. */
    boolean get(long index);

    /**
     * Sets bit {@code index}.
     *
     * @return whether the bit was clear before (the store changed)
     */
    boolean set(long index);

    /** Clears every bit. */
    void clear();

    /** How many bits are set (the population count). */
    long cardinality();

    /** The number of 64-bit words: {@code ceil(bitCount / 64)}. */
    int wordCount();

    /** Word {@code i}: bits {@code 64i .. 64i+63}, bit {@code 64i + j} at mask {@code 1L << j}. */
    long word(int i);

    /** ORs {@code other} into this store (set union); the sizes must be equal. */
    void or(BitStore other);

    /** ANDs {@code other} into this store (set intersection); the sizes must be equal. */
    void and(BitStore other);

    /** An independent copy of the same kind. */
    BitStore copy();

    /**
     * The bits as {@code ceil(bitCount / 8)} bytes in the given layout.
     *
     * @throws IllegalStateException if that is more bytes than a Java array holds (a store of more than about 2^34
     *     bits); the byte count is checked before the cast, so it is never truncated to a smaller array
     */
    default byte[] toBytes(ByteLayout layout) {
        long byteCount = (bitCount() + 7) >>> 3;
        if (byteCount > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("a store of " + bitCount() + " bits is " + byteCount
                    + " bytes; a byte array holds at most " + (Integer.MAX_VALUE - 8));
        }
        byte[] out = new byte[(int) byteCount];
        for (int b = 0; b < out.length; b++) {
            long word = word(b >>> 3);
            out[layout.byteIndex((long) b << 3, out.length)] = (byte) (word >>> ((b & 7) << 3));
        }
        return out;
    }

    /** Whether both stores have the same size and the same bits set (whatever their implementation). */
    static boolean sameBits(BitStore a, BitStore b) {
        if (a.bitCount() != b.bitCount()) {
            return false;
        }
        for (int i = 0, n = a.wordCount(); i < n; i++) {
            if (a.word(i) != b.word(i)) {
                return false;
            }
        }
        return true;
    }
}
