package org.chainfilter.ethbloom.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.chainfilter.ethbloom.LogFilter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.web3j.protocol.core.BatchRequest;
import org.web3j.protocol.core.BatchResponse;
import org.web3j.protocol.core.Request;
import org.web3j.protocol.core.Response;
import org.web3j.protocol.core.methods.response.EthBlockNumber;
import org.web3j.protocol.http.HttpService;

/**
 * {@link BlockScanner.Session}: the scans of one session share what they learned of the provider's limits, and a
 * cancelled session sends and retries nothing, not even after a wait before a retry that has begun.
 */
class BlockScannerSessionTest {
    private static final LogFilter ADDRESS_1_OR_3 = LogFilter.builder()
            .address(FakeProvider.address(1), FakeProvider.address(3)).build();
    private static final Duration WAIT = Duration.ofSeconds(60);

    private final FakeProvider provider = new FakeProvider(FakeProvider.chain(300, 11));

    @AfterEach
    void stop() {
        provider.close();
    }

    private BlockScanner.Builder scanner() {
        return BlockScanner.builder(new HttpService(provider.url()))
                .retryPolicy(RetryPolicy.of(5, Duration.ofMillis(1), Duration.ofMillis(1)));
    }

    @Test
    void theScansOfASessionLearnARefusedBatchSizeOnceWhereSeparateScansLearnItEachTime() {
        provider.maxBatch = 10;
        BlockScanner scanner = scanner().headerBatchSize(100).build();
        BlockScanner.Session session = scanner.session();
        List<String> logs = new ArrayList<>();
        ScanSummary first = session.scan(ADDRESS_1_OR_3, 0, 149, log -> logs.add(log.getBlockNumber() + "/"
                + log.getLogIndex()));
        assertEquals(4, first.batchHalvings(), "100 → 50 → 25 → 12 → 6");
        provider.batchSizes.clear();
        ScanSummary second = session.scan(ADDRESS_1_OR_3, 150, 299, log -> logs.add(log.getBlockNumber() + "/"
                + log.getLogIndex()));
        assertEquals(0, second.batchHalvings(), second::report);
        assertTrue(provider.batchSizes.stream().allMatch(size -> size <= 6), provider.batchSizes::toString);
        assertEquals(provider.expectedLogs(ADDRESS_1_OR_3, 0, 299), logs);

        assertEquals(4, scanner.scan(ADDRESS_1_OR_3, 0, 149, log -> { }).batchHalvings());
        assertEquals(4, scanner.scan(ADDRESS_1_OR_3, 150, 299, log -> { }).batchHalvings(),
                "a scan outside a session starts from the builder's batch size");
    }

    @Test
    void theScansOfASessionLearnARefusedRangeSpanOnce() {
        provider.limitLogRange(4, -32005, "query returned more than 10000 results. Try with this block range"
                + " [0x1, 0x4].");
        BlockScanner.Session session = scanner().byHashMaxRun(0).build().session();
        ScanSummary first = session.scan(LogFilter.matchAll(), 0, 99, log -> { });
        assertTrue(first.rangeSplits() > 0, first::report);
        int refused = provider.refusedRanges.get();
        List<String> logs = new ArrayList<>();
        ScanSummary second = session.scan(LogFilter.matchAll(), 100, 299, log -> logs.add(log.getBlockNumber() + "/"
                + log.getLogIndex()));
        assertEquals(0, second.rangeSplits(), second::report);
        assertEquals(refused, provider.refusedRanges.get(), "no range refused in the second scan");
        assertEquals(provider.expectedLogs(LogFilter.matchAll(), 100, 299), logs);
    }

    @Test
    void aCancelledSessionSendsNothing() {
        AtomicInteger calls = new AtomicInteger();
        HttpService counting = new HttpService(provider.url()) {
            @Override
            public <T extends Response> T send(Request request, Class<T> type) throws IOException {
                calls.incrementAndGet();
                return super.send(request, type);
            }

            @Override
            public BatchResponse sendBatch(BatchRequest batch) throws IOException {
                calls.incrementAndGet();
                return super.sendBatch(batch);
            }
        };
        BlockScanner.Session session = BlockScanner.builder(counting).build().session();
        session.scan(ADDRESS_1_OR_3, 0, 9, log -> { });
        int before = calls.get();
        session.cancel();
        assertTrue(session.isCancelled());
        ScanCancelledException e = assertThrows(ScanCancelledException.class,
                () -> session.scan(ADDRESS_1_OR_3, 10, 19, log -> { }));
        assertEquals("the scan was cancelled before eth_blockNumber was sent", e.getMessage());
        assertEquals(before, calls.get());
    }

