package org.chainfilter.ethbloom.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.chainfilter.common.Hex;
import org.chainfilter.ethbloom.LogFilter;
import org.chainfilter.ethbloom.LogsBloom;
import org.chainfilter.ethbloom.index.SectionIndex;
import org.chainfilter.ethbloom.scan.node.AnvilChainExtension;
import org.chainfilter.ethbloom.scan.node.LogText;
import org.chainfilter.ethbloom.scan.node.TestChain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.web3j.protocol.http.HttpService;

/**
 * The scanner against a real node (anvil, several hundred blocks of logs from five contracts): for many random filters
 * and ranges its answer equals anvil's own {@code eth_getLogs} over the same range, log for log, with go-ethereum's
 * trailing-wildcard rule applied to anvil's answer (anvil, like reth, ignores trailing wildcard positions; the scanner
 * follows geth, and {@link #anvilIgnoresTrailingWildcardPositionsTheScannerFollowsGeth} shows the difference).
 */
@ExtendWith(AnvilChainExtension.class)
class BlockScannerAnvilTest {
    private static final String ABSENT_ADDRESS = "0x000000000000000000000000000000000000dead";
    private static final String ABSENT_TOPIC = "0x" + "ab".repeat(32);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A filter in the JSON-RPC shape: null position = wildcard; a position may also contain null (wildcard too). */
    private record Query(List<String> addresses, List<List<String>> topics) {
        LogFilter filter() {
            List<List<byte[]>> positions = new ArrayList<>();
            for (List<String> position : topics) {
                if (position == null) {
                    positions.add(null);
                } else {
                    List<byte[]> values = new ArrayList<>();
                    position.forEach(t -> values.add(t == null ? null : Hex.decode(t)));
                    positions.add(values);
                }
            }
            return LogFilter.of(addresses.stream().map(Hex::decode).toList(), positions);
        }

        /** The node's request: a position holding a null is sent as null (geth: the whole position is a wildcard). */
        Map<String, Object> request(long from, long to) {
            Map<String, Object> request = new LinkedHashMap<>();
            request.put("fromBlock", "0x" + Long.toHexString(from));
            request.put("toBlock", "0x" + Long.toHexString(to));
            if (!addresses.isEmpty()) {
                request.put("address", addresses);
            }
            List<Object> positions = new ArrayList<>();
            for (List<String> position : topics) {
                positions.add(position == null || position.contains(null) ? null : position);
            }
            request.put("topics", positions);
            return request;
        }
    }

    @Test
    void scannerEqualsAnvilGetLogsOnRandomFiltersAndRanges(TestChain chain) {
        Random random = new Random(20261121);
        int[] batchSizes = {1, 7, 50, 100, 256};
        long[] logRanges = {1, 3, 2000};
        long logsCompared = 0;
        long skipped = 0;
        long falsePositives = 0;
        int nonEmptyAnswers = 0;
        for (int round = 0; round < 80; round++) {
            BlockScanner scanner = BlockScanner.builder(new HttpService(chain.node().url()))
                    .headerBatchSize(batchSizes[round % batchSizes.length])
                    .maxLogRangeBlocks(logRanges[round % logRanges.length]).build();
            ScanSummary summary = scanOnceAndCompare(chain, random, round % 10 == 0, scanner);
            assertEquals(0, summary.unknownBloomBlocks());
            logsCompared += summary.logsEmitted();
            skipped += summary.blocksSkippedByBloom();
            falsePositives += summary.falsePositiveBlocks();
            nonEmptyAnswers += summary.logsEmitted() == 0 ? 0 : 1;
        }
        // The comparison means something only if many logs were compared and the blooms both skipped and misled.
        assertTrue(logsCompared > 1000, "logs compared: " + logsCompared);
        assertTrue(nonEmptyAnswers > 30, "non-empty answers: " + nonEmptyAnswers);
        assertTrue(skipped > 1000, "blocks skipped: " + skipped);
        assertTrue(falsePositives > 0, "false-positive blocks: " + falsePositives);
    }

