package org.chainfilter.bip158;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.chainfilter.common.Hex;
import org.chainfilter.common.bits.BitReader;
import org.junit.jupiter.api.Test;

class GolombRiceTest {

    /** Hand-checkable: 0x9d = 1001 1101 gives quotient 1, then with P = 3 the remainder 011 = 3, so 1 * 8 + 3 = 11. */
    @Test
    void decodesAHandWrittenCode() {
        byte[] bytes = Hex.decode("ff9d");
        assertEquals(9, GolombRice.unaryLength(bytes, 0, 0));
        assertEquals(1, GolombRice.unaryLength(bytes, 8, 0));
        assertEquals(11, GolombRice.delta(bytes, 8, 1, 3, 0));
        assertEquals(0b1101, GolombRice.bits(bytes, 12, 4, 0));
        assertEquals(0, GolombRice.bits(bytes, 16, 0, 0));
    }

    /** With P = 32 (the largest P taken here) the quotient moves 32 bits up and the remainder fills the 32 below. */
    @Test
    void aThirtyTwoBitRemainderSitsBelowTheQuotient() {
        byte[] bytes = Hex.decode("efffffffe0");
        assertEquals(3, GolombRice.unaryLength(bytes, 0, 0));
        assertEquals((3L << 32) + 0xfffffffeL, GolombRice.delta(bytes, 0, 3, 32, 0));
    }

    @Test
    void readsPastTheEndAreRefusedWithThePositionAndTheLength() {
        byte[] bytes = Hex.decode("01fffe00");
        assertEquals("read of 19 bits at bit 16 runs past the end of the 3-byte bit stream (8 bits remain)",
                assertThrows(IllegalArgumentException.class, () -> GolombRice.bits(bytes, 24, 19, 1)).getMessage());
        byte[] ones = Hex.decode("01ffffffff");
        assertEquals("unary code runs past the end of the 4-byte bit stream after 29 one-bits",
                assertThrows(IllegalArgumentException.class, () -> GolombRice.unaryLength(ones, 11, 1)).getMessage());
    }

    /**
     * Differential test against {@code common}'s {@link BitReader} (the cached reader the decoder replaced on the match
     * paths): random streams of every P from 0 to 32, biased towards long runs of one-bits and streams shorter than a
     * 64-bit window, with the stream at a random offset in the array. Both decode the same sequence of deltas, stop at
     * the same bit, and refuse the same truncation with the same message.
     */
    @Test
    void agreesWithTheBitReaderOnRandomStreams() {
        SplittableRandom random = new SplittableRandom(158);
        int refusals = 0;
        long codes = 0;
        for (int round = 0; round < 20_000; round++) {
            int p = random.nextInt(GcsParams.MAX_P + 1);
            int offset = random.nextInt(4);
            byte[] bytes = new byte[offset + random.nextInt(40)];
            random.nextBytes(bytes);
            if (random.nextInt(3) == 0) {
                int from = random.nextInt(bytes.length + 1);
                Arrays.fill(bytes, from, from + random.nextInt(bytes.length - from + 1), (byte) 0xff);
            }
            BitReader reader = new BitReader(bytes, offset, bytes.length - offset);
            long bit = 8L * offset;
            while (true) {
                long expected;
                try {
                    long quotient = reader.readUnary();
                    expected = (quotient << p) + reader.readBits(p);
                } catch (IllegalArgumentException e) {
                    long at = bit;
                    IllegalArgumentException ours = assertThrows(IllegalArgumentException.class, () -> {
                        long quotient = GolombRice.unaryLength(bytes, at, offset);
                        GolombRice.delta(bytes, at, quotient, p, offset);
                    });
                    assertEquals(e.getMessage(), ours.getMessage(), "round " + round);
                    refusals++;
                    break;
                }
                long quotient = GolombRice.unaryLength(bytes, bit, offset);
                assertEquals(expected, GolombRice.delta(bytes, bit, quotient, p, offset), "round " + round);
                bit += quotient + 1 + p;
                assertEquals(reader.position(), bit - 8L * offset, "round " + round);
                codes++;
            }
        }
        assertEquals(20_000, refusals);
        assertTrue(codes > 100_000, "decoded " + codes + " codes");
    }
}
