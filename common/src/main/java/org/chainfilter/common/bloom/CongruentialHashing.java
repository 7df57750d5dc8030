package org.chainfilter.common.bloom;

import java.util.function.LongPredicate;
import org.chainfilter.common.bits.BitStore;

/**
 * The generic filters' index strategy: the {@code k} positions of the key hashed to {@code (h1, h2)} are the high bits
 * of {@code k} consecutive states of a 64-bit linear congruential generator that the hash seeds,
 *
 * <pre>
 *   a_0 = h1;  a_(i+1) = a_i M + (h2 | 1) mod 2^64;  position i = reduce(a_i, m) = floor(a_i m / 2^64)
 * </pre>
 *
 * with {@code M = 0xd1342543de82ef95}, the multiplier of the congruential part of Java 17's LXM generators (Steele and
 * Vigna, "Computationally easy, spectrally good multipliers for congruential pseudorandom number generators",
 * Software: Practice and Experience 52(2), 2022: spectral scores 0.76 to 0.96 in dimensions 2 to 8), and
 * {@code reduce} Lemire's multiply-high map onto {@code [0, m)} ({@link EnhancedDoubleHashing#reduce}), which reads the
 * generator's high bits, its good ones. The increment is odd, so the generator has period 2^64 and no state repeats
 * within a key's {@code k <= 255} positions.
 *
 * <p>Why not {@link EnhancedDoubleHashing}, which it replaces for new filters: there the positions are fixed by
 * {@code (h1 mod m, h2 mod m)}, so a filter has only {@code m^2} position sequences and a key that shares its pair with
 * one of the {@code n} keys put is positive whatever the other bits are, about {@code n/m^2} on top of the classic
 * rate: more than the rate itself for a filter of fewer than {@code 1/(p (m/n)^2)} items (27 at {@code p} = 10^-4,
 * 68,000 at 10^-8). Here the sequence follows the whole 128-bit state, and two keys share all {@code k} positions only
 * by chance, position by position, so the classic {@code (X/m)^k} holds down to filters of a few bits: over
 * 2 × 10^7 probes of 20 filters each, 1 item in 10 bits, 5 in 72, 30 in 576 and 20,000 in 191,702 measured 0.995,
 * 1.004, 0.976 and 1.003 times {@code (X/m)^k}, where enhanced double hashing measured 2.51, 1.75, 1.74 and 1.001.
 * Each position takes a multiply and a multiply-high where enhanced double hashing takes a few additions; the JMH
 * runs of the family and of {@code BloomFilterBenchmark} after the change (bench/RESULTS.md) measured it no slower.
 *
 * <p>Stateless; no allocation per call.
 */
public final class CongruentialHashing implements IndexStrategy {
    /** The identifier written into serialized filters. */
    public static final int ID = 2;

    /** The one instance. */
    public static final CongruentialHashing INSTANCE = new CongruentialHashing();

    /** {@code M}, the generator's multiplier. */
    static final long MULTIPLIER = 0xd1342543de82ef95L;

    /** What {@link #walk} returns when it stopped early. */
    private static final int STOPPED = -1;

    private CongruentialHashing() {
    }

    @Override
    public int id() {
        return ID;
    }

    @Override
    public boolean forEachIndex(long h1, long h2, int k, long m, LongPredicate position) {
        EnhancedDoubleHashing.checkBitCount(m);
        return walk(h1, h2, k, m, position, null, false) != STOPPED;
    }

    /**
     * The membership test on the store's words, stopping at the first clear bit (for a key never put, usually among
     * the first two). No allocation.
     */
    @Override
    public boolean allSet(long h1, long h2, int k, BitStore bits) {
        return walk(h1, h2, k, bits.bitCount(), null, bits, false) != STOPPED;
    }

    /** Sets the {@code k} positions in order; no allocation. */
    @Override
    public int setAll(long h1, long h2, int k, BitStore bits) {
        return walk(h1, h2, k, bits.bitCount(), null, bits, true);
    }

    /**
     * The one walk over the {@code k} positions (the recurrence in the class comment): each goes to {@code position}
     * when there is one, else is tested in {@code bits} or, when {@code set}, set there. Every caller passes constant
     * arguments, so once the JIT inlines the walk the choice folds away.
     *
     * @return {@link #STOPPED} if {@code position} refused one or a tested bit was clear, otherwise the number of bits
     *     a set changed (0 otherwise)
     */
    private static int walk(long h1, long h2, int k, long m, LongPredicate position, BitStore bits, boolean set) {
        if (k < 1) {
            throw new IllegalArgumentException("k is " + k + "; it must be at least 1");
        }
        long increment = h2 | 1;
        long state = h1;
        int changed = 0;
        for (int i = 0; i < k; i++, state = state * MULTIPLIER + increment) {
            long x = EnhancedDoubleHashing.reduce(state, m);
            if (set) {
                changed += bits.set(x) ? 1 : 0;
            } else if (position != null ? !position.test(x) : (bits.word((int) (x >>> 6)) & (1L << x)) == 0) {
                return STOPPED;
            }
        }
        return changed;
    }

    @Override
    public String toString() {
        return "CongruentialHashing";
    }
}
