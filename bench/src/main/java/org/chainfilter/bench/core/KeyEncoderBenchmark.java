package org.chainfilter.bench.core;

import java.util.concurrent.TimeUnit;
import org.chainfilter.common.bloom.KeyEncoder;
import org.chainfilter.common.filter.BloomFilter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The other two allocation-free key kinds of the generic filter: {@code long} keys through
 * {@code putLong}/{@code mightContainLong} and {@code CharSequence} keys through {@link KeyEncoder#chars()}, on a
 * filter of 10^6 elements at p = 1%. Run with {@code -prof gc}: {@code gc.alloc.rate.norm} is 0 B/op.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class KeyEncoderBenchmark {
    private static final int ELEMENTS = 1_000_000;
    private static final int PROBE_MASK = (1 << 12) - 1;

    private BloomFilter<Long> longs;
    private BloomFilter<CharSequence> chars;
    private String[] texts;
    private long next;
    private int probe;

    @Setup
    public void fill() {
        longs = BloomFilter.create(KeyEncoder.longs(), ELEMENTS, 0.01);
        chars = BloomFilter.create(KeyEncoder.chars(), ELEMENTS, 0.01);
        texts = new String[PROBE_MASK + 1];
        for (int i = 0; i < ELEMENTS; i++) {
            longs.putLong(i);
            String text = "0x" + Long.toHexString(i * 0x9e3779b97f4a7c15L);
            chars.put(text);
            if (i <= PROBE_MASK) {
                texts[i] = (i & 1) == 0 ? text : text + "-absent";
            }
        }
    }

    @Benchmark
    public boolean mightContainLong() {
        return longs.mightContainLong(next++ & ((1 << 21) - 1));
    }

    @Benchmark
    public boolean putLong() {
        return longs.putLong(next++);
    }

    @Benchmark
    public boolean mightContainChars() {
        return chars.mightContain(texts[probe++ & PROBE_MASK]);
    }
}
