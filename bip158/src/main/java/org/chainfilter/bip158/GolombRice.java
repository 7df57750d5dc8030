package org.chainfilter.bip158;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Golomb-Rice decoding (BIP158 "Golomb-Rice Coding"; Core {@code GolombRiceDecode} over {@code BitStreamReader},
 * src/blockfilter.cpp and src/streams.h) as static functions of a byte array and a bit position, most significant bit
 * first: bit {@code b} is bit {@code 7 - b % 8} of {@code bytes[b / 8]}, and the stream runs to the end of the array.
 *
 * <p>There is no reader object: the caller keeps the position in a local variable and advances it by the length of
 * the code, so a decode allocates nothing whether or not the JIT's escape analysis runs. The code at bit {@code b}:
 * <pre>{@code
 * long quotient = GolombRice.unaryLength(bytes, b, streamStart);
 * long delta = GolombRice.delta(bytes, b, quotient, p, streamStart);
 * b += quotient + 1 + p;
 * }</pre>
 * {@code streamStart} is the byte offset at which the stream begins; it only serves the messages, which count bits
 * and bytes from there, as Core's reader does.
 */
final class GolombRice {
    private static final VarHandle LONG_BIG_ENDIAN = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.BIG_ENDIAN);

    private GolombRice() {
    }

    /**
     * The number of one-bits from bit {@code position} up to the next zero bit (which is not counted): the unary
     * quotient of a Golomb-Rice code. The zero bit ends the code, so the next field starts at
     * {@code position + result + 1}.
     *
     * @throws IllegalArgumentException if the array ends before a zero bit
     */
    static long unaryLength(byte[] bytes, long position, int streamStart) {
        long endBit = 8L * bytes.length;
        long bit = position;
        while (bit < endBit) {
            long window = window(bytes, bit);
            long windowBits = Math.min(64 - (bit & 7), endBit - bit);
            int ones = Long.numberOfLeadingZeros(~window);
            if (ones < windowBits) {
                return bit - position + ones;
            }
            bit += windowBits;
        }
        throw new IllegalArgumentException("unary code runs past the end of the " + (bytes.length - streamStart)
                + "-byte bit stream after " + (endBit - position) + " one-bits");
    }

    /**
     * The value of the code at bit {@code position} whose unary part holds {@code quotient} one-bits:
     * {@code (quotient << p) + remainder}, the remainder being the {@code p} bits after the unary part's zero bit.
     * It wraps modulo 2^64 on hostile input (a quotient of 2^(64 - p) or more), as Core's {@code uint64_t} arithmetic
     * does.
     *
     * @throws IllegalArgumentException if fewer than {@code p} bits follow the unary part
     */
    static long delta(byte[] bytes, long position, long quotient, int p, int streamStart) {
        return (quotient << p) + bits(bytes, position + quotient + 1, p, streamStart);
    }

    /**
     * The {@code bitCount} bits from bit {@code position} as an unsigned number, the first bit the most significant:
     * the remainder of a Golomb-Rice code.
     *
     * @param bitCount 0 to {@link GcsParams#MAX_P} (32)
     * @throws IllegalArgumentException if fewer than {@code bitCount} bits remain
     */
    static long bits(byte[] bytes, long position, int bitCount, int streamStart) {
        long remaining = 8L * bytes.length - position;
        if (remaining < bitCount) {
            throw new IllegalArgumentException("read of " + bitCount + " bits at bit " + (position - 8L * streamStart)
                    + " runs past the end of the " + (bytes.length - streamStart) + "-byte bit stream (" + remaining
                    + " bits remain)");
        }
        // A shift by 64 is a shift by 0 in Java, so P = 0 needs its own answer.
        return bitCount == 0 ? 0 : window(bytes, position) >>> (64 - bitCount);
    }

    /**
     * The bits from {@code position} on, left-aligned: the first {@code min(64 - position % 8, bits left)} are the
     * stream's (at least 57 where the stream has them, enough for a remainder of up to 32 bits), the rest are zero.
     */
    private static long window(byte[] bytes, long position) {
        int index = (int) (position >>> 3);
        int shift = (int) (position & 7);
        if (index <= bytes.length - 8) {
            return (long) LONG_BIG_ENDIAN.get(bytes, index) << shift;
        }
        long word = 0;
        for (int i = index; i < bytes.length; i++) {
            word |= (bytes[i] & 0xffL) << (8 * (7 - (i - index)));
        }
        return word << shift;
    }
}
