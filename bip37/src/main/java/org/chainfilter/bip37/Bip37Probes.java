package org.chainfilter.bip37;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import org.chainfilter.common.bits.LongArrayBitStore;
import org.chainfilter.common.hash.Murmur3;

/**
 * The nHashFuncs bit indices of one item, {@code MurmurHash3_x86_32(i · 0xFBA4C795 + nTweak, item) mod m} for
 * {@code i = 0 .. nHashFuncs-1}, computed faster than nHashFuncs independent hashes and a division each, with the
 * same results bit for bit ({@code Bip37ProbesTest} checks them against {@link Murmur3#x86_32}).
 *
 * <ul>
 *   <li>MurmurHash3 mixes each 4-byte block as {@code k = rotl(b · c1, 15) · c2} before the seed enters, so the mixed
 *       blocks of an item are computed once ({@link #load}) and only the seed-dependent chain
 *       {@code h = rotl(h ^ k, 13) · 5 + 0xe6546b64} and the finaliser run per hash function.</li>
 *   <li>Eight seeds walk the chain side by side, so the processor overlaps their latencies; nine in the first walk
 *       when nHashFuncs mod 8 is 1 to 4, so that one seed of the odd group need not run alone. Seeds that still run
 *       alone take a step one operation shallower ({@link #loneStep}).</li>
 *   <li>The unsigned remainder by m (Core's plain modulo) uses Lemire's precomputed reciprocal
 *       {@code M = ⌊(2^64 − 1) / m⌋ + 1}, {@code a mod m = ⌊((M · a) mod 2^64) · m / 2^64⌋}, exact for 32-bit a and m
 *       (Lemire, Kaser, Kurz, "Faster remainder by direct computation", 2019); the walks cut the fraction to 32
 *       bits, which stays exact for m below 2^31 ({@link #reduceInWalk}).</li>
 * </ul>
 * Holds a scratch buffer for items of up to {@value #MAX_PRECOMPUTED_BYTES} bytes (the largest {@code filteradd}
 * element); longer items fall back to one full hash per function. No allocation per item. Not thread-safe.
 */
final class Bip37Probes {
    /** Items up to this length have their blocks premixed; it is Core's MAX_SCRIPT_ELEMENT_SIZE. */
    static final int MAX_PRECOMPUTED_BYTES = 520;

    private static final int C1 = 0xcc9e2d51;
    private static final int C2 = 0x1b873593;
    private static final int N = 0xe6546b64;

