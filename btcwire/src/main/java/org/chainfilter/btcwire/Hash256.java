package org.chainfilter.btcwire;

import java.util.Arrays;
import org.chainfilter.common.Hex;

/**
 * A 32-byte Bitcoin hash (txid, wtxid, block hash, Merkle node), immutable.
 *
 * <p>Two byte orders exist and both are explicit here. <em>Internal</em> order is the digest as computed and as sent
 * on the wire (Core's {@code uint256} storage); it is what BIP37 inserts into filters and what Merkle trees hash.
 * <em>Display</em> order is the reverse, used by RPC, explorers and Core's {@code uint256{"..."}} literals
 * ({@code GetHex()}). {@link #toString()} gives display hex.
 */
public final class Hash256 implements Comparable<Hash256> {
    /** Bytes in a hash. */
    public static final int LENGTH = 32;
    /** All zero bytes (the coinbase prevout's txid; Core's null {@code uint256}). */
    public static final Hash256 ZERO = new Hash256(new byte[LENGTH]);

    private final byte[] internal;

    private Hash256(byte[] internal) {
        this.internal = internal;
    }

    /** Takes ownership of a 32-byte array in internal order (no copy). */
    static Hash256 wrap(byte[] internal) {
        return new Hash256(internal);
    }

    /** A hash from its 32 bytes in internal (wire) order; the array is copied. */
    public static Hash256 fromInternalBytes(byte[] internal) {
        checkLength(internal.length);
        return new Hash256(internal.clone());
    }

    /**
     * A hash from 32 bytes in internal order at {@code bytes[offset]}; copied.
     *
     * @throws IllegalArgumentException when {@code bytes[offset, offset + 32)} is not inside the array (never padded)
     */
    public static Hash256 fromInternalBytes(byte[] bytes, int offset) {
        if (offset < 0 || offset > bytes.length - LENGTH) {
            throw new IllegalArgumentException("a hash at offset " + offset + " needs " + LENGTH
                    + " bytes but the array has " + bytes.length);
        }
        return new Hash256(Arrays.copyOfRange(bytes, offset, offset + LENGTH));
    }

    /** A hash from 64 hex digits in display (RPC, reversed) order, e.g. a txid as an explorer shows it. */
    public static Hash256 fromDisplayHex(String hex) {
        return new Hash256(Hex.reverse(Hex.decode(hex, LENGTH, "display hash")));
    }

    /** A hash from 64 hex digits in internal (wire) order. */
    public static Hash256 fromInternalHex(String hex) {
        return new Hash256(Hex.decode(hex, LENGTH, "internal hash"));
    }

    /** Reads 32 bytes in internal order. */
    public static Hash256 read(ByteReader reader, String what) {
        return new Hash256(reader.readBytes(LENGTH, what));
    }

    private static void checkLength(int length) {
        if (length != LENGTH) {
            throw new IllegalArgumentException("a hash is " + LENGTH + " bytes; got " + length);
        }
    }

    /** A copy of the 32 bytes in internal (wire) order. */
    public byte[] internalBytes() {
        return internal.clone();
    }

    /** A copy of the 32 bytes in display order. */
    public byte[] displayBytes() {
        return Hex.reverse(internal);
    }

    /** The shared internal array, never handed outside the package. */
    byte[] bytes() {
        return internal;
    }

    /** Copies the 32 internal-order bytes into {@code destination[offset, offset + 32)} (no allocation). */
    public void copyInternalTo(byte[] destination, int offset) {
        System.arraycopy(internal, 0, destination, offset, LENGTH);
    }

    /** Byte {@code i} (0..31) in internal order. */
    public byte internalByte(int i) {
        return internal[i];
    }

    public void writeTo(ByteWriter writer) {
        writer.writeBytes(internal);
    }

    public String toDisplayHex() {
        return Hex.encode(displayBytes());
    }

    public String toInternalHex() {
        return Hex.encode(internal);
    }

    public boolean isZero() {
        return equals(ZERO);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Hash256 h && Arrays.equals(internal, h.internal);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(internal);
    }

    /** Orders by internal bytes, unsigned, lexicographically. */
    @Override
    public int compareTo(Hash256 o) {
        return Arrays.compareUnsigned(internal, o.internal);
    }

    /** Display hex. */
    @Override
    public String toString() {
        return toDisplayHex();
    }
}
