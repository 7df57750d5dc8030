package org.chainfilter.common.hash;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;
import org.chainfilter.common.Hex;

/**
 * XXH3-64 (Yann Collet's xxHash 0.8 family) with the default secret and seed 0: {@code XXH3_64bits(input, length)}.
 * The blocked filter hashes its keys with it, as RocksDB's and Parquet's blocked filters hash theirs with xxHash: for
 * short keys it costs about half of MurmurHash3 x64_128 (two 64 × 64 → 128-bit multiplies and an avalanche for a
 * 32-byte key), and a blocked filter needs 64 bits, not 128.
 *
 * <p>Every length class of the reference is implemented: 0, 1–3, 4–8, 9–16, 17–128, 129–240 bytes, and longer inputs
 * in 64-byte stripes over 1,024-byte blocks with eight accumulators, scrambled after each block, the last stripe
 * overlapping, merged and avalanched. {@code Xxh3Test} checks the reference's sanity vectors for every class (its
 * {@code XSUM_XXH3_testdata} with seed 0), and two independent Java implementations on random inputs of every length up
 * to 5,000 bytes. The constants (the primes and the 192-byte default secret {@code kSecret}) are the reference's.
 *
 * <p>Inputs are byte ranges, the 8 little-endian bytes of a {@code long}, and the UTF-16LE code units of a
 * {@link CharSequence}, read in place. No allocation at any length.
 */
public final class Xxh3 {
    private static final long PRIME32_1 = 0x9E3779B1L;
    private static final long PRIME32_2 = 0x85EBCA77L;
    private static final long PRIME32_3 = 0xC2B2AE3DL;
    private static final long PRIME64_1 = 0x9E3779B185EBCA87L;
    private static final long PRIME64_2 = 0xC2B2AE3D27D4EB4FL;
    private static final long PRIME64_3 = 0x165667B19E3779F9L;
    private static final long PRIME64_4 = 0x85EBCA77C2B2AE63L;
    private static final long PRIME64_5 = 0x27D4EB2F165667C5L;
    private static final long PRIME_MX1 = 0x165667919E3779F9L;
    private static final long PRIME_MX2 = 0x9FB21C651E98DF25L;

