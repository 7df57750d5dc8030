package org.chainfilter.common.bloom;

import java.util.function.LongPredicate;
import org.chainfilter.common.bits.BitStore;

/**
 * Enhanced double hashing (Dillinger and Manolios, "Bloom Filters in Probabilistic Verification", FMCAD 2004,
 * section 5; analysed by Kirsch and Mitzenmacher, "Less Hashing, Same Performance", ESA 2006): from two independent
 * 64-bit hashes, position {@code i} is {@code g_i = h1' + i h2' + (i^3 - i)/6 (mod m)}, computed incrementally as
 *
 * <pre>
 *   x = reduce(h1, m); y = reduce(h2, m); position 0 = x
 *   for i = 1 .. k-1:  x = (x + y) mod m;  y = (y + i) mod m;  position i = x
 * </pre>
 *
 * <p>The cubic term keeps the {@code k} positions apart even when {@code h2' = 0 (mod m)}, which plain double hashing
 * maps to a single bit. Both halves are full 64-bit values and all arithmetic is 64-bit, so large filters keep their
 * accuracy for any {@code m} up to 2^62 (deriving positions from a 32-bit hash, as Guava's {@code MURMUR128_MITZ_32}
 * and Spark's first sketch format did, caps the distinct positions at 2^32 and raises the false-positive rate of large
 * filters).
 *
 * <p><b>Small filters at low rates miss their rate.</b> The {@code k} positions are fixed by the pair
 * {@code (h1', h2')}, so a filter has only {@code m^2} position sequences, and a key that shares its pair with one of
 * the {@code n} keys put is positive whatever the other bits are: about {@code n/m^2} on top of the classic rate
 * (Kirsch and Mitzenmacher's result is asymptotic in {@code m}). That passes the rate itself once
 * {@code n < 1/(p (m/n)^2)}: 27 items at {@code p} = 10^-4, 1,200 at 10^-6, 68,000 at 10^-8 (1,000 items sized for
 * 10^-8 measured 7.8 × 10^-7). New filters therefore use {@link CongruentialHashing}, whose positions depend on the
 * whole 128-bit hash; this strategy stays to read the filters written with it.
 *
 * <p>{@code reduce(h, m) = floor(h * m / 2^64)} with {@code h} unsigned (Lemire, "Fast Random Integer Generation in an
 * Interval", ACM TOMACS 29(1), 2019): a multiply instead of a division, taking the high bits of {@code h}. Every
 * position in {@code [0, m)} gets {@code floor(2^64/m)} or {@code ceil(2^64/m)} hash values, a relative bias below
 * {@code m / 2^64} (under 10^-8 for the largest bit store Java can hold), where {@code h mod m} of a 32-bit value has
 * a bias up to {@code m / 2^32}. The additions then stay below {@code 2m} and need only one conditional subtraction.
 *
 * <p>Stateless; no allocation per call.
 */
public final class EnhancedDoubleHashing implements IndexStrategy {
    /** The identifier written into serialized filters. */
    public static final int ID = 1;

    /** The one instance. */
    public static final EnhancedDoubleHashing INSTANCE = new EnhancedDoubleHashing();

    /** The largest {@code m} for which {@code x + y} cannot overflow. */
    static final long MAX_BIT_COUNT = 1L << 62;

    /** {@link #walk} action: pass each position to the caller's predicate, stop when it answers {@code false}. */
    private static final int ASK = 0;
    /** {@link #walk} action: test each position's bit in the store, stop at the first clear one. */
    private static final int TEST = 1;
    /** {@link #walk} action: set each position's bit in the store, counting the bits that changed. */
    private static final int SET = 2;
    /** What {@link #walk} returns when {@link #ASK} or {@link #TEST} stopped early. */
    private static final int STOPPED = -1;

    private EnhancedDoubleHashing() {
    }

    @Override
    public int id() {
        return ID;
    }

    @Override
    public boolean forEachIndex(long h1, long h2, int k, long m, LongPredicate position) {
        checkBitCount(m);
        return walk(h1, h2, k, m, ASK, position, null) != STOPPED;
    }

