package org.chainfilter.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.chainfilter.bip158.BasicFilter;
import org.chainfilter.bip37.Bip37BloomFilter;
import org.chainfilter.bip37.Bip37UpdateMode;
import org.chainfilter.bip37.MatchedTransaction;
import org.chainfilter.bip37.MerkleBlock;
import org.chainfilter.btcwire.Block;
import org.chainfilter.btcwire.Hash256;
import org.chainfilter.btcwire.Transaction;
import org.chainfilter.btcwire.TxInput;
import org.chainfilter.common.Hex;
import org.chainfilter.ethbloom.LogFilter;
import org.chainfilter.ethbloom.LogsBloom;
import org.chainfilter.testvectors.ConformanceReport;
import org.chainfilter.testvectors.Fields;
import org.chainfilter.testvectors.Suites;
import org.chainfilter.testvectors.Vector;
import org.chainfilter.testvectors.VectorFile;
import org.chainfilter.testvectors.suites.ChainfilterSuites;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code chainfilter demo}: every capability on real chain data in a few seconds. The data are the real blocks,
 * receipts and headers bundled in the conformance vector files (Bitcoin Core's mainnet test blocks, the BIP158
 * testnet rows, mainnet receipts and header blooms); every figure printed is computed by chainfilter during the run,
 * and each published figure it reproduces is checked and marked. Exit status 1 if a check or a vector fails.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Show BIP37, BIP158 and logsBloom filtering on bundled real chain data, then the conformance "
                + "summary.", "Runs in seconds; exit status 1 if any check fails."})
final class DemoCommand implements Callable<Integer> {
    private static final String WALLET_BLOCK_VECTOR = "merkle_block_2 step 2";
    /** A P2PKH script paid in testnet block 926485 (the BIP158 row "Duplicate pushdata 913bcc2b..."). */
    private static final String WALLET_SCRIPT = "76a914913bcc2be49cb534c20474c4dee1e9c4c317e7eb88ac";
    /** WETH on mainnet, and the ERC-20 Transfer(address,address,uint256) event topic. */
    private static final String WETH = "c02aaa39b223fe8d0a0e5c4f27ead9083c756cc2";
    private static final String TRANSFER = "ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

    @Spec
    private CommandSpec spec;

    private PrintWriter out;
    private int failedChecks;

    @Override
    public Integer call() {
        out = spec.commandLine().getOut();
        out.println("chainfilter demo: light-client filtering on real chain data");
        out.println("(bundled with the conformance vectors; every figure below is computed now by chainfilter)");
        bip37();
        bip158();
        logsBloom();
        boolean vectorsPass = conformance();
        out.flush();
        return vectorsPass && failedChecks == 0 ? 0 : ErrorHandler.FAILURE;
    }

    private void heading(String title) {
        out.println();
        out.println("== " + title + " ==");
    }

    /** "OK" when a recomputed value equals the published one; a failed check is counted and shown. */
    private String check(boolean ok) {
        if (!ok) {
            failedChecks++;
        }
        return ok ? "OK" : "MISMATCH";
    }

    private static Vector vector(String file, String name) {
        VectorFile vectors = Suites.bundled(file);
        return vectors.vectors().stream().filter(v -> v.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalStateException("bundled file " + file + " has no vector '" + name + "'"));
    }

    private static String shortHash(String hex) {
        return hex.substring(0, 8) + "…" + hex.substring(hex.length() - 4);
    }

