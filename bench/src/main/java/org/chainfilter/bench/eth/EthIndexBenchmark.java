package org.chainfilter.bench.eth;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.chainfilter.ethbloom.LogFilter;
import org.chainfilter.ethbloom.LogsBloom;
import org.chainfilter.ethbloom.index.SectionIndex;
import org.chainfilter.ethbloom.index.SectionIndexWriter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A log query over 1,000,000 blocks: the bit-sliced section index (245 sections of 4,096 blocks, go-ethereum's
 * bloombits design) against {@code couldMatch} on each of the same 1,000,000 header blooms in turn. Both return the
 * same candidate blocks as an exact-size {@code long[]}, block for block (checked in setup for every query, through
 * the code each benchmark times). Until a review found it, the sequential side only counted its candidates, doing
 * less than the index, and the setup checked a different method from the one it timed.
 *
 * <p>Synthetic chain: each block has 0..15 logs from 2,000 contracts and 2,000 event topics (plus a random indexed
 * argument), so blooms are 0 to 6.6% full (3.2% on average). A query is one contract and its event topic, with
 * 3,562 to 3,926 candidate blocks (about 1 in 268). Both benchmarks take the {@link #QUERIES} queries in turn, the
 * same one in the same invocation, so the index is read as for a new query each time: one query asked over and over
 * keeps its 750 KB of bit vectors (six of 512 bytes in each of 245 sections) in the processor's cache, where the
 * 256 queries read about half of the 252 MB index (until a review found it, every invocation asked for contract 7,
 * 3,725 candidates). The index lives in a temporary directory, memory-mapped.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
public class EthIndexBenchmark {
    static final int BLOCKS = 1_000_000;
    /** Queries taken in turn: their bit vectors together are far larger than the processor's caches. */
    static final int QUERIES = 256;

    private LogsBloom[] blooms;
    /** Where the sequential query gathers its candidates before copying them out. */
    private final long[] sequentialBuffer = new long[BLOCKS];
    private SectionIndex index;
    private LogFilter[] filters;
    private int next;
    private Path directory;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        SplittableRandom random = new SplittableRandom(2);
        byte[][] contracts = new byte[2_000][20];
        byte[][] events = new byte[2_000][32];
        for (byte[] contract : contracts) {
            random.nextBytes(contract);
        }
        for (byte[] event : events) {
            random.nextBytes(event);
        }
        directory = Files.createTempDirectory("chainfilter-eth-index-bench");
        blooms = new LogsBloom[BLOCKS];
        LogsBloom.Builder builder = LogsBloom.builder();
        byte[] argument = new byte[32];
        try (SectionIndexWriter writer = SectionIndexWriter.open(directory, 0)) {
            for (int b = 0; b < BLOCKS; b++) {
                builder.reset();
                int logs = random.nextInt(16);
                for (int l = 0; l < logs; l++) {
                    int c = random.nextInt(contracts.length);
                    random.nextBytes(argument);
                    builder.addAddress(contracts[c]).addTopic(events[c]).addTopic(argument);
                }
                blooms[b] = builder.build();
                // A synthetic chain: block b's hash holds b + 1 and names block b - 1's as its parent.
                writer.append(b, syntheticHash(b + 1), syntheticHash(b), blooms[b]);
            }
        }
        index = SectionIndex.open(directory);
        filters = new LogFilter[QUERIES];
        for (int q = 0; q < QUERIES; q++) {
            // Contracts 7, 14, .. 1792, each with its own event: distinct queries, the first the one used before.
            int c = 7 * (q + 1);
            filters[q] = LogFilter.builder().address(contracts[c]).topic(0, events[c]).build();
            long[] viaIndex = index.candidates(filters[q], 0, BLOCKS - 1);
            long[] sequential = sequentialCandidates(filters[q]);
            if (!java.util.Arrays.equals(viaIndex, sequential)) {
                throw new IllegalStateException("query " + q + ": the index gives " + viaIndex.length
                        + " candidates and the sequential test " + sequential.length + ", not the same blocks");
            }
        }
    }

    /** The next query; both benchmarks take them in the same order. */
    private LogFilter nextFilter() {
        LogFilter filter = filters[next];
        next = (next + 1) & (QUERIES - 1);
        return filter;
    }

    /**
     * The candidate blocks by {@code couldMatch} on each header bloom in turn: the same answer as the index's, an
     * exact-size {@code long[]}, gathered in a buffer made once (so only the result is allocated per query).
     */
    private long[] sequentialCandidates(LogFilter filter) {
        long[] out = sequentialBuffer;
        int count = 0;
        for (int b = 0; b < BLOCKS; b++) {
            if (filter.couldMatch(blooms[b])) {
                out[count++] = b;
            }
        }
        return java.util.Arrays.copyOf(out, count);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** The candidates of 1,000,000 blocks from the section index, for the next query. */
    @Benchmark
    public long[] query1MBlocksIndex() {
        return index.candidates(nextFilter(), 0, BLOCKS - 1);
    }

    /** The same candidates, testing each header bloom in turn: the path the setup checks against the index. */
    @Benchmark
    public long[] query1MBlocksSequentialCouldMatch() {
        return sequentialCandidates(nextFilter());
    }

    private static byte[] syntheticHash(long value) {
        return java.nio.ByteBuffer.allocate(32).putLong(24, value).array();
    }
}
