package org.chainfilter.bench.family;

import com.google.common.hash.Funnels;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.chainfilter.common.bloom.EnhancedDoubleHashing;
import org.chainfilter.common.bloom.KeyEncoder;
import org.chainfilter.common.filter.BlockedBloomFilter;
import org.chainfilter.common.filter.BloomFilter;
import org.chainfilter.common.filter.ConcurrentBloomFilter;
import org.chainfilter.common.filter.CountingBloomFilter;
import org.chainfilter.common.filter.CuckooFilter;
import org.chainfilter.common.filter.MembershipFilter;
import org.chainfilter.common.filter.RemovableFilter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The filter family's {@code mightContain} and {@code put} at 10^7 items and p = 1% on 32-byte keys, side by side with
 * Guava's {@code BloomFilter} and with the one-cache-miss floor: one read of a random word of a {@code long[]} as
 * large as the blocked filter (index from an xorshift generator, no hashing), which no filter that must touch its
 * memory once can beat. Half the probes are members, half are not. Each kind runs in its own fork, so every call site
 * sees one implementation.
 *
 * <p>{@code put} puts fresh keys (the filter keeps filling past 10^7 during the run, which does not change the work per
 * call); for the cuckoo and counting filters one operation is a put and the remove of the same key, which keeps the
 * table at its load (a cuckoo filter would otherwise fill up).
 *
 * <p>Run (one command; about 5 minutes on 2 free cores):
 * <pre>
 *   mvn -B -q -pl bench -am package -DskipTests
 *   java -jar bench/target/benchmarks.jar 'family.FamilyBenchmark' -f 1 -wi 2 -i 3 -w 1s -r 1s -prof gc
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx6g"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class FamilyBenchmark {
    static final long ELEMENTS = 10_000_000;
    static final double RATE = 0.01;
    /** Keys per {@link #mightContainBatch} operation. */
    static final int BATCH = 64;

    /** Tests {@link #BATCH} pool keys from {@code from} into {@code results}; returns how many may be members. */
    interface BatchQuery {
        int test(byte[][] keys, int from, boolean[] results);
    }

    /** One filter kind, filled with keys 0 .. 10^7-1, seen through two predicates (query, and put or put+remove). */
    @State(Scope.Benchmark)
    public static class Filter {
        @Param({"blocked", "classic", "concurrent", "cuckoo", "counting", "guava"})
        String kind;

        Predicate<byte[]> mightContain;
        Predicate<byte[]> put;
        /** Tests {@link #BATCH} keys from a pool offset: the kind's {@code batchReader()}; for Guava, one call per key. */
        BatchQuery batch;

        @Setup(Level.Trial)
        public void build() {
            if (kind.equals("guava")) {
                com.google.common.hash.BloomFilter<byte[]> guava =
                        com.google.common.hash.BloomFilter.create(Funnels.byteArrayFunnel(), ELEMENTS, RATE);
                fill(guava::put);
                mightContain = guava::mightContain;
                put = guava::put;
                batch = (keys, from, results) -> {
                    int maybe = 0;
                    for (int i = 0; i < BATCH; i++) {
                        results[i] = guava.mightContain(keys[from + i]);
                        maybe += results[i] ? 1 : 0;
                    }
                    return maybe;
                };
                return;
            }
            MembershipFilter<byte[]> filter = create(kind);
            fill(filter::put);
            mightContain = filter::mightContain;
            MembershipFilter.BatchReader<byte[]> reader = filter.batchReader();
            batch = (keys, from, results) -> reader.mightContain(keys, from, BATCH, results, 0);
            if (filter instanceof RemovableFilter) {
                RemovableFilter<byte[]> removable = (RemovableFilter<byte[]>) filter;
                put = key -> removable.put(key) & removable.remove(key);
            } else {
                put = filter::put;
            }
        }

        /** An empty filter of the family for 10^7 items at 1%. */
        static MembershipFilter<byte[]> create(String kind) {
            switch (kind) {
                case "blocked":
                    return BlockedBloomFilter.create(KeyEncoder.bytes(), ELEMENTS, RATE);
                case "classic":
                    return BloomFilter.create(KeyEncoder.bytes(), ELEMENTS, RATE);
                case "concurrent":
                    return ConcurrentBloomFilter.create(KeyEncoder.bytes(), ELEMENTS, RATE);
                case "cuckoo":
                    return CuckooFilter.create(KeyEncoder.bytes(), ELEMENTS, RATE);
                case "counting":
                    return CountingBloomFilter.create(KeyEncoder.bytes(), ELEMENTS, RATE);
                default:
                    throw new IllegalArgumentException("unknown kind " + kind);
            }
        }

        private static void fill(Predicate<byte[]> put) {
            byte[] key = new byte[32];
            for (long i = 0; i < ELEMENTS; i++) {
                put.test(ProbeKeys.fill(key, i));
            }
        }
    }

    /** A {@code long[]} with as many words as the blocked filter, and an xorshift state for random indices. */
    @State(Scope.Thread)
    public static class Floor {
        long[] words;
        long state = 0x9e3779b97f4a7c15L;
        long steps;

        @Setup(Level.Trial)
        public void build() {
            BlockedBloomFilter<byte[]> shape = BlockedBloomFilter.create(KeyEncoder.bytes(), ELEMENTS, RATE);
            words = new long[shape.blockCount() * 8];
            long x = 0x2545f4914f6cdd1dL;
            for (int i = 0; i < words.length; i++) {
                x ^= x << 13;
                x ^= x >>> 7;
                x ^= x << 17;
                words[i] = x; // random values, so the dependent floor jumps to random words
            }
        }
    }

    /** Fresh 32-byte keys for the put benchmark, written into one reused array. */
    @State(Scope.Thread)
    public static class FreshKeys {
        final byte[] key = new byte[32];
        long next = 1L << 50;

        byte[] next() {
            return ProbeKeys.fill(key, next++);
        }
    }

    @Benchmark
    public boolean mightContain(Filter filter, ProbeKeys keys) {
        return filter.mightContain.test(keys.next());
    }

    /**
     * {@link #BATCH} keys per operation, reported per key: each kind's {@code batchReader()} (the blocked filter's
     * hashes sixteen keys before it reads their blocks; the others call {@code mightContain} per key), and for Guava,
     * which has no batch form, one {@code mightContain} call per key.
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int mightContainBatch(Filter filter, ProbeKeys keys) {
        return filter.batch.test(keys.pool(), keys.nextBatch(BATCH), keys.results());
    }

    @Benchmark
    public boolean put(Filter filter, FreshKeys keys) {
        return filter.put.test(keys.next());
    }

    /** One random read of a {@code long[]} the size of the blocked filter: the one-cache-miss floor. */
    @Benchmark
    public long oneRandomReadFloor(Floor s, ProbeKeys keys) {
        keys.next(); // the same pool walk as the filters, so only the filter work differs
        long x = s.state;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        s.state = x;
        return s.words[(int) EnhancedDoubleHashing.reduce(x, s.words.length)];
    }

    /**
     * One random read whose index is the previous read's value: the misses cannot overlap, so this is the latency of
     * one cache miss, where {@link #oneRandomReadFloor} lets the processor overlap independent misses as it may for
     * independent lookups.
     */
    @Benchmark
    public long oneDependentReadFloor(Floor s, ProbeKeys keys) {
        keys.next();
        // A step counter joins the word in the index, or the walk would soon fall into a short, cached cycle.
        long step = ++s.steps;
        long x = s.words[(int) EnhancedDoubleHashing.reduce(s.state ^ step * 0x9e3779b97f4a7c15L, s.words.length)];
        s.state = x;
        return x;
    }
}
