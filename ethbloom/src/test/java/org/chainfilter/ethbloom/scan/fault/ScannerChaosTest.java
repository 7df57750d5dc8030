package org.chainfilter.ethbloom.scan.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.chainfilter.common.Hex;
import org.chainfilter.ethbloom.LogFilter;
import org.chainfilter.ethbloom.LogsBloom;
import org.chainfilter.ethbloom.index.SectionIndex;
import org.chainfilter.ethbloom.index.SectionIndexWriter;
import org.chainfilter.ethbloom.scan.BlockScanner;
import org.chainfilter.ethbloom.scan.BoundedHttp;
import org.chainfilter.ethbloom.scan.FileCheckpointStore;
import org.chainfilter.ethbloom.scan.RetryPolicy;
import org.chainfilter.ethbloom.scan.ScanException;
import org.chainfilter.ethbloom.scan.ScanListener;
import org.chainfilter.ethbloom.scan.ScanSummary;
import org.chainfilter.ethbloom.scan.node.AnvilChainExtension;
import org.chainfilter.ethbloom.scan.node.LogText;
import org.chainfilter.ethbloom.scan.node.TestChain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

/**
 * Every fault the scanner claims to survive, at once: per seed, a {@link FaultProxy} in front of anvil draws for each
 * HTTP request and each JSON-RPC call from HTTP 429 and 503, HTML and truncated bodies, batch answers reversed or
 * missing their last call, batches refused as geth refuses them above its batch limit, rate-limit errors, range
 * refusals above a random span (in the texts of geth, Infura and other providers), geth's and anvil's "unknown block"
 * or "header not found" for a query by block hash the first time it is seen, stalls longer than the client's call timeout ({@link BoundedHttp}) for requests
 * whose {@code eth_getLogs} calls span more than a random number of blocks (geth answers a batch's calls one after
 * the other, so a batch costs the sum of its calls) or, in half the seeds, that hold more than a random number of
 * headers (so that header batches are halved after timeouts), and a round-robin load balancer that sends a quarter of
 * the requests to a backend lacking the newest blocks, which answers every call of such a request as it would: a
 * {@code null} header for those blocks, "unknown block" for one of them asked for by hash, and {@code []} for any range
 * that reaches them (go-ethereum issue #24078). The scan's output over the whole chain must equal anvil's own
 * {@code eth_getLogs}, log for log and in order; in some runs the consumer fails once, mid-block, and the scan is
 * resumed from its checkpoint; in half of them a section index of the first two thirds of the chain decides which
 * headers are read there (candidates only, in batches that skip blocks).
 *
 * <p>Filters: an address only, a topic only, addresses and topic alternatives (with {@code byHashMaxRun} = the header
 * batch size, all by hash, in some seeds behind the lagging backend, or a short {@code byHashMaxRun}, so that a batch
 * mixes ranges and queries by hash), and match-all with {@code byHashMaxRun} 0 (all ranges; behind the lagging
 * backend in some seeds, where only the header sent beside each range tells its {@code []} from no logs). Each message
 * names the seed and the scenario; {@code -Dchainfilter.chaos.seeds=S} runs one seed alone. A seed fixes the
 * scenario (filter, settings, limits) and the fault draws in the order the proxy makes them; a request held past the
 * call timeout draws for its calls when the hold ends, among the draws of later requests, so a rerun under another
 * load can differ in which call gets which fault (the scanner is what must not care).
 */
@ExtendWith(AnvilChainExtension.class)
@Timeout(120)
class ScannerChaosTest {
    private static final Duration CALL_TIMEOUT = Duration.ofMillis(300);
    private static final Duration STALL = CALL_TIMEOUT.plusMillis(200);
    private static final RetryPolicy PATIENT = RetryPolicy.of(10, Duration.ofMillis(2), Duration.ofMillis(20));
    private static final long[] SEEDS = {7, 1921, 40077, 311, 5, 86, 23456, 1000003, 64, 777, 2026, 9};

    /**
     * The filter kinds, in the order the seeds take them (seed i: kind i mod 4; the filters of seeds 4 to 7 go without
     * the lagging backend, with a short {@code byHashMaxRun}).
     */
    private enum Kind { ADDRESS, TOPIC, ADDRESS_AND_TOPICS, MATCH_ALL }

