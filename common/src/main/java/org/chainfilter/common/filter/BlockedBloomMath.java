package org.chainfilter.common.filter;

/**
 * The false-positive maths of the blocked ("cache-local") Bloom filter, where every probe of an item falls inside one
 * block of {@link #BLOCK_BITS} bits chosen by the item's hash, and inside the block probe {@code i} sets or tests one
 * bit of word {@code i mod 8}: the block is eight 64-bit sectors and an item with {@code k = 8} probes puts exactly one
 * bit in each. Pure functions; no state.
 *
 * <p>The blocks do not all receive {@code n / blocks} items: the load of one block is binomial, close to Poisson with
 * mean {@code λ = n / blocks}, and the heavily loaded blocks dominate the error. Putze, Sanders and Singler, "Cache-,
 * hash- and space-efficient Bloom filters" (WEA 2007, section 3), therefore average the rate of one block over the
 * loads; with {@code c_j} of the {@code k} probes in word {@code j} ({@code c_j = ⌊k/8⌋}, plus one for
 * {@code j < k mod 8}) a block holding {@code i} items has each word {@code j} filled as a 64-bit filter with
 * {@code i c_j} probes, and a query must find all its bits set:
 *
 * <pre>
 *   FPR(λ, k) = Σ_{i ≥ 1} Poisson(i; λ) · Π_{j : c_j > 0} (1 - (1 - 1/64)^{i c_j})^{c_j},   Poisson(i; λ) = e^{-λ} λ^i / i!
 * </pre>
 *
 * <p>(the sectorised form of the blocked rate, as for the split-block filters of Impala and Parquet, whose sectors are
 * 32-bit words). The sum is taken to {@code i = λ + 12 sqrt(λ) + 40}, past which the Poisson tail is below 10^-25. From
 * a load of {@link #SATURATED_LOAD} on, the rate is 1 in double precision and is returned without the sum (whose length
 * grows with λ): all but 10^-25 of the Poisson mass lies above {@code λ - 12 sqrt(λ) - 40 > 30,000} items, where even one
 * probe per item leaves a bit of a word clear with probability {@code (1 - 1/64)^30000 < 10^-200}.
 *
 * <p>A probe count below 8 leaves words unused, so the best {@code k} ({@link #optimalHashFunctionCount}) is 8 from
 * rates of 0.5 down to about 0.03%, 16 from about 0.01%, 24 from about 10^-8, with the counts between in narrow bands
 * at the changes (9 to 15 between about 0.025% and 0.013%, e.g. 11 at 0.02%; 17 to 23 between about 5·10^-8 and
 * 10^-8). At 1% the filter takes 10.1 bits per item, where
 * a classic filter takes 9.6 and a blocked filter with free probes in the whole block 9.9: the price of reading the
 * block's eight words at fixed places, which lets a lookup issue its loads before any probe bit is known.
 */
public final class BlockedBloomMath {
    /** Bits per block: one 64-byte cache line, 8 words. */
    public static final int BLOCK_BITS = 512;
    /** Words (sectors) per block. */
    static final int WORDS_PER_BLOCK = 8;
    /** Bits per word. */
    static final int WORD_BITS = 64;
    /** The largest probe count the blocked filter accepts. */
    public static final int MAX_HASH_FUNCTIONS = 24;
    /** The load (items per block) from which {@link #falsePositiveRate} is 1 in double precision: 64 items per bit. */
    static final double SATURATED_LOAD = 64.0 * BLOCK_BITS;
    /** {@code ln(63/64)}: the log of the chance that one probe leaves a given bit of its word clear. */
    private static final double LOG_EMPTY_PER_PROBE = Math.log1p(-1.0 / WORD_BITS);

    private BlockedBloomMath() {
    }

    /**
     * The false-positive rate for {@code elementsPerBlock = n / blocks} items per 512-bit block on average and
     * {@code hashFunctionCount} probes per item, probe {@code i} in word {@code i mod 8} (the formula above): the
     * limit for many blocks of {@link #falsePositiveRate(long, long, int)}, and what the sizing uses.
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
        return averageOverLoads(elementsPerBlock, -1, 0, hashFunctionCount);
    }

    /**
     * The false-positive rate of {@code elements} items in {@code blocks} blocks: the formula above with the exact load
     * of a query's block, {@code Binomial(n, 1/B)}, in place of its Poisson limit. They differ for few blocks: one block
     * holds exactly {@code n} items, and the Poisson average rated one block of 50 items at 0.935% where it measures
     * 0.753% ({@code k = 8}), two blocks of 101 at 0.981% against 0.900%.
     *
     * @throws IllegalArgumentException if {@code elements} is negative, {@code blocks} below 1, or k outside [1, 24]
     */
    public static double falsePositiveRate(long elements, long blocks, int hashFunctionCount) {
        if (elements < 0) {
            throw new IllegalArgumentException("element count is " + elements + "; it must not be negative");
        }
        if (blocks < 1) {
            throw new IllegalArgumentException("block count is " + blocks + "; it must be at least 1");
        }
        checkHashFunctionCount(hashFunctionCount);
        double lambda = (double) elements / blocks;
        if (elements == 0) {
            return 0;
        }
        if (lambda >= SATURATED_LOAD) {
            return 1;
        }
        if (blocks == 1) {
            return Math.min(1.0, Math.exp(logAllSet(elements, hashFunctionCount)));
        }
        return averageOverLoads(lambda, elements, 1.0 / blocks, hashFunctionCount);
    }

    /**
     * {@code Σ_{i >= 1} P(load = i) Π_j (1 - (63/64)^{i c_j})^{c_j}}, to {@code i = λ + 12 sqrt(λ) + 40}, with the load
     * {@code Poisson(λ)} when {@code elements} is negative, else {@code Binomial(elements, p)} of mean {@code λ} (whose
     * tail past that point is lighter still).
     */
    private static double averageOverLoads(double lambda, long elements, double p, int hashFunctionCount) {
        boolean binomial = elements >= 0;
        long last = (long) Math.ceil(lambda + 12 * Math.sqrt(lambda) + 40);
        if (binomial) {
            last = Math.min(last, elements);
        }
        // log P(load = 0), and the part of log(P(i) / P(i - 1)) that does not depend on i
        double logPmf = binomial ? elements * Math.log1p(-p) : -lambda;
        double logStep = binomial ? Math.log(p) - Math.log1p(-p) : Math.log(lambda);
        double sum = 0;
        for (long i = 1; i <= last; i++) {
            logPmf += logStep - Math.log(i) + (binomial ? Math.log(elements - i + 1) : 0);
            sum += Math.exp(logPmf + logAllSet(i, hashFunctionCount));
        }
        return Math.min(1.0, sum);
    }

    /** log of the chance that a new item's {@code k} probes all hit set bits of a block that holds {@code items}. */
    private static double logAllSet(long items, int hashFunctionCount) {
        int perWord = hashFunctionCount / WORDS_PER_BLOCK;
        int wordsWithOneMore = hashFunctionCount % WORDS_PER_BLOCK;
        double logAllSet = wordsWithOneMore * logWordRate(items, perWord + 1);
        if (perWord > 0) {
            logAllSet += (WORDS_PER_BLOCK - wordsWithOneMore) * logWordRate(items, perWord);
        }
        return logAllSet;
    }

    /** log of the chance that {@code probes} probes of a new item all hit set bits of a word after {@code items}. */
    private static double logWordRate(long items, int probes) {
        return probes * Math.log(-Math.expm1((double) items * probes * LOG_EMPTY_PER_PROBE));
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
