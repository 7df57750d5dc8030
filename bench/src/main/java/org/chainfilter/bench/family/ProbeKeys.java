package org.chainfilter.bench.family;

import org.chainfilter.common.hash.Murmur3;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The 32-byte keys of the family benchmarks: key {@code i} is four words {@code fmix64(4i + j)}, so keys look random
 * and are reproducible. Members are keys {@code 0 .. n-1}; the probe pool holds 2^20 keys, alternately a member and
 * a key {@code >= 2^40} never put, read in order (the pool itself streams through the cache; the filter does not).
 */
@State(Scope.Thread)
public class ProbeKeys {
    static final int POOL = 1 << 20;
    static final long ABSENT_BASE = 1L << 40;

    private byte[][] pool;
    private int cursor;

    /** Writes key {@code i} into {@code key} (32 bytes), reusing the array. */
    static byte[] fill(byte[] key, long i) {
        for (int j = 0; j < 4; j++) {
            long word = Murmur3.fmix64(4 * i + j);
            for (int b = 0; b < 8; b++) {
                key[8 * j + b] = (byte) (word >>> (8 * b));
            }
        }
        return key;
    }

    @Setup
    public void createPool() {
        pool = new byte[POOL][];
        for (int p = 0; p < POOL; p++) {
            long i = (p & 1) == 0 ? (long) p * 7 % FamilyBenchmark.ELEMENTS : ABSENT_BASE + p;
            pool[p] = fill(new byte[32], i);
        }
    }

    private final boolean[] results = new boolean[FamilyBenchmark.BATCH];

    byte[][] pool() {
        return pool;
    }

    /** The first of the next {@code count} pool keys (a power of two dividing the pool size), which follow in order. */
    int nextBatch(int count) {
        cursor = (cursor + count) & (POOL - 1);
        return cursor;
    }

    boolean[] results() {
        return results;
    }

    byte[] next() {
        cursor = (cursor + 1) & (POOL - 1);
        return pool[cursor];
    }
}
