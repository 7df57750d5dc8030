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
 * filter of 10^6 elements at p = 1%. Queries alternate members and keys never put, as in the other benchmarks; puts go
 * to a filter of their own that is emptied after every 10^6 puts, so it is always between empty and full (until a
 * review found it, {@code putLong} kept filling one filter, which after a second of puts had every bit set). The setup
 * checks both queried filters: every member found, about 1% of the keys never put (until a review found it, only the
 * {@code long} one was checked, so a broken {@code CharSequence} encoder could have passed for a fast one). Run with
 * {@code -prof gc}: {@code gc.alloc.rate.norm} is 0 B/op.
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

    /** Members queried: keys 0 .. 2^19 - 1, all put. */
    private static final long MEMBER_MASK = (1 << 19) - 1;
    /** Keys never put: 2^40 and up. */
    private static final long ABSENT = 1L << 40;

    private BloomFilter<Long> longs;
    private BloomFilter<Long> putTarget;
    private long putsSinceEmpty;
    private BloomFilter<CharSequence> chars;
    private String[] texts;
    private long next;
    private int probe;

    @Setup
    public void fill() {
        longs = BloomFilter.create(KeyEncoder.longs(), ELEMENTS, 0.01);
        putTarget = BloomFilter.create(KeyEncoder.longs(), ELEMENTS, 0.01);
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
        // Both sides of the query mix answer as they should: every member, and about 1% of the others.
        int falsePositives = 0;
        for (long i = 0; i <= MEMBER_MASK; i++) {
            if (!longs.mightContainLong(i)) {
                throw new IllegalStateException("member " + i + " not found");
            }
            falsePositives += longs.mightContainLong(ABSENT + i) ? 1 : 0;
        }
        requireRate("long", falsePositives, MEMBER_MASK + 1);
        // The same for the CharSequence filter that mightContainChars queries: every text put, and about 1% of the
        // texts never put, of the kind the probes' odd entries are.
        falsePositives = 0;
        for (int i = 0; i < ELEMENTS; i++) {
            String text = "0x" + Long.toHexString(i * 0x9e3779b97f4a7c15L);
            if (!chars.mightContain(text)) {
                throw new IllegalStateException("text member " + text + " not found");
            }
            falsePositives += chars.mightContain(text + "-absent") ? 1 : 0;
        }
        requireRate("CharSequence", falsePositives, ELEMENTS);
    }

    private static void requireRate(String keys, long falsePositives, long asked) {
        double rate = falsePositives / (double) asked;
        if (rate < 0.005 || rate > 0.02) {
            throw new IllegalStateException(keys + " keys: false-positive rate " + rate + " on keys never put; 1%"
                    + " expected");
        }
    }

    /** Even calls ask for a member, odd ones for a key never put. */
    @Benchmark
    public boolean mightContainLong() {
        long i = next++;
        long key = (i & 1) == 0 ? (i >>> 1) & MEMBER_MASK : ABSENT + ((i >>> 1) & MEMBER_MASK);
        return longs.mightContainLong(key);
    }

    @Benchmark
    public boolean putLong() {
        boolean changed = putTarget.putLong(next++);
        if (++putsSinceEmpty == ELEMENTS) {
            putsSinceEmpty = 0;
            putTarget.clear();
        }
        return changed;
    }

    @Benchmark
    public boolean mightContainChars() {
        return chars.mightContain(texts[probe++ & PROBE_MASK]);
    }
}
