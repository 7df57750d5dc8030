package org.chainfilter.ethbloom.scan.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import okhttp3.OkHttpClient;
import org.chainfilter.common.Hex;
import org.chainfilter.ethbloom.LogFilter;
import org.chainfilter.ethbloom.scan.BlockScanner;
import org.chainfilter.ethbloom.scan.FileCheckpointStore;
import org.chainfilter.ethbloom.scan.RetryPolicy;
import org.chainfilter.ethbloom.scan.ScanException;
import org.chainfilter.ethbloom.scan.ScanListener;
import org.chainfilter.ethbloom.scan.ScanSummary;
import org.chainfilter.ethbloom.scan.node.AnvilChainExtension;
import org.chainfilter.ethbloom.scan.node.AnvilNode;
import org.chainfilter.ethbloom.scan.node.LogText;
import org.chainfilter.ethbloom.scan.node.TestChain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.web3j.protocol.http.HttpService;

/**
 * The block scanner against a real node (anvil, the shared test chain of about 420 blocks) behind a
 * {@link FaultProxy} on 127.0.0.1 that behaves like a hostile provider and network: range limits (-32005 "query
 * returned more than 10000 results", -32602 "Log response size exceeded"), rate limits (HTTP 429, -32005 "request
 * rate limited"), 503s, HTML and truncated bodies, batch answers reordered or missing one, responses slower than the
 * client's read timeout, and the node killed and restarted. Every scan must end with exactly anvil's own
 * {@code eth_getLogs} answer over the same range: nothing lost, nothing repeated, in chain order. Each test is
 * bounded in requests (the scripts fault a fixed share of them) and in time ({@link Timeout}).
 */
@ExtendWith(AnvilChainExtension.class)
@Timeout(60)
class ScannerFaultTest {
    private static final RetryPolicy PATIENT = RetryPolicy.of(8, Duration.ofMillis(5), Duration.ofMillis(50));

    @Test
    void rangeLimitsAreSplitUntilTheProviderAccepts(TestChain chain) throws IOException {
        FaultProxy.Script limits = new FaultProxy.Script() {
            @Override
            public ObjectNode refusal(JsonNode call) {
                long span = FaultProxy.logRangeSpan(call);
                if (span > 40) {
                    return FaultProxy.error(-32005, "query returned more than 10000 results. Try with this block"
                            + " range [0x1, 0x28].");
                }
                if (span > 12) {
                    return FaultProxy.error(-32602, "Log response size exceeded. You can make eth_getLogs requests"
                            + " with up to a 2K block range and no limit on the response size");
                }
                return null;
            }
        };
        try (FaultProxy proxy = new FaultProxy(chain.node().url(), limits, Duration.ZERO)) {
            ScanSummary summary = scanEqualsNode(chain, proxy, LogFilter.matchAll(), List.of(), 0, chain.head(),
                    PATIENT);
            assertTrue(proxy.refusals() > 0 && summary.rangeSplits() > 0, "refusals " + proxy.refusals());
        }
    }

    /**
     * A provider that answers every JSON-RPC batch of more than 10 calls as geth does above its batch limit (-32600
     * "batch too large"): the batches of 40 headers are halved to 20, then 10, the summary counts both halvings as the
     * listener heard them, and the answer is anvil's own.
     */
    @Test
    void batchLimitsHalveTheBatchAndTheSummaryCountsEachHalving(TestChain chain) throws IOException {
        FaultProxy.Script limit = FaultProxy.Script.transports((number, body) -> body.size() > 10
                ? FaultProxy.Transport.BATCH_TOO_LARGE : FaultProxy.Transport.PASS);
        try (FaultProxy proxy = new FaultProxy(chain.node().url(), limit, Duration.ZERO)) {
            List<String> halvings = new CopyOnWriteArrayList<>();
            List<String> emitted = new ArrayList<>();
            ScanSummary summary = BlockScanner.builder(new HttpService(proxy.url())).headerBatchSize(40)
                    .retryPolicy(PATIENT).listener(new ScanListener() {
                        @Override
                        public void onBatchHalved(int fromCalls, int toCalls, String problem) {
                            halvings.add(fromCalls + " -> " + toCalls + ": " + problem);
                        }
                    }).build()
                    .scan(LogFilter.matchAll(), 0, chain.head(), log -> emitted.add(LogText.of(log)));
            assertEquals(nodeAnswer(chain.node(), List.of(), 0, chain.head()), emitted);
            assertEquals(List.of("40 -> 20: batch of 40 refused: error -32600: batch too large",
                    "20 -> 10: batch of 20 refused: error -32600: batch too large"), halvings);
            assertEquals(2, summary.batchHalvings(), summary::report);
            assertEquals(0, summary.retries(), "a refused batch is resent smaller, not retried: " + summary.report());
            assertTrue(summary.report().contains("retries 0, range splits 0, batch halvings 2"), summary::report);
            assertEquals(2, proxy.faults(), "batches refused: one of 40 headers, one of 20");
        }
    }

