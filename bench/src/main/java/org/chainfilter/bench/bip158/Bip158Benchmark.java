package org.chainfilter.bench.bip158;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.chainfilter.bip158.BasicFilter;
import org.chainfilter.bip158.GcsFilter;
import org.chainfilter.bip158.GcsParams;
import org.chainfilter.bip158.GcsQuery;
import org.chainfilter.btcwire.Block;
import org.chainfilter.common.Hex;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * BIP158 costs, for comparison with Bitcoin Core's src/bench/gcs_filter.cpp and blockfilter benchmarks (Core PR
 * #12254 reported about 434 ns per element to build a basic filter on its machine).
 *
 * <ul>
 *   <li>{@code buildLargestPublishedBlock}: the basic filter of testnet3 block 926485, the largest block of the
 *       published vectors (bitcoin/bitcoin src/test/data/blockfilters.json @ c7efb652; 9 distinct elements from 10
 *       outputs and 8 spent scripts), from the parsed block and its spent scripts: divide by 9 for ns per element;</li>
 *   <li>{@code buildSynthetic10000}: a GCS of Core's bench set ({@code GenerateGCSTestElements} in
 *       src/bench/gcs_filter.cpp as written 2018-2020: 10,000 elements of 32 bytes, element i holding i's two low
 *       bytes and zeros; later versions ask for 100,000, of which only 65,536 are distinct) with
 *       the basic parameters, as Core's {@code GCSFilterConstruct} builds it: divide by 10,000 (the 434 ns of PR #12254
 *       were measured with that bench's first form, P = 20 and M = 2^20);</li>
 *   <li>{@code matchWallet1000}: a 1,000-script P2WPKH wallet (none in the filter) against the 10,000-element filter
 *       with a reused {@link GcsQuery}: should allocate 0 bytes per operation ({@code -prof gc});</li>
 *   <li>{@code matchOne}: one script against the 10,000-element filter: 0 bytes per operation.</li>
 * </ul>
 *
 * <p>Run: {@code mvn -B -q -pl bench -am package -Dmaven.test.skip=true && java -jar bench/target/benchmarks.jar Bip158Benchmark
 * -prof gc -f 1 -wi 3 -i 5 -w 1s -r 1s}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class Bip158Benchmark {
    private Block block;
    private List<byte[]> spentScripts;
    private GcsParams params;
    private List<byte[]> syntheticElements;
    private GcsFilter filter10000;
    private GcsQuery wallet1000;
    private byte[] absentScript;

    @Setup
    public void setUp() throws Exception {
        block = Block.parse(BenchData.block926485());
        spentScripts = BenchData.spent926485();
        if (!BenchData.FILTER_926485.equals(Hex.encode(BasicFilter.build(block, spentScripts).encoded()))) {
            throw new IllegalStateException("block 926485 no longer gives its published filter");
        }
        SplittableRandom random = new SplittableRandom(158);
        params = GcsParams.of(random.nextLong(), random.nextLong(), BasicFilter.P, BasicFilter.M);
        syntheticElements = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            byte[] element = new byte[32];
            element[0] = (byte) i;
            element[1] = (byte) (i >>> 8);
            syntheticElements.add(element);
        }
        filter10000 = GcsFilter.build(params, syntheticElements);
        List<byte[]> wallet = new ArrayList<>();
        byte[] keyHash = new byte[20];
        for (int i = 0; i < 1000; i++) {
            random.nextBytes(keyHash);
            wallet.add(Hex.decode("0014" + Hex.encode(keyHash)));
        }
        wallet1000 = GcsQuery.of(wallet);
        absentScript = wallet.get(0);
        // The matches time a search that finds nothing (a hit would end matchAny early): none is in the filter.
        if (filter10000.matchAny(wallet1000) || filter10000.match(absentScript)) {
            throw new IllegalStateException("a wallet script matches the synthetic filter; pick another seed");
        }
    }

    @Benchmark
    public BasicFilter buildLargestPublishedBlock() {
        return BasicFilter.build(block, spentScripts);
    }

    @Benchmark
    public GcsFilter buildSynthetic10000() {
        return GcsFilter.build(params, syntheticElements);
    }

    @Benchmark
    public boolean matchWallet1000() {
        return filter10000.matchAny(wallet1000);
    }

    @Benchmark
    public boolean matchOne() {
        return filter10000.match(absentScript);
    }
}
