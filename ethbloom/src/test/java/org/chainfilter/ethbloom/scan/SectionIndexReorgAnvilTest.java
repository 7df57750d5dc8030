package org.chainfilter.ethbloom.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.chainfilter.common.Hex;
import org.chainfilter.ethbloom.LogFilter;
import org.chainfilter.ethbloom.LogsBloom;
import org.chainfilter.ethbloom.index.SectionIndex;
import org.chainfilter.ethbloom.index.SectionIndexWriter;
import org.chainfilter.ethbloom.scan.node.AnvilNode;
import org.chainfilter.ethbloom.scan.node.Reorg;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.http.HttpService;

/**
 * A section index built on anvil, then the chain reorganised under it ({@code evm_snapshot} before the indexed blocks,
 * {@code evm_revert} after, and a new fork whose block 21 holds a matching log where the indexed fork had none). The
 * index's candidates for the filter are the old fork's (none): trusted, they would hide the new log. The scanner checks
 * each section's last block hash against the node, does not use the stale section, tells its listener why, and finds
 * the log from the headers' blooms.
 */
@Timeout(120)
class SectionIndexReorgAnvilTest {
    private static final String TOPIC = Reorg.TOPIC;

    /** Indexes blocks 0..to of the node with their hashes, parent hashes and blooms. */
    static void index(AnvilNode node, Path dir, long to) {
        try (SectionIndexWriter writer = SectionIndexWriter.open(dir, 0)) {
            for (long n = 0; n <= to; n++) {
                JsonNode block = block(node, n);
                writer.append(n, Hex.decode(block.get("hash").asText()), Hex.decode(block.get("parentHash").asText()),
                        LogsBloom.fromHex(block.get("logsBloom").asText()));
            }
        }
    }

    private static JsonNode block(AnvilNode node, long n) {
        return node.rpc("eth_getBlockByNumber", "0x" + Long.toHexString(n), false);
    }

    private static List<String> scan(AnvilNode node, SectionIndex index, long to, List<String> notUsed) {
        List<String> logs = new ArrayList<>();
        BlockScanner.builder(new HttpService(node.url())).sectionIndex(index).listener(new ScanListener() {
            @Override
            public void onIndexSectionNotUsed(long section, String reason) {
                notUsed.add(section + ": " + reason);
            }
        }).build().scan(LogFilter.builder().topic(0, Hex.decode(TOPIC)).build(), 0, to,
                (Log log) -> logs.add(log.getBlockNumber() + " " + log.getTopics()));
        return logs;
    }

