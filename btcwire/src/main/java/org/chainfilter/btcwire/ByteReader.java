package org.chainfilter.btcwire;

import java.util.Objects;

/**
 * A bounded little-endian cursor over a byte array, for Bitcoin's wire formats.
 *
 * <p>Every read names what it reads; when fewer bytes are left than the read needs it throws
 * {@link WireFormatException} with the name, the length wanted, the bytes left and the offset. Lengths and counts read
 * from the input are checked against the bytes left before anything is allocated, so no input can make the reader
 * allocate more than the input's own size.
 */
public final class ByteReader {
    private final byte[] data;
    private final int end;
    private int position;

    /** A reader over all of {@code data} (not copied: the caller must not change it while reading). */
    public ByteReader(byte[] data) {
        this(data, 0, data.length);
    }

    /** A reader over {@code data[offset, offset + length)}. */
    public ByteReader(byte[] data, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, data.length);
        this.data = data;
        this.position = offset;
        this.end = offset + length;
    }

    /** The index in the backing array of the next byte to read. */
    public int position() {
        return position;
    }

    /** The bytes not read yet. */
    public int remaining() {
        return end - position;
    }

    /** The backing array (shared, not copied): for zero-copy hashing of a slice already read. */
    byte[] array() {
        return data;
    }

    private static final byte[] EMPTY = new byte[0];

    private int require(int length, String what) {
        if (length < 0 || length > end - position) {
            throw new WireFormatException("reading " + what + ": wanted " + length + " bytes but " + (end - position)
                    + " are left (at offset " + position + ")");
        }
        int at = position;
        position += length;
        return at;
    }

    /** One unsigned byte, 0..255. */
    public int readUInt8(String what) {
        return data[require(1, what)] & 0xff;
    }

    /** A little-endian 16-bit unsigned value. */
    public int readUInt16LE(String what) {
        int at = require(2, what);
        return (data[at] & 0xff) | (data[at + 1] & 0xff) << 8;
    }

    /** A little-endian 32-bit value as a Java {@code int} (the same bits; use for signed fields such as nVersion). */
    public int readInt32LE(String what) {
        int at = require(4, what);
        return (data[at] & 0xff) | (data[at + 1] & 0xff) << 8 | (data[at + 2] & 0xff) << 16 | data[at + 3] << 24;
    }

    /** A little-endian 32-bit unsigned value, 0..2^32-1. */
    public long readUInt32LE(String what) {
        return readInt32LE(what) & 0xffffffffL;
    }

    /** A little-endian 64-bit value. */
    public long readInt64LE(String what) {
        int at = require(8, what);
        long value = 0;
        for (int i = 7; i >= 0; i--) {
            value = value << 8 | (data[at + i] & 0xff);
        }
        return value;
    }

    /** Exactly {@code length} bytes, copied. */
    public byte[] readBytes(int length, String what) {
        int at = require(length, what);
        if (length == 0) {
            // One shared empty array: it cannot be changed, and a witness of many empty items costs no array each.
            return EMPTY;
        }
        byte[] out = new byte[length];
        System.arraycopy(data, at, out, 0, length);
        return out;
    }

    /** Skips exactly {@code length} bytes. */
    public void skip(int length, String what) {
        require(length, what);
    }

    /** A CompactSize no larger than {@code max}; see {@link CompactSize#read(ByteReader, String, long)}. */
    public long readCompactSize(String what, long max) {
        return CompactSize.read(this, what, max);
    }

    /**
     * A CompactSize count of items that each take at least {@code minBytesPerItem} bytes: refused when above
     * {@code maxCount} or when the items could not fit in the bytes left, so a caller can allocate for the count.
     */
    public int readCount(String what, int maxCount, int minBytesPerItem) {
        long count = CompactSize.read(this, what, maxCount);
        if (count * minBytesPerItem > remaining()) {
            throw new WireFormatException(what + " is " + count + " but at " + minBytesPerItem
                    + " bytes or more each they cannot fit in the " + remaining() + " bytes left");
        }
        return (int) count;
    }

    /** CompactSize length-prefixed bytes, the length at most {@code maxLength} and at most the bytes left. */
    public byte[] readVarBytes(String what, int maxLength) {
        int length;
        try {
            length = readCount(what, maxLength, 1);
        } catch (WireFormatException e) {
            // The length's label, "<what> length", is built only here: a transaction has a push or a witness item
            // every few bytes, and a label made for each would cost more than the bytes read.
            throw new WireFormatException(relabel(e.getMessage(), what, what + " length"));
        }
        return readBytes(length, what);
    }

    /**
     * {@code message}, a refusal of this reader's naming {@code label} where its messages put it (first, or after
     * "reading "), with {@code replacement} in its place; unchanged when the label is not there.
     */
    static String relabel(String message, String label, String replacement) {
        for (String head : new String[] {"reading " + label, label}) {
            if (message.startsWith(head)) {
                return head.substring(0, head.length() - label.length()) + replacement
                        + message.substring(head.length());
            }
        }
        return message;
    }

    /** Refuses trailing bytes after a structure that must fill its input. */
    public void requireEnd(String what) {
        if (position != end) {
            throw new WireFormatException(what + " has " + (end - position) + " trailing bytes after its end (at offset "
                    + position + ")");
        }
    }
}
