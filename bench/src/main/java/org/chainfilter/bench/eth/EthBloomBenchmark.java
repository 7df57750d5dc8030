package org.chainfilter.bench.eth;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.chainfilter.ethbloom.LogFilter;
import org.chainfilter.ethbloom.LogsBloom;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.web3j.utils.Bloom;

/**
 * The bloom of a receipt, ours against web3j's {@code org.web3j.utils.Bloom} on the same logs, and the per-header
 * block-skip test with probes precomputed once per filter.
 *
 * <p>Two receipt workloads: a synthetic receipt of 4 logs, each an address and 3 topics, all 16 values distinct (the
 * worst case: every value is hashed); and the 38 real receipts of mainnet block 7000000 (130 logs), where values repeat
 * as they do on chain (event signatures, token addresses) and the builder's memo of recent values saves hashing within
 * a receipt. {@code reset} clears the memo, so no invocation reuses a hash from the one before. Our builder is reused
 * and finishes into a caller buffer ({@code writeTo}): 0 B/op expected under
 * {@code -prof gc}. web3j's API allocates a bloom per receipt and a digest and hash per value.
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar 'org.chainfilter.bench.eth' -f 1 -wi 2 -i 3 -w 1s -r 1s -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class EthBloomBenchmark {
    private static final int HEADER_COUNT = 4096;

    private byte[][] addresses;
    private List<List<byte[]>> topics;
    private final LogsBloom.Builder builder = LogsBloom.builder();
    private final byte[] receiptBloom = new byte[LogsBloom.BYTE_COUNT];

    private LogsBloom[] headers;
    private LogFilter filter;
    private int next;

    /** Block 7000000: receipt r's logs are blockAddresses[r][l] with blockTopics[r][l]. */
    private byte[][][] blockAddresses;
    private List<List<List<byte[]>>> blockTopics;
    private LogsBloom blockHeader;
    private final byte[][] blockReceiptBlooms = new byte[38][LogsBloom.BYTE_COUNT];
    /** web3j's blooms of the block's receipts, kept in a reused array so that only web3j's own allocation counts. */
    private final byte[][] blockReceiptBloomsWeb3j = new byte[38][];

    @Setup
    public void setUp() throws java.io.IOException {
        loadBlock7000000();
        SplittableRandom random = new SplittableRandom(1);
        addresses = new byte[4][20];
        topics = new ArrayList<>();
        for (int log = 0; log < 4; log++) {
            random.nextBytes(addresses[log]);
            List<byte[]> logTopics = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                byte[] topic = new byte[32];
                random.nextBytes(topic);
                logTopics.add(topic);
            }
            topics.add(logTopics);
        }
        // Header blooms of 0..40 logs each (a spread of saturations, up to about 0.2), one filter: an address and
        // a topic0 (ERC-20 Transfer).
        headers = new LogsBloom[HEADER_COUNT];
        byte[] address = new byte[20];
        byte[] topic = new byte[32];
        for (int h = 0; h < HEADER_COUNT; h++) {
            LogsBloom.Builder header = LogsBloom.builder();
            int logs = random.nextInt(41);
            for (int l = 0; l < logs; l++) {
                random.nextBytes(address);
                random.nextBytes(topic);
                header.addAddress(address).addTopic(topic);
            }
            headers[h] = header.build();
        }
        byte[] wanted = new byte[20];
        random.nextBytes(wanted);
        byte[] transfer = org.chainfilter.common.Hex.decode(
                "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef");
        filter = LogFilter.builder().address(wanted).topic(0, transfer).build();
        // couldMatchPerHeader times the rejecting path: a header matching by chance would time the other one.
        for (int h = 0; h < HEADER_COUNT; h++) {
            if (filter.couldMatch(headers[h])) {
                throw new IllegalStateException("header " + h + " could match the filter; pick another seed");
            }
        }
        requireSameBlooms();
    }

    /**
     * Both libraries compute the same blooms on what is measured: the synthetic receipt and each of block 7000000's
     * 38 receipts, byte for byte, so neither is timed doing less.
     */
    private void requireSameBlooms() {
        if (!java.util.Arrays.equals(receiptBloomChainfilter(), receiptBloomWeb3j())) {
            throw new IllegalStateException("the synthetic receipt's blooms differ between the libraries");
        }
        byte[][] ours = receiptBloomsOfBlockChainfilter();
        byte[][] web3j = receiptBloomsOfBlockWeb3j();
        for (int r = 0; r < ours.length; r++) {
            if (!java.util.Arrays.equals(ours[r], web3j[r])) {
                throw new IllegalStateException("block 7000000 receipt " + r + ": the blooms differ");
            }
        }
    }

    private void loadBlock7000000() throws java.io.IOException {
        List<List<byte[]>> addressesByReceipt = new ArrayList<>();
        blockTopics = new ArrayList<>();
        try (java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(
                EthBloomBenchmark.class.getResourceAsStream("block-7000000-logs.txt"),
                java.nio.charset.StandardCharsets.US_ASCII))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.startsWith("# header ")) {
                    blockHeader = LogsBloom.fromHex(line.substring(9));
                    continue;
                }
                if (line.startsWith("#") || line.isBlank()) {
                    continue;
                }
                String[] fields = line.split(" ");
                int receipt = Integer.parseInt(fields[0]);
                while (addressesByReceipt.size() <= receipt) {
                    addressesByReceipt.add(new ArrayList<>());
                    blockTopics.add(new ArrayList<>());
                }
                if (fields.length > 1) {
                    addressesByReceipt.get(receipt).add(org.chainfilter.common.Hex.decode(fields[1]));
                    List<byte[]> logTopics = new ArrayList<>();
                    for (int t = 2; t < fields.length; t++) {
                        logTopics.add(org.chainfilter.common.Hex.decode(fields[t]));
                    }
                    blockTopics.get(receipt).add(logTopics);
                }
            }
        }
        blockAddresses = new byte[addressesByReceipt.size()][][];
        for (int r = 0; r < blockAddresses.length; r++) {
            blockAddresses[r] = addressesByReceipt.get(r).toArray(new byte[0][]);
        }
        LogsBloom.Builder check = LogsBloom.builder();
        for (byte[] receipt : receiptBloomsOfBlockChainfilter()) {
            check.addBloom(LogsBloom.fromBytes(receipt));
        }
        if (!check.build().equals(blockHeader)) {
            throw new IllegalStateException("block 7000000: the OR of the receipt blooms is not the header bloom");
        }
    }

    /**
     * The 38 receipt blooms of mainnet block 7000000 (130 logs, 472 values; 208 distinct within their receipt, 129
     * in the block), one builder reused across the block's receipts as a node or indexer would.
     */
    @Benchmark
    public byte[][] receiptBloomsOfBlockChainfilter() {
        for (int r = 0; r < blockAddresses.length; r++) {
            builder.reset();
            byte[][] logAddresses = blockAddresses[r];
            List<List<byte[]>> logTopics = blockTopics.get(r);
            for (int l = 0; l < logAddresses.length; l++) {
                builder.addLog(logAddresses[l], logTopics.get(l));
            }
            builder.writeTo(blockReceiptBlooms[r], 0);
        }
        return blockReceiptBlooms;
    }

    /** The same 38 receipt blooms with web3j's {@code Bloom}, one per receipt. */
    @Benchmark
    public byte[][] receiptBloomsOfBlockWeb3j() {
        byte[][] out = blockReceiptBloomsWeb3j;
        for (int r = 0; r < blockAddresses.length; r++) {
            Bloom bloom = new Bloom();
            byte[][] logAddresses = blockAddresses[r];
            List<List<byte[]>> logTopics = blockTopics.get(r);
            for (int l = 0; l < logAddresses.length; l++) {
                bloom.add(logAddresses[l]);
                List<byte[]> topicsOfLog = logTopics.get(l);
                for (int t = 0; t < topicsOfLog.size(); t++) {
                    bloom.add(topicsOfLog.get(t));
                }
            }
            out[r] = bloom.getBytes();
        }
        return out;
    }

    /** Our receipt bloom: reused builder and Keccak sponge, result written into a reused buffer. */
    @Benchmark
    public byte[] receiptBloomChainfilter() {
        builder.reset();
        for (int log = 0; log < 4; log++) {
            builder.addLog(addresses[log], topics.get(log));
        }
        builder.writeTo(receiptBloom, 0);
        return receiptBloom;
    }

    /** web3j 4.13.0 {@code org.web3j.utils.Bloom} on the same 16 values. */
    @Benchmark
    public byte[] receiptBloomWeb3j() {
        Bloom bloom = new Bloom();
        for (int log = 0; log < 4; log++) {
            bloom.add(addresses[log]);
            List<byte[]> logTopics = topics.get(log);
            for (int t = 0; t < logTopics.size(); t++) {
                bloom.add(logTopics.get(t));
            }
        }
        return bloom.getBytes();
    }

    /**
     * One header's block-skip test, probes precomputed at filter build time. The filter's address is random, and the
     * setup checks that no header matches it by chance: this times the test that rejects a header, which is what a
     * scan does for almost every block.
     */
    @Benchmark
    public boolean couldMatchPerHeader() {
        LogsBloom header = headers[next];
        next = (next + 1) & (HEADER_COUNT - 1);
        return filter.couldMatch(header);
    }
}