    /**
     * An index built with fewer confirmations than the scan uses: blocks 0..30 indexed while block 30 has 10
     * confirmations, the scan asks for 12 (head 40, safe head 28). Right after the scan's first header read, the node
     * reorganises blocks 29..40 (a new fork from the snapshot at 28: a reorganisation the 12 confirmations exist to
     * absorb). The blocks the scan covers, 0..28, do not change, so it must end with their log, not with a
     * ScanException: a section whose last block is beyond the safe head cannot vouch for the confirmed chain, and is
     * not used. Before, the section was checked by block 30 and failed when block 30 changed under the scan.
     */
    @Test
    void aSectionEndingAboveTheScansSafeHeadIsNotUsedAndAShallowReorganisationDoesNotFailTheScan(@TempDir Path dir)
            throws Exception {
        try (AnvilNode node = AnvilNode.start()) {
            node.rpc("anvil_mine", "0x14");
            assertEquals(21, Reorg.mineLogBlock(node));
            node.rpc("anvil_mine", "0x7");
            String snapshot = node.rpc("evm_snapshot").asText();
            node.rpc("anvil_mine", "0xc");
            assertEquals(40, Reorg.head(node));
            index(node, dir, 30);
            String indexedHash28 = Reorg.hash(node, 28);
            String indexedHash30 = Reorg.hash(node, 30);

            AtomicBoolean reorganised = new AtomicBoolean();
            AtomicInteger headerCalls = new AtomicInteger();
            HttpService service = new HttpService(node.url()) {
                @Override
                protected InputStream performIO(String request) throws IOException {
                    if (headerCalls.get() > 0 && !reorganised.getAndSet(true)) {
                        reorganiseAbove28(node, snapshot);
                    }
                    if (request.contains("eth_getBlockByNumber")) {
                        headerCalls.incrementAndGet();
                    }
                    return super.performIO(request);
                }
            };
            List<String> notUsed = new ArrayList<>();
            List<String> logs = new ArrayList<>();
            ScanSummary summary = BlockScanner.builder(service).sectionIndex(SectionIndex.open(dir)).confirmations(12)
                    .listener(new ScanListener() {
                        @Override
                        public void onIndexSectionNotUsed(long section, String reason) {
                            notUsed.add(section + ": " + reason);
                        }
                    }).build().scanToSafeHead(LogFilter.builder().topic(0, Hex.decode(TOPIC)).build(), 0,
                            (Log log) -> logs.add(log.getBlockNumber() + " " + log.getTopics()));

            assertTrue(reorganised.get(), "the node was reorganised during the scan");
            assertNotEquals(indexedHash30, Reorg.hash(node, 30));
            assertEquals(indexedHash28, Reorg.hash(node, 28));
            assertEquals(List.of("21 [" + TOPIC + "]"), logs);
            assertEquals(28, summary.lastBlock());
            assertEquals(List.of("0: its last block 30 is beyond the node's head 40 less the scan's 12 confirmations"
                    + " (block 28), so it cannot be checked against the node's confirmed chain; its blocks are decided"
                    + " by their headers"), notUsed);
        }
    }

    /** Reverts to the snapshot at block 28 and mines a new block 29 (with a log) and 30..40. */
    private static void reorganiseAbove28(AnvilNode node, String snapshot) {
        try {
            node.rpc("evm_revert", snapshot);
            assertEquals(29, Reorg.mineLogBlock(node));
            node.rpc("anvil_mine", "0xb");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aSectionBuiltOnAnAbandonedForkIsNotUsedAndTheNewForksLogIsFound(@TempDir Path dir) throws Exception {
        try (AnvilNode node = AnvilNode.start()) {
            String snapshot = Reorg.mineForkToAbandon(node);
            assertEquals(40, Reorg.head(node));
            index(node, dir, 40);
            String indexedHash40 = block(node, 40).get("hash").asText();
            SectionIndex index = SectionIndex.open(dir);
            List<String> notUsed = new ArrayList<>();
            assertEquals(List.of(), scan(node, index, 40, notUsed), "the indexed fork has no matching log");
            assertEquals(List.of(), notUsed);

            Reorg.revertWithLogInBlock21(node, snapshot);
            String expected = "21 [" + TOPIC + "]";
            // The index now reaches past the head: its section cannot be checked, so it is not used.
            assertEquals(List.of(expected), scan(node, index, 21, notUsed));
            assertEquals(List.of("0: its last block 40 is beyond the node's head 21, so it cannot be checked against"
                    + " the node's chain; its blocks are decided by their headers"), notUsed);

            node.rpc("anvil_mine", "0x13");
            assertEquals(40, Reorg.head(node));
            String newHash40 = block(node, 40).get("hash").asText();
            assertNotEquals(indexedHash40, newHash40);
            // The index's candidates are the abandoned fork's: block 21 is not among them.
            assertEquals(0, index.candidates(LogFilter.builder().topic(0, Hex.decode(TOPIC)).build(), 0, 40).length);
            notUsed.clear();
            assertEquals(List.of(expected), scan(node, index, 40, notUsed));
            assertEquals(List.of("0: block 40 has hash " + newHash40 + " on the node but " + indexedHash40 + " in the"
                    + " index: the chain was reorganised after the section was built; its blocks are decided by their"
                    + " headers (rebuild the index to use it again)"), notUsed);
        }
    }
}
