package org.chainfilter.ethbloom.scan.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.chainfilter.ethbloom.LogFilter;
import org.chainfilter.ethbloom.scan.BlockScanner;
import org.chainfilter.ethbloom.scan.BoundedHttp;
import org.chainfilter.ethbloom.scan.HeaderReader;
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
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A node too slow for some {@code eth_getLogs} queries, seen from the client: a {@link FaultProxy} in front of anvil
 * holds every HTTP request carrying such a query for {@link #STALL}, longer than the client's call timeout
 * ({@link BoundedHttp}, {@link #CALL_TIMEOUT}), so the client gives up before any answer comes, as it does when a
 * range is too heavy for the node to answer in time. A range that times out twice is split, and the narrower span is
 * kept; a batch of ranges that times out makes the scanner send its queries one per request; a single block (by
 * number or by hash) that keeps timing out ends the scan, naming the block and the timeout. Before the scanner split
 * on its own timeouts, it resent the same range until the retries ran out.
 */
@ExtendWith(AnvilChainExtension.class)
@Timeout(60)
class ClientTimeoutTest {
    private static final Duration CALL_TIMEOUT = Duration.ofMillis(300);
    private static final Duration STALL = Duration.ofMillis(700);
    private static final RetryPolicy PATIENT = RetryPolicy.of(8, Duration.ofMillis(5), Duration.ofMillis(50));
    private static final RetryPolicy SHORT = RetryPolicy.of(3, Duration.ofMillis(5), Duration.ofMillis(10));
    /** The most headers the "node" answers in one request within the call timeout. */
    private static final int ANSWERED_HEADERS = 3;
    /** The widest {@code eth_getLogs} range the "node" answers within the call timeout. */
    private static final long ANSWERED_SPAN = 10;

    /**
     * Every range wider than {@link #ANSWERED_SPAN} stalls. With the default span the first run, 0..39, goes alone: it
     * times out twice and is split, then 0..19 likewise; from then on every range is 10 blocks wide and none stalls,
     * and batches of ranges are kept. With a span of 20 the run goes as 0..19 and 20..39 in one batch, which times out
     * as a whole: that is the first timeout of each, so 0..19 sent alone and timing out is split at once, and every
     * later {@code eth_getLogs} goes in a request of its own.
     */
    @ParameterizedTest(name = "max log range {0}")
    @CsvSource({"2000, 0..39 0..19, 4, 1, false", "20, 0..19, 2, 2, true"})
    void aRangeThatTimesOutTwiceIsSplitAndTheNarrowerSpanIsKept(long maxLogRange, String firstSplits,
                                                                int stalledRequests, int firstStalledCalls,
                                                                boolean logCallsAloneAfterwards, TestChain chain)
            throws IOException {
        Stalls stalls = new Stalls(call -> FaultProxy.logRangeSpan(call) > ANSWERED_SPAN);
        try (FaultProxy proxy = new FaultProxy(chain.node().url(), stalls, STALL)) {
            List<String> splits = new CopyOnWriteArrayList<>();
            ScanSummary summary = scanEqualsNode(chain, proxy, scanner(proxy, splits).headerBatchSize(40)
                    .maxLogRangeBlocks(maxLogRange).byHashMaxRun(0));
            List<String> expectedSplits = List.of(firstSplits.split(" "));
            assertTrue(splits.size() >= expectedSplits.size(), splits::toString);
            assertEquals(expectedSplits, splits.subList(0, expectedSplits.size()), splits::toString);
            assertEquals(stalledRequests, proxy.faults(), "stalled requests");
            assertEquals(firstStalledCalls, stalls.firstStalledLogCalls, "eth_getLogs calls in the first stalled request");
            assertEquals(logCallsAloneAfterwards, stalls.logBatchesAfterFirstStall == 0,
                    "eth_getLogs batches after the first stall: " + stalls.logBatchesAfterFirstStall);
            assertEquals(splits.size(), summary.rangeSplits(), summary::report);
            assertTrue(summary.retries() >= 1, summary::report);
        }
    }

    @Test
    void otherTransientFailuresOfARangeAreRetriedNeverSplit(TestChain chain) throws IOException {
        AtomicInteger logRequests = new AtomicInteger();
        FaultProxy.Script busy = FaultProxy.Script.transports((number, body) -> {
            if (!body.toString().contains("eth_getLogs")) {
                return FaultProxy.Transport.PASS;
            }
            int n = logRequests.incrementAndGet();
            return n > 4 ? FaultProxy.Transport.PASS
                    : n % 2 == 1 ? FaultProxy.Transport.HTTP_503 : FaultProxy.Transport.HTTP_429;
        });
        try (FaultProxy proxy = new FaultProxy(chain.node().url(), busy, Duration.ZERO)) {
            List<String> splits = new CopyOnWriteArrayList<>();
            ScanSummary summary = scanEqualsNode(chain, proxy, scanner(proxy, splits).headerBatchSize(40)
                    .byHashMaxRun(0));
            assertEquals(4, proxy.faults());
            assertEquals(List.of(), splits);
            assertEquals(0, summary.rangeSplits());
            assertTrue(summary.retries() >= 4, summary::report);
        }
    }

    @Test
    void aBlockWhoseRangeKeepsTimingOutEndsTheScanNamingTheBlockAndTheTimeout(TestChain chain) throws IOException {
        long slowBlock = 5;
        Stalls stalls = new Stalls(call -> coversBlock(call, slowBlock, null));
        try (FaultProxy proxy = new FaultProxy(chain.node().url(), stalls, STALL)) {
            List<String> splits = new CopyOnWriteArrayList<>();
            BlockScanner scanner = scanner(proxy, splits).headerBatchSize(8).byHashMaxRun(0).retryPolicy(SHORT)
                    .build();
            ScanException failed = assertThrows(ScanException.class,
                    () -> scanner.scan(LogFilter.matchAll(), 0, chain.head(), log -> { }));
            assertEquals("eth_getLogs failed 3 times in a row (retry limit 3); last error: block 5: no answer within"
                    + " the client's call timeout (InterruptedIOException: timeout); one block cannot be asked for in a"
                    + " smaller piece: raise the call timeout", failed.getMessage());
            // 0..7, 4..7, 4..5: each timed out twice and was halved.
            assertEquals(List.of("0..7", "4..7", "4..5"), splits);
        }
    }

    @Test
    void aBlockAskedForByHashThatKeepsTimingOutEndsTheScanNamingTheBlockAndTheTimeout(TestChain chain)
            throws IOException {
        long slowBlock = 5;
        String hash = chain.node().rpc("eth_getBlockByNumber", "0x5", false).get("hash").asText();
        Stalls stalls = new Stalls(call -> coversBlock(call, slowBlock, hash));
        try (FaultProxy proxy = new FaultProxy(chain.node().url(), stalls, STALL)) {
            List<String> splits = new CopyOnWriteArrayList<>();
            BlockScanner scanner = scanner(proxy, splits).headerBatchSize(8).retryPolicy(SHORT).build();
            ScanException failed = assertThrows(ScanException.class,
                    () -> scanner.scan(LogFilter.matchAll(), 0, chain.head(), log -> { }));
            assertEquals("eth_getLogs failed 3 times in a row (retry limit 3); last error: block 5 by hash " + hash
                    + ": no answer within the client's call timeout (InterruptedIOException: timeout); one block"
                    + " cannot be asked for in a smaller piece: raise the call timeout", failed.getMessage());
            assertEquals(List.of(), splits);
        }
    }

    /**
     * A node that cannot answer more than {@link #ANSWERED_HEADERS} headers within the call timeout: every request
     * holding more {@code eth_getBlockByNumber} calls stalls. A batch of 16 headers times out twice and is halved, and
     * so on down to 2, which passes; the scan ends with anvil's answer. Before, the batch of 16 was sent again at the
     * same size until the retries ran out.
     */
    @Test
    void aHeaderBatchThatTimesOutTwiceIsHalvedUntilTheNodeAnswersIt(TestChain chain) throws IOException {
        FaultProxy.Script stalls = FaultProxy.Script.transports((number, body) -> headerCalls(body) > ANSWERED_HEADERS
                ? FaultProxy.Transport.DELAYED : FaultProxy.Transport.PASS);
        try (FaultProxy proxy = new FaultProxy(chain.node().url(), stalls, STALL)) {
            List<String> halvings = new CopyOnWriteArrayList<>();
            ScanSummary summary = scanEqualsNode(chain, proxy, scanner(proxy, new ArrayList<>())
                    .listener(halvingRecorder(halvings)).headerBatchSize(16).byHashMaxRun(0));
            assertEquals(List.of("16 -> 8: blocks 0..15: no answer within the client's call timeout (batch of 16:"
                    + " InterruptedIOException: timeout), twice", "8 -> 4: blocks 0..7: no answer within the client's"
                    + " call timeout (batch of 8: InterruptedIOException: timeout), twice", "4 -> 2: blocks 0..3: no"
                    + " answer within the client's call timeout (batch of 4: InterruptedIOException: timeout), twice"),
                    halvings);
            assertEquals(6, proxy.faults(), "stalled requests: two at each of 16, 8 and 4 headers");
            assertEquals(0, summary.rangeSplits(), summary::report);
            assertEquals(3, summary.retries(), "the first timeout at each size costs an attempt: " + summary.report());
            assertEquals(3, summary.batchHalvings(), summary::report);
        }
    }

    /**
     * Halving the header batches after timeouts leaves the log queries' batches whole: headers are what the node is
     * slow at. Every request of more than {@link #ANSWERED_HEADERS} headers stalls; with 16 headers a batch and every
     * block asked for by hash, a request of log queries still holds 16 calls: 8 queries, each with its witness
     * ({@code eth_getBlockByHash}, which the stall does not count as a header by number). Before, the session had one
     * batch size and sent them 2 at a time.
     */
    @Test
    void aHeaderBatchHalvedAfterTimeoutsLeavesTheLogQueryBatchesWhole(TestChain chain) throws IOException {
        AtomicInteger mostLogCalls = new AtomicInteger();
        FaultProxy.Script stalls = FaultProxy.Script.transports((number, body) -> {
            int logCalls = (int) FaultProxy.calls(body).stream()
                    .filter(call -> "eth_getLogs".equals(call.path("method").asText())).count();
            mostLogCalls.accumulateAndGet(logCalls, Math::max);
            return headerCalls(body) > ANSWERED_HEADERS ? FaultProxy.Transport.DELAYED : FaultProxy.Transport.PASS;
        });
        try (FaultProxy proxy = new FaultProxy(chain.node().url(), stalls, STALL)) {
            ScanSummary summary = scanEqualsNode(chain, proxy, scanner(proxy, new ArrayList<>()).headerBatchSize(16)
                    .byHashMaxRun(16));
            assertEquals(3, summary.batchHalvings(), summary::report);
            assertEquals(8, mostLogCalls.get(), "the most eth_getLogs calls in one request");
        }
    }

    /**
     * Every request asking for the header of block 5 stalls: its batches are halved from 8 down to 1, and block 5
     * alone times out until the retries run out; the scan, and a {@link HeaderReader}, fail naming the block and the
     * timeout.
     */
    @Test
    void aHeaderThatKeepsTimingOutEndsTheScanNamingTheBlockAndTheTimeout(TestChain chain) throws IOException {
        FaultProxy.Script stalls = FaultProxy.Script.transports((number, body) -> FaultProxy.calls(body).stream()
                .anyMatch(call -> "eth_getBlockByNumber".equals(call.path("method").asText())
                        && "0x5".equals(call.path("params").path(0).asText()))
                ? FaultProxy.Transport.DELAYED : FaultProxy.Transport.PASS);
        String expected = "eth_getBlockByNumber 0..7 failed 3 times in a row (retry limit 3); last error: block 5: no"
                + " answer within the client's call timeout (InterruptedIOException: timeout); one header cannot be"
                + " asked for in a smaller piece: raise the call timeout";
        try (FaultProxy proxy = new FaultProxy(chain.node().url(), stalls, STALL)) {
            List<String> halvings = new CopyOnWriteArrayList<>();
            BlockScanner scanner = scanner(proxy, new ArrayList<>()).listener(halvingRecorder(halvings))
                    .headerBatchSize(8).retryPolicy(SHORT).build();
            ScanException failed = assertThrows(ScanException.class,
                    () -> scanner.scan(LogFilter.matchAll(), 0, chain.head(), log -> { }));
            assertEquals(expected, failed.getMessage());
            assertEquals(List.of("8 -> 4", "4 -> 2", "2 -> 1"), halvings.stream()
                    .map(halving -> halving.substring(0, halving.indexOf(':'))).toList());

            HeaderReader reader = new HeaderReader(BoundedHttp.service(proxy.url(), CALL_TIMEOUT,
                    BoundedHttp.DEFAULT_MAX_RESPONSE_BYTES), SHORT, 8, ScanListener.NONE);
            ScanException unread = assertThrows(ScanException.class, () -> reader.blocks(0, 7));
            assertEquals(expected, unread.getMessage());
        }
    }

    /**
     * Under a policy of one attempt (no retry) a timeout cannot be waited out, but a smaller piece can still be asked
     * for: a range is split at its first timeout and a header batch halved at its first, so the scan still ends with
     * anvil's answer, with no retry. Before, the first timeout ended the scan.
     */
    @Test
    void withNoRetryARangeIsSplitAndAHeaderBatchHalvedAtTheFirstTimeout(TestChain chain) throws IOException {
        RetryPolicy once = RetryPolicy.of(1, Duration.ZERO, Duration.ZERO);
        Stalls stalls = new Stalls(call -> FaultProxy.logRangeSpan(call) > ANSWERED_SPAN);
        try (FaultProxy proxy = new FaultProxy(chain.node().url(), stalls, STALL)) {
            List<String> splits = new CopyOnWriteArrayList<>();
            ScanSummary summary = scanEqualsNode(chain, proxy, scanner(proxy, splits).headerBatchSize(40)
                    .byHashMaxRun(0).retryPolicy(once));
            assertEquals(List.of("0..39", "0..19"), splits.subList(0, 2), splits::toString);
            assertEquals(2, proxy.faults(), "stalled requests: 0..39 and 0..19, once each");
            assertEquals(0, summary.retries(), summary::report);
        }
        FaultProxy.Script headerStalls = FaultProxy.Script.transports((number, body) ->
                headerCalls(body) > ANSWERED_HEADERS ? FaultProxy.Transport.DELAYED : FaultProxy.Transport.PASS);
        try (FaultProxy proxy = new FaultProxy(chain.node().url(), headerStalls, STALL)) {
            List<String> halvings = new CopyOnWriteArrayList<>();
            ScanSummary summary = scanEqualsNode(chain, proxy, scanner(proxy, new ArrayList<>())
                    .listener(halvingRecorder(halvings)).headerBatchSize(16).byHashMaxRun(0).retryPolicy(once));
            assertEquals(List.of("16 -> 8: blocks 0..15: no answer within the client's call timeout (batch of 16:"
                    + " InterruptedIOException: timeout)", "8 -> 4: blocks 0..7: no answer within the client's call"
                    + " timeout (batch of 8: InterruptedIOException: timeout)", "4 -> 2: blocks 0..3: no answer"
                    + " within the client's call timeout (batch of 4: InterruptedIOException: timeout)"), halvings);
            assertEquals(3, proxy.faults(), "stalled requests: one at each of 16, 8 and 4 headers");
            assertEquals(0, summary.retries(), summary::report);
        }
    }

    /** The number of {@code eth_getBlockByNumber} calls in a request body. */
    private static long headerCalls(JsonNode body) {
        return FaultProxy.calls(body).stream()
                .filter(call -> "eth_getBlockByNumber".equals(call.path("method").asText())).count();
    }

    /** A listener recording each batch halving as "from -> to: problem". */
    private static ScanListener halvingRecorder(List<String> halvings) {
        return new ScanListener() {
            @Override
            public void onBatchHalved(int fromCalls, int toCalls, String problem) {
                halvings.add(fromCalls + " -> " + toCalls + ": " + problem);
            }
        };
    }

    /** A scanner through the proxy with the short call timeout, recording each range split as "first..last". */
    private static BlockScanner.Builder scanner(FaultProxy proxy, List<String> splits) {
        return BlockScanner.builder(BoundedHttp.service(proxy.url(), CALL_TIMEOUT,
                BoundedHttp.DEFAULT_MAX_RESPONSE_BYTES)).retryPolicy(PATIENT).listener(new ScanListener() {
                    @Override
                    public void onRangeSplit(long fromBlock, long toBlockInclusive, String problem) {
                        splits.add(fromBlock + ".." + toBlockInclusive);
                    }
                });
    }

    /** A match-all scan of the whole chain through the proxy, which must equal the node's own answer. */
    private static ScanSummary scanEqualsNode(TestChain chain, FaultProxy proxy, BlockScanner.Builder scanner) {
        List<String> emitted = new ArrayList<>();
        ScanSummary summary = scanner.build().scan(LogFilter.matchAll(), 0, chain.head(),
                log -> emitted.add(LogText.of(log)));
        assertEquals(ScannerFaultTest.nodeAnswer(chain.node(), List.of(), 0, chain.head()), emitted);
        assertEquals(emitted.size(), new HashSet<>(emitted).size(), "no log repeated");
        return summary;
    }

    /** Whether {@code call} is an {@code eth_getLogs} for a range holding {@code block}, or by {@code hash}. */
    private static boolean coversBlock(JsonNode call, long block, String hash) {
        if (!"eth_getLogs".equals(call.path("method").asText())) {
            return false;
        }
        JsonNode filter = call.path("params").path(0);
        if (filter.has("blockHash")) {
            return filter.get("blockHash").asText().equalsIgnoreCase(hash);
        }
        return Long.decode(filter.path("fromBlock").asText()) <= block
                && block <= Long.decode(filter.path("toBlock").asText());
    }

    /**
     * Holds (for the proxy's delay) every HTTP request holding a call that {@code slow} picks: a node that takes that
     * long to answer it, and so the whole batch it is in. Records the shape of the requests around the first stall.
     */
    private static final class Stalls implements FaultProxy.Script {
        private final Predicate<JsonNode> slow;
        volatile int firstStalledLogCalls;
        volatile int logBatchesAfterFirstStall;

        Stalls(Predicate<JsonNode> slow) {
            this.slow = slow;
        }

        @Override
        public synchronized FaultProxy.Transport transport(int number, JsonNode body) {
            List<JsonNode> calls = FaultProxy.calls(body);
            // A range goes with its witness header; what counts here is the eth_getLogs calls.
            int logCalls = (int) calls.stream().filter(c -> "eth_getLogs".equals(c.path("method").asText())).count();
            if (firstStalledLogCalls > 0 && logCalls > 1) {
                logBatchesAfterFirstStall++;
            }
            if (calls.stream().anyMatch(slow)) {
                if (firstStalledLogCalls == 0) {
                    firstStalledLogCalls = logCalls;
                }
                return FaultProxy.Transport.DELAYED;
            }
            return FaultProxy.Transport.PASS;
        }
    }
}
