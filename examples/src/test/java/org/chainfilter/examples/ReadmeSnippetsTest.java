package org.chainfilter.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.chainfilter.bip158.BasicFilter;
import org.chainfilter.bip158.GcsQuery;
import org.chainfilter.bip37.Bip37BloomFilter;
import org.chainfilter.bip37.Bip37UpdateMode;
import org.chainfilter.bip37.MatchedTransaction;
import org.chainfilter.bip37.MerkleBlock;
import org.chainfilter.btcwire.Block;
import org.chainfilter.btcwire.Hash256;
import org.chainfilter.btcwire.Transaction;
import org.chainfilter.common.Hex;
import org.chainfilter.common.bloom.KeyEncoder;
import org.chainfilter.common.filter.BloomFilter;
import org.chainfilter.ethbloom.LogFilter;
import org.chainfilter.ethbloom.LogsBloom;
import org.chainfilter.ethbloom.scan.BlockScanner;
import org.chainfilter.ethbloom.scan.BoundedHttp;
import org.chainfilter.ethbloom.scan.FileCheckpointStore;
import org.chainfilter.ethbloom.scan.ScanSummary;
import org.chainfilter.testvectors.ConformanceReport;
import org.chainfilter.testvectors.Suites;
import org.chainfilter.testvectors.Vector;
import org.chainfilter.testvectors.VectorFile;
import org.chainfilter.testvectors.suites.ChainfilterSuites;
import org.junit.jupiter.api.Test;
import org.web3j.protocol.core.methods.response.EthBlock;

/**
 * The README's Java snippets, each line as the README prints it, run on real data with their results checked; and a
 * check that every line of every {@code ```java} block of the README appears in this file, so a snippet that no longer
 * compiles, or no longer does what its comment says, fails the build instead of misleading a reader.
 */
class ReadmeSnippetsTest {
    private static final Path README = Path.of("..", "README.md");
    private static final Path THIS_FILE = Path.of("src", "test", "java", "org", "chainfilter", "examples",
            "ReadmeSnippetsTest.java");

    @Test
    void everyLineOfTheReadmesJavaSnippetsIsInThisFile() throws IOException {
        String readme = Files.readString(README, StandardCharsets.UTF_8);
        List<String> here = Files.readAllLines(THIS_FILE, StandardCharsets.UTF_8).stream().map(String::strip).toList();
        Matcher block = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(readme);
        int blocks = 0;
        List<String> missing = new ArrayList<>();
        while (block.find()) {
            blocks++;
            for (String line : block.group(1).split("\n")) {
                if (!line.isBlank() && !here.contains(line.strip())) {
                    missing.add(line.strip());
                }
            }
        }
        assertEquals(6, blocks, "the README's java snippets (a new one needs a test here)");
        assertEquals(List.of(), missing, "README snippet lines that this test does not compile and run");
    }

    @Test
    void commonBloomFilter() throws IOException {
        byte[] key = "a key".getBytes(StandardCharsets.UTF_8);
        BloomFilter<byte[]> filter = BloomFilter.create(KeyEncoder.bytes(), 1_000_000, 0.01);
        boolean wasNew = filter.put(key);           // whether any bit changed
        boolean maybe = filter.mightContain(key);   // false is certain
        double rate = filter.expectedFpp();         // (X/m)^k from the real fill
        byte[] form = filter.toByteArray();         // "CFBF", version 1, strategy, k, m, words
        InputStream in = new ByteArrayInputStream(form);
        long maxBytes = form.length;
        BloomFilter<byte[]> back = BloomFilter.readFrom(in, KeyEncoder.bytes(), maxBytes);  // refuses sizes over maxBytes

        assertTrue(wasNew);
        assertTrue(maybe);
        assertTrue(rate > 0 && rate < 1e-30, "one key in 9.6 million bits: " + rate);
        assertEquals("CFBF", new String(form, 0, 4, StandardCharsets.US_ASCII));
        assertTrue(back.mightContain(key));
        assertArrayEquals(form, back.toByteArray());
    }

