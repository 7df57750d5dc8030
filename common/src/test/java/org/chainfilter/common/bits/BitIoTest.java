package org.chainfilter.common.bits;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import org.chainfilter.common.Hex;
import org.junit.jupiter.api.Test;

class BitIoTest {

    @Test
    void firstBitWrittenIsBitSevenOfByteZeroAndThePadIsZero() {
        BitWriter writer = new BitWriter();
        writer.writeBits(1, 1);
        writer.writeBits(0b0111011111110010101L, 19);
        assertEquals(20, writer.bitCount());
        // The Golomb-Rice body of BIP158 vector row 0 (filter 01 9d fc a8): q = 1, r = 245653 -> 9d fc a8 padded.
        BitWriter golomb = new BitWriter();
        golomb.writeUnary(1);
        golomb.writeBits(245653, 19);
        assertEquals("9dfca8", Hex.encode(golomb.toByteArray()));
        assertEquals("bbf950", Hex.encode(writer.toByteArray()));
    }

    @Test
    void readerReadsTheWriterBackForEveryWidth() {
        SplittableRandom random = new SplittableRandom(158);
        long[] values = new long[2000];
        int[] widths = new int[values.length];
        BitWriter writer = new BitWriter(1);
        for (int i = 0; i < values.length; i++) {
            widths[i] = i % 65;
            values[i] = random.nextLong() & BitWriter.lowMask(widths[i]);
            writer.writeBits(values[i] | (widths[i] < 64 ? -1L << widths[i] : 0), widths[i]);
        }
        byte[] bytes = writer.toByteArray();
        assertEquals((writer.bitCount() + 7) / 8, bytes.length);
        BitReader reader = new BitReader(bytes);
        for (int i = 0; i < values.length; i++) {
            assertEquals(values[i], reader.readBits(widths[i]), "value " + i + " of width " + widths[i]);
        }
        assertEquals(writer.bitCount(), reader.position());
        assertEquals(0, reader.untouchedBytes());
    }

    @Test
    void unaryRunsLongerThanAWordRoundTrip() {
        long[] runs = {0, 1, 7, 8, 56, 57, 63, 64, 65, 127, 128, 129, 1000, 0, 3};
        BitWriter writer = new BitWriter();
        for (long run : runs) {
            writer.writeUnary(run);
            writer.writeBits(0x5, 3);
        }
        BitReader reader = new BitReader(writer.toByteArray());
        for (long run : runs) {
            assertEquals(run, reader.readUnary());
            assertEquals(0x5, reader.readBits(3));
        }
    }

    @Test
    void unaryOfSixtyThreeFillingAFreshCacheLeavesNothingBehind() {
        // 63 one-bits and the terminating zero are exactly the 64 bits of the first refill: the run consumes the whole
        // cache, and a shift by 64 is no shift in Java (it kept the stale ones, ORed into the next refill, and the
        // next byte 5a read as ff). MSB-first by hand: ff x7, fe = unary 63; 5a; a5 = 1 0 | 100101 = unary 1, 0x25.
        BitReader reader = new BitReader(Hex.decode("fffffffffffffffe5aa5"));
        assertEquals(63, reader.readUnary());
        assertEquals(0x5a, reader.readBits(8));
        assertEquals(1, reader.readUnary());
        assertEquals(0x25, reader.readBits(6));
        assertEquals(0, reader.remainingBits());
        // The same after a read that empties the cache exactly (64 bits read as two halves).
        reader = new BitReader(Hex.decode("0123456789abcdef" + "fffffffffffffffe" + "5a"));
        assertEquals(0x0123456789abcdefL, reader.readBits(64));
        assertEquals(63, reader.readUnary());
        assertEquals(0x5a, reader.readBits(8));
    }

    @Test
    void unaryOfSixtyFourIsEightFfBytesThenAZeroBit() {
        BitWriter writer = new BitWriter();
        writer.writeUnary(64);
        assertEquals("ffffffffffffffff00", Hex.encode(writer.toByteArray()));
        assertEquals(65, writer.bitCount());
    }

