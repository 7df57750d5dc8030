package org.chainfilter.ethbloom.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.chainfilter.common.Hex;
import org.chainfilter.ethbloom.LogFilter;
import org.chainfilter.ethbloom.LogsBloom;
import org.chainfilter.ethbloom.index.SectionIndex;
import org.chainfilter.ethbloom.index.SectionIndexWriter;
import org.chainfilter.ethbloom.scan.FakeProvider.FakeLog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.web3j.protocol.http.HttpService;

/**
 * The scanner over a section index of several 4,096-block sections, on a fake provider of 9,000 blocks: each section
 * is checked against the node on its own, so a reorganisation after the index was built that replaced blocks of a
 * later section (and every block after them) leaves the earlier sections in use and sends the scanner to the headers
 * for the rest, where the new fork's log is found. Indexes whose first block is 0 and 1,000 (sections not aligned to
 * multiples of 4,096), and scans that start inside a section.
 */
class BlockScannerSectionIndexTest {
    private static final int BLOCKS = 9000;
    private static final LogFilter TOPIC_9 = LogFilter.builder().topic(0, FakeProvider.topic(9)).build();
    /** Matches a few percent of the blocks, so the index skips most of each section. */
    private static final LogFilter ADDRESS_4_TOPIC_5 = LogFilter.builder().address(FakeProvider.address(4))
            .topic(0, FakeProvider.topic(5)).build();
    private static final FakeLog TOPIC_9_LOG = new FakeLog(FakeProvider.address(0), List.of(FakeProvider.topic(9)));

    private final FakeProvider provider = new FakeProvider(FakeProvider.chain(BLOCKS, 23));

    @AfterEach
    void stop() {
        provider.close();
    }

    private SectionIndex index(Path dir, int first) {
        try (SectionIndexWriter writer = SectionIndexWriter.open(dir, first)) {
            for (int n = first; n < BLOCKS; n++) {
                String parent = n == 0 ? FakeProvider.hash(0, 99) : provider.chain.get(n - 1).hash;
                writer.append(n, Hex.decode(provider.chain.get(n).hash), Hex.decode(parent),
                        LogsBloom.fromHex(provider.chain.get(n).logsBloom));
            }
        }
        return SectionIndex.open(dir);
    }

    /** Scans with the index; returns the logs, and adds "section: reason up to its first colon" to {@code notUsed}. */
    private ScanSummary scan(SectionIndex index, LogFilter filter, long from, long to, List<String> logs,
                             List<String> notUsed) {
        return BlockScanner.builder(new HttpService(provider.url())).headerBatchSize(500).sectionIndex(index)
                .retryPolicy(RetryPolicy.of(3, Duration.ofMillis(1), Duration.ofMillis(1)))
                .listener(new ScanListener() {
                    @Override
                    public void onIndexSectionNotUsed(long section, String reason) {
                        notUsed.add(section + ": " + reason.substring(0, reason.indexOf(':')));
                    }
                }).build().scan(filter, from, to, log -> logs.add(log.getBlockNumber() + "/" + log.getLogIndex()));
    }

    @Test
    void aReorganisationInALaterSectionLeavesTheEarlierInUseAndItsLogIsFoundFromTheHeaders(@TempDir Path dir) {
        SectionIndex index = index(dir, 0);
        assertEquals(3, index.sectionCount());
        List<String> logs = new ArrayList<>();
        List<String> notUsed = new ArrayList<>();
        ScanSummary before = scan(index, ADDRESS_4_TOPIC_5, 0, BLOCKS - 1, logs, notUsed);
        assertEquals(provider.expectedLogs(ADDRESS_4_TOPIC_5, 0, BLOCKS - 1), logs);
        assertTrue(logs.size() > 100, "matching logs: " + logs.size());
        assertEquals(List.of(), notUsed);
        assertTrue(before.blocksSkippedByIndex() > 8000, before::report);
        assertEquals(BLOCKS, before.blocksScanned());

        // Blocks 5000.. (section 1 from its middle, and section 2) replaced; block 5000 of the new fork holds the
        // only TOPIC_9 log of the chain, which the index, built from the old fork, rules out.
        provider.reorganise(5000, 1, 5000, TOPIC_9_LOG);
        List<String> found = new ArrayList<>();
        ScanSummary after = scan(index, TOPIC_9, 0, BLOCKS - 1, found, notUsed);
        assertEquals(List.of("5000/" + (provider.chain.get(5000).logs.size() - 1)), found);
        assertEquals(provider.expectedLogs(TOPIC_9, 0, BLOCKS - 1), found);
        assertEquals(List.of("1: block 8191 has hash " + FakeProvider.hash(8191, 1) + " on the node but "
                + FakeProvider.hash(8191, 0) + " in the index", "2: block 8999 has hash " + FakeProvider.hash(8999, 1)
                + " on the node but " + FakeProvider.hash(8999, 0) + " in the index"), notUsed);
        assertEquals(4096, after.blocksSkippedByIndex(), "section 0 only: " + after.report());
        assertEquals(BLOCKS, after.blocksScanned());
    }

