package org.chainfilter.bench.core;

import com.google.common.hash.Funnels;
import java.util.concurrent.TimeUnit;
import org.apache.commons.collections4.bloomfilter.Shape;
import org.apache.commons.collections4.bloomfilter.SimpleBloomFilter;
import org.chainfilter.common.bloom.KeyEncoder;
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
 * The generic {@link BloomFilter} against Guava's {@code com.google.common.hash.BloomFilter} and Apache Commons
 * Collections' {@code SimpleBloomFilter} (the filters a Java user would otherwise pick), on the same 32-byte keys, at
 * 10^6 and 10^7 expected elements and p = 1%, in one run. Commons' filter has the shape {@code Shape.fromNP(n, 0.01)}
 * (the same {@code m} and {@code k} as Guava's) and gets its keys through {@link CommonsBloom#hasher}: MurmurHash3
 * x64_128 into an {@code EnhancedDoubleHasher}; {@code put} is {@code merge(hasher)}, {@code mightContain} is
 * {@code contains(hasher)}.
 *
 * <ul>
 *   <li>{@code *MightContain}: both filters hold the same {@code elements} keys; the probes cycle through 2^16 keys,
 *       half of them members, half never put, in a fixed shuffled order, so the bit array is read at random (the
 *       10^7 filter is 12 MB, beyond the caches).</li>
 *   <li>{@code *Put}: puts fresh keys (a counter written into a 32-byte buffer) into a filter emptied after every
 *       {@code elements} puts, the fill carried on across iterations, so every put lands in a filter between empty and
 *       full (ours and Commons' emptied by {@code clear()}, Guava's replaced by a new one, since it has no clear).</li>
 * </ul>
 * Run with {@code -prof gc} to see the allocation per operation: {@code gc.alloc.rate.norm} is 0 B/op for ours. The
 * setup checks that each of the three filters holds every key put and has about the rate it was built for
 * ({@link CommonsBloom#requireWorking}), so neither a misuse of an API nor a broken filter can pass for speed.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
public class BloomFilterBenchmark {
    private static final double FALSE_POSITIVE_RATE = 0.01;
    private static final int KEY_BYTES = 32;
    private static final int PROBE_MASK = (1 << 16) - 1;

    @Param({"1000000", "10000000"})
    public long elements;

    private BloomFilter<byte[]> ours;
    private com.google.common.hash.BloomFilter<byte[]> guava;
    private SimpleBloomFilter commons;
    private byte[][] probes;
    private int probe;


    /** Key {@code i}: 32 bytes of four well-mixed 64-bit words, the same for both libraries. */
    static byte[] key(long i, byte[] into) {
        for (int word = 0; word < 4; word++) {
            long value = Murmur3.fmix64(i * 4 + word + 0x9e3779b97f4a7c15L);
            for (int b = 0; b < 8; b++) {
                into[word * 8 + b] = (byte) (value >>> (8 * b));
            }
        }
        return into;
    }

    @Setup(Level.Trial)
    public void fill() {
        ours = BloomFilter.create(KeyEncoder.bytes(), elements, FALSE_POSITIVE_RATE);
        guava = com.google.common.hash.BloomFilter.create(Funnels.byteArrayFunnel(), elements, FALSE_POSITIVE_RATE);
        commons = new SimpleBloomFilter(commonsShape(elements));
        byte[] buffer = new byte[KEY_BYTES];
        for (long i = 0; i < elements; i++) {
            key(i, buffer);
            ours.put(buffer);
            guava.put(buffer);
            commons.merge(CommonsBloom.hasher(buffer));
        }
        CommonsBloom.requireWorking("Commons SimpleBloomFilter " + commons.getShape(),
                key -> commons.contains(CommonsBloom.hasher(key)), BloomFilterBenchmark::key, elements,
                2 * elements, 100_000, FALSE_POSITIVE_RATE);
        CommonsBloom.requireWorking("chainfilter BloomFilter", ours::mightContain, BloomFilterBenchmark::key, elements,
                2 * elements, 100_000, FALSE_POSITIVE_RATE);
        CommonsBloom.requireWorking("Guava BloomFilter", guava::mightContain, BloomFilterBenchmark::key, elements,
                2 * elements, 100_000, FALSE_POSITIVE_RATE);
        probes = new byte[PROBE_MASK + 1][];
        java.util.SplittableRandom random = new java.util.SplittableRandom(1);
        for (int p = 0; p < probes.length; p++) {
            long index = (p & 1) == 0 ? random.nextLong(elements) : elements + random.nextLong(elements);
            probes[p] = key(index, new byte[KEY_BYTES]);
        }
    }

    @Benchmark
    public boolean chainfilterMightContain() {
        return ours.mightContain(probes[probe++ & PROBE_MASK]);
    }

    @Benchmark
    public boolean guavaMightContain() {
        return guava.mightContain(probes[probe++ & PROBE_MASK]);
    }

    @Benchmark
    public boolean commonsMightContain() {
        return commons.contains(CommonsBloom.hasher(probes[probe++ & PROBE_MASK]));
    }

    /** Commons' shape for {@code elements} at 1%; its factory takes an {@code int}. */
    static Shape commonsShape(long elements) {
        return Shape.fromNP(Math.toIntExact(elements), FALSE_POSITIVE_RATE);
    }

    /**
     * Parameters shared by the put states; JMH injects the enclosing benchmark's {@code elements}. Every side's filter
     * is emptied after each {@code elements} puts ({@link #cycle}), so every put lands in a filter between empty and
     * full, as in use: left to fill for a whole iteration (tens of times its capacity at 10^6), a filter gets cheaper
     * per put (Guava's skips its compare-and-swap for a bit already set, ours takes the predictable branch), and the
     * faster side, filled further, gained the most.
     */
    abstract static class PutState {
        final byte[] freshKey = new byte[KEY_BYTES];
        long counter;
        long capacity;
        long sinceEmpty;

        /** Empties the filter (at most once per {@code capacity} puts). */
        abstract void empty();

        final void cycle() {
            if (++sinceEmpty == capacity) {
                sinceEmpty = 0;
                empty();
            }
        }
    }

    /**
     * Our filter for the put benchmark, emptied with {@code clear()} (no allocation). Made once per trial: the fill
     * cycles on across iterations, so that at 10^7, where an iteration makes fewer puts than the capacity, the run
     * still covers the whole range from empty to full.
     */
    @State(Scope.Thread)
    public static class OursPut extends PutState {
        BloomFilter<byte[]> filter;

        @Setup(Level.Trial)
        public void start(BloomFilterBenchmark benchmark) {
            filter = BloomFilter.create(KeyEncoder.bytes(), benchmark.elements, FALSE_POSITIVE_RATE);
            capacity = benchmark.elements;
        }

        @Override
        void empty() {
            filter.clear();
        }
    }

    /**
     * Guava's filter for the put benchmark: Guava's filter has no clear, so empty ones are made before each iteration,
     * outside the measured window (enough for about 3.2 × 10^7 puts an iteration; one more is made in the window only
     * if they run out). The filter in use and its count carry on across iterations, as for the others.
     */
    @State(Scope.Thread)
    public static class GuavaPut extends PutState {
        com.google.common.hash.BloomFilter<byte[]> filter;
        private final java.util.ArrayDeque<com.google.common.hash.BloomFilter<byte[]>> spares =
                new java.util.ArrayDeque<>();
        private long elements;

        @Setup(Level.Trial)
        public void start(BloomFilterBenchmark benchmark) {
            elements = benchmark.elements;
            capacity = elements;
            filter = create();
        }

        @Setup(Level.Iteration)
        public void makeSpares() {
            while (spares.size() < Math.max(2, 32_000_000 / elements)) {
                spares.add(create());
            }
        }

        private com.google.common.hash.BloomFilter<byte[]> create() {
            return com.google.common.hash.BloomFilter.create(Funnels.byteArrayFunnel(), elements, FALSE_POSITIVE_RATE);
        }

        @Override
        void empty() {
            filter = spares.isEmpty() ? create() : spares.poll();
        }
    }

    /** Commons' filter for the put benchmark, emptied with {@code clear()}; made once per trial, as ours. */
    @State(Scope.Thread)
    public static class CommonsPut extends PutState {
        SimpleBloomFilter filter;

        @Setup(Level.Trial)
        public void start(BloomFilterBenchmark benchmark) {
            filter = new SimpleBloomFilter(commonsShape(benchmark.elements));
            capacity = benchmark.elements;
        }

        @Override
        void empty() {
            filter.clear();
        }
    }

    @Benchmark
    public boolean chainfilterPut(OursPut state) {
        boolean changed = state.filter.put(key(state.counter++, state.freshKey));
        state.cycle();
        return changed;
    }

    @Benchmark
    public boolean guavaPut(GuavaPut state) {
        boolean changed = state.filter.put(key(state.counter++, state.freshKey));
        state.cycle();
        return changed;
    }

    @Benchmark
    public boolean commonsPut(CommonsPut state) {
        boolean changed = state.filter.merge(CommonsBloom.hasher(key(state.counter++, state.freshKey)));
        state.cycle();
        return changed;
    }
}