    @Test
    void bip37() {
        Block block = Block.parse(bip158Row(926485).hex("block"));  // testnet3, with pay-to-pubkey-hash outputs
        Transaction tx = block.transactions().stream().filter(t -> payToPubKeyHash(t) != null).findFirst()
                .orElseThrow();
        byte[] pubKeyHash = payToPubKeyHash(tx);

        Bip37BloomFilter filter = Bip37BloomFilter.withRandomTweak(100, 0.0001, Bip37UpdateMode.ALL); // Core's sizing
        filter.insert(pubKeyHash);                        // no allocation; LSB-first bits, seeds i·0xFBA4C795 + nTweak
        byte[] filterload = filter.toFilterLoad();        // CompactSize vData, nHashFuncs, nTweak, nFlags
        byte[] bytes = filterload;
        Bip37BloomFilter peer = Bip37BloomFilter.parseFilterLoad(bytes);  // ≤ 36000 bytes, ≤ 50 hash functions
        boolean relevant = peer.isRelevantAndUpdate(tx);  // Core's order, UPDATE_ALL / P2PUBKEY_ONLY (Solver rules)
        Bip37BloomFilter sent = Bip37BloomFilter.parseFilterLoad(bytes);
        MerkleBlock proof = MerkleBlock.fromBlockAndFilter(block, peer);   // updates the filter as Core does
        byte[] msg = proof.serialize();
        List<MatchedTransaction> proven = MerkleBlock.parse(msg).verify(); // (index, txid), root checked against the header

        assertTrue(relevant);
        assertFalse(Arrays.equals(sent.data(), peer.data()), "UPDATE_ALL inserted the matched output's outpoint");
        int index = block.transactions().indexOf(tx);
        assertTrue(proven.stream().anyMatch(m -> m.index() == index && m.txid().equals(tx.txid())),
                proven + " holds (" + index + ", " + tx.txid() + ")");
        assertEquals(proof.builtMatches(), proven);
    }

    @Test
    void bip158() {
        Vector row = bip158Row(926485);
        Block block = Block.parse(row.hex("block"));
        List<byte[]> spentScripts = row.hexList("prevoutScripts");
        Hash256 previousHeader = Hash256.fromDisplayHex(Hex.encode(row.hex("prevHeader", Hash256.LENGTH)));
        List<byte[]> myScripts = List.of(Hex.decode(CompactFilterWalletExample.P2PKH_SCRIPT));
        Hash256 blockHash = block.hash();
        byte[] cfilterBytes = row.hex("filter");

        BasicFilter filter = BasicFilter.build(block, spentScripts);   // P = 19, M = 784931, key = block hash[0..16)
        Hash256 header = filter.header(previousHeader);                // dSHA256(filter hash || previous header)
        GcsQuery wallet = GcsQuery.of(myScripts);                      // reusable scratch: no allocation per block
        boolean download = BasicFilter.parse(blockHash, cfilterBytes).matchAny(wallet);

        assertArrayEquals(cfilterBytes, filter.encoded(), "the published filter");
        assertEquals(Hash256.fromDisplayHex(Hex.encode(row.hex("header", Hash256.LENGTH))), header);
        assertTrue(download, "block 926485 pays the wallet's P2PKH script");
        assertFalse(BasicFilter.parse(blockHash, cfilterBytes)
                .matchAny(GcsQuery.of(List.of(Hex.decode(CompactFilterWalletExample.UNUSED_SCRIPT)))));
    }