    /**
     * The seeds of {@link #SEEDS}, or those of {@code -Dchainfilter.chaos.seeds=S1,S2,...} (to rerun one, or to explore
     * more): a seed of the list takes the settings of its place in it, any other those of place {@code seed mod 12}.
     */
    @Test
    void everyFaultAtOnceLosesAndRepeatsNoLog(TestChain chain, @TempDir Path dir) throws IOException {
        String chosen = System.getProperty("chainfilter.chaos.seeds", "");
        List<Long> seeds = new ArrayList<>();
        for (String seed : chosen.split(",")) {
            if (!seed.isBlank()) {
                seeds.add(Long.parseLong(seed.strip()));
            }
        }
        if (seeds.isEmpty()) {
            Arrays.stream(SEEDS).forEach(seeds::add);
        }
        Path indexDirectory = dir.resolve("index");
        buildIndex(chain, indexDirectory, 2 * chain.head() / 3);
        SectionIndex index = SectionIndex.open(indexDirectory);
        Map<String, Integer> injected = new LinkedHashMap<>();
        int resumedRuns = 0;
        for (long seed : seeds) {
            int place = (int) Math.floorMod(seed, (long) SEEDS.length);
            for (int i = 0; i < SEEDS.length; i++) {
                place = SEEDS[i] == seed ? i : place;
            }
            Scenario scenario = Scenario.of(seed, Kind.values()[place % 4], place / 4 != 1, place % 3 == 0,
                    place % 2 == 1, chain);
            resumedRuns += run(chain, scenario, scenario.indexed ? index : null,
                    dir.resolve("seed-" + seed + ".checkpoint"), injected);
        }
        if (chosen.isBlank()) {
            // The runs test the interactions only if every fault happened somewhere.
            for (String fault : List.of("HTTP_429", "HTTP_503", "GARBAGE_BODY", "TRUNCATED_BODY", "REORDERED_BATCH",
                    "DROPPED_ANSWER", "BATCH_TOO_LARGE", "stall", "range refused", "rate limited",
                    "unknown by hash", "null header", "range split", "lagging block asked for by hash",
                    "lagging range answered []",
                    "ranges and queries by hash in one batch", "header stall", "batch halved after timeouts",
                    "blocks skipped by the index")) {
                assertTrue(injected.getOrDefault(fault, 0) > 0, "never injected or seen: " + fault + " " + injected);
            }
            assertTrue(resumedRuns >= 2, "runs resumed after a consumer failure: " + resumedRuns);
        }
    }

