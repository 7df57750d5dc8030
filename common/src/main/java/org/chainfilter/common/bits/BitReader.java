package org.chainfilter.common.bits;

import java.util.Objects;

/**
 * Reads bits most-significant-bit first from a byte range: bit 7 of the first byte comes first, as Bitcoin Core's
 * {@code BitStreamReader} (src/streams.h) reads BIP158 filters. Reading past the end of the range throws
 * {@link IllegalArgumentException} naming the position and the length, so a truncated or hostile stream cannot be read
 * as if it were longer.
 *
 * <p>Bytes are loaded into a 64-bit cache; {@link #readBits}, {@link #readUnary} and {@link #reset} allocate nothing,
 * so one reader can decode many streams. Not thread-safe.
 */
public final class BitReader {
    private byte[] bytes;
    private int start;
    private int nextByte;
    private int end;
    /** Unread cached bits, left-aligned: the next bit to read is bit 63. Bits below the cached ones are zero. */
    private long cache;
    private int cacheBits;

    /** A reader over all of {@code bytes}. */
    public BitReader(byte[] bytes) {
        this(bytes, 0, bytes.length);
    }

    /** A reader over {@code bytes[offset, offset + length)}. */
    public BitReader(byte[] bytes, int offset, int length) {
        reset(bytes, offset, length);
    }

    /** Points this reader at {@code bytes[offset, offset + length)}, from its first bit. */
    public BitReader reset(byte[] bytes, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        this.bytes = bytes;
        this.start = offset;
        this.nextByte = offset;
        this.end = offset + length;
        this.cache = 0;
        this.cacheBits = 0;
        return this;
    }

    /**
     * The next {@code bitCount} bits as an unsigned number, the first bit read being the most significant.
     *
     * @param bitCount 0 to 64
     * @throws IllegalArgumentException if fewer than {@code bitCount} bits remain
     */
    public long readBits(int bitCount) {
        if (bitCount < 0 || bitCount > 64) {
            throw new IllegalArgumentException("bit count is " + bitCount + "; it must be between 0 and 64");
        }
        if (bitCount > 56) {
            // The cache refills in whole bytes, so it is only sure to hold 57 bits; take the value in two parts.
            if (remainingBits() < bitCount) {
                throw pastEnd(bitCount);
            }
            int high = bitCount - 32;
            return readBits(high) << 32 | readBits(32);
        }
        if (cacheBits < bitCount) {
            refill();
            if (cacheBits < bitCount) {
                throw pastEnd(bitCount);
            }
        }
        if (bitCount == 0) {
            return 0;
        }
        long value = cache >>> (64 - bitCount);
        cache <<= bitCount;
        cacheBits -= bitCount;
        return value;
    }

    /**
     * Counts one-bits up to and including the next zero bit, and returns the count of ones: the unary part of a
     * Golomb-Rice code.
     *
     * @throws IllegalArgumentException if the stream ends before a zero bit
     */
    public long readUnary() {
        long ones = 0;
        while (true) {
            if (cacheBits == 0) {
                refill();
                if (cacheBits == 0) {
                    throw new IllegalArgumentException("unary code runs past the end of the " + (end - start)
                            + "-byte bit stream after " + ones + " one-bits");
                }
            }
            // Bits below the cached ones are zero, so the leading-ones count stops at cacheBits at the latest.
            int run = Long.numberOfLeadingZeros(~cache);
            if (run < cacheBits) {
                ones += run;
                int consumed = run + 1;
                cache = consumed == 64 ? 0 : cache << consumed;
                cacheBits -= consumed;
                return ones;
            }
            ones += cacheBits;
            cache = 0;
            cacheBits = 0;
        }
    }

    /** The number of bits not yet read. */
    public long remainingBits() {
        return (long) (end - nextByte) * 8 + cacheBits;
    }

    /** The number of bits read since the start of the range. */
    public long position() {
        return (long) (nextByte - start) * 8 - cacheBits;
    }

    /**
     * The number of whole bytes of the range that no read has touched. A reader of a byte-padded stream checks this is
     * zero once it has read every value (Core: "encoded_filter contains excess data").
     */
    public int untouchedBytes() {
        return (int) (remainingBits() / 8);
    }

    private void refill() {
        while (cacheBits <= 56 && nextByte < end) {
            cache |= (bytes[nextByte++] & 0xffL) << (56 - cacheBits);
            cacheBits += 8;
        }
    }

    private IllegalArgumentException pastEnd(int bitCount) {
        return new IllegalArgumentException("read of " + bitCount + " bits at bit " + position()
                + " runs past the end of the " + (end - start) + "-byte bit stream (" + remainingBits()
                + " bits remain)");
    }
}
