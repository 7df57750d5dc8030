package org.chainfilter.common.hash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import java.util.SplittableRandom;
import net.openhft.hashing.LongHashFunction;
import org.junit.jupiter.api.Test;

/**
 * XXH3-64 against the reference's sanity vectors and against two independent Java implementations.
 */
class Xxh3Test {

    /**
     * The reference's sanity buffer: byte i is the top byte of {@code 2654435761 * 11400714785074694797^i mod 2^64}
     * (xxHash, {@code cli/xsum_sanity_check.c}, {@code XSUM_fillTestBuffer}: PRIME32 and a PRIME64 that is
     * {@code 0x9E3779B185EBCA8D}, six more than XXH_PRIME64_1).
     */
    private static byte[] sanityBuffer() {
        byte[] buffer = new byte[4096 + 64 + 1];
        long generator = 2654435761L;
        for (int i = 0; i < buffer.length; i++) {
            buffer[i] = (byte) (generator >>> 56);
            generator *= 0x9E3779B185EBCA8DL;
        }
        return buffer;
    }

    /**
     * {@code XXH3_64bits} of the buffer's first {@code length} bytes, every vector with seed 0 in the reference's
     * {@code XSUM_XXH3_testdata} (xxHash, {@code cli/xsum_sanity_check.c}): one per length class, and the long input's
     * block and stripe boundaries.
     */
    @Test
    void referenceSanityVectors() {
        byte[] buffer = sanityBuffer();
        long[][] vectors = {
            {0, 0x2D06800538D394C2L},     // empty
            {1, 0xC44BDFF4074EECDBL},     // 1 - 3
            {6, 0x27B56A84CD2D7325L},     // 4 - 8
            {12, 0xA713DAF0DFBB77E7L},    // 9 - 16
            {24, 0xA3FE70BF9D3510EBL},    // 17 - 32
            {48, 0x397DA259ECBA1F11L},    // 33 - 64
            {80, 0xBCDEFBBB2C47C90AL},    // 65 - 96
            {195, 0xCD94217EE362EC3AL},   // 129 - 240
            {403, 0xCDEB804D65C6DEA4L},   // one block, last stripe overlapping
            {512, 0x617E49599013CB6BL},   // one block, ending at a stripe boundary
            {2048, 0xDD59E2C3A5F038E0L},  // two blocks, ending at a block boundary
            {2240, 0x6E73A90539CF2948L},  // three blocks, ending at a stripe boundary
            {2367, 0xCB37AEB9E5D361EDL},  // three blocks, last stripe overlapping
        };
        for (long[] vector : vectors) {
            int length = (int) vector[0];
            assertEquals(vector[1], Xxh3.hash64(buffer, 0, length), "length " + length);
        }
    }

    /**
     * Every length from 0 to 5,000 bytes (every class, every block and stripe count up to five blocks), three random
     * inputs each at random offsets, against hash4j's and zero-allocation-hashing's XXH3-64.
     */
    @Test
    void agreesWithTwoIndependentImplementations() {
        Hasher64 hash4j = Hashing.xxh3_64();
        LongHashFunction openHft = LongHashFunction.xx3();
        SplittableRandom random = new SplittableRandom(41);
        for (int length = 0; length <= 5_000; length++) {
            for (int n = 0; n < 3; n++) {
                byte[] data = new byte[length + 9];
                random.nextBytes(data);
                int offset = random.nextInt(10);
                long ours = Xxh3.hash64(data, offset, length);
                assertEquals(hash4j.hashBytesToLong(data, offset, length), ours, "hash4j, length " + length);
                assertEquals(openHft.hashBytes(data, offset, length), ours, "zero-allocation-hashing, length " + length);
            }
        }
    }

    @Test
    void aLongIsItsEightLittleEndianBytes() {
        SplittableRandom random = new SplittableRandom(43);
        for (int n = 0; n < 10_000; n++) {
            long value = n < 3 ? new long[] {0, -1, Long.MIN_VALUE}[n] : random.nextLong();
            byte[] bytes = new byte[8];
            for (int b = 0; b < 8; b++) {
                bytes[b] = (byte) (value >>> (8 * b));
            }
            assertEquals(Xxh3.hash64(bytes), Xxh3.hash64OfLong(value), "value " + value);
        }
    }

    /** Text is hashed as its UTF-16LE code units, unpaired surrogates included, at every length class. */
    @Test
    void charsAreTheirUtf16LittleEndianCodeUnits() {
        SplittableRandom random = new SplittableRandom(47);
        for (int count = 0; count <= 1_500; count++) {
            StringBuilder text = new StringBuilder();
            byte[] bytes = new byte[2 * count];
            for (int i = 0; i < count; i++) {
                char c = (char) random.nextInt(0x10000);
                text.append(c);
                bytes[2 * i] = (byte) c;
                bytes[2 * i + 1] = (byte) (c >>> 8);
            }
            assertEquals(Xxh3.hash64(bytes), Xxh3.hash64OfChars(text), count + " chars");
            assertEquals(Xxh3.hash64(bytes), Xxh3.hash64OfChars(text.toString()), count + " chars as a String");
        }
    }

    /**
     * A range outside the array is refused before any byte is read, even one that reads nothing: without the check, an
     * empty range at offset 5 of 4 bytes, or a negative length, was hashed as the empty input (from a mutation review).
     */
    @Test
    void aRangeOutsideTheArrayIsRefused() {
        assertThrows(IndexOutOfBoundsException.class, () -> Xxh3.hash64(new byte[4], 2, 3));
        assertThrows(IndexOutOfBoundsException.class, () -> Xxh3.hash64(new byte[4], -1, 2));
        var e = assertThrows(IndexOutOfBoundsException.class, () -> Xxh3.hash64(new byte[4], 5, 0));
        assertEquals("Range [5, 5 + 0) out of bounds for length 4", e.getMessage());
        e = assertThrows(IndexOutOfBoundsException.class, () -> Xxh3.hash64(new byte[4], 0, -1));
        assertEquals("Range [0, 0 + -1) out of bounds for length 4", e.getMessage());
    }

    /**
     * Text of more than Integer.MAX_VALUE / 2 chars (more bytes than an int counts) is refused: without the check, the
     * byte count overflowed to a negative length and the text was hashed as the empty input. A view of such a text, so
     * nothing is allocated (from a mutation review).
     */
    @Test
    void textTooLongForAnIntOfBytesIsRefused() {
        CharSequence huge = new CharSequence() {
            @Override public int length() { return Integer.MAX_VALUE / 2 + 1; }
            @Override public char charAt(int index) { return 'a'; }
            @Override public CharSequence subSequence(int start, int end) { throw new UnsupportedOperationException(); }
        };
        var e = assertThrows(IllegalArgumentException.class, () -> Xxh3.hash64OfChars(huge));
        assertEquals("text is 1073741824 chars; XXH3 over UTF-16 takes at most 1073741823", e.getMessage());
    }
}