    private static final int STRIPE_BYTES = 64;
    /** Bytes of secret a stripe advances by. */
    private static final int SECRET_STEP = 8;
    private static final int SECRET_BYTES = 192;
    private static final int STRIPES_PER_BLOCK = (SECRET_BYTES - STRIPE_BYTES) / SECRET_STEP;
    private static final int BLOCK_BYTES = STRIPE_BYTES * STRIPES_PER_BLOCK;

    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class,
            ByteOrder.LITTLE_ENDIAN);

    /** The reference's default secret {@code kSecret}. */
    private static final byte[] SECRET = Hex.decode(
            "b8fe6c3923a44bbe7c01812cf721ad1cded46de9839097db7240a4a4b7b3671f"
            + "cb79e64eccc0e578825ad07dccff7221b8084674f743248ee03590e6813a264c"
            + "3c2852bb91c300cb88d0658b1b532ea371644897a20df94e3819ef46a9deacd8"
            + "a8fa763fe39c343ff9dcbbc7c70b4f1d8a51e04bcdb45931c89f7ec9d9787364"
            + "eac5ac8334d3ebc3c581a0fffa1363eb170ddd51b7f0da49d316552629d4689e"
            + "2b16be587d47a1fc8ff8b8d17ad031ce45cb3a8f95160428afd7fbcabb4b407e");

    /** The secret's words at the offsets the 4–8 and 9–16 byte classes read, folded once. */
    private static final long FLIP_4_TO_8 = secret64(8) ^ secret64(16);
    private static final long FLIP_9_TO_16_LOW = secret64(24) ^ secret64(32);
    private static final long FLIP_9_TO_16_HIGH = secret64(40) ^ secret64(48);

    private Xxh3() {
    }

    /** XXH3-64 of {@code data[offset, offset + length)}. No allocation. */
    public static long hash64(byte[] data, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, data.length);
        return hash(data, offset, length);
    }

    /** XXH3-64 of all of {@code data}. No allocation. */
    public static long hash64(byte[] data) {
        return hash(data, 0, data.length);
    }

    /** XXH3-64 of the 8 little-endian bytes of {@code value}, without writing them anywhere. */
    public static long hash64OfLong(long value) {
        // The 4-8 byte class reads the first and the last 4 bytes: (low half << 32) + high half, a rotation.
        return rrmxmx(Long.rotateLeft(value, 32) ^ FLIP_4_TO_8, 8);
    }

    /**
     * XXH3-64 of the UTF-16 code units of {@code chars}, each little-endian (the bytes of
     * {@code chars.toString().getBytes(UTF_16LE)} for well-formed text), without encoding them. No allocation.
     *
     * @throws IllegalArgumentException if the text is longer than {@code Integer.MAX_VALUE / 2} chars
     */
    public static long hash64OfChars(CharSequence chars) {
        int count = chars.length();
        if (count > Integer.MAX_VALUE / 2) {
            throw new IllegalArgumentException(
                    "text is " + count + " chars; XXH3 over UTF-16 takes at most " + Integer.MAX_VALUE / 2);
        }
        return hash(chars, 0, 2 * count);
    }

    /**
     * The hash of {@code length} bytes from {@code base} of {@code in}: a {@code byte[]}, or a {@link CharSequence}
     * whose byte {@code 2i} and {@code 2i + 1} are the low and high byte of char {@code i} ({@code base} is then 0).
     */
    private static long hash(Object in, int base, int length) {
        if (length <= 16) {
            return upTo16(in, base, length);
        }
        if (length <= 128) {
            return upTo128(in, base, length);
        }
        if (length <= 240) {
            return upTo240(in, base, length);
        }
        return longInput(in, base, length);
    }

    private static long upTo16(Object in, int base, int length) {
        if (length > 8) {
            long low = le64(in, base) ^ FLIP_9_TO_16_LOW;
            long high = le64(in, base + length - 8) ^ FLIP_9_TO_16_HIGH;
            long acc = length + Long.reverseBytes(low) + high + multiplyFold(low, high);
            return avalanche(acc);
        }
        if (length >= 4) {
            long first = le32(in, base);
            long last = le32(in, base + length - 4);
            return rrmxmx((last + (first << 32)) ^ FLIP_4_TO_8, length);
        }
        if (length > 0) {
            long c1 = byteAt(in, base);
            long c2 = byteAt(in, base + (length >> 1));
            long c3 = byteAt(in, base + length - 1);
            long combined = (c1 << 16) | (c2 << 24) | c3 | ((long) length << 8);
            long flip = (secret32(0) ^ secret32(4));
            return xxh64Avalanche(combined ^ flip);
        }
        return xxh64Avalanche(secret64(56) ^ secret64(64));
    }

    private static long upTo128(Object in, int base, int length) {
        long acc = length * PRIME64_1;
        if (length > 32) {
            if (length > 64) {
                if (length > 96) {
                    acc += mix16(in, base + 48, 96);
                    acc += mix16(in, base + length - 64, 112);
                }
                acc += mix16(in, base + 32, 64);
                acc += mix16(in, base + length - 48, 80);
            }
            acc += mix16(in, base + 16, 32);
            acc += mix16(in, base + length - 32, 48);
        }
        acc += mix16(in, base, 0);
        acc += mix16(in, base + length - 16, 16);
        return avalanche(acc);
    }

    private static long upTo240(Object in, int base, int length) {
        long acc = length * PRIME64_1;
        for (int i = 0; i < 8; i++) {
            acc += mix16(in, base + 16 * i, 16 * i);
        }
        acc = avalanche(acc);
        int rounds = length / 16;
        for (int i = 8; i < rounds; i++) {
            acc += mix16(in, base + 16 * i, 16 * (i - 8) + 3);
        }
        // The last 16 bytes, with the secret at XXH3_SECRET_SIZE_MIN (136) - 17.
        acc += mix16(in, base + length - 16, 119);
        return avalanche(acc);
    }

    /**
     * More than 240 bytes: 64-byte stripes into eight accumulators, each stripe with the secret 8 bytes further on,
     * 16 stripes a block and a scramble after each whole block; then the stripes of the last, partial block; then the
     * input's last 64 bytes (overlapping) with the secret at 192 - 64 - 7; the accumulators merged with the secret from
     * byte 11. The accumulators are locals, so nothing is allocated.
     */
    private static long longInput(Object in, int base, int length) {
        long a0 = PRIME32_3;
        long a1 = PRIME64_1;
        long a2 = PRIME64_2;
        long a3 = PRIME64_3;
        long a4 = PRIME64_4;
        long a5 = PRIME32_2;
        long a6 = PRIME64_5;
        long a7 = PRIME32_1;
        int blocks = (length - 1) / BLOCK_BYTES;
        int wholeBlockStripes = blocks * STRIPES_PER_BLOCK;
        int total = wholeBlockStripes + ((length - 1) - BLOCK_BYTES * blocks) / STRIPE_BYTES + 1;
        for (int n = 0; n < total; n++) {
            boolean last = n == total - 1;
            int s = n % STRIPES_PER_BLOCK;
            int at = last ? base + length - STRIPE_BYTES : base + (n / STRIPES_PER_BLOCK) * BLOCK_BYTES + s * STRIPE_BYTES;
            int key = last ? SECRET_BYTES - STRIPE_BYTES - 7 : s * SECRET_STEP;
            long v0 = le64(in, at);
            long v1 = le64(in, at + 8);
            long v2 = le64(in, at + 16);
            long v3 = le64(in, at + 24);
            long v4 = le64(in, at + 32);
            long v5 = le64(in, at + 40);
            long v6 = le64(in, at + 48);
            long v7 = le64(in, at + 56);
            // Lane i takes the product of its keyed halves and the value of its neighbour i ^ 1.
            a0 += v1 + halvesProduct(v0 ^ secret64(key));
            a1 += v0 + halvesProduct(v1 ^ secret64(key + 8));
            a2 += v3 + halvesProduct(v2 ^ secret64(key + 16));
            a3 += v2 + halvesProduct(v3 ^ secret64(key + 24));
            a4 += v5 + halvesProduct(v4 ^ secret64(key + 32));
            a5 += v4 + halvesProduct(v5 ^ secret64(key + 40));
            a6 += v7 + halvesProduct(v6 ^ secret64(key + 48));
            a7 += v6 + halvesProduct(v7 ^ secret64(key + 56));
            if (n < wholeBlockStripes && s == STRIPES_PER_BLOCK - 1) {
                a0 = scrambled(a0, 0);
                a1 = scrambled(a1, 1);
                a2 = scrambled(a2, 2);
                a3 = scrambled(a3, 3);
                a4 = scrambled(a4, 4);
                a5 = scrambled(a5, 5);
                a6 = scrambled(a6, 6);
                a7 = scrambled(a7, 7);
            }
        }
        long result = length * PRIME64_1
                + multiplyFold(a0 ^ secret64(11), a1 ^ secret64(19))
                + multiplyFold(a2 ^ secret64(27), a3 ^ secret64(35))
                + multiplyFold(a4 ^ secret64(43), a5 ^ secret64(51))
                + multiplyFold(a6 ^ secret64(59), a7 ^ secret64(67));
        return avalanche(result);
    }

    /** The product of a word's low and high 32-bit halves, unsigned. */
    private static long halvesProduct(long keyed) {
        return (keyed & 0xffffffffL) * (keyed >>> 32);
    }

    /** Accumulator {@code lane} scrambled after a whole block, with the secret's last 64 bytes. */
    private static long scrambled(long acc, int lane) {
        acc ^= acc >>> 47;
        acc ^= secret64(SECRET_BYTES - STRIPE_BYTES + 8 * lane);
        return acc * PRIME32_1;
    }

    private static long mix16(Object in, int at, int secretOffset) {
        return multiplyFold(le64(in, at) ^ secret64(secretOffset), le64(in, at + 8) ^ secret64(secretOffset + 8));
    }

    /** The 128-bit product of two unsigned 64-bit values, its halves XORed. */
    private static long multiplyFold(long a, long b) {
        long high = Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
        return high ^ (a * b);
    }

    private static long avalanche(long h) {
        h ^= h >>> 37;
        h *= PRIME_MX1;
        return h ^ (h >>> 32);
    }

    private static long xxh64Avalanche(long h) {
        h ^= h >>> 33;
        h *= PRIME64_2;
        h ^= h >>> 29;
        h *= PRIME64_3;
        return h ^ (h >>> 32);
    }

    private static long rrmxmx(long h, int length) {
        h ^= Long.rotateLeft(h, 49) ^ Long.rotateLeft(h, 24);
        h *= PRIME_MX2;
        h ^= (h >>> 35) + length;
        h *= PRIME_MX2;
        return h ^ (h >>> 28);
    }

    private static long le64(Object in, int at) {
        if (in instanceof byte[]) {
            return (long) LONG_LE.get((byte[]) in, at);
        }
        CharSequence chars = (CharSequence) in;
        int c = at >> 1;
        return chars.charAt(c) | (long) chars.charAt(c + 1) << 16 | (long) chars.charAt(c + 2) << 32
                | (long) chars.charAt(c + 3) << 48;
    }

    private static long le32(Object in, int at) {
        if (in instanceof byte[]) {
            return (int) INT_LE.get((byte[]) in, at) & 0xffffffffL;
        }
        CharSequence chars = (CharSequence) in;
        int c = at >> 1;
        return chars.charAt(c) | (long) chars.charAt(c + 1) << 16;
    }

    private static long byteAt(Object in, int at) {
        if (in instanceof byte[]) {
            return ((byte[]) in)[at] & 0xffL;
        }
        return (((CharSequence) in).charAt(at >> 1) >>> ((at & 1) << 3)) & 0xffL;
    }

    private static long secret64(int at) {
        return (long) LONG_LE.get(SECRET, at);
    }

    private static long secret32(int at) {
        return (int) INT_LE.get(SECRET, at) & 0xffffffffL;
    }
}