    @Test
    void ethbloom() {
        byte[] usdc = Hex.decode("a0b86991c6218b36c1d19d4a2e9eb0ce3606eb48");
        byte[] transferTopic = Hex.decode("ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef");
        byte[] from32 = Hex.decode("000000000000000000000000" + "28c6c06298d514db089934071355e5743bf21d60");
        byte[] to32 = Hex.decode("000000000000000000000000" + "3cd751e6b0078be393132286c442345e5dc49699");
        byte[] address20 = usdc;
        EthBlock.Block block = new EthBlock.Block();

        LogsBloom receipt = LogsBloom.builder().addLog(address20, List.of(transferTopic, from32, to32)).build();
        block.setLogsBloom(receipt.toHex());
        LogsBloom header = LogsBloom.fromHex(block.getLogsBloom());       // exactly 256 bytes, or a message naming the length
        LogFilter filter = LogFilter.builder().address(usdc).topic(0, transferTopic).anyTopic(1).build();
        byte[] logAddress = address20;
        List<byte[]> topics = List.of(transferTopic, from32, to32);
        filter.couldMatch(header);          // block-skip test: probes computed once per filter, no hashing, no allocation
        filter.matches(logAddress, topics); // go-ethereum's exact rule (a log needs as many topics as the filter has positions)

        assertEquals(receipt, header);
        assertTrue(filter.couldMatch(header));
        assertTrue(filter.matches(logAddress, topics));
        assertFalse(filter.matches(logAddress, List.of(transferTopic)), "one topic, two positions");
        assertFalse(filter.couldMatch(LogsBloom.builder().addAddress(usdc).build()), "the topic is missing");
    }

    /**
     * The scanner snippet names a node at 127.0.0.1:8545, which the build does not run (the ethbloom and cli tests
     * start their own on free ports): the scanner is built as the README builds it, which reads no node and writes no
     * checkpoint, and the scan is compiled, not called.
     */
    @Test
    void blockScannerBuildsAsTheReadmeShows() {
        boolean checkpointBefore = Files.exists(Path.of("usdc.checkpoint"));
        LogFilter filter = LogFilter.builder().address(Hex.decode("a0b86991c6218b36c1d19d4a2e9eb0ce3606eb48")).build();
        assertEquals(BlockScanner.class, scannerAsTheReadmeShows(filter, false).getClass());
        assertEquals(checkpointBefore, Files.exists(Path.of("usdc.checkpoint")));
    }

    private static BlockScanner scannerAsTheReadmeShows(LogFilter filter, boolean scan) {
        BlockScanner scanner = BlockScanner.builder(BoundedHttp.service("http://127.0.0.1:8545")) // 120 s a call, 64 MiB an answer
                .confirmations(12)                                         // stay 12 blocks behind the head
                .checkpoints(new FileCheckpointStore(Path.of("usdc.checkpoint")))
                .build();
        if (scan) {
            ScanSummary summary = scanner.scan(filter, 21_000_000, 21_010_000, log -> System.out.println(log));
            System.err.println(summary.report());   // counts, saturation, and a plain verdict on whether skipping helped
        }
        return scanner;
    }

    @Test
    void conformanceRunner() {
        List<VectorFile> files = Suites.bundled();                         // or VectorFile.read(path)
        ConformanceReport report = ChainfilterSuites.runner().run(files);  // one SuiteExecutor per suite
        report.failures().forEach(f -> System.out.println(f.describe()));  // the first mismatch of each
        System.out.println(report.summaryLine());                          // "312 passed, 0 failed"

        assertEquals(List.of(), report.failures());
        assertTrue(report.summaryLine().matches("\\d+ passed, 0 failed"), report.summaryLine());
    }

    /** The 20-byte hash of the transaction's first pay-to-pubkey-hash output, or null. */
    private static byte[] payToPubKeyHash(Transaction tx) {
        for (var output : tx.outputs()) {
            byte[] s = output.scriptPubKey();
            if (s.length == 25 && (s[0] & 0xff) == 0x76 && (s[1] & 0xff) == 0xa9 && s[2] == 20
                    && (s[23] & 0xff) == 0x88 && (s[24] & 0xff) == 0xac) {
                return Arrays.copyOfRange(s, 3, 23);
            }
        }
        return null;
    }

    /** The BIP158 vector (Core's blockfilters.json, in the testvectors module) of the block at {@code height}. */
    private static Vector bip158Row(int height) {
        return Suites.bundled("bip158-basic.core.json").vectors().stream()
                .filter(v -> v.count("height") == height).findFirst().orElseThrow();
    }
}
