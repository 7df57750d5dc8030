package org.chainfilter.common.math;

/**
 * The classic Bloom filter formulas, as pure functions of the element count {@code n}, the bit count {@code m}, the
 * hash function count {@code k}, the false-positive rate {@code p} and an observed count of set bits {@code X}.
 *
 * <ul>
 *   <li>A-priori false-positive rate after {@code n} insertions: {@code p = (1 - e^(-kn/m))^k} (Bloom 1970; the
 *       standard approximation, e.g. Broder and Mitzenmacher, "Network Applications of Bloom Filters: A Survey",
 *       Internet Mathematics 1(4), 2004, section 2.1).</li>
 *   <li>Optimal bit count for {@code n} and {@code p}: {@code m = -n ln p / (ln 2)^2}, rounded up; that is
 *       {@code -ln p / (ln 2)^2} bits per element, 9.585 for {@code p = 1%} (same survey, section 2.2).</li>
 *   <li>Optimal hash function count: {@code k = (m/n) ln 2}, or equivalently {@code -log2 p} for an optimally sized
 *       filter, rounded to the nearest integer and at least 1.</li>
 *   <li>Capacity of {@code m} bits at rate {@code p} (with the optimal {@code k}): {@code n = -m (ln 2)^2 / ln p},
 *       rounded down.</li>
 *   <li>Estimated element count from {@code X} set bits: {@code n* = -(m/k) ln(1 - X/m)} (Swamidass and Baldi,
 *       "Mathematical correction for fingerprint similarity measures to improve chemical retrieval", J. Chem. Inf.
 *       Model. 47(3), 2007, equation 3).</li>
 *   <li>Union size: the same estimate over the bits of {@code A OR B}; intersection size by inclusion-exclusion,
 *       {@code n(A∩B) = n(A) + n(B) - n(A∪B)} (same paper; Apache Commons Collections {@code SetOperations} uses the
 *       same pair).</li>
 * </ul>
 *
 * <p>Every argument is checked: counts must be positive, rates strictly between 0 and 1, set bits within
 * {@code [0, m]}. An exception names the value and the limit.
 */
public final class BloomMath {
    private static final double LN2 = Math.log(2);
    private static final double LN2_SQUARED = LN2 * LN2;

    private BloomMath() {
    }

    /** {@code -ln p / (ln 2)^2}: the bits per element an optimally sized filter needs for rate {@code p}. */
    public static double bitsPerElement(double falsePositiveRate) {
        checkRate(falsePositiveRate);
        return -Math.log(falsePositiveRate) / LN2_SQUARED;
    }

    /**
     * The optimal bit count {@code m = ceil(-n ln p / (ln 2)^2)} for {@code n} elements at rate {@code p}.
     *
     * @throws IllegalArgumentException if {@code n < 1}, {@code p} is not in (0, 1), or {@code m} exceeds
     *     {@link Long#MAX_VALUE}
     */
    public static long optimalBitCount(long expectedElements, double falsePositiveRate) {
        checkCount("expected element count", expectedElements);
        double bits = Math.ceil(expectedElements * bitsPerElement(falsePositiveRate));
        if (bits >= 0x1p63) {
            throw new IllegalArgumentException(expectedElements + " elements at rate " + falsePositiveRate
                    + " need " + bits + " bits; at most " + Long.MAX_VALUE + " are representable");
        }
        return (long) bits;
    }

