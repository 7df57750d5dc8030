package org.chainfilter.btcwire;

import java.util.Objects;

/**
 * A reference to a transaction output (Core {@code COutPoint}): the txid and the output index. Serialized as 36 bytes,
 * the txid in internal order then the index as uint32 little-endian; BIP37 inserts and tests exactly those bytes.
 */
public final class OutPoint {
    /** Bytes in the serialized form. */
    public static final int LENGTH = Hash256.LENGTH + 4;

    private final Hash256 txid;
    private final long index;

    /**
     * @param index the output index, an unsigned 32-bit value 0..0xffffffff (0xffffffff in a coinbase input)
     */
    public OutPoint(Hash256 txid, long index) {
        this.txid = Objects.requireNonNull(txid, "txid");
        if (index < 0 || index > 0xffffffffL) {
            throw new IllegalArgumentException("output index " + index + " is outside the uint32 range 0..4294967295");
        }
        this.index = index;
    }

    public static OutPoint read(ByteReader reader) {
        return new OutPoint(Hash256.read(reader, "outpoint txid"), reader.readUInt32LE("outpoint index"));
    }

    public Hash256 txid() {
        return txid;
    }

    /** The output index, 0..2^32-1. */
    public long index() {
        return index;
    }

    /** Writes the 36-byte serialization into {@code destination[offset, offset + 36)} (no allocation). */
    public void writeTo(byte[] destination, int offset) {
        txid.copyInternalTo(destination, offset);
        for (int i = 0; i < 4; i++) {
            destination[offset + Hash256.LENGTH + i] = (byte) (index >>> (8 * i));
        }
    }

    public void writeTo(ByteWriter writer) {
        txid.writeTo(writer);
        writer.writeInt32LE(index);
    }

    /** The 36-byte serialization. */
    public byte[] toBytes() {
        byte[] out = new byte[LENGTH];
        writeTo(out, 0);
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OutPoint p && p.index == index && p.txid.equals(txid);
    }

    @Override
    public int hashCode() {
        return txid.hashCode() * 31 + Long.hashCode(index);
    }

    /** {@code txid:index} with the txid in display hex. */
    @Override
    public String toString() {
        return txid + ":" + index;
    }
}
