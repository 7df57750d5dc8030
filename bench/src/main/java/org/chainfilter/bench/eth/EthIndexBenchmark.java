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
 * bloombits design) against {@code couldMatch} on each of the same 1,000,000 header blooms in turn. Both give the
 * same candidate blocks, block for block (checked in setup).
 *
 * <p>Synthetic chain: each block has 0..15 logs from 2,000 contracts and 2,000 event topics (plus a random indexed
 * argument), so blooms are 0 to 6.6% full (3.2% on average). The query is one contract and its event topic; 3,725
 * blocks are candidates, about 1 in 268. The index lives in a temporary directory, memory-mapped.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
public class EthIndexBenchmark {
    static final int BLOCKS = 1_000_000;

    private LogsBloom[] blooms;
    private SectionIndex index;
    private LogFilter filter;
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
        filter = LogFilter.builder().address(contracts[7]).topic(0, events[7]).build();
        long[] viaIndex = index.candidates(filter, 0, BLOCKS - 1);
        long[] sequential = sequentialCandidates();
        if (!java.util.Arrays.equals(viaIndex, sequential)) {
            throw new IllegalStateException("the index gives " + viaIndex.length + " candidates and the sequential test "
                    + sequential.length + ", not the same blocks");
        }
    }

    private long[] sequentialCandidates() {
        long[] out = new long[BLOCKS];
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

    private long sequentialCount() {
        long count = 0;
        for (LogsBloom bloom : blooms) {
            if (filter.couldMatch(bloom)) {
                count++;
            }
        }
        return count;
    }

    /** The candidates of 1,000,000 blocks from the section index. */
    @Benchmark
    public long[] query1MBlocksIndex() {
        return index.candidates(filter, 0, BLOCKS - 1);
    }

    /** The same, testing each header bloom in turn. */
    @Benchmark
    public long query1MBlocksSequentialCouldMatch() {
        return sequentialCount();
    }

    private static byte[] syntheticHash(long value) {
        return java.nio.ByteBuffer.allocate(32).putLong(24, value).array();
    }
}
