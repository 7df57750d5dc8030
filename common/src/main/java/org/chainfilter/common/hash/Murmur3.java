package org.chainfilter.common.hash;

import java.util.Objects;

/**
 * Austin Appleby's MurmurHash3, x86_32 variant (the one BIP37 and Bitcoin Core's {@code MurmurHash3(nHashSeed, data)}
 * use).
 *
 * <p>All arithmetic is on unsigned 32-bit values modulo 2^32: Java's {@code int} multiplication wraps the same way, the
 * right shifts are unsigned, tail bytes are read as {@code b & 0xff} (a negative byte must not sign-extend into the
 * higher bits) and a seed above 2^31 is simply passed as the negative {@code int} with the same bits. The result is the
 * raw 32-bit hash (no modulo); compare it with published values through {@link Integer#toUnsignedString(int, int)}.
 *
 * <p>No allocation per call.
 */
public final class Murmur3 {
    private static final int C1 = 0xcc9e2d51;
    private static final int C2 = 0x1b873593;

    private Murmur3() {
    }

    /** MurmurHash3_x86_32 of all of {@code data}. */
    public static int x86_32(int seed, byte[] data) {
        return x86_32(seed, data, 0, data.length);
    }

    /** MurmurHash3_x86_32 of {@code data[offset, offset + length)}. */
    public static int x86_32(int seed, byte[] data, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, data.length);
        int h = seed;
        int end = offset + (length & ~3);
        for (int i = offset; i < end; i += 4) {
            int k = (data[i] & 0xff) | (data[i + 1] & 0xff) << 8 | (data[i + 2] & 0xff) << 16 | data[i + 3] << 24;
            h ^= mixK(k);
            h = Integer.rotateLeft(h, 13);
            h = h * 5 + 0xe6546b64;
        }
        int k = 0;
        switch (length & 3) {
            case 3:
                k ^= (data[end + 2] & 0xff) << 16;
                // fall through
            case 2:
                k ^= (data[end + 1] & 0xff) << 8;
                // fall through
            case 1:
                k ^= data[end] & 0xff;
                h ^= mixK(k);
                break;
            default:
                break;
        }
        return fmix32(h ^ length);
    }

    private static int mixK(int k) {
        k *= C1;
        k = Integer.rotateLeft(k, 15);
        return k * C2;
    }

    /** The 32-bit finalisation mix ("fmix32"): an avalanching bijection on 32 bits. */
    public static int fmix32(int h) {
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        return h ^ (h >>> 16);
    }

    /** The 64-bit finalisation mix ("fmix64") of MurmurHash3 x64_128: an avalanching bijection on 64 bits. */
    public static long fmix64(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        return k ^ (k >>> 33);
    }
}
