package org.chainfilter.cli;

import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import okhttp3.Call;
import okhttp3.EventListener;

import okhttp3.OkHttpClient;
import org.chainfilter.ethbloom.scan.BlockScanner;
import org.chainfilter.ethbloom.scan.BoundedHttp;
import org.chainfilter.ethbloom.scan.RetryPolicy;
import org.web3j.protocol.http.HttpService;
import picocli.CommandLine.Option;

/**
 * The HTTP transport of the eth commands that talk to a JSON-RPC node: ethbloom's {@link BoundedHttp}, with the
 * options checked and named here. Every call, from connecting to the last byte, is bounded by {@code --rpc-timeout}
 * (web3j's default client has per-read timeouts only, so a node sending its answer a byte at a time would hold the
 * command forever), and every answer by {@code --rpc-max-response-bytes} (web3j reads a whole answer into memory, so an
 * endless one would exhaust the heap). A call cut off by the timeout is retried as a transient failure, and an
 * {@code eth_getLogs} range of {@code eth scan} cut off twice in a row is split in halves; an answer too large makes
 * the scanner split its {@code eth_getLogs} range, or stops the command.
 */
final class RpcTransport {
    /** The default bound of one JSON-RPC call: above the 30-60 s that providers allow a heavy eth_getLogs. */
    static final int DEFAULT_TIMEOUT_SECONDS = BoundedHttp.DEFAULT_CALL_TIMEOUT_SECONDS;
    /** The largest bound accepted. */
    static final int MAX_TIMEOUT_SECONDS = 3600;
    /** The default size limit of one answer, 64 MiB. */
    static final long DEFAULT_MAX_RESPONSE_BYTES = BoundedHttp.DEFAULT_MAX_RESPONSE_BYTES;
    /**
     * The advice that ends ethbloom's failure for one block or one header that keeps being cut off by the call timeout
     * ("one block cannot be asked for in a smaller piece: raise the call timeout"); the library names no option, so
     * {@link Options#namingTheTimeout} adds the one that sets it here.
     */
    static final String RAISE_THE_CALL_TIMEOUT = BlockScanner.RAISE_THE_CALL_TIMEOUT;
    private static final String NO_ANSWER_WITHIN_THE_CALL_TIMEOUT = BlockScanner.NO_ANSWER_WITHIN_THE_CALL_TIMEOUT;

    private RpcTransport() {
    }

    /**
     * {@code --rpc-timeout}, {@code --rpc-max-response-bytes} and {@code --retries}, for the commands that call a node.
     * Use with {@code @Mixin}.
     */
    static final class Options {
        @Option(names = "--rpc-timeout", paramLabel = "SECONDS", defaultValue = "" + DEFAULT_TIMEOUT_SECONDS,
                description = "The most one JSON-RPC call may take, connecting to last byte (1..3600, default"
                        + " ${DEFAULT-VALUE}); a call cut off is retried like a failed one, an eth_getLogs range"
                        + " of eth scan cut off twice in a row is split in halves, and a batch of headers cut off"
                        + " twice in a row is halved.")
        private int timeoutSeconds;

        @Option(names = "--rpc-max-response-bytes", paramLabel = "BYTES",
                defaultValue = "" + DEFAULT_MAX_RESPONSE_BYTES,
                description = "The largest JSON-RPC answer read, counted as it arrives (1..1073741824, default"
                        + " ${DEFAULT-VALUE}, 64 MiB); a larger one is cut off (eth scan then splits its eth_getLogs"
                        + " range).")
        private long maxResponseBytes;

        @Option(names = "--retries", paramLabel = "N", defaultValue = "7",
                description = "Attempts per call before giving up, with exponential backoff (default"
                        + " ${DEFAULT-VALUE}).")
        private int attempts;

        /**
         * {@code --retries} attempts per call, backing off from 250 ms, doubling, to at most 8 s.
         *
         * @throws IllegalArgumentException naming {@code --retries} when it is below 1 (RetryPolicy's own message
         *                                  names its parameter, maxAttempts)
         */
        RetryPolicy retryPolicy() {
            if (attempts < 1) {
                throw new IllegalArgumentException("--retries is " + attempts + "; it must be at least 1");
            }
            return RetryPolicy.of(attempts, Duration.ofMillis(250), Duration.ofSeconds(8));
        }

