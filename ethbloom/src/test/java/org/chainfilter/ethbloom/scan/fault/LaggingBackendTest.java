package org.chainfilter.ethbloom.scan.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.chainfilter.ethbloom.LogFilter;
import org.chainfilter.ethbloom.scan.BlockScanner;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.web3j.protocol.http.HttpService;

/**
 * The scanner behind a load balancer one of whose backends lags: it lacks the newest blocks, answers their headers
 * with {@code null}, a range reaching into them with {@code []} (it has no logs for blocks it does not have yet:
 * go-ethereum issue #24078), and a query by block hash for one of them with geth's and anvil's -32000 "unknown block".
 * Asked for by hash, every log arrives (the error is retried); asked for by range, every log arrives too, because each
 * range goes with an {@code eth_getBlockByNumber} of its last block in the same request, and a backend that answers
 * that with {@code null} (or another block) has its range answer set aside and asked for again.
 */
@ExtendWith(AnvilChainExtension.class)
@Timeout(60)
class LaggingBackendTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final RetryPolicy PATIENT = RetryPolicy.of(8, Duration.ofMillis(5), Duration.ofMillis(50));
    /** How many of the newest blocks the lagging backend does not have. */
    private static final long LAG = 60;

    /**
     * A round-robin load balancer over two backends: odd HTTP requests reach the backend that is up to date, even
     * ones the backend that lacks blocks {@code firstLagging} and above. Every call of a request (a batch included)
     * is answered by the backend the request reached, as load balancers route batches.
     */
    private static final class RoundRobin implements FaultProxy.Script {
        private final long firstLagging;
        private final Set<String> laggingHashes = ConcurrentHashMap.newKeySet();
        private final ThreadLocal<Boolean> toLagging = ThreadLocal.withInitial(() -> false);
        final AtomicInteger emptyRanges = new AtomicInteger();
        final AtomicInteger nullHeaders = new AtomicInteger();

        RoundRobin(TestChain chain, long firstLagging) {
            this.firstLagging = firstLagging;
            for (long n = firstLagging; n <= chain.head(); n++) {
                laggingHashes.add(chain.node().rpc("eth_getBlockByNumber", "0x" + Long.toHexString(n), false)
                        .get("hash").asText().toLowerCase(Locale.ROOT));
            }
        }

        @Override
        public FaultProxy.Transport transport(int number, JsonNode body) {
            toLagging.set(number % 2 == 0);
            return FaultProxy.Transport.PASS;
        }

        @Override
        public ObjectNode refusal(JsonNode call) {
            JsonNode hash = logFilter(call).path("blockHash");
            return toLagging.get() && hash.isTextual() && laggingHashes.contains(hash.asText().toLowerCase(Locale.ROOT))
                    ? FaultProxy.error(-32000, "unknown block") : null;
        }

        @Override
        public JsonNode result(JsonNode call) {
            if (!toLagging.get()) {
                return null;
            }
            JsonNode to = logFilter(call).path("toBlock");
            if (to.isTextual() && Long.decode(to.asText()) >= firstLagging) {
                emptyRanges.incrementAndGet();
                return JSON.createArrayNode();
            }
            if ("eth_getBlockByNumber".equals(call.path("method").asText())
                    && Long.decode(call.path("params").path(0).asText()) >= firstLagging) {
                nullHeaders.incrementAndGet();
                return JSON.nullNode();
            }
            return null;
        }
    }

    @ParameterizedTest(name = "byHashMaxRun {0}")
    @ValueSource(ints = {40, 0})
    void everyLogOfTheNewestBlocksArrivesByHashAndByRange(int byHashMaxRun, TestChain chain) throws IOException {
        String registry = chain.registries().get(0);
        LogFilter filter = ScannerFaultTest.addressFilter(registry);
        long head = chain.head();
        long firstLagging = head - LAG + 1;
        List<String> expected = ScannerFaultTest.nodeAnswer(chain.node(), List.of(registry), 0, head);
        List<String> ofLaggingBlocks = ScannerFaultTest.nodeAnswer(chain.node(), List.of(registry), firstLagging,
                head);
        assertTrue(ofLaggingBlocks.size() >= 3, "logs in the lagging blocks: " + ofLaggingBlocks.size());

        RoundRobin balancer = new RoundRobin(chain, firstLagging);
        List<String> retried = new ArrayList<>();
        try (FaultProxy proxy = new FaultProxy(chain.node().url(), balancer, Duration.ZERO)) {
            List<String> emitted = new ArrayList<>();
            ScanSummary summary = scanner(proxy).byHashMaxRun(byHashMaxRun).listener(new ScanListener() {
                @Override
                public void onRetry(String call, int failure, Duration delay, String problem) {
                    retried.add(call + ": " + problem);
                }
            }).build().scan(filter, 0, head, log -> emitted.add(LogText.of(log)));
            assertEquals(expected, emitted);
            assertTrue(balancer.nullHeaders.get() > 0 && summary.retries() > 0,
                    "null headers " + balancer.nullHeaders + ", retries " + summary.retries());
            if (byHashMaxRun == 0) {
                assertTrue(balancer.emptyRanges.get() > 0, "no range reached the lagging backend");
                assertTrue(retried.stream().anyMatch(r -> r.startsWith("eth_getLogs: block") && r.contains(
                        ": the node that answered does not have block ") && r.endsWith(
                        " yet (null header beside the range): its answer may lack that block's logs")), "" + retried);
            } else {
                assertTrue(proxy.refusals() > 0, "no query by hash reached the lagging backend");
                assertEquals(0, balancer.emptyRanges.get(), "ranges sent with byHashMaxRun " + byHashMaxRun);
            }
        }
    }

    /**
     * A backend on another fork at block {@code forked}: whenever a range ending there is asked for, the header beside
     * it names another hash, every time. The range's answer is never used, and after the retries the scan fails,
     * naming the block and both hashes.
     */
    @Test
    void aRangeAnsweredByANodeOnAnotherForkIsNotUsed(TestChain chain) throws IOException {
        long forked = 30;
        String otherHash = "0x" + "ab".repeat(32);
        FaultProxy.Script otherFork = new FaultProxy.Script() {
            @Override
            public JsonNode result(JsonNode call, JsonNode body) {
                boolean withLogs = FaultProxy.calls(body).stream()
                        .anyMatch(c -> "eth_getLogs".equals(c.path("method").asText()));
                if (!withLogs || !"eth_getBlockByNumber".equals(call.path("method").asText())
                        || Long.decode(call.path("params").path(0).asText()) != forked) {
                    return null;
                }
                ObjectNode header = (ObjectNode) chain.node().rpc("eth_getBlockByNumber",
                        "0x" + Long.toHexString(forked), false);
                return header.put("hash", otherHash);
            }
        };
        String hashRead = chain.node().rpc("eth_getBlockByNumber", "0x" + Long.toHexString(forked), false).get("hash")
                .asText();
        try (FaultProxy proxy = new FaultProxy(chain.node().url(), otherFork, Duration.ZERO)) {
            BlockScanner scanner = scanner(proxy).headerBatchSize(31).byHashMaxRun(0)
                    .retryPolicy(RetryPolicy.of(3, Duration.ZERO, Duration.ZERO)).build();
            List<String> emitted = new ArrayList<>();
            ScanException failed = assertThrows(ScanException.class,
                    () -> scanner.scan(LogFilter.matchAll(), 0, 60, log -> emitted.add(LogText.of(log))));
            assertEquals("eth_getLogs failed 3 times in a row (retry limit 3); last error: blocks 0..30: the node that"
                    + " answered has block 30 with hash " + otherHash + ", not the " + hashRead + " read in this scan:"
                    + " its answer may be of another chain", failed.getMessage());
            assertEquals(List.of(), emitted);
        }
    }

    /**
     * Headers from the lagging backend: every header but block 0's is {@code null} the first time it is asked for (the
     * backend does not have it yet; the next request reaches one that does), behind a provider that refuses batches of
     * more than 2 calls ("batch too large"). The scan's batch of 16 headers goes in rounds of 2, and each round gets
     * one header and misses the next, which comes in the next round with a new one missing: every round makes
     * progress and every round has a failure. The retry limit is for calls that keep failing; the scan counted such
     * rounds as failures in a row and ended with "eth_getBlockByNumber 0..15 failed 3 times in a row" (found by
     * {@link ScannerChaosTest}, seed 777, where header batches halved after timeouts met this backend).
     */
    @Test
    void roundsThatEachGetAHeaderAndMissTheNextDoNotExhaustTheRetries(TestChain chain) throws IOException {
        Set<Long> askedOnce = ConcurrentHashMap.newKeySet();
        FaultProxy.Script lagging = new FaultProxy.Script() {
            @Override
            public FaultProxy.Transport transport(int number, JsonNode body) {
                return body.size() > 2 ? FaultProxy.Transport.BATCH_TOO_LARGE : FaultProxy.Transport.PASS;
            }

            @Override
            public JsonNode result(JsonNode call) {
                if (!"eth_getBlockByNumber".equals(call.path("method").asText())) {
                    return null;
                }
                long number = Long.decode(call.path("params").path(0).asText());
                return number > 0 && askedOnce.add(number) ? JSON.nullNode() : null;
            }
        };
        String registry = chain.registries().get(0);
        long to = 60;
        try (FaultProxy proxy = new FaultProxy(chain.node().url(), lagging, Duration.ZERO)) {
            List<String> emitted = new ArrayList<>();
            scanner(proxy).headerBatchSize(16).retryPolicy(RetryPolicy.of(3, Duration.ZERO, Duration.ZERO)).build()
                    .scan(ScannerFaultTest.addressFilter(registry), 0, to, log -> emitted.add(LogText.of(log)));
            assertEquals(ScannerFaultTest.nodeAnswer(chain.node(), List.of(registry), 0, to), emitted);
            assertEquals(to, proxy.substitutes(), "every header but block 0's was null once");
        }
    }

    /**
     * A header that never comes (always {@code null}) among headers that are {@code null} once: the rounds that read
     * the others reset the count, and block 7, alone at last, ends the scan after the retries, named.
     */
    @Test
    void aHeaderThatNeverComesEndsTheScanAfterTheRetries(TestChain chain) throws IOException {
        Set<Long> askedOnce = ConcurrentHashMap.newKeySet();
        FaultProxy.Script lagging = new FaultProxy.Script() {
            @Override
            public JsonNode result(JsonNode call) {
                if (!"eth_getBlockByNumber".equals(call.path("method").asText())) {
                    return null;
                }
                long number = Long.decode(call.path("params").path(0).asText());
                return number == 7 || number > 0 && askedOnce.add(number) ? JSON.nullNode() : null;
            }
        };
        try (FaultProxy proxy = new FaultProxy(chain.node().url(), lagging, Duration.ZERO)) {
            BlockScanner scanner = scanner(proxy).headerBatchSize(16).retryPolicy(RetryPolicy.of(3, Duration.ZERO,
                    Duration.ZERO)).build();
            ScanException failed = assertThrows(ScanException.class,
                    () -> scanner.scan(LogFilter.matchAll(), 0, 60, log -> { }));
            assertEquals("eth_getBlockByNumber 0..15 failed 3 times in a row (retry limit 3); last error: block 7 is not"
                    + " available (null)", failed.getMessage());
        }
    }

    private static BlockScanner.Builder scanner(FaultProxy proxy) {
        return BlockScanner.builder(new HttpService(proxy.url())).headerBatchSize(40).retryPolicy(PATIENT);
    }

    /** The filter object of an {@code eth_getLogs} call; a missing node for any other call. */
    private static JsonNode logFilter(JsonNode call) {
        return "eth_getLogs".equals(call.path("method").asText()) ? call.path("params").path(0)
                : JSON.createObjectNode();
    }
}
