package org.chainfilter.btcwire;

/**
 * Bitcoin's variable-length integer ("CompactSize", Core {@code serialize.h} {@code ReadCompactSize} /
 * {@code WriteCompactSize}): below 0xfd one byte; 0xfd + uint16 LE; 0xfe + uint32 LE; 0xff + uint64 LE.
 *
 * <p>Reading follows Core: an encoding that is not the shortest for its value is refused ("non-canonical
 * CompactSize", Core: "non-canonical ReadCompactSize()"), and so is a value above the caller's limit (Core's own limit
 * for sizes is {@link #MAX_SIZE}).
 */
public final class CompactSize {
    /** Core's {@code MAX_SIZE}: the largest size {@code ReadCompactSize} accepts for a length, 0x02000000 (32 MiB). */
    public static final long MAX_SIZE = 0x02000000L;

    private CompactSize() {
    }

    /**
     * Reads a CompactSize.
     *
     * @param max the largest value accepted (unsigned comparison; pass {@link #MAX_SIZE} or a tighter protocol limit)
     * @throws WireFormatException when the bytes run out, the encoding is non-canonical or the value is above {@code max}
     */
    public static long read(ByteReader reader, String what, long max) {
        int first = reader.readUInt8(what);
        long value;
        long smallest;
        if (first < 0xfd) {
            value = first;
            smallest = 0;
        } else if (first == 0xfd) {
            value = reader.readUInt16LE(what);
            smallest = 0xfd;
        } else if (first == 0xfe) {
            value = reader.readUInt32LE(what);
            smallest = 0x10000;
        } else {
            value = reader.readInt64LE(what);
            smallest = 0x100000000L;
        }
        if (Long.compareUnsigned(value, smallest) < 0) {
            throw new WireFormatException(what + ": non-canonical CompactSize (value " + value + " encoded with prefix 0x"
                    + Integer.toHexString(first) + ")");
        }
        if (Long.compareUnsigned(value, max) > 0) {
            throw new WireFormatException(what + " is " + Long.toUnsignedString(value) + "; at most " + max
                    + " is allowed");
        }
        return value;
    }

    /** Writes {@code value} (an unsigned 64-bit value) in its canonical form. */
    public static void write(ByteWriter writer, long value) {
        if (Long.compareUnsigned(value, 0xfd) < 0) {
            writer.writeUInt8((int) value);
        } else if (Long.compareUnsigned(value, 0xffff) <= 0) {
            writer.writeUInt8(0xfd).writeUInt8((int) value).writeUInt8((int) (value >>> 8));
        } else if (Long.compareUnsigned(value, 0xffffffffL) <= 0) {
            writer.writeUInt8(0xfe).writeInt32LE(value);
        } else {
            writer.writeUInt8(0xff).writeInt64LE(value);
        }
    }

    /** The canonical encoded length of {@code value}: 1, 3, 5 or 9 bytes. */
    public static int encodedLength(long value) {
        if (Long.compareUnsigned(value, 0xfd) < 0) {
            return 1;
        }
        if (Long.compareUnsigned(value, 0xffff) <= 0) {
            return 3;
        }
        return Long.compareUnsigned(value, 0xffffffffL) <= 0 ? 5 : 9;
    }
}
