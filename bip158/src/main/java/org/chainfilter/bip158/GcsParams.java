package org.chainfilter.bip158;

import java.util.Objects;
import org.chainfilter.common.hash.SipHash24;

/**
 * The parameters of a Golomb-coded set (BIP158 "Golomb-Coded Sets"; Core {@code GCSFilter::Params}): the SipHash-2-4
 * key as the two little-endian words {@code k0}, {@code k1}, the Golomb-Rice parameter {@code P} (remainder bits) and
 * the inverse false-positive rate {@code M}. Immutable.
 *
 * <p>An item maps to {@code hashToRange(x, F) = floor(SipHash(k, x) * F / 2^64)} with {@code F = N * M}: the high 64
 * bits of the unsigned 64x64-bit product (Lemire's "fast range", Core {@code FastRange64}), never {@code % F}.
 */
public final class GcsParams {
    /** The largest {@code P}: with more remainder bits the 64-bit deltas of a set of {@code N < 2^32} would not fit. */
    public static final int MAX_P = 32;
    /** BIP158 requires {@code M < 2^32} (so that {@code F = N * M < 2^64}). */
    public static final long MAX_M = 0xffffffffL;

    private final long k0;
    private final long k1;
    private final int p;
    private final long m;

    private GcsParams(long k0, long k1, int p, long m) {
        if (p < 0 || p > MAX_P) {
            throw new IllegalArgumentException("P is " + p + "; it must be between 0 and " + MAX_P);
        }
        if (m < 1 || m > MAX_M) {
            throw new IllegalArgumentException("M is " + m + "; it must be between 1 and " + MAX_M + " (2^32 - 1)");
        }
        this.k0 = k0;
        this.k1 = k1;
        this.p = p;
        this.m = m;
    }

    /** Parameters from the SipHash key words {@code k0 = LE64(key[0..8))}, {@code k1 = LE64(key[8..16))}. */
    public static GcsParams of(long k0, long k1, int p, long m) {
        return new GcsParams(k0, k1, p, m);
    }

    /**
     * Parameters from a 16-byte SipHash key, read as two little-endian words.
     *
     * @throws IllegalArgumentException if the key is not 16 bytes
     */
    public static GcsParams of(byte[] key, int p, long m) {
        if (key.length != 16) {
            throw new IllegalArgumentException("GCS key is " + key.length + " bytes; it must be exactly 16 bytes");
        }
        return new GcsParams(SipHash24.readLongLE(key, 0), SipHash24.readLongLE(key, 8), p, m);
    }

    /** The same P and M under another key: BIP158 keys every block's filter by its own block hash. */
    public GcsParams withKey(long newK0, long newK1) {
        return new GcsParams(newK0, newK1, p, m);
    }

    public long k0() {
        return k0;
    }

    public long k1() {
        return k1;
    }

    /** The key as the 16 bytes SipHash takes: {@code LE64(k0) || LE64(k1)}. */
    public byte[] key() {
        byte[] key = new byte[16];
        for (int i = 0; i < 8; i++) {
            key[i] = (byte) (k0 >>> (8 * i));
            key[8 + i] = (byte) (k1 >>> (8 * i));
        }
        return key;
    }

    /** Golomb-Rice remainder bits. */
    public int p() {
        return p;
    }

    /** Inverse false-positive rate: a non-member matches with probability about {@code 1/M}. */
    public long m() {
        return m;
    }

    /** {@code F = N * M} as an unsigned 64-bit value, for {@code 0 <= N < 2^32}. */
    public long range(long elementCount) {
        return elementCount * m;
    }

    /** SipHash-2-4 of the item under this key (no allocation). */
    public long hash(byte[] item) {
        return SipHash24.hash(k0, k1, item, 0, item.length);
    }

    /** {@code floor(SipHash(k, item) * range / 2^64)}, in {@code [0, range)} unsigned (no allocation). */
    public long hashToRange(byte[] item, long range) {
        return mapToRange(hash(item), range);
    }

    /**
     * {@code floor(hash * range / 2^64)} for unsigned 64-bit {@code hash} and {@code range}: the high word of the
     * 128-bit product. Java 17 lacks {@code Math.unsignedMultiplyHigh}, so the signed {@code Math.multiplyHigh} is
     * corrected: reading a factor with its top bit set as unsigned adds {@code 2^64} to it, which adds the other factor
     * to the high word.
     */
    public static long mapToRange(long hash, long range) {
        return Math.multiplyHigh(hash, range) + ((hash >> 63) & range) + ((range >> 63) & hash);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GcsParams other && k0 == other.k0 && k1 == other.k1 && p == other.p && m == other.m;
    }

    @Override
    public int hashCode() {
        return Objects.hash(k0, k1, p, m);
    }

    @Override
    public String toString() {
        return "GcsParams[P=" + p + ", M=" + m + ", k0=0x" + Long.toHexString(k0) + ", k1=0x" + Long.toHexString(k1)
                + "]";
    }
}
