package org.chainfilter.cli;

import java.time.Duration;

import okhttp3.OkHttpClient;
import org.web3j.protocol.http.HttpService;

/**
 * The HTTP transport of the eth commands that talk to a JSON-RPC node. web3j's default client has per-read timeouts
 * only, so a node that sends its answer a byte at a time (or never finishes it) would hold a call, and the command,
 * forever. Here every call, from connecting to the last byte, is bounded by {@code --rpc-timeout}; a call cut off is
 * an I/O failure, retried as a transient one and then reported.
 */
final class RpcTransport {
    /** The default bound of one JSON-RPC call: above the 30-60 s that providers allow a heavy eth_getLogs. */
    static final int DEFAULT_TIMEOUT_SECONDS = 120;
    /** The largest bound accepted. */
    static final int MAX_TIMEOUT_SECONDS = 3600;

    private RpcTransport() {
    }

    /**
     * An HTTP JSON-RPC service whose calls each end within {@code timeoutSeconds}.
     *
     * @throws IllegalArgumentException when the timeout is outside 1..3600 seconds
     */
    static HttpService http(String url, int timeoutSeconds) {
        if (timeoutSeconds < 1 || timeoutSeconds > MAX_TIMEOUT_SECONDS) {
            throw new IllegalArgumentException("--rpc-timeout is " + timeoutSeconds + " seconds; it must be 1.."
                    + MAX_TIMEOUT_SECONDS);
        }
        OkHttpClient client = new OkHttpClient.Builder().callTimeout(Duration.ofSeconds(timeoutSeconds)).build();
        return new HttpService(url, client);
    }
}
