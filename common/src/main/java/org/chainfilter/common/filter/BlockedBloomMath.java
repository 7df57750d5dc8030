package org.chainfilter.common.filter;

/**
 * The false-positive maths of a blocked ("cache-local") Bloom filter, where every probe of an item falls inside one
 * block of {@link #BLOCK_BITS} bits chosen by the item's hash. Pure functions; no state.
 *
 * <p>The blocks do not all receive {@code n / blocks} items: the load of one block is binomial, close to Poisson with
 * mean {@code λ = n / blocks}, and the heavily loaded blocks dominate the error. Putze, Sanders and Singler, "Cache-,
 * hash- and space-efficient Bloom filters" (WEA 2007, section 3), therefore average the classic rate over the loads:
 *
 * <pre>
 *   FPR(λ, k) = Σ_{i ≥ 0} Poisson(i; λ) · (1 - (1 - 1/B)^{i k})^k,    Poisson(i; λ) = e^{-λ} λ^i / i!,   B = 512
 * </pre>
 *
 * <p>where {@code (1 - (1 - 1/B)^{ik})^k} is the classic rate of a {@code B}-bit filter holding {@code i} items whose
 * {@code k} probes are independent and drawn with replacement, as the filter draws them. The sum is taken to
 * {@code i = λ + 12 sqrt(λ) + 40}, past which the Poisson tail is below 10^-25. From a load of
 * {@link #SATURATED_LOAD} on, the rate is 1 in double precision and is returned without the sum (whose length grows
 * with λ): all but 10^-25 of the Poisson mass lies above {@code λ - 12 sqrt(λ) - 40 > 30,000} items, where even one
 * probe per item leaves a bit clear with probability {@code (1 - 1/512)^30000 < 10^-25}.
 *
 * <p>For the same memory the blocked filter's rate is higher than the classic {@code (1 - e^{-kn/m})^k}, and the
 * optimal {@code k} is smaller (RocksDB's FastLocalBloom uses 6 where the classic filter would use 7 at 10 bits per
 * item); {@link #optimalHashFunctionCount} and {@link #elementsPerBlockFor} size the filter by this formula, not by the
 * classic one.
 */
public final class BlockedBloomMath {
    /** Bits per block: one 64-byte cache line, 8 words. */
    public static final int BLOCK_BITS = 512;
    /** The largest probe count the blocked filter accepts. */
    public static final int MAX_HASH_FUNCTIONS = 24;
    /** The load (items per block) from which {@link #falsePositiveRate} is 1 in double precision: 64 items per bit. */
    static final double SATURATED_LOAD = 64.0 * BLOCK_BITS;

    private BlockedBloomMath() {
    }

    /**
     * Putze–Sanders–Singler's false-positive rate for {@code elementsPerBlock = n / blocks} items per 512-bit block on
     * average and {@code hashFunctionCount} probes per item.
     *
     * @throws IllegalArgumentException if the load is negative or not finite, or k is outside [1, 24]
     */
    public static double falsePositiveRate(double elementsPerBlock, int hashFunctionCount) {
        if (!(elementsPerBlock >= 0) || Double.isInfinite(elementsPerBlock)) {
            throw new IllegalArgumentException(
                    "elements per block is " + elementsPerBlock + "; it must be a finite number >= 0");
        }
        checkHashFunctionCount(hashFunctionCount);
        if (elementsPerBlock == 0) {
            return 0;
        }
        if (elementsPerBlock >= SATURATED_LOAD) {
            return 1;
        }
        double lambda = elementsPerBlock;
        double logLambda = Math.log(lambda);
        double logEmptyPerProbe = Math.log1p(-1.0 / BLOCK_BITS);
        long last = (long) Math.ceil(lambda + 12 * Math.sqrt(lambda) + 40);
        double logPmf = -lambda; // log Poisson(0; λ)
        double sum = 0;
        for (long i = 1; i <= last; i++) {
            logPmf += logLambda - Math.log(i);
            double inner = -Math.expm1((double) i * hashFunctionCount * logEmptyPerProbe);
            sum += Math.exp(logPmf + hashFunctionCount * Math.log(inner));
        }
        return Math.min(1.0, sum);
    }

    /** The k in [1, 24] that minimises {@link #falsePositiveRate} at this load. */
    public static int optimalHashFunctionCount(double elementsPerBlock) {
        int best = 1;
        double bestRate = falsePositiveRate(elementsPerBlock, 1);
        for (int k = 2; k <= MAX_HASH_FUNCTIONS; k++) {
            double rate = falsePositiveRate(elementsPerBlock, k);
            if (rate < bestRate) {
                best = k;
                bestRate = rate;
            }
        }
        return best;
    }

    /**
     * The largest average load (items per block) at which the best k still reaches {@code falsePositiveRate}; the
     * filter then needs {@code ceil(n / load)} blocks. Found by bisection: the rate grows with the load for every k.
     *
     * @throws IllegalArgumentException if the rate is outside [1e-9, 0.5]
     */
    public static double elementsPerBlockFor(double falsePositiveRate) {
        if (!(falsePositiveRate >= 1e-9 && falsePositiveRate <= 0.5)) {
            throw new IllegalArgumentException("false-positive rate is " + falsePositiveRate
                    + "; a blocked filter supports rates in [1e-9, 0.5]");
        }
        double low = 1e-3;
        double high = BLOCK_BITS;
        for (int step = 0; step < 60; step++) {
            double mid = 0.5 * (low + high);
            if (bestRate(mid) <= falsePositiveRate) {
                low = mid;
            } else {
                high = mid;
            }
        }
        return low;
    }

    private static double bestRate(double elementsPerBlock) {
        return falsePositiveRate(elementsPerBlock, optimalHashFunctionCount(elementsPerBlock));
    }

    static void checkHashFunctionCount(int hashFunctionCount) {
        if (hashFunctionCount < 1 || hashFunctionCount > MAX_HASH_FUNCTIONS) {
            throw new IllegalArgumentException("hash function count is " + hashFunctionCount
                    + "; a blocked filter takes 1 to " + MAX_HASH_FUNCTIONS);
        }
    }
}