    /**
     * One seed: scans the whole chain through a proxy of its own and compares with anvil's answer.
     *
     * @return 1 if the consumer failed once and the scan was resumed from the checkpoint, else 0
     */
    private static int run(TestChain chain, Scenario scenario, SectionIndex index, Path checkpointFile,
                           Map<String, Integer> injected) throws IOException {
        List<String> expected = scenario.anvilLogs(chain);
        assertTrue(expected.size() > 5, scenario + ": anvil's answer has " + expected.size() + " logs");
        Chaos chaos = new Chaos(scenario, chain);
        int resumed = 0;
        try (FaultProxy proxy = new FaultProxy(chain.node().url(), chaos, STALL)) {
            List<String> emitted = new ArrayList<>();
            AtomicInteger splits = new AtomicInteger();
            AtomicInteger halvedAfterTimeouts = new AtomicInteger();
            ArrayDeque<String> retries = new ArrayDeque<>();
            BlockScanner.Builder builder = BlockScanner.builder(BoundedHttp.service(proxy.url(), CALL_TIMEOUT,
                    BoundedHttp.DEFAULT_MAX_RESPONSE_BYTES));
            if (index != null) {
                builder.sectionIndex(index);
            }
            BlockScanner scanner = builder.headerBatchSize(scenario.headerBatch)
                    .maxLogRangeBlocks(scenario.maxLogRange).byHashMaxRun(scenario.byHashMaxRun)
                    .retryPolicy(PATIENT).checkpoints(new FileCheckpointStore(checkpointFile))
                    .listener(new ScanListener() {
                        @Override
                        public void onRangeSplit(long fromBlock, long toBlockInclusive, String problem) {
                            splits.incrementAndGet();
                        }

                        @Override
                        public void onRetry(String call, int failure, Duration delay, String problem) {
                            retries.add(call + " failure " + failure + ": " + problem);
                            if (retries.size() > 12) {
                                retries.removeFirst();
                            }
                        }

                        @Override
                        public void onBatchHalved(int fromCalls, int toCalls, String problem) {
                            halvedAfterTimeouts.addAndGet(problem.contains("call timeout") ? 1 : 0);
                        }
                    }).build();
            LogFilter filter = scenario.filter();
            ScanSummary summary;
            if (scenario.failingLog >= 0) {
                int failAt = scenario.failingLog;
                RuntimeException failure = assertThrows(RuntimeException.class, () -> scanner.scan(filter, 0,
                        chain.head(), log -> {
                            if (emitted.size() == failAt) {
                                throw new IllegalStateException("consumer failure at log " + failAt);
                            }
                            emitted.add(LogText.of(log));
                        }), scenario + ": the consumer's failure ends the scan");
                assertEquals("consumer failure at log " + failAt, failure.getMessage(), scenario + "; the last retries: "
                        + retries);
                // The failing block's logs already taken come again on resume (at-least-once for that block only).
                long failingBlock = blockOf(expected.get(failAt));
                emitted.removeIf(line -> blockOf(line) == failingBlock);
                int kept = emitted.size();
                summary = scan(scenario, scanner, filter, chain.head(), emitted, retries);
                assertTrue(summary.resumed(), scenario + ": the second scan resumes from the checkpoint");
                // The checkpoint is past the last block whose logs were all taken, and not past the failing one.
                long lastTaken = kept == 0 ? -1 : blockOf(emitted.get(kept - 1));
                assertTrue(summary.firstBlock() > lastTaken && summary.firstBlock() <= failingBlock, scenario
                        + ": resumed at block " + summary.firstBlock() + ", last block taken " + lastTaken
                        + ", failing block " + failingBlock);
                assertEquals(expected.subList(0, kept), emitted.subList(0, kept), scenario + ": before the failure");
                resumed = 1;
            } else {
                summary = scan(scenario, scanner, filter, chain.head(), emitted, retries);
            }
            assertEquals(expected, emitted, scenario + ": the scan's logs against anvil's eth_getLogs; "
                    + chaos.injected + ", " + summary.report());
            assertEquals(emitted.size(), new HashSet<>(emitted).size(), scenario + ": no log repeated");
            assertEquals(chain.head(), summary.lastBlock(), scenario + ": scanned to the head");
            assertTrue(proxy.faults() > 0 && proxy.refusals() > 0, scenario + ": faults " + proxy.faults()
                    + ", refusals " + proxy.refusals());
            chaos.count("range split", splits.get());
            chaos.count("batch halved after timeouts", halvedAfterTimeouts.get());
            chaos.count("blocks skipped by the index", (int) summary.blocksSkippedByIndex());
            chaos.injected.forEach((fault, count) -> injected.merge(fault, count, Integer::sum));
        }
        return resumed;
    }

    /** A section index of blocks {@code 0..last}, from the node's headers (not through the proxy). */
    private static void buildIndex(TestChain chain, Path directory, long last) {
        try (SectionIndexWriter writer = SectionIndexWriter.open(directory, 0)) {
            for (long n = 0; n <= last; n++) {
                JsonNode block = chain.node().rpc("eth_getBlockByNumber", "0x" + Long.toHexString(n), false);
                writer.append(n, Hex.decode(block.get("hash").asText()), Hex.decode(block.get("parentHash").asText()),
                        LogsBloom.fromHex(block.get("logsBloom").asText()));
            }
        }
    }

    /** A scan from block 0 that adds to {@code emitted}; a failure names the scenario and the last retries. */
    private static ScanSummary scan(Scenario scenario, BlockScanner scanner, LogFilter filter, long head,
                                    List<String> emitted, ArrayDeque<String> retries) {
        try {
            return scanner.scan(filter, 0, head, log -> emitted.add(LogText.of(log)));
        } catch (ScanException e) {
            throw new AssertionFailedError(scenario + ": the scan failed: " + e.getMessage() + "; the last retries: "
                    + retries, e);
        }
    }