    /** The optimal hash function count {@code k = max(1, round((m/n) ln 2))} for {@code m} bits and {@code n} elements. */
    public static int optimalHashFunctionCount(long expectedElements, long bitCount) {
        checkCount("expected element count", expectedElements);
        checkCount("bit count", bitCount);
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, Math.round((double) bitCount / expectedElements * LN2)));
    }

    /** The optimal hash function count {@code k = max(1, round(-log2 p))} of an optimally sized filter for rate p. */
    public static int optimalHashFunctionCount(double falsePositiveRate) {
        checkRate(falsePositiveRate);
        return (int) Math.max(1, Math.round(-Math.log(falsePositiveRate) / LN2));
    }

    /** The a-priori false-positive rate {@code (1 - e^(-kn/m))^k} after {@code n} insertions; 0 for {@code n = 0}. */
    public static double falsePositiveRate(long elements, long bitCount, int hashFunctionCount) {
        checkNonNegative("element count", elements);
        checkCount("bit count", bitCount);
        checkCount("hash function count", hashFunctionCount);
        double k = hashFunctionCount;
        return Math.pow(-Math.expm1(-k * elements / bitCount), k);
    }

    /**
     * The false-positive rate of a filter whose fill is known: {@code (X/m)^k}, the probability that {@code k}
     * uniformly random positions all hit a set bit (the rate Guava's {@code BloomFilter.expectedFpp()} reports).
     */
    public static double falsePositiveRateFromFill(long setBits, long bitCount, int hashFunctionCount) {
        checkSetBits(setBits, bitCount);
        checkCount("hash function count", hashFunctionCount);
        return Math.pow((double) setBits / bitCount, hashFunctionCount);
    }

    /**
     * How many elements {@code m} bits hold at rate {@code p} with the optimal {@code k}:
     * {@code floor(-m (ln 2)^2 / ln p)}.
     *
     * @throws IllegalArgumentException if {@code m < 1}, {@code p} is not in (0, 1), or the capacity exceeds
     *     {@link Long#MAX_VALUE} (a rate near 1 needs less than one bit per element)
     */
    public static long capacity(long bitCount, double falsePositiveRate) {
        checkCount("bit count", bitCount);
        double elements = Math.floor(bitCount / bitsPerElement(falsePositiveRate));
        if (elements >= 0x1p63) {
            throw new IllegalArgumentException(bitCount + " bits at rate " + falsePositiveRate + " hold " + elements
                    + " elements; at most " + Long.MAX_VALUE + " are representable");
        }
        return (long) elements;
    }

    /**
     * Swamidass–Baldi estimate of how many distinct elements were inserted, {@code n* = -(m/k) ln(1 - X/m)}. It is
     * {@link Double#POSITIVE_INFINITY} when every bit is set (the fill no longer bounds the count).
     */
    public static double estimatedElementCount(long setBits, long bitCount, int hashFunctionCount) {
        checkSetBits(setBits, bitCount);
        checkCount("hash function count", hashFunctionCount);
        if (setBits == bitCount) {
            return Double.POSITIVE_INFINITY;
        }
        return -((double) bitCount / hashFunctionCount) * Math.log1p(-(double) setBits / bitCount);
    }

    /**
     * Estimated size of the union of two filters' sets, from the set bits of their bitwise OR (two filters of the same
     * shape and index strategy).
     */
    public static double estimatedUnionSize(long unionSetBits, long bitCount, int hashFunctionCount) {
        return estimatedElementCount(unionSetBits, bitCount, hashFunctionCount);
    }

    /**
     * Estimated size of the intersection of two filters' sets by inclusion-exclusion,
     * {@code n(A) + n(B) - n(A∪B)}, each term a Swamidass–Baldi estimate; never below 0. It is
     * {@link Double#NaN} when the union is saturated (every bit set), since the estimate is then undefined.
     */
    public static double estimatedIntersectionSize(
            long setBitsA, long setBitsB, long unionSetBits, long bitCount, int hashFunctionCount) {
        if (unionSetBits < Math.max(setBitsA, setBitsB)) {
            throw new IllegalArgumentException("the union has " + unionSetBits + " set bits, fewer than an operand's "
                    + Math.max(setBitsA, setBitsB));
        }
        double union = estimatedElementCount(unionSetBits, bitCount, hashFunctionCount);
        if (Double.isInfinite(union)) {
            return Double.NaN;
        }
        double a = estimatedElementCount(setBitsA, bitCount, hashFunctionCount);
        double b = estimatedElementCount(setBitsB, bitCount, hashFunctionCount);
        return Math.max(0, a + b - union);
    }

    static void checkRate(double falsePositiveRate) {
        if (!(falsePositiveRate > 0 && falsePositiveRate < 1)) {
            throw new IllegalArgumentException(
                    "false-positive rate is " + falsePositiveRate + "; it must be strictly between 0 and 1");
        }
    }

    static void checkCount(String what, long value) {
        if (value < 1) {
            throw new IllegalArgumentException(what + " is " + value + "; it must be at least 1");
        }
    }

    private static void checkNonNegative(String what, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(what + " is " + value + "; it must not be negative");
        }
    }

    private static void checkSetBits(long setBits, long bitCount) {
        checkCount("bit count", bitCount);
        if (setBits < 0 || setBits > bitCount) {
            throw new IllegalArgumentException(
                    "set bit count is " + setBits + "; it must be within [0, " + bitCount + "]");
        }
    }
}