    /**
     * The same random filters over the whole chain, the logs asked for by range only ({@code byHashMaxRun(0)}), by
     * hash for runs of at most 16 candidates (the default), and by hash only: each answer equals anvil's own
     * {@code eth_getLogs} over the whole range. The calls sent are counted, so that each mode is known to have asked
     * the way it says.
     */
    @Test
    void byHashAndByRangeGiveAnvilsOwnAnswer(TestChain chain) {
        Random random = new Random(234);
        int[] modes = {0, BlockScanner.Builder.DEFAULT_BY_HASH_MAX_RUN, BlockScanner.Builder.MAX_HEADER_BATCH_SIZE};
        long[][] calls = new long[modes.length][2];
        long logsCompared = 0;
        for (int round = 0; round < 12; round++) {
            Query query = round == 0 ? new Query(List.of(), List.of()) : randomQuery(random, chain);
            List<String> expected = anvilLogs(chain, query, 0, chain.head());
            logsCompared += expected.size();
            for (int m = 0; m < modes.length; m++) {
                CountingService service = new CountingService(chain.node().url());
                List<String> actual = new ArrayList<>();
                BlockScanner.builder(service).byHashMaxRun(modes[m]).build()
                        .scan(query.filter(), 0, chain.head(), log -> actual.add(LogText.of(log)));
                assertEquals(expected, actual, "filter " + query + ", byHashMaxRun " + modes[m]);
                calls[m][0] += service.byHash;
                calls[m][1] += service.byRange;
            }
        }
        assertTrue(logsCompared > 1000, "logs compared: " + logsCompared);
        assertEquals(0, calls[0][0], "by-hash calls with byHashMaxRun 0");
        assertTrue(calls[1][0] > 0 && calls[1][1] > 0, "the default asks by hash and by range: " + calls[1][0]
                + " by hash, " + calls[1][1] + " by range");
        assertEquals(0, calls[2][1], "range calls with byHashMaxRun " + modes[2]);
    }

    /** An HTTP service that counts the {@code eth_getLogs} calls it sends by block hash and by range. */
    private static final class CountingService extends HttpService {
        long byHash;
        long byRange;

        CountingService(String url) {
            super(url);
        }

        @Override
        protected InputStream performIO(String request) throws IOException {
            JsonNode sent = JSON.readTree(request);
            for (JsonNode call : sent.isArray() ? sent : List.of(sent)) {
                if (call.path("method").asText().equals("eth_getLogs")) {
                    if (call.path("params").path(0).has("blockHash")) {
                        byHash++;
                    } else {
                        byRange++;
                    }
                }
            }
            return super.performIO(request);
        }
    }

    @Test
    void aSectionIndexOfTheChainGivesTheSameAnswersWithFewerHeadersRead(TestChain chain, @TempDir Path dir) {
        long indexed = 2 * chain.head() / 3;
        SectionIndexReorgAnvilTest.index(chain.node(), dir, indexed - 1);
        SectionIndex index = SectionIndex.open(dir);
        assertEquals(indexed, index.indexedBlockCount());
        Random random = new Random(5);
        long skippedByIndex = 0;
        BlockScanner scanner = BlockScanner.builder(new HttpService(chain.node().url())).sectionIndex(index)
                .headerBatchSize(64).build();
        for (int round = 0; round < 30; round++) {
            skippedByIndex += scanOnceAndCompare(chain, random, round % 3 == 0, scanner).blocksSkippedByIndex();
        }
        assertTrue(skippedByIndex > 500, "blocks skipped by the index: " + skippedByIndex);
    }

    @Test
    void anvilIgnoresTrailingWildcardPositionsTheScannerFollowsGeth(TestChain chain) {
        Query fourPositions = new Query(List.of(), Arrays.asList(null, null, null, null));
        List<JsonNode> anvil = rawLogs(chain, fourPositions.request(0, chain.head()));
        List<String> scanned = new ArrayList<>();
        BlockScanner.builder(new HttpService(chain.node().url())).build()
                .scan(fourPositions.filter(), 0, chain.head(), log -> scanned.add(LogText.of(log)));

        Set<Integer> anvilTopicCounts = new HashSet<>();
        anvil.forEach(log -> anvilTopicCounts.add(LogText.topicCount(log)));
        assertEquals(Set.of(0, 1, 2, 3, 4), anvilTopicCounts, "anvil returns logs with fewer than 4 topics");
        List<String> fourTopicLogs = anvil.stream().filter(log -> LogText.topicCount(log) == 4).map(LogText::of).toList();
        assertTrue(fourTopicLogs.size() > 10 && fourTopicLogs.size() < anvil.size());
        assertEquals(fourTopicLogs, scanned);
    }

