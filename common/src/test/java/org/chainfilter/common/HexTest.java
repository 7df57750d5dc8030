package org.chainfilter.common;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class HexTest {

    /** Hex text of a length that never has its characters read: only the 0x check may look at the first two. */
    private static CharSequence unreadable(int length) {
        return new CharSequence() {
            @Override
            public int length() {
                return length;
            }

            @Override
            public char charAt(int index) {
                // A right-sized 32-byte value's digits (and a prefix) may be read, to refuse non-hex as such.
                if (index < 66) {
                    return '0';
                }
                throw new AssertionError("character " + index + " was read");
            }

            @Override
            public CharSequence subSequence(int start, int end) {
                throw new AssertionError("subSequence");
            }
        };
    }

    /**
     * A value of the wrong length is refused from its digit count, before decoding: 2,000,000,000 digits for a
     * 32-byte hash allocated a gigabyte and read every character first.
     */
    @Test
    void aFixedLengthIsCheckedBeforeDecoding() {
        var e = assertThrows(IllegalArgumentException.class,
                () -> Hex.decode(unreadable(2_000_000_000), 32, "hash"));
        assertEquals("hash is 1000000000 bytes; it must be exactly 32 bytes", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Hex.decode("0x0011", 32, "hash"));
        assertEquals("hash is 2 bytes; it must be exactly 32 bytes", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Hex.decode("001", 32, "hash"));
        assertEquals("hash: hex string has an odd number of digits (3)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Hex.decode("zz", 32, "hash"));
        assertEquals("hash: not a hex digit: 'z' at position 0", e.getMessage(), "not hex at all: not said as a length");
        e = assertThrows(IllegalArgumentException.class, () -> Hex.decode("0g", 1, "byte"));
        assertEquals("byte: not a hex digit: 'g' at position 1", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Hex.decode(null, 1, "byte"));
        assertEquals("byte: hex string is null", e.getMessage(), "the value is named whatever is wrong with it");
        assertArrayEquals(new byte[] {0x00, (byte) 0xff}, Hex.decode("0X00FF", 2, "pair"));
    }
}
