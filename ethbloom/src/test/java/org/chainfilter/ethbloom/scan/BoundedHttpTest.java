package org.chainfilter.ethbloom.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.web3j.protocol.core.Request;
import org.web3j.protocol.core.methods.response.EthBlockNumber;
import org.web3j.protocol.core.methods.response.EthLog;
import org.web3j.protocol.http.HttpService;

/**
 * The response size limit of {@link BoundedHttp} against a local server whose answers never end, inflate from gzip,
 * declare a huge length, or are exactly at the limit. An unbounded client reads such an answer into one byte array until
 * the heap is gone; this one stops one byte past the limit, with a message naming it.
 */
@Timeout(60)
class BoundedHttpTest {
    private static final int LIMIT = 1 << 20;
    /** What the endless answers stop at if nobody hangs up: far above the limit, far below a test JVM's heap. */
    private static final long SERVER_GIVES_UP_AFTER = 256L << 20;
    private static final byte[] ANSWER_START = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"0x"
            .getBytes(StandardCharsets.US_ASCII);
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private HttpServer server;
    private ExecutorService handlers;
    private final CountDownLatch released = new CountDownLatch(1);
    private volatile byte[] exactBody;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
        handlers = Executors.newCachedThreadPool();
        server.setExecutor(handlers);
        server.createContext("/endless", exchange -> endless(exchange, 200, false));
        server.createContext("/endless-error", exchange -> endless(exchange, 500, false));
        server.createContext("/gzip", exchange -> endless(exchange, 200, true));
        server.createContext("/declares-a-terabyte", exchange -> {
            try (exchange) {
                exchange.getRequestBody().readAllBytes();
                exchange.sendResponseHeaders(200, 1L << 40);
                exchange.getResponseBody().write(ANSWER_START);
                exchange.getResponseBody().flush();
                released.await();
            } catch (IOException | InterruptedException clientGone) {
                // the client refused the length
            }
        });
        server.createContext("/exact-chunked", exchange -> exact(exchange, 0));
        server.createContext("/exact-fixed", exchange -> exact(exchange, exactBody.length));
        server.start();
    }

    @AfterEach
    void stop() throws InterruptedException {
        released.countDown();
        server.stop(0);
        handlers.shutdownNow();
        handlers.awaitTermination(10, TimeUnit.SECONDS);
    }

    private void endless(HttpExchange exchange, int status, boolean gzip) {
        try (exchange) {
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            if (gzip) {
                exchange.getResponseHeaders().set("Content-Encoding", "gzip");
            }
            exchange.sendResponseHeaders(status, 0);
            OutputStream out = gzip ? new GZIPOutputStream(exchange.getResponseBody(), 1 << 16)
                    : exchange.getResponseBody();
            out.write(ANSWER_START);
            byte[] zeros = new byte[1 << 16];
            Arrays.fill(zeros, (byte) '0');
            for (long sent = 0; sent < SERVER_GIVES_UP_AFTER; sent += zeros.length) {
                out.write(zeros);
            }
            out.write("\"}".getBytes(StandardCharsets.US_ASCII));
            out.close();
        } catch (IOException clientGone) {
            // the client hung up at its limit
        }
    }

    private void exact(HttpExchange exchange, long declaredLength) throws IOException {
        try (exchange) {
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, declaredLength);
            exchange.getResponseBody().write(exactBody);
        }
    }

    private String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    private static BigInteger blockNumber(HttpService service) throws IOException {
        return new Request<>("eth_blockNumber", List.<String>of(), service, EthBlockNumber.class).send()
                .getBlockNumber();
    }

    /**
     * An endless answer, plain, as an HTTP 500 (web3j reads an error's whole body into its exception message), or
     * gzip-compressed (counted as it inflates: OkHttp asked for gzip and decompresses below the limit's counter).
     */
    @ParameterizedTest
    @ValueSource(strings = {"/endless", "/endless-error", "/gzip"})
    void anEndlessAnswerIsCutOffOneBytePastTheLimitInBoundedMemory(String path) {
        HttpService service = BoundedHttp.service(url(path), Duration.ofSeconds(30), LIMIT);
        // The first call loads OkHttp's and web3j's classes; measure a later one.
        assertThrows(ResponseTooLargeException.class,
                () -> blockNumber(BoundedHttp.service(url(path), Duration.ofSeconds(30), 4096)));
        long allocatedBefore = THREADS.getCurrentThreadAllocatedBytes();
        ResponseTooLargeException e = assertThrows(ResponseTooLargeException.class, () -> blockNumber(service));
        long allocated = THREADS.getCurrentThreadAllocatedBytes() - allocatedBefore;
        assertEquals("the JSON-RPC answer from " + url(path) + " exceeds the response size limit of 1048576 bytes",
                e.getMessage());
        assertEquals(LIMIT, e.limitBytes());
        // The limit's bytes once in OkHttp's buffer, plus the client's own workings (1.7 MiB measured): nowhere near
        // the 256 MiB sent. The call is cancelled, so OkHttp does not drain the rest to reuse the connection.
        assertTrue(allocated < 4L * LIMIT, "allocated " + allocated + " bytes");
    }

    /**
     * The counter asks for no more than one byte past the limit, so that nothing beyond it is buffered: a read of a
     * whole segment (8 KiB) would take up to 8,191 bytes more. The answer here is an okio buffer that a network
     * interceptor (below the limit's, as a caller's {@code client(...).newBuilder()} adds it) puts in place of the
     * server's body; it gives each read what it asks for, so what is left in it after the refusal shows what was taken.
     */
    @Test
    void noMoreThanOneBytePastTheLimitIsTakenFromAnAnswer() throws IOException {
        exactBody = "{}".getBytes(StandardCharsets.US_ASCII);
        okio.Buffer answer = new okio.Buffer().write(ANSWER_START);
        answer.write(new byte[LIMIT + 100_000 - ANSWER_START.length]);
        OkHttpClient client = BoundedHttp.client(Duration.ofSeconds(30), LIMIT).newBuilder()
                .addNetworkInterceptor(chain -> {
                    Response response = chain.proceed(chain.request());
                    response.close();
                    return response.newBuilder().removeHeader("Content-Length")
                            .body(ResponseBody.create(answer, MediaType.get("application/json"), -1)).build();
                }).build();
        okhttp3.Request request = new okhttp3.Request.Builder().url(url("/exact-fixed"))
                .post(RequestBody.create("{}", MediaType.get("application/json"))).build();
        ResponseTooLargeException e = assertThrows(ResponseTooLargeException.class,
                () -> client.newCall(request).execute().close());
        assertEquals("the JSON-RPC answer from " + url("/exact-fixed") + " exceeds the response size limit of 1048576"
                + " bytes", e.getMessage());
        assertEquals(100_000 - 1, answer.size());
    }

    @Test
    void aDeclaredLengthAboveTheLimitIsRefusedBeforeTheBodyIsRead() {
        // The server sends a few bytes and then waits for the end of the test: reading the body would hang until the
        // call timeout, refusing the length does not.
        HttpService service = BoundedHttp.service(url("/declares-a-terabyte"), Duration.ofSeconds(50), LIMIT);
        long started = System.nanoTime();
        ResponseTooLargeException e = assertThrows(ResponseTooLargeException.class, () -> blockNumber(service));
        assertEquals("the JSON-RPC answer from " + url("/declares-a-terabyte") + " declares 1099511627776 bytes"
                + " (Content-Length); the response size limit is 1048576 bytes", e.getMessage());
        assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(50), "refused only at the call timeout");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/exact-chunked", "/exact-fixed"})
    void anAnswerOfExactlyTheLimitPassesAndOneByteMoreDoesNot(String path) throws IOException {
        String answer = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"0x2a\"}";
        // JSON allows the whitespace; 5,000 bytes is not a multiple of any buffer size.
        exactBody = (answer + " ".repeat(5000 - answer.length())).getBytes(StandardCharsets.US_ASCII);
        assertEquals(BigInteger.valueOf(42), blockNumber(BoundedHttp.service(url(path), Duration.ofSeconds(30), 5000)));
        ResponseTooLargeException e = assertThrows(ResponseTooLargeException.class,
                () -> blockNumber(BoundedHttp.service(url(path), Duration.ofSeconds(30), 4999)));
        assertEquals(path.equals("/exact-fixed")
                ? "the JSON-RPC answer from " + url(path) + " declares 5000 bytes (Content-Length); the response size"
                        + " limit is 4999 bytes"
                : "the JSON-RPC answer from " + url(path) + " exceeds the response size limit of 4999 bytes",
                e.getMessage());
    }

    @Test
    void theDefaultLimitHoldsTenThousandLogs() throws IOException {
        // Infura's cap per eth_getLogs answer, each log with three topics and 64 bytes of data.
        StringBuilder answer = new StringBuilder("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[");
        for (int i = 0; i < 10_000; i++) {
            String hash = String.format("0x%064x", i);
            answer.append(i == 0 ? "" : ",").append("{\"address\":\"0x").append("a0".repeat(20))
                    .append("\",\"topics\":[\"").append(hash).append("\",\"").append(hash).append("\",\"")
                    .append(hash).append("\"],\"data\":\"0x").append("11".repeat(64))
                    .append("\",\"blockNumber\":\"0x1312d00\",\"transactionHash\":\"").append(hash)
                    .append("\",\"transactionIndex\":\"0x1f\",\"blockHash\":\"").append(hash)
                    .append("\",\"logIndex\":\"0x").append(Integer.toHexString(i)).append("\",\"removed\":false}");
        }
        exactBody = answer.append("]}").toString().getBytes(StandardCharsets.US_ASCII);
        assertTrue(exactBody.length > 6_000_000 && exactBody.length < 8_000_000, exactBody.length + " bytes");
        EthLog logs = new Request<>("eth_getLogs", List.of(), BoundedHttp.service(url("/exact-chunked")),
                EthLog.class).send();
        assertEquals(10_000, logs.getLogs().size());
        assertTrue(exactBody.length * 8L < BoundedHttp.DEFAULT_MAX_RESPONSE_BYTES);
    }

    @Test
    void theTimeoutAndTheLimitAreChecked() {
        Duration second = Duration.ofSeconds(1);
        assertEquals("response size limit is 0 bytes; it must be 1..1073741824",
                assertThrows(IllegalArgumentException.class, () -> BoundedHttp.service("http://x", second, 0))
                        .getMessage());
        assertEquals("response size limit is 1073741825 bytes; it must be 1..1073741824",
                assertThrows(IllegalArgumentException.class,
                        () -> BoundedHttp.service("http://x", second, (1L << 30) + 1)).getMessage());
        assertEquals("call timeout is 0 ms; it must be at least 1 ms",
                assertThrows(IllegalArgumentException.class,
                        () -> BoundedHttp.service("http://x", Duration.ZERO, LIMIT)).getMessage());
        assertEquals("call timeout is -5000 ms; it must be at least 1 ms",
                assertThrows(IllegalArgumentException.class,
                        () -> BoundedHttp.service("http://x", Duration.ofSeconds(-5), LIMIT)).getMessage());
        assertEquals("call timeout is 0 ms; it must be at least 1 ms",
                assertThrows(IllegalArgumentException.class,
                        () -> BoundedHttp.client(Duration.ofNanos(999_999), LIMIT)).getMessage());
        assertEquals("decoding limit is 0 bytes; it must be at least 1",
                assertThrows(IllegalArgumentException.class,
                        () -> BoundedHttp.service("http://x", second, LIMIT, 0)).getMessage());
        assertTrue(BoundedHttp.defaultMaxDecodedBytes() == Runtime.getRuntime().maxMemory() / 4);
    }

    /**
     * A URL that no call could reach is refused when the service is made, naming it; left to the first call it was a
     * failed call, retried as a node's failure would be.
     */
    @Test
    void aUrlThatIsNotHttpWithAHostIsRefusedNamingIt() {
        for (String url : List.of("notaurl", "127.0.0.1:8545", "ftp://127.0.0.1/", "http://", "http://host:65536",
                "")) {
            assertEquals("JSON-RPC URL '" + url + "' is not an http:// or https:// URL with a host (and a port up to"
                    + " 65535, if any), e.g. http://127.0.0.1:8545",
                    assertThrows(IllegalArgumentException.class, () -> BoundedHttp.service(url)).getMessage(), url);
        }
        String long201 = "x".repeat(201);
        assertEquals("JSON-RPC URL '" + "x".repeat(200) + "... (201 chars)' is not an http:// or https:// URL with a"
                + " host (and a port up to 65535, if any), e.g. http://127.0.0.1:8545",
                assertThrows(IllegalArgumentException.class, () -> BoundedHttp.service(long201)).getMessage());
        for (String url : List.of("http://127.0.0.1:8545", "https://mainnet.example/v3/key", "HTTP://[::1]:1/")) {
            assertTrue(BoundedHttp.isHttpUrl(url) && BoundedHttp.service(url) != null, url);
        }
        assertTrue(!BoundedHttp.isHttpUrl(null) && !BoundedHttp.isHttpUrl("notaurl"));
    }

    /** An eth_getLogs answer of {@code n} empty objects: 3 bytes each, and about 54 times that once decoded. */
    private static byte[] emptyObjects(int n) {
        StringBuilder answer = new StringBuilder("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[");
        for (int i = 0; i < n; i++) {
            answer.append(i == 0 ? "{}" : ",{}");
        }
        return answer.append("]}").toString().getBytes(StandardCharsets.US_ASCII);
    }

    private static Request<?, EthLog> getLogs(HttpService service) {
        return new Request<>("eth_getLogs", List.of(), service, EthLog.class);
    }

    /**
     * Bytes do not bound the heap: 300 kB of {@code [{},{},…]} decode into about 16 MB. With a decoding limit of 10 MB
     * the answer is refused from its tokens' estimate (32 MB), before web3j decodes any of it; under a limit of 64 MB
     * it is decoded.
     */
    @Test
    void anAnswerThatWouldTakeMoreHeapToDecodeThanTheLimitIsRefusedUndecoded() throws IOException {
        exactBody = emptyObjects(100_000);
        String url = url("/exact-chunked");
        HttpService refusing = BoundedHttp.service(url, Duration.ofSeconds(30), LIMIT, 10_000_000);
        // The first call loads the classes; measure a later one.
        assertThrows(ResponseTooLargeException.class, () -> getLogs(refusing).send());
        long allocatedBefore = THREADS.getCurrentThreadAllocatedBytes();
        ResponseTooLargeException e = assertThrows(ResponseTooLargeException.class, () -> getLogs(refusing).send());
        long allocated = THREADS.getCurrentThreadAllocatedBytes() - allocatedBefore;
        assertEquals("the JSON-RPC answer from " + url + " (300035 bytes) would take more than the decoding limit of"
                + " 10000000 bytes of heap to decode (estimated from its JSON tokens)", e.getMessage());
        assertEquals(10_000_000, e.limitBytes());
        // The answer's bytes and the reading's buffers; decoding the answer allocates about 28 MB.
        assertTrue(allocated < 4_000_000, "allocated " + allocated + " bytes");

        EthLog decoded = getLogs(BoundedHttp.service(url, Duration.ofSeconds(30), LIMIT, 64_000_000)).send();
        assertEquals(100_000, decoded.getLogs().size());
    }

    /** An answer too small to pass the limit at any shape is handed on without an estimate, and decoded. */
    @Test
    void aSmallAnswerIsDecodedUnderATightDecodingLimit() throws IOException {
        exactBody = emptyObjects(10);
        // At most bytes · MAX_PER_BYTE by any estimate: within that limit no estimate is made, and the answer passes.
        long bound = (long) exactBody.length * JsonDecodeCost.MAX_PER_BYTE;
        EthLog decoded = getLogs(BoundedHttp.service(url("/exact-chunked"), Duration.ofSeconds(30), LIMIT, bound))
                .send();
        assertEquals(10, decoded.getLogs().size());
        // One byte under its estimate, it is refused.
        long estimate = JsonDecodeCost.estimate(new java.io.ByteArrayInputStream(exactBody), exactBody.length,
                Long.MAX_VALUE);
        assertTrue(estimate < bound);
        assertThrows(ResponseTooLargeException.class, () -> getLogs(BoundedHttp.service(url("/exact-chunked"),
                Duration.ofSeconds(30), LIMIT, estimate - 1)).send());
    }
}