    @Test
    void rateLimitsAndServerErrorsAreWaitedOut(TestChain chain) throws IOException {
        FaultProxy.Script limited = new FaultProxy.Script() {
            @Override
            public FaultProxy.Transport transport(int number, JsonNode body) {
                return number % 3 == 0 ? FaultProxy.Transport.HTTP_429
                        : number % 7 == 0 ? FaultProxy.Transport.HTTP_503 : FaultProxy.Transport.PASS;
            }

            @Override
            public ObjectNode refusal(JsonNode call) {
                return call.get("id").asLong() % 5 == 0
                        ? FaultProxy.error(-32005, "daily request count exceeded, request rate limited") : null;
            }
        };
        String source = chain.eventSources().get(0);
        try (FaultProxy proxy = new FaultProxy(chain.node().url(), limited, Duration.ZERO)) {
            ScanSummary summary = scanEqualsNode(chain, proxy, addressFilter(source), List.of(source), 0,
                    chain.head(), PATIENT);
            assertTrue(proxy.faults() > 0 && proxy.refusals() > 0 && summary.retries() > 0,
                    "faults " + proxy.faults() + ", refusals " + proxy.refusals());
        }
    }

    @Test
    void truncatedMalformedReorderedAndIncompleteAnswersAreRetried(TestChain chain) throws IOException {
        FaultProxy.Script broken = FaultProxy.Script.transports((number, body) -> {
            switch (number % 11) {
                case 2:
                    return FaultProxy.Transport.TRUNCATED_BODY;
                case 5:
                    return FaultProxy.Transport.GARBAGE_BODY;
                case 7:
                    return FaultProxy.Transport.REORDERED_BATCH;
                case 9:
                    return FaultProxy.Transport.DROPPED_ANSWER;
                default:
                    return FaultProxy.Transport.PASS;
            }
        });
        String registry = chain.registries().get(0);
        try (FaultProxy proxy = new FaultProxy(chain.node().url(), broken, Duration.ZERO)) {
            scanEqualsNode(chain, proxy, addressFilter(registry), List.of(registry), 0, chain.head(), PATIENT);
            assertTrue(proxy.faults() >= 4, "faults " + proxy.faults());
        }
    }

    @Test
    void responsesSlowerThanTheReadTimeoutAreRetried(TestChain chain) throws IOException {
        FaultProxy.Script slow = FaultProxy.Script.transports((number, body) -> number == 2 || number == 5
                || number == 6 ? FaultProxy.Transport.DELAYED : FaultProxy.Transport.PASS);
        List<String> sources = List.of(chain.eventSources().get(0), chain.eventSources().get(2));
        try (FaultProxy proxy = new FaultProxy(chain.node().url(), slow, Duration.ofMillis(1500))) {
            OkHttpClient impatient = new OkHttpClient.Builder().readTimeout(Duration.ofMillis(400)).build();
            List<String> emitted = new ArrayList<>();
            ScanSummary summary = BlockScanner.builder(new HttpService(proxy.url(), impatient)).headerBatchSize(50)
                    .retryPolicy(PATIENT).build()
                    .scan(addressFilter(sources.toArray(new String[0])), 0, chain.head(),
                            log -> emitted.add(LogText.of(log)));
            assertEquals(nodeAnswer(chain.node(), sources, 0, chain.head()), emitted);
            assertTrue(summary.retries() >= 3, "retries " + summary.retries());
        }
    }

    @Test
    void theNodeKilledAndRestartedBehindTheProxyLosesAndRepeatsNothing(TestChain chain, @TempDir Path dir)
            throws IOException {
        List<String> sources = List.of(chain.eventSources().get(0), chain.eventSources().get(1));
        try (AnvilNode node = AnvilNode.start(chain.dumpState(dir.resolve("chain.json")))) {
            Path state = node.dumpState(dir.resolve("node.json"));
            FaultProxy.Script outage = FaultProxy.Script.beforeEachForward(number -> {
                if (number == 4) {
                    node.kill();
                } else if (number == 7) {
                    node.restart(state);
                }
            });
            try (FaultProxy proxy = new FaultProxy(node.url(), outage, Duration.ZERO)) {
                ScanSummary summary = scanEqualsNode(chain, proxy, addressFilter(sources.toArray(new String[0])),
                        sources, 0, chain.head(), PATIENT);
                assertTrue(summary.retries() >= 3, "retries " + summary.retries());
            }
        }
    }

