package org.chainfilter.common.hash;

import java.util.Objects;

/**
 * SipHash-2-4 (Aumasson and Bernstein, 2012) with a 128-bit key and a 64-bit output: two compression rounds per
 * 8-byte word, four finalisation rounds. This is the keyed hash of BIP158's Golomb-coded sets.
 *
 * <p>The key is given either as the 16 bytes the reference implementation takes, or as the two little-endian words
 * {@code k0 = LE64(key[0..8))}, {@code k1 = LE64(key[8..16))}. The message is read in little-endian 8-byte words and the
 * last word carries {@code (length mod 256) << 56}. No allocation per call.
 */
public final class SipHash24 {
    private SipHash24() {
    }

    /**
     * SipHash-2-4 of {@code data} under a 16-byte key.
     *
     * @throws IllegalArgumentException if the key is not exactly 16 bytes
     */
    public static long hash(byte[] key, byte[] data) {
        if (key.length != 16) {
            throw new IllegalArgumentException("SipHash key is " + key.length + " bytes; it must be exactly 16 bytes");
        }
        return hash(readLongLE(key, 0), readLongLE(key, 8), data, 0, data.length);
    }

    /** SipHash-2-4 of all of {@code data} under the key words (k0, k1). */
    public static long hash(long k0, long k1, byte[] data) {
        return hash(k0, k1, data, 0, data.length);
    }

    /** SipHash-2-4 of {@code data[offset, offset + length)} under the key words (k0, k1). */
    public static long hash(long k0, long k1, byte[] data, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, data.length);
        long v0 = k0 ^ 0x736f6d6570736575L;
        long v1 = k1 ^ 0x646f72616e646f6dL;
        long v2 = k0 ^ 0x6c7967656e657261L;
        long v3 = k1 ^ 0x7465646279746573L;
        // One loop runs every SipRound: two per message word (the last word holds the tail bytes and the length), then
        // four finalisation rounds after v2 ^= 0xff. Keeping a single copy of the round is what keeps this auditable.
        int fullWords = length >>> 3;
        int compressionRounds = 2 * (fullWords + 1);
        long m = 0;
        for (int r = 0; r < compressionRounds + 4; r++) {
            if (r < compressionRounds && (r & 1) == 0) {
                int word = r >>> 1;
                m = word < fullWords ? readLongLE(data, offset + 8 * word) : lastWord(data, offset, length);
                v3 ^= m;
            } else if (r == compressionRounds) {
                v2 ^= 0xff;
            }
            v0 += v1; v1 = Long.rotateLeft(v1, 13); v1 ^= v0; v0 = Long.rotateLeft(v0, 32);
            v2 += v3; v3 = Long.rotateLeft(v3, 16); v3 ^= v2;
            v0 += v3; v3 = Long.rotateLeft(v3, 21); v3 ^= v0;
            v2 += v1; v1 = Long.rotateLeft(v1, 17); v1 ^= v2; v2 = Long.rotateLeft(v2, 32);
            if (r < compressionRounds && (r & 1) == 1) {
                v0 ^= m;
            }
        }
        return v0 ^ v1 ^ v2 ^ v3;
    }

    private static long lastWord(byte[] data, int offset, int length) {
        long last = ((long) length & 0xff) << 56;
        int tail = offset + (length & ~7);
        for (int i = 0, rem = length & 7; i < rem; i++) {
            last |= (data[tail + i] & 0xffL) << (8 * i);
        }
        return last;
    }

    /** The little-endian 64-bit word at {@code bytes[offset, offset + 8)}. */
    public static long readLongLE(byte[] bytes, int offset) {
        return (bytes[offset] & 0xffL)
                | (bytes[offset + 1] & 0xffL) << 8
                | (bytes[offset + 2] & 0xffL) << 16
                | (bytes[offset + 3] & 0xffL) << 24
                | (bytes[offset + 4] & 0xffL) << 32
                | (bytes[offset + 5] & 0xffL) << 40
                | (bytes[offset + 6] & 0xffL) << 48
                | (bytes[offset + 7] & 0xffL) << 56;
    }
}