    @Test
    void readerHonoursTheByteRange() {
        byte[] bytes = Hex.decode("ff a5 0f".replace(" ", ""));
        BitReader reader = new BitReader(bytes, 1, 1);
        assertEquals(0xa, reader.readBits(4));
        assertEquals(4, reader.remainingBits());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> reader.readBits(5));
        assertEquals("read of 5 bits at bit 4 runs past the end of the 1-byte bit stream (4 bits remain)",
                e.getMessage());
    }

    @Test
    void readingPastTheEndIsRefusedForWideReads() {
        BitReader reader = new BitReader(new byte[7]);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> reader.readBits(57));
        assertEquals("read of 57 bits at bit 0 runs past the end of the 7-byte bit stream (56 bits remain)",
                e.getMessage());
    }

    @Test
    void unaryWithoutTerminatingZeroIsRefused() {
        BitReader reader = new BitReader(Hex.decode("ffff"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, reader::readUnary);
        assertEquals("unary code runs past the end of the 2-byte bit stream after 16 one-bits", e.getMessage());
    }

    @Test
    void untouchedBytesCountsWholeBytesNeverRead() {
        BitReader reader = new BitReader(new byte[4]);
        assertEquals(4, reader.untouchedBytes());
        reader.readBits(1);
        assertEquals(3, reader.untouchedBytes());
        reader.readBits(7);
        assertEquals(3, reader.untouchedBytes());
        reader.readBits(9);
        assertEquals(1, reader.untouchedBytes());
    }

    @Test
    void resetReusesReaderAndWriter() {
        BitWriter writer = new BitWriter();
        writer.writeBits(0xabcdL, 16);
        writer.reset();
        writer.writeBits(0x3, 2);
        assertArrayEquals(new byte[] {(byte) 0xc0}, writer.toByteArray());
        BitReader reader = new BitReader(new byte[] {(byte) 0x80});
        assertEquals(1, reader.readBits(1));
        reader.reset(new byte[] {0, (byte) 0x40}, 1, 1);
        assertEquals(1, reader.readBits(2));
        assertEquals(0, reader.readBits(0));
    }

    @Test
    void copyToPlacesTheStreamAtAnOffset() {
        BitWriter writer = new BitWriter();
        writer.writeBits(0x1ff, 9);
        byte[] out = new byte[4];
        assertEquals(2, writer.copyTo(out, 1));
        assertEquals("00ff8000", Hex.encode(out));
    }

    /**
     * Any initial capacity from 0 up, whether or not a multiple of the 8 bytes a full word flushes, grows to hold the
     * stream: refusing 0 passed every test, and so did growing only when fewer than 7 bytes were free (a capacity of 15
     * overran its buffer at the second word) (from a mutation review).
     */
    @Test
    void aWriterOfAnyInitialCapacityGrowsAsItWrites() {
        for (int capacity = 0; capacity <= 24; capacity++) {
            BitWriter writer = new BitWriter(capacity);
            for (int i = 0; i < 40; i++) {
                writer.writeBits(i, 13);
            }
            BitReader reader = new BitReader(writer.toByteArray());
            for (int i = 0; i < 40; i++) {
                assertEquals(i, reader.readBits(13), "value " + i + " at capacity " + capacity);
            }
        }
    }

    /**
     * Wide reads (57 to 64 bits) at every bit alignment, some ending exactly at the end of the stream. Reading 58 bits
     * from the cache (which a refill leaves holding only 57 after 7 bits were read) and refusing a wide read of exactly
     * the bits that remain both passed every test, the round trip above reading each width at one alignment only (from
     * a mutation review).
     */
    @Test
    void wideReadsRoundTripAtEveryBitAlignment() {
        SplittableRandom random = new SplittableRandom(57);
        for (int lead = 0; lead < 64; lead++) {
            for (int width = 57; width <= 64; width++) {
                long value = random.nextLong() & BitWriter.lowMask(width);
                BitWriter writer = new BitWriter();
                writer.writeBits(-1L, lead);
                writer.writeBits(value, width);
                BitReader reader = new BitReader(writer.toByteArray());
                assertEquals(BitWriter.lowMask(lead), reader.readBits(lead));
                assertEquals(value, reader.readBits(width), width + " bits after " + lead);
                assertEquals((8 - (lead + width) % 8) % 8, reader.remainingBits(), width + " bits after " + lead);
            }
        }
    }

    /**
     * A reset forgets the bits left in the cache, not only their count: keeping them, the one-bits of the old stream
     * stayed in the cache, ORed with the new stream's first byte (read 0xfe, not 0x00), and every test passed (from a
     * mutation review).
     */
    @Test
    void resetForgetsTheBitsLeftInTheCache() {
        BitReader reader = new BitReader(Hex.decode("ff"));
        assertEquals(1, reader.readBits(1));
        reader.reset(Hex.decode("00"), 0, 1);
        assertEquals(0, reader.readBits(8));
    }

    /**
     * copyTo checks the whole range before it writes: an array too small for the pending bits is refused untouched,
     * where without the check the whole words were copied and only the last byte's write failed (from a mutation
     * review).
     */
    @Test
    void copyToAnArrayTooSmallWritesNothing() {
        BitWriter writer = new BitWriter();
        writer.writeBits(-1L, 64);
        writer.writeBits(1, 1);
        byte[] out = new byte[9];
        var e = assertThrows(IndexOutOfBoundsException.class, () -> writer.copyTo(out, 1));
        assertEquals("Range [1, 1 + 9) out of bounds for length 9", e.getMessage());
        assertArrayEquals(new byte[9], out);
    }

    @Test
    void badArgumentsAreRefusedWithTheValue() {
        BitWriter writer = new BitWriter();
        assertEquals("bit count is 65; it must be between 0 and 64",
                assertThrows(IllegalArgumentException.class, () -> writer.writeBits(0, 65)).getMessage());
        assertEquals("bit count is -1; it must be between 0 and 64",
                assertThrows(IllegalArgumentException.class, () -> writer.writeBits(0, -1)).getMessage());
        assertEquals("unary value is -1; it must be >= 0",
                assertThrows(IllegalArgumentException.class, () -> writer.writeUnary(-1)).getMessage());
        assertEquals("initial capacity is -2 bytes; it must be >= 0",
                assertThrows(IllegalArgumentException.class, () -> new BitWriter(-2)).getMessage());
        BitReader reader = new BitReader(new byte[1]);
        assertEquals("bit count is -1; it must be between 0 and 64",
                assertThrows(IllegalArgumentException.class, () -> reader.readBits(-1)).getMessage());
        assertEquals("bit count is 65; it must be between 0 and 64",
                assertThrows(IllegalArgumentException.class, () -> reader.readBits(65)).getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> new BitReader(new byte[2], 1, 2));
    }
}