    /**
     * Batch size 1: the calls of a round go one after the other, and a cancel between two of them (here during a log
     * query's witness header) sends no more: the query itself is not sent.
     */
    @Test
    void aCancelBetweenTheCallsOfARoundSentOneByOneSendsNoMore() {
        AtomicReference<BlockScanner.Session> session = new AtomicReference<>();
        List<String> sentAfterCancel = new CopyOnWriteArrayList<>();
        HttpService cancelling = new HttpService(provider.url()) {
            @Override
            public <T extends Response> T send(Request request, Class<T> type) throws IOException {
                if (session.get().isCancelled()) {
                    sentAfterCancel.add(request.getMethod());
                }
                if (request.getMethod().equals("eth_getBlockByHash")) {
                    session.get().cancel();
                }
                return super.send(request, type);
            }
        };
        session.set(BlockScanner.builder(cancelling).headerBatchSize(1).build().session());
        ScanCancelledException e = assertThrows(ScanCancelledException.class,
                () -> session.get().scan(ADDRESS_1_OR_3, 0, 9, log -> { }));
        assertEquals("the scan was cancelled before eth_getLogs was sent", e.getMessage());
        assertEquals(List.of(), sentAfterCancel);
    }

    /**
     * A node that refuses connections, a policy that waits an hour before its first retry: cancelling ends the wait
     * and the scan at once, with the failure it had, instead of an hour later.
     */
    @Test
    void cancelEndsAWaitBeforeARetryAndRetriesNothing() throws Exception {
        String url;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            url = "http://127.0.0.1:" + socket.getLocalPort();
        }
        CountDownLatch waiting = new CountDownLatch(1);
        AtomicInteger retries = new AtomicInteger();
        BlockScanner.Session session = BlockScanner.builder(new HttpService(url))
                .retryPolicy(RetryPolicy.of(7, Duration.ofHours(1), Duration.ofHours(1)))
                .listener(new ScanListener() {
                    @Override
                    public void onRetry(String call, int failure, Duration delay, String problem) {
                        retries.incrementAndGet();
                        waiting.countDown();
                    }
                }).build().session();
        CompletableFuture<ScanSummary> scan = CompletableFuture.supplyAsync(
                () -> session.scan(ADDRESS_1_OR_3, 0, 9, log -> { }));
        assertTrue(waiting.await(WAIT.toSeconds(), TimeUnit.SECONDS), "no retry announced");
        session.cancel();
        ExecutionException failed = assertThrows(ExecutionException.class,
                () -> scan.get(WAIT.toSeconds(), TimeUnit.SECONDS));
        ScanCancelledException e = assertInstanceOf(ScanCancelledException.class, failed.getCause());
        assertEquals("the scan was cancelled before eth_blockNumber was sent", e.getMessage());
        assertEquals(1, retries.get());
    }

    /** Retries exhausted on transient failures are a {@link RetriesExhaustedException}, which a follow may wait out. */
    @Test
    void retriesRunOutAsTheirOwnKindOfScanException() throws IOException {
        String url;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            url = "http://127.0.0.1:" + socket.getLocalPort();
        }
        List<Duration> sleeps = new ArrayList<>();
        RetriesExhaustedException e = assertThrows(RetriesExhaustedException.class, () -> BlockScanner
                .builder(new HttpService(url)).retryPolicy(RetryPolicy.of(3, Duration.ofMillis(5),
                        Duration.ofMillis(5))).sleeper(sleeps::add).build().scan(ADDRESS_1_OR_3, 0, 9, log -> { }));
        assertTrue(e.getMessage().startsWith("eth_blockNumber failed 3 times in a row (retry limit 3); last error: "),
                e.getMessage());
        assertFalse(e.nodeAnswered(), "nothing listens on the port");
        assertEquals(List.of(Duration.ofMillis(5), Duration.ofMillis(5)), sleeps);

        HttpService noLogs = new HttpService(provider.url()) {
            @Override
            public <T extends Response> T send(Request request, Class<T> type) throws IOException {
                if (request.getMethod().equals("eth_getLogs")) {
                    throw new IOException("connection reset");
                }
                return super.send(request, type);
            }
        };
        RetriesExhaustedException logsFail = assertThrows(RetriesExhaustedException.class, () -> BlockScanner
                .builder(noLogs).headerBatchSize(1).retryPolicy(RetryPolicy.of(2, Duration.ofMillis(5),
                        Duration.ofMillis(5))).sleeper(sleeps::add).build().scan(LogFilter.matchAll(), 0, 9,
                                log -> { }));
        assertTrue(logsFail.getMessage().startsWith("eth_getLogs failed 2 times in a row"), logsFail.getMessage());
        assertTrue(logsFail.nodeAnswered(), "the head and the headers were answered");

        RetriesExhaustedException limitedOut = assertThrows(RetriesExhaustedException.class, () -> BlockScanner
                .builder(refusingEveryCall(-32005, "request rate exceeded")).retryPolicy(RetryPolicy.of(2, Duration.ofMillis(5), Duration.ofMillis(5)))
                .sleeper(sleeps::add).build().scan(LogFilter.matchAll(), 0, 9, log -> { }));
        assertTrue(limitedOut.getMessage().endsWith("last error: error -32005: request rate exceeded"),
                limitedOut.getMessage());
        assertFalse(limitedOut.nodeAnswered(), "an error sent back is not an answer");
    }

    /**
     * A proxy's HTTP 500 page of 100,000 characters over many lines is quoted on one line and cut at 300 characters,
     * saying its length, in each retry's problem and in the final error: not copied whole into every line.
     */
    @Test
    void aHugeErrorPageIsQuotedOnOneLineAndCut() {
        String page = "<html>\n<body>\n" + "upstream error\n".repeat(6_660) + "</body></html>";
        for (int i = 0; i < 2; i++) {
            provider.script.add(new FakeProvider.Scripted(500, page));
        }
        List<String> problems = new ArrayList<>();
        RetriesExhaustedException e = assertThrows(RetriesExhaustedException.class, () -> BlockScanner
                .builder(new HttpService(provider.url())).retryPolicy(RetryPolicy.of(2, Duration.ofMillis(1),
                        Duration.ofMillis(1))).sleeper(delay -> { }).listener(new ScanListener() {
                            @Override
                            public void onRetry(String call, int failure, Duration delay, String problem) {
                                problems.add(problem);
                            }
                        }).build().scan(ADDRESS_1_OR_3, 0, 9, log -> { }));
        problems.add(e.getMessage());
        for (String problem : problems) {
            assertTrue(problem.length() < 500 && !problem.contains("\n") && problem.contains("Invalid response"
                    + " received: 500; <html> <body> upstream error upstream error")
                    && problem.matches(".*… \\(9\\d{4} characters in all\\)"), problem);
        }
    }

    /**
     * The node's own timeout (geth's -32002 "request timed out", answered at once) is said as the node's, without the
     * advice to raise the client's call timeout, which cannot help: for eth_blockNumber and for one block's logs.
     */
    @Test
    void theNodesOwnTimeoutIsNotBlamedOnTheCallTimeout() {
        RetriesExhaustedException head = assertThrows(RetriesExhaustedException.class, () -> BlockScanner
                .builder(refusingEveryCall(-32002, "request timed out")).retryPolicy(RetryPolicy.of(2, Duration.ofMillis(1), Duration.ofMillis(1)))
                .sleeper(delay -> { }).build().scan(ADDRESS_1_OR_3, 0, 9, log -> { }));
        assertEquals("eth_blockNumber failed 2 times in a row (retry limit 2); last error: the node gave up on it"
                + " (error -32002: request timed out)", head.getMessage());

        provider.limitLogRange(0, -32002, "request timed out");
        RetriesExhaustedException block = assertThrows(RetriesExhaustedException.class, () -> scanner()
                .sleeper(delay -> { }).build().scan(LogFilter.matchAll(), 4, 9, log -> { }));
        assertEquals("eth_getLogs failed 5 times in a row (retry limit 5); last error: block 4 by hash "
                + provider.chain.get(4).hash + ": the node gave up on it (error -32002: request timed out)",
                block.getMessage());
    }

    /** A node that answers every call (sent alone) with this JSON-RPC error. */
    private HttpService refusingEveryCall(int code, String message) {
        return new HttpService(provider.url()) {
            @Override
            public <T extends Response> T send(Request request, Class<T> type) {
                EthBlockNumber refused = new EthBlockNumber();
                refused.setId(request.getId());
                refused.setJsonrpc("2.0");
                refused.setError(new Response.Error(code, message));
                return type.cast(refused);
            }
        };
    }

    /** A scan that fails after some batches carries what it had done; one that fails before its first has nothing. */
    @Test
    void aFailedScanCarriesWhatItHadScanned() {
        HttpService failingAfter40 = new HttpService(provider.url()) {
            @Override
            public <T extends Response> T send(Request request, Class<T> type) throws IOException {
                if (request.getMethod().equals("eth_getBlockByNumber")
                        && Long.decode((String) request.getParams().get(0)) >= 40) {
                    throw new IOException("connection reset");
                }
                return super.send(request, type);
            }
        };
        List<Duration> sleeps = new ArrayList<>();
        RetriesExhaustedException e = assertThrows(RetriesExhaustedException.class, () -> BlockScanner
                .builder(failingAfter40).headerBatchSize(1).retryPolicy(RetryPolicy.of(2, Duration.ofMillis(5),
                        Duration.ofMillis(5))).sleeper(sleeps::add).build()
                .scan(ADDRESS_1_OR_3, 0, 99, log -> { }));
        ScanSummary soFar = e.summarySoFar().orElseThrow();
        assertEquals(0, soFar.firstBlock());
        assertEquals(39, soFar.lastBlock());
        assertEquals(40, soFar.blocksScanned());
        assertEquals(provider.expectedLogs(ADDRESS_1_OR_3, 0, 39).size(), soFar.logsEmitted());

        ScanException early = assertThrows(ScanException.class, () -> BlockScanner.builder(failingAfter40)
                .retryPolicy(RetryPolicy.of(1, Duration.ofMillis(5), Duration.ofMillis(5))).build()
                .scan(ADDRESS_1_OR_3, 40, 99, log -> { }));
        assertTrue(early.summarySoFar().isPresent(), "the first batch had begun");
        assertEquals(0, early.summarySoFar().get().blocksScanned());
    }
}
