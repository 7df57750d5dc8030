package org.chainfilter.common.bits;

/**
 * How the bits of a {@link BitStore} map to bytes on the wire. Bits are numbered {@code 0 .. bitCount-1} in the store;
 * the layouts differ only in where bit {@code i} lands in a byte array.
 */
public enum ByteLayout {
    /**
     * Least-significant bit first: bit {@code i} is {@code 1 << (i & 7)} of byte {@code i >> 3}. This is BIP37's
     * {@code vData} (bitcoinj calls the helpers {@code setBitLE}/{@code checkBitLE}) and the natural little-endian byte
     * order of the store's 64-bit words.
     */
    LSB_FIRST,
    /**
     * A fixed-width big-endian bit string: the bytes read as one big-endian unsigned integer have bit {@code i} worth
     * {@code 2^i}, so bit {@code i} is {@code 1 << (i & 7)} of byte {@code byteCount - 1 - i/8}. This is Ethereum's
     * 256-byte logsBloom, where the Yellow Paper's M3:2048 sets bit {@code k} in byte {@code 255 - k/8}.
     */
    BIG_ENDIAN;

    /** The index of the byte that holds bit {@code bit} in an array of {@code byteCount} bytes. */
    public int byteIndex(long bit, int byteCount) {
        int lsbIndex = (int) (bit >>> 3);
        return this == LSB_FIRST ? lsbIndex : byteCount - 1 - lsbIndex;
    }

    /** The mask of bit {@code bit} within its byte; the same for both layouts. */
    public static int mask(long bit) {
        return 1 << (bit & 7);
    }
}