    @Test
    void sectionsOfAnIndexFromBlock1000EndAt5095And8999AndScansMayStartInsideOne(@TempDir Path dir) {
        SectionIndex index = index(dir, 1000);
        assertEquals(2, index.sectionCount());
        assertEquals(5095, index.lastBlockOf(0));
        for (long from : new long[] {0, 3000, 5095, 7000}) {
            List<String> logs = new ArrayList<>();
            List<String> notUsed = new ArrayList<>();
            ScanSummary summary = scan(index, ADDRESS_4_TOPIC_5, from, BLOCKS - 1, logs, notUsed);
            assertEquals(provider.expectedLogs(ADDRESS_4_TOPIC_5, from, BLOCKS - 1), logs, "from " + from);
            assertEquals(List.of(), notUsed, "from " + from);
            assertEquals(BLOCKS - from, summary.blocksScanned(), "from " + from);
        }

        provider.reorganise(6000, 1, 6000, TOPIC_9_LOG);
        for (long from : new long[] {0, 5500}) {
            List<String> found = new ArrayList<>();
            List<String> notUsed = new ArrayList<>();
            ScanSummary summary = scan(index, TOPIC_9, from, BLOCKS - 1, found, notUsed);
            assertEquals(List.of("6000/" + (provider.chain.get(6000).logs.size() - 1)), found, "from " + from);
            assertEquals(List.of("1: block 8999 has hash " + FakeProvider.hash(8999, 1) + " on the node but "
                    + FakeProvider.hash(8999, 0) + " in the index"), notUsed, "from " + from);
            assertEquals(Math.max(0, 5096 - Math.max(from, 1000)), summary.blocksSkippedByIndex(),
                    "from " + from + ": " + summary.report());
        }
    }

    /**
     * Blocks 900.. are replaced after the header batches of 0..999 were read, by a fork whose block 950 holds a TOPIC_9
     * log, and the index of 1000.. was built on that fork: the index's own check (its sections' last hashes) passes on
     * the node of now, so only the first indexed block's parent shows that the batches before were read on the old
     * fork. The scan must stop there, as it does without an index, not finish without the log of block 950.
     */
    @Test
    void aReorganisationBetweenAHeaderBatchAndAnIndexSectionIsReported(@TempDir Path dir) {
        try (SectionIndexWriter writer = SectionIndexWriter.open(dir, 1000)) {
            for (int n = 1000; n < BLOCKS; n++) {
                writer.append(n, Hex.decode(FakeProvider.hash(n, 1)), Hex.decode(FakeProvider.hash(n - 1, 1)),
                        LogsBloom.fromHex(provider.chain.get(n).logsBloom));
            }
        }
        SectionIndex index = SectionIndex.open(dir);
        List<String> logs = new ArrayList<>();
        ScanException e = assertThrows(ScanException.class, () -> BlockScanner.builder(
                new HttpService(provider.url())).headerBatchSize(500).sectionIndex(index)
                .retryPolicy(RetryPolicy.of(3, Duration.ofMillis(1), Duration.ofMillis(1)))
                .listener(new ScanListener() {
                    @Override
                    public void onProgress(ScanSummary soFar) {
                        if (soFar.lastBlock() == 999) {
                            provider.reorganise(900, 1, 950, TOPIC_9_LOG);
                        }
                    }
                }).build().scan(TOPIC_9, 0, BLOCKS - 1,
                        log -> logs.add(log.getBlockNumber() + "/" + log.getLogIndex())));
        assertEquals("block 1000 has parent hash " + FakeProvider.hash(999, 1) + " but block 999 was read with hash "
                + FakeProvider.hash(999, 0) + ": the chain reorganised during the scan; use more confirmations",
                e.getMessage());
        assertEquals(999, e.summarySoFar().orElseThrow().lastBlock());
        assertEquals(List.of("950/" + (provider.chain.get(950).logs.size() - 1)),
                provider.expectedLogs(TOPIC_9, 0, BLOCKS - 1), "the log the scan would have lost");
    }
}