    @Test
    void headerBloomsEqualTheBloomOfTheBlocksLogs(TestChain chain) {
        Map<Long, LogsBloom.Builder> byBlock = new LinkedHashMap<>();
        for (JsonNode log : rawLogs(chain, Map.of("fromBlock", "0x0", "toBlock", "0x" + Long.toHexString(chain.head())))) {
            List<byte[]> topics = new ArrayList<>();
            log.get("topics").forEach(t -> topics.add(Hex.decode(t.asText())));
            byBlock.computeIfAbsent(Long.decode(log.get("blockNumber").asText()), n -> LogsBloom.builder())
                    .addLog(Hex.decode(log.get("address").asText()), topics);
        }
        int saturatedBlocks = 0;
        for (long n = 0; n <= chain.head(); n++) {
            LogsBloom header = LogsBloom.fromHex(chain.node().rpc("eth_getBlockByNumber", "0x" + Long.toHexString(n),
                    false).get("logsBloom").asText());
            LogsBloom.Builder logs = byBlock.get(n);
            assertEquals(logs == null ? LogsBloom.EMPTY : logs.build(), header, "block " + n);
            saturatedBlocks += header.saturation() > 0.5 ? 1 : 0;
        }
        assertTrue(byBlock.size() > 200, "blocks with logs: " + byBlock.size());
        assertTrue(byBlock.size() < chain.head(), "the chain also has empty blocks");
        assertTrue(saturatedBlocks > 0, "the bursts fill some blooms beyond half");
    }

    @Test
    void aMatchAllFilterFetchesEveryBlockAndSaysBloomsCannotHelp(TestChain chain) {
        List<String> scanned = new ArrayList<>();
        ScanSummary summary = BlockScanner.builder(new HttpService(chain.node().url())).build()
                .scan(LogFilter.matchAll(), 0, chain.head(), log -> scanned.add(LogText.of(log)));
        List<String> expected = rawLogs(chain, Map.of("fromBlock", "0x0", "toBlock", "0x" + Long.toHexString(
                chain.head()))).stream().map(LogText::of).toList();
        assertEquals(expected, scanned);
        assertEquals(0, summary.blocksSkippedByBloom());
        assertTrue(summary.verdict().contains("matches every log"), summary.verdict());
    }

    /**
     * One random filter over one random range (to the head when {@code toHead}): the scanner's logs must equal
     * anvil's, and every block of the range must be accounted for once.
     */
    private static ScanSummary scanOnceAndCompare(TestChain chain, Random random, boolean toHead, BlockScanner scanner) {
        Query query = randomQuery(random, chain);
        long from = random.nextInt((int) chain.head() + 1);
        long to = toHead ? chain.head() : from + random.nextInt((int) (chain.head() - from) + 1);
        List<String> expected = anvilLogs(chain, query, from, to);
        List<String> actual = new ArrayList<>();
        ScanSummary summary = scanner.scan(query.filter(), from, to, log -> actual.add(LogText.of(log)));
        assertEquals(expected, actual, "filter " + query + " over " + from + ".." + to);
        assertEquals(to - from + 1, summary.blocksScanned());
        assertEquals(to, summary.lastBlock());
        assertEquals(summary.blocksScanned(), summary.blocksSkippedByBloom() + summary.candidateBlocks());
        assertEquals(expected.size(), summary.logsEmitted());
        return summary;
    }

    private static Query randomQuery(Random random, TestChain chain) {
        List<String> addresses = new ArrayList<>();
        int addressCount = random.nextInt(4);
        for (int i = 0; i < addressCount; i++) {
            addresses.add(random.nextInt(8) == 0 ? ABSENT_ADDRESS : pick(random, chain.emitters()));
        }
        List<List<String>> topics = new ArrayList<>();
        int positions = random.nextInt(5);
        for (int p = 0; p < positions; p++) {
            int kind = random.nextInt(10);
            if (kind < 3) {
                topics.add(null);
                continue;
            }
            List<String> alternatives = new ArrayList<>();
            int count = 1 + random.nextInt(3);
            for (int i = 0; i < count; i++) {
                alternatives.add(randomTopic(random, p));
            }
            if (kind == 3) {
                alternatives.add(null);
            }
            topics.add(alternatives);
        }
        return new Query(addresses, topics);
    }

    private static String randomTopic(Random random, int position) {
        int kind = random.nextInt(10);
        if (kind == 0) {
            return ABSENT_TOPIC;
        }
        if (position == 0 && kind < 8) {
            return TestChain.topic0(pick(random, TestChain.EVENT_SIGNATURES));
        }
        return kind < 5 ? pick(random, TestChain.WORDS) : TestChain.addressTopic(pick(random, TestChain.PARTIES));
    }

    /** anvil's eth_getLogs with go-ethereum's rule applied: a log needs at least as many topics as positions. */
    private static List<String> anvilLogs(TestChain chain, Query query, long from, long to) {
        return rawLogs(chain, query.request(from, to)).stream()
                .filter(log -> LogText.topicCount(log) >= query.topics().size()).map(LogText::of).toList();
    }

    private static List<JsonNode> rawLogs(TestChain chain, Map<String, Object> request) {
        List<JsonNode> logs = new ArrayList<>();
        chain.node().rpc("eth_getLogs", request).forEach(logs::add);
        return logs;
    }

    private static <T> T pick(Random random, List<T> values) {
        return values.get(random.nextInt(values.size()));
    }
}
