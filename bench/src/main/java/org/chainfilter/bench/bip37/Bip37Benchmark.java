package org.chainfilter.bench.bip37;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.bitcoinj.core.BloomFilter;
import org.chainfilter.bip37.Bip37BloomFilter;
import org.chainfilter.btcwire.Block;
import org.chainfilter.btcwire.Transaction;
import org.chainfilter.common.Hex;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * chainfilter's {@link Bip37BloomFilter} against bitcoinj 0.17.1's {@code BloomFilter} with the same parameters: both
 * read from one {@code filterload} (20,000 elements at 0.1%: 35,943 bytes, 9 hash functions, nTweak 0x5eed,
 * UPDATE_ALL), so they set and test the same bits. bitcoinj's {@code insert}, {@code contains} and
 * {@code applyAndUpdate} are {@code synchronized}: each call takes an uncontended lock, the price of its thread safety,
 * which ours (one filter per peer, not thread-safe, as in Core) does not pay; that lock is part of every ratio.
 *
 * <ul>
 *   <li>{@code *Insert} / {@code *Contains}: 32-byte keys cycling through 4,096 prepared ones (half inserted at
 *       setup, half not, alternating). {@code *Insert} goes into the queried filter, so after its first 4,096 calls
 *       (one pass) every key it inserts is already in: that changes the cost of neither library, as both write each
 *       bit whether or not it is set.</li>
 *   <li>{@code *ContainsMember} / {@code *ContainsNonMember}: contains of the inserted keys only, of the others only;
 *       a member pays every probe, a non-member mostly the first one alone, a serial hash whose cost is its
 *       latency.</li>
 *   <li>{@code *MatchBlock}: IsRelevantAndUpdate / applyAndUpdate(Transaction) over every transaction of the largest
 *       block in the published BIP37 vectors (block 13b8a, 9 transactions, Core's getBlock13b8a()), with a filter of
 *       its own (50 elements at 0.01%: 119 bytes, 13 hash functions, UPDATE_ALL) holding pushes of three of its
 *       transactions, so some match and update. The same transaction objects serve
 *       every invocation, and bitcoinj keeps on each the {@code Script} it parses from an output (and, through a weak
 *       reference, from a scriptSig), so after the first invocation it no longer parses them, as it must for a block
 *       it sees once; ours reads the script bytes in every invocation. So this comparison, if anything, favours
 *       bitcoinj.</li>
 * </ul>
 * Run with {@code -prof gc}: {@code gc.alloc.rate.norm} is 0 B/op for our insert and contains.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class Bip37Benchmark {
    private static final int KEY_MASK = 4095;

    private Bip37BloomFilter ours;
    private BloomFilter bitcoinj;
    private byte[][] keys;
    private int next;

    private Bip37BloomFilter oursForBlock;
    private BloomFilter bitcoinjForBlock;
    private List<Transaction> transactions;
    private List<org.bitcoinj.core.Transaction> bitcoinjTransactions;

    static String resource(String name) {
        try (InputStream in = Bip37Benchmark.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        ours = Bip37BloomFilter.fromElementsAndRate(20_000, 0.001, 0x5eed, 1);
        bitcoinj = BloomFilter.read(ByteBuffer.wrap(ours.toFilterLoad()));
        SplittableRandom random = new SplittableRandom(3);
        keys = new byte[KEY_MASK + 1][32];
        for (int i = 0; i < keys.length; i++) {
            random.nextBytes(keys[i]);
            if ((i & 1) == 0) {
                ours.insert(keys[i]);
                bitcoinj.insert(keys[i]);
            }
        }

        String raw = resource("block_13b8a.txt").lines().filter(l -> l.startsWith("raw="))
                .findFirst().orElseThrow().substring(4);
        Block block = Block.parse(Hex.decode(raw));
        transactions = block.transactions();
        bitcoinjTransactions = org.bitcoinj.core.Block.read(ByteBuffer.wrap(Hex.decode(raw))).getTransactions();
        oursForBlock = Bip37BloomFilter.fromElementsAndRate(50, 0.0001, 7, 1);
        for (int t : new int[] {2, 5, 8}) {
            byte[] script = transactions.get(t).outputs().get(0).scriptPubKey();
            oursForBlock.insert(java.util.Arrays.copyOfRange(script, 3, 23));
        }
        bitcoinjForBlock = BloomFilter.read(ByteBuffer.wrap(oursForBlock.toFilterLoad()));
        requireSameAnswers();
    }

    /**
     * Both libraries hold the same bits and give the same answers on what is measured, so neither is timed doing less
     * or something else: the filters serialize alike after the inserts, every key is contained by both or by neither,
     * and two rounds over the block (the second sees the outpoints the first inserted) match the same transactions on
     * copies of the block filters. (On this block bitcoinj's departures from Core, the txid's byte order and no outpoint
     * update after a txid match, change nothing: no txid is in the filter.)
     */
    private void requireSameAnswers() {
        if (!java.util.Arrays.equals(ours.toFilterLoad(), bitcoinj.serialize())) {
            throw new IllegalStateException("the two filters differ after the inserts");
        }
        for (byte[] key : keys) {
            if (ours.contains(key) != bitcoinj.contains(key)) {
                throw new IllegalStateException("the libraries disagree on key " + Hex.encode(key));
            }
        }
        Bip37BloomFilter oursCopy = oursForBlock.copy();
        BloomFilter bitcoinjCopy = BloomFilter.read(ByteBuffer.wrap(oursForBlock.toFilterLoad()));
        StringBuilder oursMatches = new StringBuilder();
        StringBuilder bitcoinjMatches = new StringBuilder();
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < transactions.size(); i++) {
                oursMatches.append(oursCopy.isRelevantAndUpdate(transactions.get(i)) ? 1 : 0);
                bitcoinjMatches.append(bitcoinjCopy.applyAndUpdate(bitcoinjTransactions.get(i)) ? 1 : 0);
            }
        }
        if (!oursMatches.toString().equals(bitcoinjMatches.toString()) || oursMatches.indexOf("1") < 0) {
            throw new IllegalStateException("block matches differ or are empty: ours " + oursMatches + ", bitcoinj "
                    + bitcoinjMatches);
        }
    }

    private byte[] nextKey() {
        return keys[next++ & KEY_MASK];
    }

    /** The next inserted key (the even ones). */
    private byte[] nextMember() {
        next += 2;
        return keys[next & KEY_MASK & ~1];
    }

    /** The next key that was not inserted (the odd ones). */
    private byte[] nextNonMember() {
        next += 2;
        return keys[(next & KEY_MASK) | 1];
    }

    @Benchmark
    public void chainfilterInsert() {
        ours.insert(nextKey());
    }

    @Benchmark
    public void bitcoinjInsert() {
        bitcoinj.insert(nextKey());
    }

    @Benchmark
    public boolean chainfilterContains() {
        return ours.contains(nextKey());
    }

    @Benchmark
    public boolean bitcoinjContains() {
        return bitcoinj.contains(nextKey());
    }

    @Benchmark
    public boolean chainfilterContainsMember() {
        return ours.contains(nextMember());
    }

    @Benchmark
    public boolean bitcoinjContainsMember() {
        return bitcoinj.contains(nextMember());
    }

    @Benchmark
    public boolean chainfilterContainsNonMember() {
        return ours.contains(nextNonMember());
    }

    @Benchmark
    public boolean bitcoinjContainsNonMember() {
        return bitcoinj.contains(nextNonMember());
    }

    @Benchmark
    public void chainfilterMatchBlock(Blackhole hole) {
        for (int i = 0; i < transactions.size(); i++) {
            hole.consume(oursForBlock.isRelevantAndUpdate(transactions.get(i)));
        }
    }

    @Benchmark
    public void bitcoinjMatchBlock(Blackhole hole) {
        for (int i = 0; i < bitcoinjTransactions.size(); i++) {
            hole.consume(bitcoinjForBlock.applyAndUpdate(bitcoinjTransactions.get(i)));
        }
    }
}