        /**
         * {@code message} with {@code --rpc-timeout} and its value named after the advice to raise the call timeout
         * ("...: raise the call timeout (--rpc-timeout is 1 s)"), or unchanged when it gives no such advice.
         */
        String namingTheTimeout(String message) {
            if (message.contains(RAISE_THE_CALL_TIMEOUT)) {
                return message.replace(RAISE_THE_CALL_TIMEOUT, RAISE_THE_CALL_TIMEOUT + " (--rpc-timeout is "
                        + timeoutSeconds + " s)");
            }
            // A call cut off by the timeout, e.g. eth_blockNumber of a node that does not answer: named once.
            return message.replaceFirst(Pattern.quote(NO_ANSWER_WITHIN_THE_CALL_TIMEOUT),
                    NO_ANSWER_WITHIN_THE_CALL_TIMEOUT + " of " + timeoutSeconds + " s (--rpc-timeout)");
        }

        /** The service for {@code url} under these options; see {@link RpcTransport#http}. */
        Service http(String url) {
            return RpcTransport.http(url, timeoutSeconds, maxResponseBytes);
        }
    }

    /**
     * Refuses a {@code --rpc} value that is not an {@code http://} or {@code https://} URL with a host, naming the
     * option and the value. The check is {@link BoundedHttp#isHttpUrl}, OkHttp's own parse; left to the first call, a
     * malformed URL surfaced after the retries as {@code "eth_blockNumber failed: IllegalArgumentException: Expected
     * URL scheme 'http' or 'https' but no scheme was found for notaur..."}, cut short by OkHttp.
     *
     * @return {@code url}
     */
    static String checkUrl(String url) {
        if (!BoundedHttp.isHttpUrl(url)) {
            throw new IllegalArgumentException("--rpc '" + url + "' is not an http:// or https:// URL with a host"
                    + " (and a port up to 65535, if any), e.g. http://127.0.0.1:8545");
        }
        return url;
    }

    /**
     * An HTTP JSON-RPC service whose calls each end within {@code timeoutSeconds} and whose answers are at most
     * {@code maxResponseBytes} long.
     *
     * @throws IllegalArgumentException when the URL is not an http(s) URL with a host ({@link #checkUrl}), the timeout
     *                                  is outside 1..3600 seconds or the limit outside 1..2^30 bytes
     */
    static Service http(String url, int timeoutSeconds, long maxResponseBytes) {
        checkUrl(url);
        if (timeoutSeconds < 1 || timeoutSeconds > MAX_TIMEOUT_SECONDS) {
            throw new IllegalArgumentException("--rpc-timeout is " + timeoutSeconds + " seconds; it must be 1.."
                    + MAX_TIMEOUT_SECONDS);
        }
        if (maxResponseBytes < 1 || maxResponseBytes > BoundedHttp.MAX_RESPONSE_BYTES) {
            throw new IllegalArgumentException("--rpc-max-response-bytes is " + maxResponseBytes + "; it must be 1.."
                    + BoundedHttp.MAX_RESPONSE_BYTES);
        }
        CallTracker calls = new CallTracker();
        OkHttpClient client = BoundedHttp.client(Duration.ofSeconds(timeoutSeconds), maxResponseBytes).newBuilder()
                .eventListener(calls).build();
        return new Service(url, client, calls);
    }

    /**
     * The calls of a service in flight, by OkHttp's call events ({@code callEnd} comes when the body is closed), and
     * whether the service was stopped. A call registers before it checks the flag and {@link #cancelAll} sets the flag
     * before it walks the calls, so a call that starts while the service is being stopped is cancelled by one or the
     * other: it fails before it is sent, where it used to run to its answer or its call timeout.
     */
    private static final class CallTracker extends EventListener {
        private final Set<Call> inFlight = ConcurrentHashMap.newKeySet();
        private volatile boolean stopped;

        @Override
        public void callStart(Call call) {
            inFlight.add(call);
            if (stopped) {
                call.cancel();
            }
        }

        @Override
        public void callEnd(Call call) {
            inFlight.remove(call);
        }

        @Override
        public void callFailed(Call call, IOException failure) {
            inFlight.remove(call);
        }

        void cancelAll() {
            stopped = true;
            inFlight.forEach(Call::cancel);
        }
    }

    /**
     * {@link BoundedHttp}'s service, whose calls in flight can be cancelled (a follow stopped by a signal). A call is
     * in flight from its start until its answer has been read to the end: OkHttp's dispatcher forgets a synchronous
     * call once the answer's headers have arrived, while web3j reads the body after, so the calls are tracked here,
     * by OkHttp's call events ({@code callEnd} comes when the body is closed).
     */
    static final class Service extends HttpService {
        private final CallTracker calls;

        private Service(String url, OkHttpClient client, CallTracker calls) {
            super(url, client);
            this.calls = calls;
        }

        /**
         * Stops this service: ends every call of it in flight now, waiting for its answer or reading it, and every
         * call started after this, before it is sent; each fails with an {@code IOException}.
         */
        void cancelCalls() {
            calls.cancelAll();
        }
    }
}
