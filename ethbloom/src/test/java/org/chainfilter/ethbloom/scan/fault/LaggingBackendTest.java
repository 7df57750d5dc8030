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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.chainfilter.ethbloom.LogFilter;
import org.chainfilter.ethbloom.scan.BlockScanner;
import org.chainfilter.ethbloom.scan.RetryPolicy;
import org.chainfilter.ethbloom.scan.ScanException;
import org.chainfilter.ethbloom.scan.ScanSummary;
import org.chainfilter.ethbloom.scan.node.AnvilChainExtension;
import org.chainfilter.ethbloom.scan.node.LogText;
import org.chainfilter.ethbloom.scan.node.TestChain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.web3j.protocol.http.HttpService;

/**
 * The scanner behind a load balancer one of whose backends lags: headers come from the backend that is up to date, the
 * {@code eth_getLogs} calls from the one that is not. That backend answers a range reaching into the newest blocks with
 * {@code []} (it has no logs for blocks it does not have yet: go-ethereum issue #24078), and a query by block hash
 * for a block it does not have with geth's and anvil's -32000 "unknown block", once per block (it then catches up).
 * Asked for by hash, every log arrives; asked for by range, the newest blocks' logs are lost without a word, which is
 * what the scanner did before it asked by hash.
 */
@ExtendWith(AnvilChainExtension.class)
@Timeout(60)
class LaggingBackendTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final RetryPolicy PATIENT = RetryPolicy.of(8, Duration.ofMillis(5), Duration.ofMillis(50));
    /** How many of the newest blocks the lagging backend does not have. */
    private static final long LAG = 60;

    @Test
    void byHashEveryLogOfTheNewestBlocksArrivesByRangeTheyAreLost(TestChain chain) throws IOException {
        String registry = chain.registries().get(0);
        LogFilter filter = ScannerFaultTest.addressFilter(registry);
        long head = chain.head();
        long firstLagging = head - LAG + 1;
        List<String> expected = ScannerFaultTest.nodeAnswer(chain.node(), List.of(registry), 0, head);
        List<String> ofLaggingBlocks = ScannerFaultTest.nodeAnswer(chain.node(), List.of(registry), firstLagging,
                head);
        assertTrue(ofLaggingBlocks.size() >= 3, "logs in the lagging blocks: " + ofLaggingBlocks.size());

        Set<String> unknownOnce = ConcurrentHashMap.newKeySet();
        FaultProxy.Script lagging = new FaultProxy.Script() {
            @Override
            public ObjectNode refusal(JsonNode call) {
                JsonNode hash = logFilter(call).path("blockHash");
                return hash.isTextual() && unknownOnce.add(hash.asText())
                        ? FaultProxy.error(-32000, "unknown block") : null;
            }

            @Override
            public JsonNode result(JsonNode call) {
                JsonNode to = logFilter(call).path("toBlock");
                return to.isTextual() && Long.decode(to.asText()) >= firstLagging ? JSON.createArrayNode() : null;
            }
        };
        try (FaultProxy proxy = new FaultProxy(chain.node().url(), lagging, Duration.ZERO)) {
            List<String> byHash = new ArrayList<>();
            ScanSummary summary = scanner(proxy).build().scan(filter, 0, head, log -> byHash.add(LogText.of(log)));
            assertEquals(expected, byHash);
            assertTrue(proxy.refusals() > 0 && summary.retries() > 0,
                    "unknown block answered " + proxy.refusals() + " times, retries " + summary.retries());

            List<String> byRange = new ArrayList<>();
            scanner(proxy).byHashMaxRun(0).build().scan(filter, 0, head, log -> byRange.add(LogText.of(log)));
            assertTrue(proxy.substitutes() > 0, "no range reached the lagging blocks");
            List<String> lost = new ArrayList<>(expected);
            lost.removeAll(byRange);
            assertTrue(!lost.isEmpty() && ofLaggingBlocks.containsAll(lost), "lost by range: " + lost);
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
