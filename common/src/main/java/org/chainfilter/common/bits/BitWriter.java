package org.chainfilter.common.bits;

import java.util.Arrays;

/**
 * Appends bits most-significant-bit first into a growable byte buffer: the first bit written becomes bit 7 of byte 0.
 * This is the bit order of Bitcoin Core's {@code BitStreamWriter} (src/streams.h) and therefore of BIP158's
 * Golomb-Rice coded sets. The last partial byte is padded with zero bits when the bytes are taken.
 *
 * <p>Bits gather in a 64-bit accumulator and reach the buffer eight bytes at a time; once the buffer has grown to the
 * size of the stream, {@link #writeBits} and {@link #writeUnary} allocate nothing. {@link #reset()} keeps the buffer so
 * one writer can encode many streams. Not thread-safe.
 */
public final class BitWriter {
    private byte[] buffer;
    private int byteCount;
    /** Pending bits, right-aligned: the oldest pending bit is bit {@code pendingBits - 1}. */
    private long pending;
    private int pendingBits;

    /** A writer with room for {@code initialCapacityBytes} bytes before it first grows. */
    public BitWriter(int initialCapacityBytes) {
        if (initialCapacityBytes < 0) {
            throw new IllegalArgumentException(
                    "initial capacity is " + initialCapacityBytes + " bytes; it must be >= 0");
        }
        buffer = new byte[Math.max(8, initialCapacityBytes)];
    }

    /** A writer with a small initial buffer. */
    public BitWriter() {
        this(64);
    }

    /**
     * Appends the low {@code bitCount} bits of {@code value}, the most significant of them first.
     *
     * @param bitCount 0 to 64
     */
    public void writeBits(long value, int bitCount) {
        if (bitCount < 0 || bitCount > 64) {
            throw new IllegalArgumentException("bit count is " + bitCount + "; it must be between 0 and 64");
        }
        long bits = value & lowMask(bitCount);
        int room = 64 - pendingBits;
        if (bitCount < room) {
            pending = pending << bitCount | bits;
            pendingBits += bitCount;
            return;
        }
        // The accumulator fills up: complete it with the top `room` bits, flush it, keep the rest pending.
        // (room is never 64 here unless pendingBits == 0, in which case pending is 0 and the shift is harmless.)
        int rest = bitCount - room;
        long full = room == 64 ? bits : pending << room | bits >>> rest;
        flushWord(full);
        pending = bits & lowMask(rest);
        pendingBits = rest;
    }

    /**
     * Appends {@code quotient} one-bits followed by a zero bit: the unary part of a Golomb-Rice code. Long runs are
     * written 64 bits at a time, as Core's {@code GolombRiceEncode} does.
     *
     * @param quotient the number of one-bits, {@code >= 0}
     */
    public void writeUnary(long quotient) {
        if (quotient < 0) {
            throw new IllegalArgumentException("unary value is " + quotient + "; it must be >= 0");
        }
        long remaining = quotient;
        while (remaining >= 64) {
            writeBits(-1L, 64);
            remaining -= 64;
        }
        int ones = (int) remaining;
        writeBits(lowMask(ones) << 1, ones + 1);
    }

    /** The number of bits written since construction or the last {@link #reset()}. */
    public long bitCount() {
        return (long) byteCount * 8 + pendingBits;
    }

    /** The number of bytes {@link #toByteArray()} returns: {@code ceil(bitCount / 8)}. */
    public int byteCount() {
        return byteCount + (pendingBits + 7) / 8;
    }

    /** Forgets everything written; the buffer is kept for reuse. */
    public void reset() {
        byteCount = 0;
        pending = 0;
        pendingBits = 0;
    }

    /** The stream as bytes, the last partial byte padded with zero bits. Allocates the returned array. */
    public byte[] toByteArray() {
        byte[] out = new byte[byteCount()];
        copyTo(out, 0);
        return out;
    }

    /**
     * Copies the stream (zero-padded to whole bytes) into {@code destination} at {@code offset}.
     *
     * @return the number of bytes copied, {@link #byteCount()}
     */
    public int copyTo(byte[] destination, int offset) {
        int total = byteCount();
        java.util.Objects.checkFromIndexSize(offset, total, destination.length);
        System.arraycopy(buffer, 0, destination, offset, byteCount);
        long aligned = pendingBits == 0 ? 0 : pending << (64 - pendingBits);
        for (int i = byteCount; i < total; i++) {
            destination[offset + i] = (byte) (aligned >>> 56);
            aligned <<= 8;
        }
        return total;
    }

    private void flushWord(long word) {
        if (buffer.length - byteCount < 8) {
            int grown = Math.max(buffer.length * 2, byteCount + 8);
            if (grown < 0) {
                throw new IllegalStateException("bit stream exceeds " + Integer.MAX_VALUE + " bytes");
            }
            buffer = Arrays.copyOf(buffer, grown);
        }
        for (int shift = 56; shift >= 0; shift -= 8) {
            buffer[byteCount++] = (byte) (word >>> shift);
        }
    }

    /** A mask of the low {@code bitCount} bits, 0 to 64. */
    static long lowMask(int bitCount) {
        return bitCount == 0 ? 0 : -1L >>> (64 - bitCount);
    }
}