    private static long blockOf(String logLine) {
        return Long.parseLong(logLine.substring(0, logLine.indexOf(' ')));
    }

    /**
     * What one seed draws: the filter, the scanner's settings and the fault plan's limits.
     *
     * @param lagBlocks    how many of the newest blocks the lagging backend lacks (0: no lagging backend)
     * @param refusedSpan  the widest {@code eth_getLogs} range the provider accepts
     * @param stalledSpan  the most blocks the {@code eth_getLogs} calls of one request may span without stalling
     * @param batchLimit   the most calls a JSON-RPC batch may hold (geth's batch limit)
     * @param stalledHeaders the most {@code eth_getBlockByNumber} calls one request may hold without stalling
     * @param failingLog   the index of the log at which the consumer fails once, or -1
     * @param indexed      whether the scan has a section index of the first two thirds of the chain
     */
    private record Scenario(long seed, Kind kind, List<String> addresses, List<List<String>> topics, int headerBatch,
                            long maxLogRange, int byHashMaxRun, long lagBlocks, long refusedSpan, long stalledSpan,
                            int batchLimit, int stalledHeaders, int failingLog, boolean indexed) {
        static Scenario of(long seed, Kind kind, boolean lagging, boolean consumerFails, boolean indexed,
                           TestChain chain) {
            return of(seed, seed, kind, lagging, consumerFails, indexed, chain);
        }

        /** The scenario of {@code seed}, drawn from {@code draw} (the seed itself, or a redraw of it). */
        private static Scenario of(long draw, long seed, Kind kind, boolean lagging, boolean consumerFails,
                                   boolean indexed, TestChain chain) {
            SplittableRandom random = new SplittableRandom(draw);
            List<String> addresses = new ArrayList<>();
            List<List<String>> topics = new ArrayList<>();
            if (kind == Kind.ADDRESS || kind == Kind.ADDRESS_AND_TOPICS) {
                addresses.add(pick(random, chain.emitters()));
                if (random.nextBoolean()) {
                    addresses.add(pick(random, chain.emitters()));
                }
            }
            if (kind == Kind.TOPIC) {
                topics.add(List.of(TestChain.topic0(pick(random, TestChain.EVENT_SIGNATURES))));
            } else if (kind == Kind.ADDRESS_AND_TOPICS) {
                topics.add(List.of(TestChain.topic0(pick(random, TestChain.EVENT_SIGNATURES)),
                        TestChain.topic0(pick(random, TestChain.EVENT_SIGNATURES))));
                if (random.nextBoolean()) {
                    topics.add(null);
                    topics.add(List.of(TestChain.addressTopic(pick(random, TestChain.PARTIES)),
                            pick(random, TestChain.WORDS)));
                }
            }
            // Drawn again until anvil has a few logs for it: a filter that matches nothing would test little.
            if (kind != Kind.MATCH_ALL && new Scenario(seed, kind, addresses, topics, 1, 1, 0, 0, 1, 1, 1, 1, -1, false)
                    .anvilLogs(chain).size() < 10) {
                return of(random.nextLong(), seed, kind, lagging, consumerFails, indexed, chain);
            }
            int headerBatch = new int[] {16, 25, 40}[random.nextInt(3)];
            boolean lags = lagging;
            int byHashMaxRun = kind == Kind.MATCH_ALL ? 0 : lags && random.nextBoolean() ? headerBatch
                    : 1 + random.nextInt(3);
            Scenario drawn = new Scenario(seed, kind, addresses, topics, headerBatch,
                    kind == Kind.MATCH_ALL || random.nextBoolean() ? 2000 : 8 + random.nextInt(40), byHashMaxRun,
                    lags ? 20 + random.nextInt(60) : 0,
                    // Match-all asks for whole batches as ranges: some must be refused.
                    3 + random.nextInt(kind == Kind.MATCH_ALL ? headerBatch - 3 : 30),
                    2 + random.nextInt(kind == Kind.MATCH_ALL ? 20 : 10),
                    4 + random.nextInt(30), random.nextBoolean() ? Integer.MAX_VALUE : 3 + random.nextInt(12), -1, indexed);
            if (!consumerFails) {
                return drawn;
            }
            int logs = drawn.anvilLogs(chain).size();
            return new Scenario(seed, kind, addresses, topics, headerBatch, drawn.maxLogRange, byHashMaxRun,
                    drawn.lagBlocks, drawn.refusedSpan, drawn.stalledSpan, drawn.batchLimit, drawn.stalledHeaders,
                    logs / 4 + random.nextInt(Math.max(1, logs / 2)), indexed);
        }

        LogFilter filter() {
            LogFilter.Builder builder = LogFilter.builder();
            addresses.forEach(address -> builder.address(Hex.decode(address)));
            for (int p = 0; p < topics.size(); p++) {
                if (topics.get(p) == null) {
                    builder.anyTopic(p);
                } else {
                    builder.topic(p, topics.get(p).stream().map(Hex::decode).toArray(byte[][]::new));
                }
            }
            return builder.build();
        }

        /**
         * anvil's own {@code eth_getLogs} over the whole chain, with go-ethereum's rule that a log needs at least as
         * many topics as the filter has positions (anvil ignores trailing wildcards; the scanner follows geth).
         */
        List<String> anvilLogs(TestChain chain) {
            Map<String, Object> request = new LinkedHashMap<>();
            request.put("fromBlock", "0x0");
            request.put("toBlock", "0x" + Long.toHexString(chain.head()));
            if (!addresses.isEmpty()) {
                request.put("address", addresses);
            }
            request.put("topics", topics);
            List<String> logs = new ArrayList<>();
            chain.node().rpc("eth_getLogs", request).forEach(log -> {
                if (LogText.topicCount(log) >= topics.size()) {
                    logs.add(LogText.of(log));
                }
            });
            return logs;
        }

        @Override
        public String toString() {
            return "seed " + seed + " (" + kind + " " + addresses + " " + topics + ", header batch " + headerBatch
                    + ", max log range " + maxLogRange + ", byHashMaxRun " + byHashMaxRun + ", lagging "
                    + lagBlocks + " blocks, ranges refused above " + refusedSpan + " blocks, requests stalled above "
                    + stalledSpan + " blocks of eth_getLogs or " + stalledHeaders + " headers, batches refused above "
                    + batchLimit + " calls"
                    + (failingLog >= 0 ? ", consumer fails at log " + failingLog : "")
                    + (indexed ? ", section index of the first two thirds" : "") + ")";
        }
    }