    private void bip37() {
        heading("1. BIP37: an SPV wallet asks a full node for the transactions it cares about");
        Vector v = vector("bip37-merkleblock.core.json", WALLET_BLOCK_VECTOR);
        Block block = Block.parse(v.hex("block"));
        byte[] walletKey = v.object("filter").hexList("insert").get(1);
        out.printf(Locale.ROOT, "Block %s (%d transactions, %d bytes; a real block from Bitcoin Core's bloom_tests)%n",
                block.hash().toDisplayHex(),
                block.transactions().size(), v.hex("block").length);
        out.println("The wallet watches one public key: " + shortHash(Hex.encode(walletKey)));
        Bip37BloomFilter filter = walletFilter(walletKey, Bip37UpdateMode.ALL);
        out.printf(Locale.ROOT, "filterload sent to the node: %d-byte filter, %d hash functions, nTweak 0, BLOOM_UPDATE_ALL "
                + "(%d bytes on the wire)%n", filter.byteLength(), filter.hashFunctionCount(),
                filter.toFilterLoad().length);
        out.println("The node tests every transaction (isRelevantAndUpdate), updating the filter as it matches:");
        out.printf(Locale.ROOT, "  %-3s %-66s %-9s %s%n", "tx", "txid", "relevant", "filter after");
        Bip37BloomFilter replay = filter.copy();
        List<Transaction> txs = block.transactions();
        for (int i = 0; i < txs.size(); i++) {
            byte[] before = replay.toFilterLoad();
            boolean relevant = replay.isRelevantAndUpdate(txs.get(i));
            boolean grew = !Arrays.equals(before, replay.toFilterLoad());
            out.printf(Locale.ROOT, "  %-3d %-66s %-9s %s%s%n", i, txs.get(i).txid().toDisplayHex(), relevant ? "yes" : "no",
                    grew ? "gained an outpoint of this tx" : "unchanged", spendsEarlier(txs, i));
        }
        MerkleBlock merkleBlock = MerkleBlock.fromBlockAndFilter(block, filter);
        byte[] wire = merkleBlock.serialize();
        out.printf(Locale.ROOT, "The node answers with a merkleblock: %d bytes (header, %d hashes, %d flag byte%s) instead of the "
                + "%d-byte block%n", wire.length, merkleBlock.tree().hashes().size(),
                merkleBlock.tree().flagBytes().length, merkleBlock.tree().flagBytes().length == 1 ? "" : "s",
                v.hex("block").length);
        List<MatchedTransaction> proven = MerkleBlock.parse(wire).verify();
        List<Integer> positions = positions(proven);
        out.printf(Locale.ROOT, "The wallet verifies it: partial-tree root = header merkle root %s, proven transactions at "
                + "positions %s%n", merkleBlock.header().merkleRoot().toDisplayHex(), positions);
        List<Integer> published = new ArrayList<>();
        for (Fields m : v.objects("matched")) {
            published.add(m.count("index"));
        }
        out.println("  Bitcoin Core's test watches this key and the txid of tx 0, and publishes the matches "
                + published
                + ": ours plus tx 0 -> " + check(published.containsAll(positions) && published.contains(0)
                        && !positions.contains(0) && published.size() == positions.size() + 1));
        List<Integer> withoutUpdates = positions(MerkleBlock.fromBlockAndFilter(block,
                walletFilter(walletKey, Bip37UpdateMode.NONE)).builtMatches());
        out.println("With BLOOM_UPDATE_NONE the node proves only " + withoutUpdates
                + ": a spend of the wallet's new coin carries no watched data, so the filter must learn its outpoint.");
    }

    /** ", spends tx N" when a transaction spends an output of an earlier transaction of the same block. */
    private static String spendsEarlier(List<Transaction> txs, int index) {
        for (TxInput input : txs.get(index).inputs()) {
            for (int earlier = 0; earlier < index; earlier++) {
                if (input.outPoint().txid().equals(txs.get(earlier).txid())) {
                    return " (spends an output of tx " + earlier + ")";
                }
            }
        }
        return "";
    }

    private static Bip37BloomFilter walletFilter(byte[] key, Bip37UpdateMode mode) {
        Bip37BloomFilter filter = Bip37BloomFilter.fromElementsAndRate(10, 0.000001, 0, mode.flagValue());
        filter.insert(key);
        return filter;
    }

    private static List<Integer> positions(List<MatchedTransaction> matches) {
        List<Integer> out = new ArrayList<>();
        for (MatchedTransaction m : matches) {
            out.add(m.index());
        }
        return out;
    }

    private void bip158() {
        heading("2. BIP158: compact block filters (the wallet downloads small filters, and only the blocks that "
                + "match)");
        out.println("Bitcoin testnet3 blocks of the BIP158 test vectors; each filter is built from the block and the "
                + "scripts its inputs spend.");
        out.printf(Locale.ROOT, "  %-7s %-18s %4s %9s %13s %12s  %s%n", "height", "block", "txs", "elements", "filter bytes",
                "block bytes", "filter header on the published previous one (vs Bitcoin Core)");
        byte[] script = Hex.decode(WALLET_SCRIPT);
        List<Integer> matchedHeights = new ArrayList<>();
        int skipped = 0;
        for (Vector row : Suites.bundled("bip158-basic.core.json").vectors()) {
            byte[] raw = row.hex("block");
            Block block = Block.parse(raw);
            BasicFilter filter = BasicFilter.build(block, row.hexList("prevoutScripts"));
            Hash256 previous = Hash256.fromDisplayHex(Hex.encode(row.hex("prevHeader", 32)));
            boolean headerOk = filter.header(previous).toDisplayHex().equals(Hex.encode(row.hex("header", 32)));
            out.printf(Locale.ROOT, "  %-7d %-18s %4d %9d %13d %12d  %s%n", row.count("height"),
                    shortHash(block.hash().toDisplayHex()), block.transactions().size(), filter.gcs().elementCount(),
                    filter.encoded().length, raw.length, check(headerOk));
            if (filter.match(script)) {
                matchedHeights.add(row.count("height"));
            } else {
                skipped++;
            }
        }
        out.println("Wallet script " + WALLET_SCRIPT + " (P2PKH) matches the filters of block(s) " + matchedHeights
                + ": download those; " + skipped + " blocks skipped without downloading them.");
    }

