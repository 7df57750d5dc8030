package org.chainfilter.common.math;

/**
 * The shape of a Bloom filter: its bit count {@code m} and hash function count {@code k} (Apache Commons
 * Collections' {@code Shape} idea). An immutable value; two filters can be merged only when their shapes are equal.
 */
public final class Shape {
    /** The largest hash function count a shape allows; it fits the one-byte field of the binary forms. */
    public static final int MAX_HASH_FUNCTION_COUNT = 255;

    private final long bitCount;
    private final int hashFunctionCount;

    private Shape(long bitCount, int hashFunctionCount) {
        BloomMath.checkCount("bit count", bitCount);
        if (hashFunctionCount < 1 || hashFunctionCount > MAX_HASH_FUNCTION_COUNT) {
            throw new IllegalArgumentException("hash function count is " + hashFunctionCount
                    + "; it must be within [1, " + MAX_HASH_FUNCTION_COUNT + "]");
        }
        this.bitCount = bitCount;
        this.hashFunctionCount = hashFunctionCount;
    }

    /** A shape of {@code bitCount} bits and {@code hashFunctionCount} hash functions. */
    public static Shape of(long bitCount, int hashFunctionCount) {
        return new Shape(bitCount, hashFunctionCount);
    }

    /**
     * The optimal shape for {@code expectedElements} at {@code falsePositiveRate}:
     * {@code m = ceil(-n ln p / (ln 2)^2)}, {@code k = max(1, round((m/n) ln 2))} (see {@link BloomMath}).
     *
     * @throws IllegalArgumentException if the optimal {@code k} exceeds 255, i.e. the rate is below about
     *     {@code 2^-255.5 ≈ 1.2e-77} ({@code k ≈ log2(1/p)}); the message names the rate, not only {@code k}
     */
    public static Shape fromElementsAndRate(long expectedElements, double falsePositiveRate) {
        long m = BloomMath.optimalBitCount(expectedElements, falsePositiveRate);
        int k = BloomMath.optimalHashFunctionCount(expectedElements, m);
        if (k > MAX_HASH_FUNCTION_COUNT) {
            throw new IllegalArgumentException("false-positive rate is " + falsePositiveRate + "; its optimal shape"
                    + " needs " + k + " hash functions, more than the " + MAX_HASH_FUNCTION_COUNT
                    + " a shape allows (the rate must be at least about 1.2e-77)");
        }
        return new Shape(m, k);
    }

    /** {@code m}, the number of bits. */
    public long bitCount() {
        return bitCount;
    }

    /** {@code k}, the number of bit positions per element. */
    public int hashFunctionCount() {
        return hashFunctionCount;
    }

    /** {@code ceil(m / 8)}: the bytes the bits occupy. */
    public long byteCount() {
        return (bitCount + 7) >>> 3;
    }

    /** The a-priori false-positive rate after {@code elements} insertions: {@code (1 - e^(-kn/m))^k}. */
    public double falsePositiveRate(long elements) {
        return BloomMath.falsePositiveRate(elements, bitCount, hashFunctionCount);
    }

    /** The Swamidass–Baldi element count estimate {@code -(m/k) ln(1 - X/m)} for {@code setBits} set bits. */
    public double estimatedElementCount(long setBits) {
        return BloomMath.estimatedElementCount(setBits, bitCount, hashFunctionCount);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Shape && ((Shape) o).bitCount == bitCount && ((Shape) o).hashFunctionCount == hashFunctionCount;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(bitCount) * 31 + hashFunctionCount;
    }

    @Override
    public String toString() {
        return "Shape[m=" + bitCount + ", k=" + hashFunctionCount + "]";
    }
}