    /** The fault plan of one seed; also counts what it injected, by fault. */
    private static final class Chaos implements FaultProxy.Script {
        private static final FaultProxy.Transport[] NOISE = {FaultProxy.Transport.HTTP_429,
            FaultProxy.Transport.HTTP_503, FaultProxy.Transport.GARBAGE_BODY, FaultProxy.Transport.TRUNCATED_BODY,
            FaultProxy.Transport.REORDERED_BATCH, FaultProxy.Transport.DROPPED_ANSWER};
        private static final List<ObjectNode> RANGE_REFUSALS = List.of(
                FaultProxy.error(-32005, "query returned more than 10000 results. Try with this block range"
                        + " [0x0, 0x10]."),
                FaultProxy.error(-32000, "block range too large"),
                FaultProxy.error(-32000, "exceed maximum block range: 10"));

        private final Scenario scenario;
        private final SplittableRandom random;
        private final long firstLagging;
        private final Set<String> seenByHash = new HashSet<>();
        /** Whether the request this thread is answering reached the lagging backend. */
        private final ThreadLocal<Boolean> toLagging = ThreadLocal.withInitial(() -> false);
        /** The hashes of the blocks the lagging backend lacks, in lower case. */
        private final Set<String> laggingHashes = new HashSet<>();
        final Map<String, Integer> injected = new LinkedHashMap<>();

        Chaos(Scenario scenario, TestChain chain) {
            this.scenario = scenario;
            this.random = new SplittableRandom(scenario.seed * 31 + 17);
            this.firstLagging = scenario.lagBlocks == 0 ? Long.MAX_VALUE : chain.head() - scenario.lagBlocks + 1;
            for (long n = firstLagging; n <= chain.head(); n++) {
                laggingHashes.add(chain.node().rpc("eth_getBlockByNumber", "0x" + Long.toHexString(n), false)
                        .get("hash").asText().toLowerCase(Locale.ROOT));
            }
        }