    private void logsBloom() {
        heading("3. Ethereum logsBloom: which mainnet blocks can an eth_getLogs filter skip?");
        LogFilter filter = LogFilter.of(List.of(Hex.decode(WETH)), List.of(List.of(Hex.decode(TRANSFER))));
        out.println("Filter: Transfer events (topic " + shortHash(TRANSFER) + ") emitted by WETH (0x" + WETH + ")");
        out.printf(Locale.ROOT, "  %-9s %5s %9s %11s %-12s %-22s %s%n", "block", "logs", "bits set", "saturation", "bloom says",
                "matching log in block", "header bloom = bloom of its logs");
        VectorFile portal = Suites.bundled("eth-bloom.portal-spec-tests.json");
        for (Vector v : portal.vectors()) {
            if (!v.name().endsWith("header logsBloom")) {
                continue;
            }
            LogsBloom.Builder builder = LogsBloom.builder();
            boolean anyMatch = false;
            List<Fields> logs = v.objects("logs");
            for (Fields log : logs) {
                byte[] address = log.hex("address");
                List<byte[]> topics = log.hexList("topics");
                builder.addAddress(address);
                topics.forEach(builder::addTopic);
                anyMatch |= filter.matches(address, topics);
            }
            LogsBloom header = LogsBloom.fromBytes(v.hex("bloom"));
            String matching = matchingCell(anyMatch, filter.couldMatch(header));
            if (matching.endsWith("MISSED")) {
                failedChecks++;
            }
            row(v.name().split(" ")[2], String.valueOf(logs.size()), header, filter, matching,
                    check(builder.build().equals(header)));
        }
        row("16329283", "-", LogsBloom.fromBytes(vector("eth-bloom-contains.shovel.json",
                "TestExistsWithEvent (mainnet block 16329283)").hex("bloom")), filter, "(header only)", "-");
        row("22263622", "-", LogsBloom.fromBytes(vector("eth-bloom-contains.viem.json",
                "mainnet block 22263622 header contains the logs of tx 0").hex("bloom")), filter, "(header only)", "-");
        // An absent value passes a bloom whose bits are a fraction s set with probability about s^3 (its three bits);
        // this filter needs its address and its topic, so a block without them passes with about s^6.
        LogsBloom fullest = LogsBloom.fromBytes(vector("eth-bloom-contains.viem.json",
                "mainnet block 22263622 header contains the logs of tx 0").hex("bloom"));
        double s = fullest.saturation();
        out.printf(Locale.ROOT, "A skipped block needs no receipts at all. An absent value passes a bloom with a fraction s"
                + " of its bits set%nwith probability about s^3, and this filter (address and topic, both needed) about"
                + " s^6: %.1f %% at block 22263622's%n%.1f %%, %.0f %% at 90 %%. The fuller the blooms, the fewer blocks"
                + " a filter skips.%n", 100 * Math.pow(s, 6), 100 * s, 100 * Math.pow(0.9, 6));
    }

    /**
     * The "matching log in block" cell: whether a log of the block matches the filter, and "MISSED" when one does but
     * the bloom says skip, a false negative the bloom's construction rules out (it is counted as a failed check).
     */
    static String matchingCell(boolean logMatches, boolean bloomCouldMatch) {
        if (!logMatches) {
            return "no";
        }
        return bloomCouldMatch ? "yes" : "yes, bloom MISSED";
    }

    private void row(String block, String logs, LogsBloom bloom, LogFilter filter, String matching, String check) {
        out.printf(Locale.ROOT, "  %-9s %5s %9d %10.1f%% %-12s %-22s %s%n", block, logs, bloom.bitsSet(), 100 * bloom.saturation(),
                filter.couldMatch(bloom) ? "fetch" : "skip", matching, check);
    }

    private boolean conformance() {
        heading("4. Conformance: every bundled published vector, run through chainfilter");
        ConformanceReport report = ChainfilterSuites.runner().run(Suites.bundled());
        report.failures().forEach(f -> out.println(f.describe()));
        ConformanceCommand.printTable(out, report);
        out.println(report.summaryLine());
        out.println("(chainfilter conformance --bundled runs them with details; --impl bitcoinj shows where bitcoinj "
                + "departs from Bitcoin Core)");
        return report.succeeded();
    }
}
