package org.chainfilter.common.hash;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * Austin Appleby's MurmurHash3: the x86_32 variant (the one BIP37 and Bitcoin Core's {@code MurmurHash3(nHashSeed,
 * data)} use) and the x64_128 variant (the 128-bit hash the generic Bloom filter derives its indices from).
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
    private static final long C1_64 = 0x87c37b91114253d5L;
    private static final long C2_64 = 0x4cf5ad432745937fL;
    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

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

    /**
     * MurmurHash3_x64_128 of {@code data[offset, offset + length)}, handed to {@code result} as {@code (h1, h2)}; returns
     * what {@code result} returns. No allocation.
     *
     * <p>Follows the reference {@code MurmurHash3_x64_128(key, len, seed, out)} of SMHasher exactly: 16-byte blocks read
     * as two little-endian 64-bit words, tail bytes unsigned ({@code b & 0xff}), and the 32-bit {@code seed} zero-extended
     * into both 64-bit lanes, as the reference's {@code uint64_t h1 = seed} does with its {@code uint32_t seed}. (Guava's
     * {@code Hashing.murmur3_128(int)} sign-extends a negative seed instead, so it differs from the reference for seeds
     * of 2^31 and above; {@code Murmur3Test} shows that deviation.) {@code h1} and {@code h2} are the reference's
     * {@code out[0]} and {@code out[1]}: the 16 output bytes are {@code h1} then {@code h2}, each little-endian.
     */
    public static boolean x64_128(int seed, byte[] data, int offset, int length, Hash128Function result) {
        Objects.checkFromIndexSize(offset, length, data.length);
        long h1 = seed & 0xffffffffL;
        long h2 = h1;
        int end = offset + (length & ~15);
        for (int i = offset; i < end; i += 16) {
            h1 ^= mixK1((long) LONG_LE.get(data, i));
            h1 = Long.rotateLeft(h1, 27) + h2;
            h1 = h1 * 5 + 0x52dce729;
            h2 ^= mixK2((long) LONG_LE.get(data, i + 8));
            h2 = Long.rotateLeft(h2, 31) + h1;
            h2 = h2 * 5 + 0x38495ab5;
        }
        int tail = length & 15;
        if (tail > 8) {
            h2 ^= mixK2(littleEndian(data, end + 8, tail - 8));
        }
        if (tail > 0) {
            h1 ^= mixK1(littleEndian(data, end, Math.min(tail, 8)));
        }
        return finish(h1, h2, length, result);
    }

    /** MurmurHash3_x64_128 of all of {@code data}, handed to {@code result}; see the ranged overload. */
    public static boolean x64_128(int seed, byte[] data, Hash128Function result) {
        return x64_128(seed, data, 0, data.length, result);
    }

    /**
     * MurmurHash3_x64_128 of all of {@code data} as {@code {h1, h2}}: a convenience that allocates the array; hot paths
     * use the {@link Hash128Function} overloads.
     */
    public static long[] x64_128(int seed, byte[] data) {
        long[] out = new long[2];
        x64_128(seed, data, 0, data.length, (h1, h2) -> {
            out[0] = h1;
            out[1] = h2;
            return true;
        });
        return out;
    }

    /**
     * MurmurHash3_x64_128 of the 8 little-endian bytes of {@code value}, without writing them anywhere: equal to
     * {@link #x64_128(int, byte[], Hash128Function)} of those bytes. No allocation.
     */
    public static boolean x64_128OfLong(int seed, long value, Hash128Function result) {
        long h1 = seed & 0xffffffffL;
        return finish(h1 ^ mixK1(value), h1, 8, result);
    }

    /**
     * MurmurHash3_x64_128 of the UTF-16 code units of {@code chars}, each little-endian (the bytes of
     * {@code chars.toString().getBytes(UTF_16LE)} for well-formed text, without encoding them). No allocation. Two
     * sequences hash alike exactly when they hold the same {@code char}s, unpaired surrogates included.
     */
    public static boolean x64_128OfChars(int seed, CharSequence chars, Hash128Function result) {
        long h1 = seed & 0xffffffffL;
        long h2 = h1;
        int count = chars.length();
        int end = count & ~7;
        for (int i = 0; i < end; i += 8) {
            h1 ^= mixK1(charsLittleEndian(chars, i, 4));
            h1 = Long.rotateLeft(h1, 27) + h2;
            h1 = h1 * 5 + 0x52dce729;
            h2 ^= mixK2(charsLittleEndian(chars, i + 4, 4));
            h2 = Long.rotateLeft(h2, 31) + h1;
            h2 = h2 * 5 + 0x38495ab5;
        }
        int tail = count & 7;
        if (tail > 4) {
            h2 ^= mixK2(charsLittleEndian(chars, end + 4, tail - 4));
        }
        if (tail > 0) {
            h1 ^= mixK1(charsLittleEndian(chars, end, Math.min(tail, 4)));
        }
        return finish(h1, h2, 2L * count, result);
    }

    private static boolean finish(long h1, long h2, long byteLength, Hash128Function result) {
        h1 ^= byteLength;
        h2 ^= byteLength;
        h1 += h2;
        h2 += h1;
        h1 = fmix64(h1);
        h2 = fmix64(h2);
        h1 += h2;
        h2 += h1;
        return result.apply(h1, h2);
    }

    private static long mixK1(long k1) {
        return Long.rotateLeft(k1 * C1_64, 31) * C2_64;
    }

    private static long mixK2(long k2) {
        return Long.rotateLeft(k2 * C2_64, 33) * C1_64;
    }

    /** Up to 8 bytes as an unsigned little-endian word, each byte masked so a negative one cannot sign-extend. */
    private static long littleEndian(byte[] data, int from, int count) {
        long word = 0;
        for (int j = count - 1; j >= 0; j--) {
            word = word << 8 | (data[from + j] & 0xffL);
        }
        return word;
    }

    private static long charsLittleEndian(CharSequence chars, int from, int count) {
        long word = 0;
        for (int j = count - 1; j >= 0; j--) {
            word = word << 16 | chars.charAt(from + j);
        }
        return word;
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