    private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class,
            ByteOrder.LITTLE_ENDIAN);

    private final int[] mixed = new int[MAX_PRECOMPUTED_BYTES / 4];
    /**
     * Murmur3's chain multiplier 5, read from a field so the JIT emits one multiply instead of a shift and an add: the
     * multiply runs on its own unit, leaving the integer units to the rotates and adds of the other chains.
     */
    private final int five;
    /** Murmur3's chain addend 0xe6546b64, read from a field for {@link #loneStep}. */
    private final int addend;
    private final long bitCount;
    private final long reciprocal;
    private int blocks;
    private int tail;
    private int length;
    private byte[] longItem;
    private int longOffset;

    /** @param bitCount m = 8 · vData bytes, 1 .. 288000 */
    Bip37Probes(long bitCount) {
        if (bitCount < 1 || bitCount > 8L * Bip37BloomFilter.MAX_FILTER_BYTES) {
            throw new IllegalArgumentException("bit count is " + bitCount + "; BIP37 filters have 1 .. "
                    + 8L * Bip37BloomFilter.MAX_FILTER_BYTES);
        }
        this.bitCount = bitCount;
        this.five = 5; // assigned here, not initialised, so javac does not fold it into a constant
        this.addend = N;
        this.reciprocal = Long.divideUnsigned(-1L, bitCount) + 1;
    }

    private static int mix(int k) {
        return Integer.rotateLeft(k * C1, 15) * C2;
    }

    /** Prepares {@code item[offset, offset + length)} for {@link #index} calls. */
    void load(byte[] item, int offset, int length) {
        java.util.Objects.checkFromIndexSize(offset, length, item.length);
        this.length = length;
        if (length > MAX_PRECOMPUTED_BYTES) {
            longItem = item;
            longOffset = offset;
            return;
        }
        longItem = null;
        int end = offset + (length & ~3);
        int b = 0;
        for (int i = offset; i < end; i += 4) {
            mixed[b++] = mix((int) INT_LE.get(item, i));
        }
        blocks = b;
        tail = mixedTail(item, end, length & 3);
    }

    /**
     * Lemire's remainder of the unsigned 32-bit {@code hash} by m, for a lone chain, whose cost is its latency: a
     * multiply, then a multiply-high, with the sign correction of the signed multiply-high computed beside them.
     */
    long reduce(int hash) {
        long low = reciprocal * Integer.toUnsignedLong(hash);
        return Math.multiplyHigh(low, bitCount) + ((low >> 63) & bitCount);
    }

    /**
     * The same remainder with the fraction cut to its top 32 bits, for the walks, whose cost is the multiplier's
     * throughput: two plain 64-bit multiplies, where {@link #reduce} has a multiply and a 64 × 64 → 128-bit
     * multiply-high, which x86 runs as two operations (it writes two registers); one more cycle of latency. Insert
     * with nHashFuncs 9 went from 69.9 to 68.3 ns and contains from 50.4 to 49.8 ns (means of the best round in four
     * alternating runs); with this form in the lone chains too, contains was slower.
     *
     * <p>Exact: with {@code a = q·m + r} and {@code M = 2^64/m + δ}, {@code 0 ≤ δ ≤ 1}, the low word is exactly
     * {@code L = (M·a) mod 2^64 = r·2^64/m + a·δ}, so {@code L·m/2^64} lies in {@code [r, r + a·m/2^64)}. Its top half
     * {@code F = ⌊L/2^32⌋} loses less than one unit, so {@code F·m} lies in {@code (r·2^32 − m, r·2^32 + m)} (as
     * {@code a < 2^32}), and {@code (F·m + m) >>> 32 = r} whenever {@code 2m ≤ 2^32}; m is at most 288,000.
     */
    long reduceInWalk(int hash) {
        long fraction = (reciprocal * Integer.toUnsignedLong(hash)) >>> 32;
        return (fraction * bitCount + bitCount) >>> 32;
    }

    /**
     * The bit index of {@code item[offset, offset + length)} under {@code seed}, without loading it: one plain
     * MurmurHash3_x86_32, reading each block with a single little-endian int load.
     */
    long firstIndex(int seed, byte[] item, int offset, int length) {
        java.util.Objects.checkFromIndexSize(offset, length, item.length);
        int h = seed;
        int end = offset + (length & ~3);
        int n = addend;
        for (int i = offset; i < end; i += 4) {
            h = loneStep(h, mix((int) INT_LE.get(item, i)), n);
        }
        return reduce(Murmur3.fmix32(h ^ (mixedTail(item, end, length & 3) ^ length)));
    }

    /**
     * One step of a lone chain, {@code rotl(h ^ k, 13) · 5 + 0xe6546b64}, whose cost is its latency. Written as
     * {@code (r << 2) + (r + addend)} with the addend read from a field, the shift and the first add can run side by
     * side, two operations deep after the rotate; with the constant, the JIT moves it to the end,
     * {@code ((r << 2) + r) + N}, three deep. The final xor is grouped as {@code h ^ (tail ^ length)} for the same
     * reason. A non-member's contains (one chain of 8 steps for a 32-byte key) takes 18.6-19.1 ns instead of 20.6-21.1
     * in most runs (in some the JIT's code is as before), and the benchmark's half-member contains went from 49.5 to
     * 47.6 ns (means of the best round in four alternating-order runs; 0.2 to 1.9% in three other sets of four).
     */
    private static int loneStep(int h, int k, int addend) {
        int r = Integer.rotateLeft(h ^ k, 13);
        return (r << 2) + (r + addend);
    }

    /**
     * The last {@code remainder} (0..3) bytes from {@code end}, little-endian, as Murmur3's tail reads them, mixed;
     * 0 when there are none, as {@code mix(0)} is 0: an item of whole blocks (a 32-byte hash, a 20-byte key hash)
     * skips two of the multiplies that bound the walks.
     */
    private static int mixedTail(byte[] item, int end, int remainder) {
        if (remainder == 0) {
            return 0;
        }
        int k = 0;
        switch (remainder) {
            case 3:
                k ^= (item[end + 2] & 0xff) << 16;
                // fall through
            case 2:
                k ^= (item[end + 1] & 0xff) << 8;
                // fall through
            case 1:
                k ^= item[end] & 0xff;
                break;
            default:
                break;
        }
        return mix(k);
    }

    /** The bit index of the loaded item under {@code seed}. */
    long index(int seed) {
        if (longItem != null) {
            return reduce(Murmur3.x86_32(seed, longItem, longOffset, length));
        }
        int h = seed;
        int n = addend;
        for (int b = 0; b < blocks; b++) {
            h = loneStep(h, mixed[b], n);
        }
        return reduce(Murmur3.fmix32(h ^ (tail ^ length)));
    }

    /**
     * The bit indices under the {@code count} seeds {@code firstSeed + j · step}, written to {@code out[0, count)};
     * {@code out} must hold at least {@code max(count, 8)} entries, as a short first group fills up to eight.
     *
     * <p>The chains of different seeds are independent, so they run eight at a time: one chain step is four cheap
     * operations with a latency of about four cycles, and eight chains keep the integer units busy where one leaves
     * them idle. The odd group ({@code r = count mod 8} seeds) runs first: as one group of eight when it has more than
     * four seeds; else one of its seeds joins the first full group as a ninth chain, and the other {@code r − 1} run
     * one at a time. A lone chain costs its whole latency (about 9 ns for a 32-byte item) while a ninth chain in a
     * walk costs only its operations: insert with nHashFuncs 9 (the benchmark's 35,943-byte filter) took 78.2 ns with
     * the ninth seed alone and 69.9 ns with nine chains.
     */
    void indices(int firstSeed, int step, int count, long[] out) {
        if (longItem != null) {
            for (int j = 0; j < count; j++) {
                out[j] = index(firstSeed + j * step);
            }
            return;
        }
        int remainder = count & 7;
        int j = 0;
        if (remainder > 4) {
            walk8(firstSeed, step, out, 0);
            j = remainder;
        } else if (remainder > 0) {
            int lone = count > 8 ? remainder - 1 : remainder;
            for (; j < lone; j++) {
                out[j] = index(firstSeed + j * step);
            }
            if (count > 8) {
                walk9(firstSeed + j * step, step, out, j);
                j += 9;
            }
        }
        for (; j < count; j += 8) {
            walk8(firstSeed + j * step, step, out, j);
        }
    }

    /**
     * Whether the bits at the indices under the {@code count} seeds {@code firstSeed + j · step} are all set, stopping
     * at the first group that has a clear one: the odd group ({@code count mod 8} seeds) first, one seed at a time when
     * it has four or fewer (a non-member that passed one probe most often fails the next, so it costs one chain, not
     * twelve), then groups of eight. {@code scratch} holds at least 8 entries.
     */
    boolean allSet(LongArrayBitStore bits, int firstSeed, int step, int count, long[] scratch) {
        if (longItem != null) {
            for (int j = 0; j < count; j++) {
                if (!bits.get(index(firstSeed + j * step))) {
                    return false;
                }
            }
            return true;
        }
        int remainder = count & 7;
        if (remainder > 4) {
            walk8(firstSeed, step, scratch, 0);
            if (!allSet(bits, scratch, remainder)) {
                return false;
            }
        } else {
            for (int j = 0; j < remainder; j++) {
                if (!bits.get(index(firstSeed + j * step))) {
                    return false;
                }
            }
        }
        for (int j = remainder; j < count; j += 8) {
            walk8(firstSeed + j * step, step, scratch, 0);
            if (!allSet(bits, scratch, 8)) {
                return false;
            }
        }
        return true;
    }

    private static boolean allSet(LongArrayBitStore bits, long[] indices, int count) {
        for (int i = 0; i < count; i++) {
            if (!bits.get(indices[i])) {
                return false;
            }
        }
        return true;
    }

    /** The indices under the eight seeds {@code seed + j · step}, into {@code out[at, at + 8)}. */
    private void walk8(int seed, int step, long[] out, int at) {
        walk(seed, step, out, at, false);
    }

    /** The indices under the nine seeds {@code seed + j · step}, into {@code out[at, at + 9)}. */
    private void walk9(int seed, int step, long[] out, int at) {
        walk(seed, step, out, at, true);
    }

    /**
     * The indices under the eight or nine seeds {@code seed + j · step}, into {@code out[at, at + 8 or 9)}. The ninth
     * chain hangs on a loop-invariant test, which the JIT takes out of the loop (loop unswitching), so each caller
     * runs a loop of exactly its chains.
     */
    private void walk(int seed, int step, long[] out, int at, boolean ninth) {
        int h0 = seed;
        int h1 = h0 + step;
        int h2 = h1 + step;
        int h3 = h2 + step;
        int h4 = h3 + step;
        int h5 = h4 + step;
        int h6 = h5 + step;
        int h7 = h6 + step;
        int h8 = h7 + step;
        int[] m = mixed;
        int f = five;
        for (int b = 0, n = blocks; b < n; b++) {
            int k = m[b];
            h0 = Integer.rotateLeft(h0 ^ k, 13) * f + N;
            h1 = Integer.rotateLeft(h1 ^ k, 13) * f + N;
            h2 = Integer.rotateLeft(h2 ^ k, 13) * f + N;
            h3 = Integer.rotateLeft(h3 ^ k, 13) * f + N;
            h4 = Integer.rotateLeft(h4 ^ k, 13) * f + N;
            h5 = Integer.rotateLeft(h5 ^ k, 13) * f + N;
            h6 = Integer.rotateLeft(h6 ^ k, 13) * f + N;
            h7 = Integer.rotateLeft(h7 ^ k, 13) * f + N;
            if (ninth) {
                h8 = Integer.rotateLeft(h8 ^ k, 13) * f + N;
            }
        }
        int fin = tail ^ length;
        out[at] = reduceInWalk(Murmur3.fmix32(h0 ^ fin));
        out[at + 1] = reduceInWalk(Murmur3.fmix32(h1 ^ fin));
        out[at + 2] = reduceInWalk(Murmur3.fmix32(h2 ^ fin));
        out[at + 3] = reduceInWalk(Murmur3.fmix32(h3 ^ fin));
        out[at + 4] = reduceInWalk(Murmur3.fmix32(h4 ^ fin));
        out[at + 5] = reduceInWalk(Murmur3.fmix32(h5 ^ fin));
        out[at + 6] = reduceInWalk(Murmur3.fmix32(h6 ^ fin));
        out[at + 7] = reduceInWalk(Murmur3.fmix32(h7 ^ fin));
        if (ninth) {
            out[at + 8] = reduceInWalk(Murmur3.fmix32(h8 ^ fin));
        }
    }
}
