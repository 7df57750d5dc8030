package org.chainfilter.common.filter;

import java.util.List;
import org.chainfilter.common.math.BloomMath;
import org.chainfilter.common.math.Shape;

/**
 * The estimates the family's kinds share, so that each kind states only which of its positions count as filled or
 * which filters make up its chain.
 *
 * <p>A classic kind (the generic {@link BloomFilter}, {@link CountingBloomFilter}, {@link ConcurrentBloomFilter})
 * reports {@code (X/m)^k} and the Swamidass–Baldi count over its {@code X} filled positions. A chain of filters
 * ({@link ScalableBloomFilter}'s stages, {@link GrowableCuckooFilter}'s tables) answers {@code true} when any member
 * does, so an absent item is negative only if every member says so: its rate is {@code 1 - Π_i (1 - p_i)} and its
 * element count the sum of the members'.
 */
final class FamilyEstimates {
    private FamilyEstimates() {
    }

    /** {@code (X/m)^k} for {@code filledPositions = X} of the shape's {@code m}. */
    static double classicFpp(long filledPositions, Shape shape) {
        return BloomMath.falsePositiveRateFromFill(filledPositions, shape.bitCount(), shape.hashFunctionCount());
    }

    /**
     * The Swamidass–Baldi estimate {@code round(-(m/k) ln(1 - X/m))}; {@link Long#MAX_VALUE} once every position is
     * filled (or the estimate does not fit a long).
     */
    static long classicElementCount(long filledPositions, Shape shape) {
        double estimate = BloomMath.estimatedElementCount(filledPositions, shape.bitCount(), shape.hashFunctionCount());
        return estimate >= 0x1p63 ? Long.MAX_VALUE : Math.round(estimate);
    }

    /** {@code 1 - Π_i (1 - p_i)} with {@code p_i} each member's {@link MembershipFilter#expectedFpp()}. */
    static double compoundFpp(List<? extends MembershipFilter<?>> members) {
        double allNegative = 1;
        for (MembershipFilter<?> member : members) {
            allNegative *= 1 - member.expectedFpp();
        }
        return 1 - allNegative;
    }

    /**
     * The sum of the members' {@link MembershipFilter#approximateElementCount()}, saturating at {@link Long#MAX_VALUE}
     * (a full member already reports that).
     */
    static long summedElementCount(List<? extends MembershipFilter<?>> members) {
        long sum = 0;
        for (MembershipFilter<?> member : members) {
            long count = member.approximateElementCount();
            sum = count > Long.MAX_VALUE - sum ? Long.MAX_VALUE : sum + count;
        }
        return sum;
    }
}
