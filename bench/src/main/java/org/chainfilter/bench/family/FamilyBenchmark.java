package org.chainfilter.bench.family;

import com.google.common.hash.Funnels;
import java.util.concurrent.TimeUnit;
import org.chainfilter.common.bloom.EnhancedDoubleHashing;
import org.chainfilter.common.bloom.KeyEncoder;
import org.chainfilter.common.filter.BlockedBloomFilter;
import org.chainfilter.common.filter.BloomFilter;
import org.chainfilter.common.filter.ConcurrentBloomFilter;
import org.chainfilter.common.filter.CountingBloomFilter;
import org.chainfilter.common.filter.CuckooFilter;
import org.chainfilter.common.filter.MembershipFilter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The filter family's {@code mightContain} (and {@code put}, for the allocation figures) at 10^7 items and p = 1% on 32-byte keys, side by side with Guava's
 * {@code BloomFilter} and with the one-cache-miss floor: one read of a random word of a {@code long[]} as large as the
 * blocked filter (index from an xorshift generator, no hashing), which no filter that must touch its memory once can
 * beat. Half the probes are members, half are not.
 *
 * <p>Run (one command, about 3 minutes on 2 cores):
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

    static <F extends MembershipFilter<byte[]>> F fill(F filter) {
        byte[] key = new byte[32];
        for (long i = 0; i < ELEMENTS; i++) {
            filter.put(ProbeKeys.fill(key, i));
        }
        return filter;
    }

    @State(Scope.Benchmark)
    public static class Blocked {
        BlockedBloomFilter<byte[]> filter;

        @Setup(Level.Trial)
        public void build() {
            filter = fill(BlockedBloomFilter.create(KeyEncoder.bytes(), ELEMENTS, RATE));
        }
    }

    @State(Scope.Benchmark)
    public static class Classic {
        BloomFilter<byte[]> filter;

        @Setup(Level.Trial)
        public void build() {
            filter = fill(BloomFilter.create(KeyEncoder.bytes(), ELEMENTS, RATE));
        }
    }

    @State(Scope.Benchmark)
    public static class Concurrent {
        ConcurrentBloomFilter<byte[]> filter;

        @Setup(Level.Trial)
        public void build() {
            filter = fill(ConcurrentBloomFilter.create(KeyEncoder.bytes(), ELEMENTS, RATE));
        }
    }

    @State(Scope.Benchmark)
    public static class Cuckoo {
        CuckooFilter<byte[]> filter;

        @Setup(Level.Trial)
        public void build() {
            filter = fill(CuckooFilter.create(KeyEncoder.bytes(), ELEMENTS, RATE));
        }
    }

    @State(Scope.Benchmark)
    public static class Counting {
        CountingBloomFilter<byte[]> filter;

        @Setup(Level.Trial)
        public void build() {
            filter = fill(CountingBloomFilter.create(KeyEncoder.bytes(), ELEMENTS, RATE));
        }
    }

    @State(Scope.Benchmark)
    public static class Guava {
        com.google.common.hash.BloomFilter<byte[]> filter;

        @Setup(Level.Trial)
        public void build() {
            filter = com.google.common.hash.BloomFilter.create(Funnels.byteArrayFunnel(), ELEMENTS, RATE);
            byte[] key = new byte[32];
            for (long i = 0; i < ELEMENTS; i++) {
                filter.put(ProbeKeys.fill(key, i));
            }
        }
    }

    /** A {@code long[]} with as many words as the blocked filter, and an xorshift state for random indices. */
    @State(Scope.Thread)
    public static class Floor {
        long[] words;
        long state = 0x9e3779b97f4a7c15L;

        @Setup(Level.Trial)
        public void build() {
            BlockedBloomFilter<byte[]> shape = BlockedBloomFilter.create(KeyEncoder.bytes(), ELEMENTS, RATE);
            words = new long[shape.blockCount() * 8];
            for (int i = 0; i < words.length; i++) {
                words[i] = i * 0x9e3779b97f4a7c15L;
            }
        }
    }

    @Benchmark
    public boolean blockedMightContain(Blocked s, ProbeKeys keys) {
        return s.filter.mightContain(keys.next());
    }

    @Benchmark
    public boolean classicMightContain(Classic s, ProbeKeys keys) {
        return s.filter.mightContain(keys.next());
    }

    @Benchmark
    public boolean concurrentMightContain(Concurrent s, ProbeKeys keys) {
        return s.filter.mightContain(keys.next());
    }

    @Benchmark
    public boolean cuckooMightContain(Cuckoo s, ProbeKeys keys) {
        return s.filter.mightContain(keys.next());
    }

    @Benchmark
    public boolean countingMightContain(Counting s, ProbeKeys keys) {
        return s.filter.mightContain(keys.next());
    }

    @Benchmark
    public boolean guavaMightContain(Guava s, ProbeKeys keys) {
        return s.filter.mightContain(keys.next());
    }

    /** Fresh 32-byte keys for the put benchmarks, written into one reused array. */
    @State(Scope.Thread)
    public static class FreshKeys {
        final byte[] key = new byte[32];
        long next = 1L << 50;

        byte[] next() {
            return ProbeKeys.fill(key, next++);
        }
    }

    @Benchmark
    public boolean blockedPut(Blocked s, FreshKeys keys) {
        return s.filter.put(keys.next());
    }

    @Benchmark
    public boolean classicPut(Classic s, FreshKeys keys) {
        return s.filter.put(keys.next());
    }

    @Benchmark
    public boolean concurrentPut(Concurrent s, FreshKeys keys) {
        return s.filter.put(keys.next());
    }

    @Benchmark
    public boolean guavaPut(Guava s, FreshKeys keys) {
        return s.filter.put(keys.next());
    }

    /** A put and the remove of the same key, so the table stays at its load (a cuckoo filter would fill up). */
    @Benchmark
    public boolean cuckooPutRemove(Cuckoo s, FreshKeys keys) {
        byte[] key = keys.next();
        s.filter.put(key);
        return s.filter.remove(key);
    }

    /** A put and the remove of the same key, so the counters stay as the fill left them. */
    @Benchmark
    public boolean countingPutRemove(Counting s, FreshKeys keys) {
        byte[] key = keys.next();
        s.filter.put(key);
        return s.filter.remove(key);
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
}
