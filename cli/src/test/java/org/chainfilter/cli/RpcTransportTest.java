package org.chainfilter.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.web3j.protocol.core.Request;
import org.web3j.protocol.core.methods.response.EthBlockNumber;

/**
 * A node that answers a byte at a time, each byte well within any read timeout, and never finishes: the eth commands
 * must give up after {@code --rpc-timeout} (default {@value RpcTransport#DEFAULT_TIMEOUT_SECONDS} s) instead of
 * waiting forever. A node whose answer never ends ({@code /endless}): they must stop reading at
 * {@code --rpc-max-response-bytes} (default {@value RpcTransport#DEFAULT_MAX_RESPONSE_BYTES}) instead of filling the
 * heap.
 */
@Timeout(60)
class RpcTransportTest {
    private HttpServer dripping;
    private final AtomicInteger requestsReceived = new AtomicInteger();

    @BeforeEach
    void startDrippingNode() throws IOException {
        dripping = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
        dripping.setExecutor(Executors.newCachedThreadPool());
        dripping.createContext("/", exchange -> {
            requestsReceived.incrementAndGet();
            try (exchange) {
                exchange.getRequestBody().readAllBytes();
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, 0);
                OutputStream body = exchange.getResponseBody();
                body.write("{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":\"".getBytes(StandardCharsets.US_ASCII));
                // At most 50 s of drip; the client hangs up long before when the call is bounded.
                for (int i = 0; i < 500; i++) {
                    body.write('0');
                    body.flush();
                    Thread.sleep(100);
                }
            } catch (IOException | InterruptedException clientGone) {
                // the bounded call was cut off
            }
        });
        dripping.createContext("/endless", exchange -> {
            try (exchange) {
                exchange.getRequestBody().readAllBytes();
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, 0);
                OutputStream body = exchange.getResponseBody();
                body.write("{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":\"0x".getBytes(StandardCharsets.US_ASCII));
                byte[] zeros = new byte[1 << 16];
                Arrays.fill(zeros, (byte) '0');
                // At most 256 MiB, four times the default limit; the client hangs up at its limit.
                for (int i = 0; i < 4096; i++) {
                    body.write(zeros);
                }
            } catch (IOException clientGone) {
                // the answer was cut off at the limit
            }
        });
        dripping.start();
    }

    @AfterEach
    void stop() {
        dripping.stop(0);
    }

    private String url() {
        return "http://127.0.0.1:" + dripping.getAddress().getPort();
    }

    /** {@code eth scan} or {@code eth index build} against {@code node}, with {@code options} appended. */
    private static String[] nodeCommand(String command, Path dir, String node, String... options) {
        String[] head = command.equals("scan")
                ? new String[] {"eth", "scan", "--rpc", node, "--from", "0", "--to", "10"}
                : new String[] {"eth", "index", "build", "--index", dir.resolve("index").toString(), "--rpc", node};
        String[] all = Arrays.copyOf(head, head.length + options.length);
        System.arraycopy(options, 0, all, head.length, options.length);
        return all;
    }

    @ParameterizedTest
    @ValueSource(strings = {"scan", "index"})
    void givesUpOnANodeThatNeverFinishesItsAnswer(String command, @TempDir Path dir) {
        CliRun run = CliRun.of(nodeCommand(command, dir, url(), "--retries", "2", "--rpc-timeout", "1"));
        assertEquals(1, run.status, run::toString);
        String n = System.lineSeparator();
        assertEquals("retrying eth_blockNumber in 250 ms (failure 1: no answer within the client's call timeout"
                + " (InterruptedIOException: timeout))" + n + "chainfilter: eth_blockNumber failed 2 times in a row"
                + " (retry limit 2); last error: no answer within the client's call timeout of 1 s (--rpc-timeout)"
                + " (InterruptedIOException: timeout)" + n, run.err);
    }

    @ParameterizedTest
    @CsvSource({"scan,65536", "index,4096"})
    void stopsReadingAnEndlessAnswerAtTheLimitWithoutRetrying(String command, String limit, @TempDir Path dir) {
        CliRun run = CliRun.of(nodeCommand(command, dir, url() + "/endless", "--rpc-max-response-bytes", limit));
        assertEquals(1, run.status, run::toString);
        assertEquals("chainfilter: eth_blockNumber failed: ResponseTooLargeException: the JSON-RPC answer from "
                + url() + "/endless exceeds the response size limit of " + limit + " bytes" + System.lineSeparator(),
                run.err);
    }

    /**
     * The documented ranges of --rpc-timeout (1..3600) and --rpc-max-response-bytes (1..1073741824) are closed: their
     * largest values are accepted, one more is refused naming the range.
     */
    @Test
    void theLargestTimeoutAndResponseLimitAreAccepted() throws IOException {
        RpcTransport.http("http://127.0.0.1:8545", 3600, 1L << 30).close();
        IllegalArgumentException timeout = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> RpcTransport.http("http://127.0.0.1:8545", 3601, 1L << 30));
        assertEquals("--rpc-timeout is 3601 seconds; it must be 1..3600", timeout.getMessage());
        IllegalArgumentException size = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> RpcTransport.http("http://127.0.0.1:8545", 3600, (1L << 30) + 1));
        assertEquals("--rpc-max-response-bytes is 1073741825; it must be 1..1073741824", size.getMessage());
    }

    /**
     * {@code cancelCalls} (what a stopped follow runs) ends a call whose answer is still arriving (its headers came
     * at once, its body drips for about 50 s, so OkHttp's dispatcher no longer counts it as running): the test's
     * bound, 15 s, is far below the drip and the call timeout of 600 s, and far above the cancelled call's end.
     */
    @Test
    @Timeout(15)
    void cancelCallsEndsACallInFlight() throws Exception {
        RpcTransport.Service service = RpcTransport.http(url(), 600, RpcTransport.DEFAULT_MAX_RESPONSE_BYTES);
        CompletableFuture<Object> call = CompletableFuture.supplyAsync(() -> {
            try {
                return new Request<>("eth_blockNumber", List.<String>of(), service, EthBlockNumber.class).send();
            } catch (IOException e) {
                return e;
            }
        });
        // Cancel until the call, once under way, has ended (a cancel before it registers would miss it).
        while (!call.isDone()) {
            service.cancelCalls();
            Thread.sleep(50);
        }
        Object ended = call.get();
        assertTrue(ended instanceof IOException, String.valueOf(ended));
    }

    /**
     * A call that starts after {@code cancelCalls} (one that had passed the scanner's cancellation check when the stop
     * came) fails at once and is never sent: it used to run to its answer, here a drip of about 50 s, or to its call
     * timeout, past the stop's grace.
     */
    @Test
    @Timeout(15)
    void aCallStartedAfterCancelCallsIsNeverSent() throws Exception {
        RpcTransport.Service service = RpcTransport.http(url(), 600, RpcTransport.DEFAULT_MAX_RESPONSE_BYTES);
        service.cancelCalls();
        IOException refused = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
                () -> new Request<>("eth_blockNumber", List.<String>of(), service, EthBlockNumber.class).send());
        assertEquals("Canceled", refused.getMessage());
        assertEquals(0, requestsReceived.get());
    }

    @Test
    void theDefaultLimitIs64MiB() {
        CliRun run = CliRun.of("eth", "scan", "--rpc", url() + "/endless", "--from", "0", "--to", "10");
        assertEquals(1, run.status, run::toString);
        assertEquals("chainfilter: eth_blockNumber failed: ResponseTooLargeException: the JSON-RPC answer from "
                + url() + "/endless exceeds the response size limit of 67108864 bytes" + System.lineSeparator(),
                run.err);
    }

    @Test
    void theResponseLimitIsBounded(@TempDir Path dir) {
        String n = System.lineSeparator();
        assertEquals("chainfilter: --rpc-max-response-bytes is 0; it must be 1..1073741824" + n,
                CliRun.of("eth", "scan", "--rpc", url(), "--from", "0", "--rpc-max-response-bytes", "0").err);
        assertEquals("chainfilter: --rpc-max-response-bytes is 1073741825; it must be 1..1073741824" + n,
                CliRun.of("eth", "index", "build", "--index", dir.resolve("index").toString(), "--rpc", url(),
                        "--rpc-max-response-bytes", "1073741825").err);
    }

    @Test
    void theTimeoutIsBounded() {
        CliRun run = CliRun.of("eth", "scan", "--rpc", url(), "--from", "0", "--rpc-timeout", "0");
        assertEquals("chainfilter: --rpc-timeout is 0 seconds; it must be 1..3600" + System.lineSeparator(), run.err);
    }
}