        void count(String fault, int times) {
            injected.merge(fault, times, Integer::sum);
        }

        @Override
        public synchronized FaultProxy.Transport transport(int number, JsonNode body) {
            List<JsonNode> calls = FaultProxy.calls(body);
            // The node's time for a request is the sum of its calls' (geth answers a batch's calls one after the
            // other); a range the provider refuses costs none.
            long logSpan = 0;
            int headers = 0;
            boolean byHash = false;
            boolean byRange = false;
            for (JsonNode call : calls) {
                long span = FaultProxy.logRangeSpan(call);
                logSpan += refusedAsRange(call, span) ? 0 : span;
                headers += "eth_getBlockByNumber".equals(call.path("method").asText()) ? 1 : 0;
                byHash |= logFilter(call).has("blockHash");
                byRange |= logFilter(call).has("fromBlock");
            }
            if (byHash && byRange) {
                count("ranges and queries by hash in one batch", 1);
            }
            // A round-robin load balancer: a quarter of the requests, every call of each, reach the lagging backend.
            toLagging.set(scenario.lagBlocks > 0 && random.nextInt(4) == 0);
            // A batch above the limit is refused before the node works on it.
            FaultProxy.Transport transport = FaultProxy.Transport.PASS;
            if (calls.size() > 1 && calls.size() > scenario.batchLimit) {
                transport = FaultProxy.Transport.BATCH_TOO_LARGE;
            } else if (logSpan > scenario.stalledSpan) {
                count("stall", 1);
                return FaultProxy.Transport.DELAYED;
            } else if (headers > scenario.stalledHeaders) {
                count("header stall", 1);
                return FaultProxy.Transport.DELAYED;
            } else if (random.nextInt(6) == 0) {
                transport = NOISE[random.nextInt(NOISE.length)];
            } else if (random.nextInt(400) == 0) {
                count("stall", 1);
                return FaultProxy.Transport.DELAYED;
            }
            if (transport != FaultProxy.Transport.PASS) {
                count(transport.name(), 1);
            }
            return transport;
        }

        @Override
        public synchronized ObjectNode refusal(JsonNode call) {
            JsonNode filter = logFilter(call);
            long span = FaultProxy.logRangeSpan(call);
            if (refusedAsRange(call, span)) {
                count("range refused", 1);
                return RANGE_REFUSALS.get(random.nextInt(RANGE_REFUSALS.size()));
            }
            if (filter.has("blockHash")) {
                String hash = filter.get("blockHash").asText().toLowerCase(Locale.ROOT);
                boolean lacking = toLagging.get() && laggingHashes.contains(hash);
                // The lagging backend lacks the block; any backend may not have indexed a block it just got.
                if (lacking || seenByHash.add(hash)) {
                    count(lacking ? "lagging block asked for by hash" : "unknown by hash", 1);
                    return random.nextBoolean() ? FaultProxy.error(-32000, "unknown block")
                            : FaultProxy.error(-32000, "header not found");
                }
            }
            if (random.nextInt(25) == 0) {
                count("rate limited", 1);
                return FaultProxy.error(-32005, "daily request count exceeded, request rate limited");
            }
            return null;
        }

        @Override
        public synchronized JsonNode result(JsonNode call) {
            if (!toLagging.get()) {
                return null;
            }
            JsonNode filter = logFilter(call);
            if (filter.has("toBlock") && Long.decode(filter.get("toBlock").asText()) >= firstLagging) {
                count("lagging range answered []", 1);
                return JsonNodeFactory.instance.arrayNode();
            }
            if ("eth_getBlockByNumber".equals(call.path("method").asText())
                    && Long.decode(call.path("params").path(0).asText()) >= firstLagging) {
                count("null header", 1);
                return NullNode.instance;
            }
            return null;
        }

        private boolean refusedAsRange(JsonNode call, long span) {
            return span > scenario.refusedSpan && logFilter(call).has("fromBlock");
        }

        private static JsonNode logFilter(JsonNode call) {
            return "eth_getLogs".equals(call.path("method").asText()) ? call.path("params").path(0)
                    : JsonNodeFactory.instance.objectNode();
        }
    }

    private static <T> T pick(SplittableRandom random, List<T> values) {
        return values.get(random.nextInt(values.size()));
    }
}