    @Test
    void anOutageLongerThanTheRetriesStopsTheScanAndTheCheckpointResumesIt(TestChain chain, @TempDir Path dir)
            throws IOException {
        List<String> sources = List.of(chain.eventSources().get(2));
        LogFilter filter = addressFilter(sources.get(0));
        List<String> expected = nodeAnswer(chain.node(), sources, 0, chain.head());
        FileCheckpointStore checkpoint = new FileCheckpointStore(dir.resolve("scan.checkpoint"));
        try (AnvilNode node = AnvilNode.start(chain.dumpState(dir.resolve("chain.json")))) {
            Path state = node.dumpState(dir.resolve("node.json"));
            FaultProxy.Script outage = FaultProxy.Script.beforeEachForward(number -> {
                if (number == 6) {
                    node.kill();
                }
            });
            List<String> emitted = new ArrayList<>();
            try (FaultProxy proxy = new FaultProxy(node.url(), outage, Duration.ZERO)) {
                BlockScanner scanner = BlockScanner.builder(new HttpService(proxy.url())).headerBatchSize(40)
                        .checkpoints(checkpoint).retryPolicy(RetryPolicy.of(3, Duration.ofMillis(5),
                                Duration.ofMillis(10))).build();
                ScanException stopped = assertThrows(ScanException.class,
                        () -> scanner.scan(filter, 0, chain.head(), log -> emitted.add(LogText.of(log))));
                assertTrue(stopped.getMessage().contains("failed 3 times in a row"), stopped.getMessage());
                assertTrue(emitted.size() < expected.size(), "emitted " + emitted.size() + " before the outage");

                node.restart(state);
                ScanSummary resumed = scanner.scan(filter, 0, chain.head(), log -> emitted.add(LogText.of(log)));
                assertTrue(resumed.resumed());
            }
            assertEquals(expected, emitted);
            assertEquals(emitted.size(), new HashSet<>(emitted).size(), "no log repeated");
        }
    }

    @Test
    void randomFaultsOverRandomFiltersAndRanges(TestChain chain) throws IOException {
        SplittableRandom random = new SplittableRandom(8);
        FaultProxy.Transport[] kinds = FaultProxy.Transport.values();
        FaultProxy.Script chaos = new FaultProxy.Script() {
            @Override
            public synchronized FaultProxy.Transport transport(int number, JsonNode body) {
                return random.nextInt(4) == 0 ? kinds[1 + random.nextInt(kinds.length - 1)] : FaultProxy.Transport.PASS;
            }

            @Override
            public synchronized ObjectNode refusal(JsonNode call) {
                long span = FaultProxy.logRangeSpan(call);
                if (span > 25 && random.nextBoolean()) {
                    return FaultProxy.error(-32602, "Requested range exceeds maximum range limit");
                }
                return random.nextInt(10) == 0 ? FaultProxy.error(-32005, "request rate limited") : null;
            }
        };
        try (FaultProxy proxy = new FaultProxy(chain.node().url(), chaos, Duration.ofMillis(20))) {
            for (int round = 0; round < 4; round++) {
                List<String> emitters = chain.emitters();
                List<String> chosen = new ArrayList<>();
                for (String emitter : emitters) {
                    if (random.nextInt(3) == 0) {
                        chosen.add(emitter);
                    }
                }
                long from = random.nextLong(chain.head() / 2);
                long to = from + random.nextLong(chain.head() - from + 1);
                LogFilter filter = chosen.isEmpty() ? LogFilter.matchAll()
                        : addressFilter(chosen.toArray(new String[0]));
                scanEqualsNode(chain, proxy, filter, chosen, from, to, PATIENT);
            }
            assertTrue(proxy.faults() > 0 && proxy.refusals() > 0,
                    "faults " + proxy.faults() + ", refusals " + proxy.refusals());
        }
    }

    /** Scans through the proxy and checks the answer is the node's own, log for log. */
    private static ScanSummary scanEqualsNode(TestChain chain, FaultProxy proxy, LogFilter filter,
                                              List<String> addresses, long from, long to, RetryPolicy retries) {
        List<String> emitted = new ArrayList<>();
        ScanSummary summary = BlockScanner.builder(new HttpService(proxy.url())).headerBatchSize(40)
                .retryPolicy(retries).build()
                .scan(filter, from, to, log -> emitted.add(LogText.of(log)));
        List<String> expected = nodeAnswer(chain.node(), addresses, from, to);
        assertEquals(expected, emitted);
        assertEquals(emitted.size(), new HashSet<>(emitted).size(), "no log repeated");
        return summary;
    }

    /** The node's own {@code eth_getLogs} over {@code from..to} for these addresses (none = every log). */
    static List<String> nodeAnswer(AnvilNode node, List<String> addresses, long from, long to) {
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("fromBlock", "0x" + Long.toHexString(from));
        request.put("toBlock", "0x" + Long.toHexString(to));
        if (!addresses.isEmpty()) {
            request.put("address", addresses);
        }
        List<String> logs = new ArrayList<>();
        node.rpc("eth_getLogs", request).forEach(log -> logs.add(LogText.of(log)));
        return logs;
    }

    static LogFilter addressFilter(String... addresses) {
        List<byte[]> decoded = new ArrayList<>();
        for (String address : addresses) {
            decoded.add(Hex.decode(address));
        }
        return LogFilter.builder().address(decoded.toArray(new byte[0][])).build();
    }
}
