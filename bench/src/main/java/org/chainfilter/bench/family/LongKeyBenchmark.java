package org.chainfilter.bench.family;

import com.google.common.hash.Funnels;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;
import org.chainfilter.common.bloom.EnhancedDoubleHashing;
import org.chainfilter.common.bloom.KeyEncoder;
import org.chainfilter.common.filter.BlockedBloomFilter;
import org.chainfilter.common.filter.BloomFilter;
import org.chainfilter.common.hash.Murmur3;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@link FamilyBenchmark}'s query at 10^7 items and p = 1 % with 8-byte keys ({@code long}s) instead of 32-byte ones:
 * the blocked and the classic filter through {@code mightContainLong} (no boxing), Guava's {@code BloomFilter<Long>}
 * over {@code Funnels.longFunnel()} through {@code mightContain(Long)} (its API boxes, as a Guava user's call does),
 * and the independent-read floor over a {@code long[]} as large as the blocked filter. Members are
 * {@code fmix64(i)} for {@code i < 10^7}; the probe pool holds 2^20 keys, alternately a member and a key never put,
 * read in order from a {@code long[]}. Each kind runs in its own fork.
 *
 * <pre>
 *   java -jar bench/target/benchmarks.jar 'family.LongKeyBenchmark' -f 2 -wi 3 -i 5 -w 1s -r 1s -prof gc
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx6g"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class LongKeyBenchmark {
    static final int POOL = 1 << 20;

    /** One kind, filled with the 10^7 members. */
    @State(Scope.Benchmark)
    public static class Filter {
        @Param({"blocked", "classic", "guava"})
        String kind;

        LongPredicate mightContain;

        @Setup(Level.Trial)
        public void build() {
            long n = FamilyBenchmark.ELEMENTS;
            double p = FamilyBenchmark.RATE;
            switch (kind) {
                case "blocked": {
                    BlockedBloomFilter<Long> blocked = BlockedBloomFilter.create(KeyEncoder.longs(), n, p);
                    fill(blocked::putLong);
                    mightContain = blocked::mightContainLong;
                    break;
                }
                case "classic": {
                    BloomFilter<Long> classic = BloomFilter.create(KeyEncoder.longs(), n, p);
                    fill(classic::putLong);
                    mightContain = classic::mightContainLong;
                    break;
                }
                case "guava": {
                    com.google.common.hash.BloomFilter<Long> guava =
                            com.google.common.hash.BloomFilter.create(Funnels.longFunnel(), n, p);
                    fill(guava::put);
                    mightContain = guava::mightContain;
                    break;
                }
                default:
                    throw new IllegalArgumentException("unknown kind " + kind);
            }
            int falsePositives = 0;
            for (long i = 0; i < 1_000; i++) {
                if (!mightContain.test(Murmur3.fmix64(i * 9_973))) {
                    throw new IllegalStateException(kind + " lost member " + i * 9_973);
                }
            }
            // Keys never put (the pool's odd keys are of this kind): about 1%, not a filter that says yes to all.
            for (long i = 0; i < 100_000; i++) {
                falsePositives += mightContain.test(Murmur3.fmix64((1L << 41) + i)) ? 1 : 0;
            }
            if (falsePositives > 2_000) {
                throw new IllegalStateException(kind + " answers true for " + falsePositives
                        + " of 100,000 keys never put; about 1% expected");
            }
        }
    }

    /** Puts the members {@code fmix64(i)}, {@code i < 10^7}. */
    static void fill(LongPredicate put) {
        for (long i = 0; i < FamilyBenchmark.ELEMENTS; i++) {
            put.test(Murmur3.fmix64(i));
        }
    }

    /** The probe pool: alternately a member and a key never put, read in order. */
    @State(Scope.Thread)
    public static class Keys {
        long[] pool;
        int cursor;

        @Setup
        public void createPool() {
            pool = new long[POOL];
            for (int i = 0; i < POOL; i++) {
                pool[i] = Murmur3.fmix64((i & 1) == 0 ? (long) i * 7 % FamilyBenchmark.ELEMENTS : (1L << 40) + i);
            }
        }

        long next() {
            cursor = (cursor + 1) & (POOL - 1);
            return pool[cursor];
        }
    }

    /** A {@code long[]} as large as the blocked filter and an xorshift state, for the floor. */
    @State(Scope.Thread)
    public static class Floor {
        long[] words;
        long state = 0x9e3779b97f4a7c15L;

        @Setup(Level.Trial)
        public void build() {
            words = new long[BlockedBloomFilter.create(KeyEncoder.longs(), FamilyBenchmark.ELEMENTS,
                    FamilyBenchmark.RATE).blockCount() * 8];
            java.util.Arrays.fill(words, 0x5555555555555555L);
        }
    }

    @Benchmark
    public boolean mightContain(Filter filter, Keys keys) {
        return filter.mightContain.test(keys.next());
    }

    /** One random read of the blocked filter's size, after the same pool walk: the one-cache-miss floor. */
    @Benchmark
    public long oneRandomReadFloor(Floor floor, Keys keys) {
        // The pool key is read and folded into the result, as every filter reads its key, so its load stays.
        long key = keys.next();
        long x = floor.state;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        floor.state = x;
        return floor.words[(int) EnhancedDoubleHashing.reduce(x, floor.words.length)] ^ key;
    }
}