    /** Refuses an {@code m} outside {@code [1, 2^62]}, where {@link #reduce} and the additions are exact. */
    static void checkBitCount(long m) {
        if (m < 1 || m > MAX_BIT_COUNT) {
            throw new IllegalArgumentException("bit count is " + m + "; it must be within [1, 2^62]");
        }
    }

    /**
     * The membership test, straight on the store's words: it stops at the first clear bit, which for an element never
     * put is usually among the first two. For a member the branch is predicted taken, so the processor issues the
     * {@code k} independent word loads ahead and their cache misses overlap. (A branch-free variant that always reads
     * all {@code k} words measured about 1.8 times slower in CPU time per query on a 10^7-element filter.) No
     * allocation.
     */
    @Override
    public boolean allSet(long h1, long h2, int k, BitStore bits) {
        return walk(h1, h2, k, bits.bitCount(), TEST, null, bits) != STOPPED;
    }

    /** Sets the {@code k} positions in order; no allocation. */
    @Override
    public int setAll(long h1, long h2, int k, BitStore bits) {
        return walk(h1, h2, k, bits.bitCount(), SET, null, bits);
    }

    /**
     * The one walk over the {@code k} positions (the recurrence in the class comment), doing {@code action} at each.
     * Every caller passes a constant action, so once the JIT inlines the walk into the caller the switch folds away
     * and each public method runs a loop of its own, without a call per position.
     *
     * @return {@link #STOPPED} if an {@link #ASK} or {@link #TEST} stopped early, otherwise the number of bits a
     *     {@link #SET} changed (0 for the other actions)
     */
    private static int walk(long h1, long h2, int k, long m, int action, LongPredicate position, BitStore bits) {
        if (k < 1) {
            throw new IllegalArgumentException("k is " + k + "; it must be at least 1");
        }
        long x = reduce(h1, m);
        long y = reduce(h2, m);
        int changed = 0;
        for (int i = 1; ; i++) {
            switch (action) {
                case ASK:
                    if (!position.test(x)) {
                        return STOPPED;
                    }
                    break;
                case TEST:
                    if ((bits.word((int) (x >>> 6)) & (1L << x)) == 0) {
                        return STOPPED;
                    }
                    break;
                default:
                    if (bits.set(x)) {
                        changed++;
                    }
            }
            if (i >= k) {
                return changed;
            }
            x = addModBelow(x, y, m);
            y = i < m ? addModBelow(y, i, m) : addMod(y, i, m);
        }
    }

    /**
     * {@code (a + b) mod m} for {@code 0 <= a, b < m}, without a branch: the sum less {@code m}, and {@code m} added
     * back when that is negative (its sign bit, smeared, masks {@code m}). A branch on {@code a + b < m} goes either
     * way about half the time, and its mispredictions cost more than the steps: {@code put} of 32-byte keys into a
     * filter of 10^6 elements at 1% (k = 7) ran at 12.0–12.2 ops/µs with the branch and 15.5–15.7 without
     * ({@code BloomFilterBenchmark}, two 2-fork runs each, alternated).
     */
    static long addModBelow(long a, long b, long m) {
        long sum = a + b - m;
        return sum + ((sum >> 63) & m);
    }

    /**
     * {@code (a + b) mod m} for {@code 0 <= a < m} and {@code 0 <= b}, for the step {@code y + i} when {@code i >= m}:
     * a filter with fewer bits than hash functions, where a division may be needed.
     */
    private static long addMod(long a, long b, long m) {
        long sum = a + b;
        if (sum < m) {
            return sum;
        }
        sum -= m;
        return sum < m ? sum : sum % m;
    }

    /** {@code floor(h * m / 2^64)} for unsigned {@code h} and {@code 0 < m <= 2^62}: a nearly unbiased map onto [0, m). */
    public static long reduce(long h, long m) {
        // Java 17 has no unsignedMultiplyHigh; correct the signed high word when h's top bit is set (m is positive).
        return Math.multiplyHigh(h, m) + ((h >> 63) & m);
    }

    @Override
    public String toString() {
        return "EnhancedDoubleHashing";
    }
}
