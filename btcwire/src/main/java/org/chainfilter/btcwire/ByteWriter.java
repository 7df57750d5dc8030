package org.chainfilter.btcwire;

import java.util.Arrays;

/** A growable little-endian byte sink for Bitcoin's wire formats. */
public final class ByteWriter {
    private byte[] buffer;
    private int size;

    public ByteWriter() {
        this(64);
    }

    /** A writer whose buffer starts at {@code initialCapacity} bytes (it grows as needed). */
    public ByteWriter(int initialCapacity) {
        buffer = new byte[Math.max(initialCapacity, 16)];
    }

    private void ensure(int extra) {
        if (buffer.length - size < extra) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, size + extra));
        }
    }

    public ByteWriter writeUInt8(int value) {
        ensure(1);
        buffer[size++] = (byte) value;
        return this;
    }

    /** The low 32 bits of {@code value}, little-endian (covers both int32 and uint32 fields). */
    public ByteWriter writeInt32LE(long value) {
        ensure(4);
        for (int i = 0; i < 4; i++) {
            buffer[size++] = (byte) (value >>> (8 * i));
        }
        return this;
    }

    public ByteWriter writeInt64LE(long value) {
        ensure(8);
        for (int i = 0; i < 8; i++) {
            buffer[size++] = (byte) (value >>> (8 * i));
        }
        return this;
    }

    public ByteWriter writeBytes(byte[] bytes) {
        return writeBytes(bytes, 0, bytes.length);
    }

    public ByteWriter writeBytes(byte[] bytes, int offset, int length) {
        ensure(length);
        System.arraycopy(bytes, offset, buffer, size, length);
        size += length;
        return this;
    }

    /** A CompactSize in its canonical (shortest) form. */
    public ByteWriter writeCompactSize(long value) {
        CompactSize.write(this, value);
        return this;
    }

    /** CompactSize length, then the bytes. */
    public ByteWriter writeVarBytes(byte[] bytes) {
        return writeCompactSize(bytes.length).writeBytes(bytes);
    }

    public int size() {
        return size;
    }

    /** A copy of the bytes written so far. */
    public byte[] toByteArray() {
        return Arrays.copyOf(buffer, size);
    }
}
