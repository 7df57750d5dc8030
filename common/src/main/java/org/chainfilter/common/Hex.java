package org.chainfilter.common;

/**
 * Hexadecimal text to bytes and back. Upper- or lower-case digits are accepted on input, and a leading {@code 0x} or
 * {@code 0X} is ignored; output is always lower-case without a prefix.
 */
public final class Hex {
    private static final char[] DIGITS = "0123456789abcdef".toCharArray();

    private Hex() {
    }

    /** Lower-case hex of all of {@code bytes}. */
    public static String encode(byte[] bytes) {
        return encode(bytes, 0, bytes.length);
    }

    /** Lower-case hex of {@code bytes[offset, offset + length)}. */
    public static String encode(byte[] bytes, int offset, int length) {
        java.util.Objects.checkFromIndexSize(offset, length, bytes.length);
        char[] out = new char[length * 2];
        for (int i = 0; i < length; i++) {
            int b = bytes[offset + i] & 0xff;
            out[2 * i] = DIGITS[b >>> 4];
            out[2 * i + 1] = DIGITS[b & 0xf];
        }
        return new String(out);
    }

    /**
     * Bytes of a hex string.
     *
     * @throws IllegalArgumentException when the text has an odd number of digits or a character that is not a hex
     *                                  digit; the message names the position and the character
     */
    public static byte[] decode(CharSequence hex) {
        if (hex == null) {
            throw new IllegalArgumentException("hex string is null");
        }
        int start = prefixLength(hex);
        int digits = hex.length() - start;
        if ((digits & 1) != 0) {
            throw new IllegalArgumentException("hex string has an odd number of digits (" + digits + ")");
        }
        byte[] out = new byte[digits / 2];
        for (int i = 0; i < out.length; i++) {
            int pos = start + 2 * i;
            out[i] = (byte) (digit(hex, pos) << 4 | digit(hex, pos + 1));
        }
        return out;
    }

    /**
     * Bytes of a hex string that must decode to exactly {@code expectedLength} bytes. The digits are checked, then the
     * length from their count, before anything is decoded or allocated, so an oversized value costs nothing.
     *
     * @throws IllegalArgumentException naming the length found and the length required, or (for null, an odd digit
     *                                  count or a character that is not a hex digit) {@code what} and then what
     *                                  {@link #decode(CharSequence)} says
     */
    public static byte[] decode(CharSequence hex, int expectedLength, String what) {
        if (hex != null) {
            int start = prefixLength(hex);
            int digits = hex.length() - start;
            // Not hex at all ("zz") is said as such, not as a length: the digits a right-sized value would have are
            // scanned (nothing allocated, and no more for a huge value), then the length is checked.
            try {
                for (int pos = start, end = (int) Math.min(hex.length(), start + 2L * expectedLength); pos < end;
                        pos++) {
                    digit(hex, pos);
                }
            } catch (IllegalArgumentException notHex) {
                throw new IllegalArgumentException(what + ": " + notHex.getMessage(), notHex);
            }
            if ((digits & 1) == 0 && digits / 2 != expectedLength) {
                throw new IllegalArgumentException(
                        what + " is " + digits / 2 + " bytes; it must be exactly " + expectedLength + " bytes");
            }
        }
        try {
            return decode(hex);
        } catch (IllegalArgumentException malformed) {
            throw new IllegalArgumentException(what + ": " + malformed.getMessage(), malformed);
        }
    }

    /** 2 for a leading {@code 0x} or {@code 0X}, else 0. */
    private static int prefixLength(CharSequence hex) {
        return hex.length() >= 2 && hex.charAt(0) == '0' && (hex.charAt(1) == 'x' || hex.charAt(1) == 'X') ? 2 : 0;
    }

    private static int digit(CharSequence hex, int pos) {
        char c = hex.charAt(pos);
        int d = Character.digit(c, 16);
        if (d < 0 || c > 0x7f) {
            throw new IllegalArgumentException("not a hex digit: '" + c + "' at position " + pos);
        }
        return d;
    }

    /** A reversed copy: converts Bitcoin hashes between internal (wire) and display (RPC) byte order. */
    public static byte[] reverse(byte[] bytes) {
        byte[] out = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            out[i] = bytes[bytes.length - 1 - i];
        }
        return out;
    }
}
