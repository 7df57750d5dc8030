package org.chainfilter.ethbloom.scan;

import java.io.IOException;
import java.time.Duration;
import java.util.Objects;

import okhttp3.Call;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.Buffer;
import okio.BufferedSource;
import okio.ForwardingSource;
import okio.Okio;
import org.web3j.protocol.http.HttpService;

/**
 * A web3j {@link HttpService} that a hostile or broken node cannot hold forever nor fill the heap through.
 *
 * <ul>
 *   <li><b>Time.</b> Every call, from connecting to the last byte of the answer, ends within the call timeout
 *   (OkHttp {@code callTimeout}). web3j's default client has per-read timeouts only, so an answer sent a byte at a
 *   time keeps a call alive forever. A call cut off is retried; an {@code eth_getLogs} range cut off twice in a row
 *   is split by the scanner, as a range the node refuses is.</li>
 *   <li><b>Size.</b> web3j reads a whole answer into one byte array ({@code ResponseBody.bytes()}, or
 *   {@code string()} for an HTTP error) before parsing it, so an endless or gigantic body would exhaust memory within
 *   one call. Here the body is counted as it is read and the call fails with a {@link ResponseTooLargeException}
 *   naming the limit as soon as one byte more than the limit has arrived; a {@code Content-Length} above the limit is
 *   refused before the body is read. The header alone is not trusted: it may be absent (chunked answers) or wrong.
 *   The count is of the decompressed body (the interceptor sits above OkHttp's transparent gzip), so a compressed
 *   answer that inflates past the limit is stopped too. At most {@code maxResponseBytes + 1} bytes of an answer are
 *   ever buffered.</li>
 *   <li><b>Heap.</b> Bytes do not bound what decoding takes: web3j decodes an answer into objects, a batch answer first
 *   into Jackson trees, and an answer's shape decides the cost (real logs hold about 4 times their bytes, an answer
 *   of empty objects, {@code [{},{},…]}, over 80 times). A successful answer is read whole (web3j reads it whole
 *   anyway) and, when it could cost more than the decoding limit, its tokens are counted ({@link JsonDecodeCost}, an
 *   upper estimate that builds nothing); an answer whose estimate passes the limit fails with a
 *   {@link ResponseTooLargeException} naming the limit, before any of it is decoded. The default
 *   decoding limit is a quarter of the maximum heap ({@link #defaultMaxDecodedBytes()}).</li>
 * </ul>
 *
 * <p>The default limit, {@value #DEFAULT_MAX_RESPONSE_BYTES} bytes (64 MiB), holds real answers with room to spare: a
 * log is about 0.7 KB of JSON (derived), so Infura's cap of 10,000 logs per answer is about 7 MB, and a batch of 1,000
 * headers without transactions about 1.5 MB. An {@code eth_getLogs} answer above the limit is not lost: the scanner
 * splits the range, as it does when a provider refuses one as too large.
 */
public final class BoundedHttp {
    /** The default bound of one call: above the 30-60 s that providers allow a heavy {@code eth_getLogs}. */
    public static final int DEFAULT_CALL_TIMEOUT_SECONDS = 120;
    /** The default response size limit, 64 MiB. */
    public static final long DEFAULT_MAX_RESPONSE_BYTES = 64L << 20;
    /** The largest limit accepted, 1 GiB: the body is held in one byte array, and parsed objects take more. */
    public static final long MAX_RESPONSE_BYTES = 1L << 30;

    private BoundedHttp() {
    }

    /**
     * The decoding limit used when none is given: a quarter of the heap the JVM may grow to ({@code -Xmx}), leaving the
     * rest for the answer's bytes, the scan's own state and the collector's room.
     */
    public static long defaultMaxDecodedBytes() {
        return Math.max(1, Runtime.getRuntime().maxMemory() / 4);
    }

    /**
     * Whether {@code url} is an {@code http://} or {@code https://} URL with a host (and a port up to 65535, if any):
     * OkHttp's own parse, the one every call makes. {@link #service} refuses any other.
     */
    public static boolean isHttpUrl(String url) {
        return url != null && HttpUrl.parse(url) != null;
    }

    /** {@link #service(String, Duration, long)} with the default timeout (120 s) and size limit (64 MiB). */
    public static HttpService service(String url) {
        return service(url, Duration.ofSeconds(DEFAULT_CALL_TIMEOUT_SECONDS), DEFAULT_MAX_RESPONSE_BYTES);
    }

    /**
     * An HTTP JSON-RPC service at {@code url} whose calls each end within {@code callTimeout} and whose answers may
     * be at most {@code maxResponseBytes} long.
     *
     * @throws IllegalArgumentException when the URL is not an http(s) URL with a host, the timeout is not positive,
     *     or the limit is outside 1..2^30 bytes
     */
    public static HttpService service(String url, Duration callTimeout, long maxResponseBytes) {
        return service(url, callTimeout, maxResponseBytes, defaultMaxDecodedBytes());
    }

    /**
     * An HTTP JSON-RPC service at {@code url} whose calls each end within {@code callTimeout}, whose answers may be at
     * most {@code maxResponseBytes} long and may take at most {@code maxDecodedBytes} of heap to decode, as
     * {@link JsonDecodeCost} estimates it.
     *
     * @throws IllegalArgumentException when the URL is not an {@code http://} or {@code https://} URL with a host, the
     *     timeout is not positive, the size limit is outside 1..2^30 bytes, or the decoding limit is below 1
     */
    public static HttpService service(String url, Duration callTimeout, long maxResponseBytes, long maxDecodedBytes) {
        Objects.requireNonNull(url, "url");
        // Left to the first call, a malformed URL surfaces as a failed call (and is retried as one) instead of a
        // refusal that names it.
        if (!isHttpUrl(url)) {
            String shown = url.length() <= 200 ? url : url.substring(0, 200) + "... (" + url.length() + " chars)";
            throw new IllegalArgumentException("JSON-RPC URL '" + shown + "' is not an http:// or https:// URL with a"
                    + " host (and a port up to 65535, if any), e.g. http://127.0.0.1:8545");
        }
        return new HttpService(url, client(callTimeout, maxResponseBytes, maxDecodedBytes));
    }

    /**
     * The OkHttp client behind {@link #service(String, Duration, long)}, for callers that configure more of it
     * ({@code client(...).newBuilder()} keeps the timeout and the limit).
     *
     * @throws IllegalArgumentException when the timeout is not positive, or the limit is outside 1..2^30 bytes
     */
    public static OkHttpClient client(Duration callTimeout, long maxResponseBytes) {
        return client(callTimeout, maxResponseBytes, defaultMaxDecodedBytes());
    }

    /**
     * The OkHttp client behind {@link #service(String, Duration, long, long)}.
     *
     * @throws IllegalArgumentException when the timeout is not positive, the size limit is outside 1..2^30 bytes, or
     *     the decoding limit is below 1
     */
    public static OkHttpClient client(Duration callTimeout, long maxResponseBytes, long maxDecodedBytes) {
        Objects.requireNonNull(callTimeout, "callTimeout");
        if (callTimeout.isNegative() || callTimeout.toMillis() < 1) {
            // A zero callTimeout means "no limit" to OkHttp.
            throw new IllegalArgumentException("call timeout is " + callTimeout.toMillis()
                    + " ms; it must be at least 1 ms");
        }
        if (maxResponseBytes < 1 || maxResponseBytes > MAX_RESPONSE_BYTES) {
            throw new IllegalArgumentException("response size limit is " + maxResponseBytes + " bytes; it must be 1.."
                    + MAX_RESPONSE_BYTES);
        }
        if (maxDecodedBytes < 1) {
            throw new IllegalArgumentException("decoding limit is " + maxDecodedBytes + " bytes; it must be at least 1");
        }
        return new OkHttpClient.Builder().callTimeout(callTimeout)
                .addInterceptor(new SizeLimit(maxResponseBytes, maxDecodedBytes)).build();
    }

    /**
     * Replaces each response body by one that counts what is read of it; reads a successful answer whole and refuses it
     * when decoding it could take more than the decoding limit.
     */
    private static final class SizeLimit implements Interceptor {
        private final long limit;
        private final long decodeLimit;

        SizeLimit(long limit, long decodeLimit) {
            this.limit = limit;
            this.decodeLimit = decodeLimit;
        }

        @Override
        public Response intercept(Chain chain) throws IOException {
            Response response = chain.proceed(chain.request());
            ResponseBody body = response.body();
            if (body == null) {
                return response;
            }
            String url = String.valueOf(response.request().url());
            long declared = body.contentLength();
            if (declared > limit) {
                chain.call().cancel();
                response.close();
                throw new ResponseTooLargeException("the JSON-RPC answer from " + url + " declares " + declared
                        + " bytes (Content-Length); the response size limit is " + limit + " bytes", limit);
            }
            ResponseBody counted = new CountedBody(body, limit, url, chain.call());
            if (!response.isSuccessful()) {
                // An HTTP error's body is read as text (web3j quotes it), never decoded as JSON.
                return response.newBuilder().body(counted).build();
            }
            Buffer whole = new Buffer();
            try {
                counted.source().readAll(whole);
            } catch (IOException e) {
                response.close();
                throw e;
            }
            response.close();
            if (whole.size() > decodeLimit / JsonDecodeCost.MAX_PER_BYTE) {
                long cost = JsonDecodeCost.estimate(whole.peek().inputStream(), whole.size(), decodeLimit);
                if (cost > decodeLimit) {
                    throw new ResponseTooLargeException("the JSON-RPC answer from " + url + " (" + whole.size()
                            + " bytes) would take more than the decoding limit of " + decodeLimit
                            + " bytes of heap to decode (estimated from its JSON tokens)", decodeLimit);
                }
            }
            return response.newBuilder().body(ResponseBody.create(whole, body.contentType(), whole.size())).build();
        }
    }

    /**
     * A body that fails once more than {@code limit} bytes have been read from it, and cancels its call: closing an
     * unfinished body would otherwise make OkHttp read and discard the rest for up to 100 ms to reuse the connection,
     * tens of megabytes of an endless answer on a fast link.
     */
    private static final class CountedBody extends ResponseBody {
        private final ResponseBody delegate;
        private final BufferedSource source;

        CountedBody(ResponseBody delegate, long limit, String url, Call call) {
            this.delegate = delegate;
            this.source = Okio.buffer(new ForwardingSource(delegate.source()) {
                private long read;

                @Override
                public long read(Buffer sink, long byteCount) throws IOException {
                    // Ask for no more than one byte past the limit: that byte tells a body longer than the limit
                    // from one that ends at it, and nothing beyond it is ever buffered.
                    long n = super.read(sink, Math.min(byteCount, limit - read + 1));
                    if (n > 0) {
                        read += n;
                        if (read > limit) {
                            call.cancel();
                            throw new ResponseTooLargeException("the JSON-RPC answer from " + url
                                    + " exceeds the response size limit of " + limit + " bytes", limit);
                        }
                    }
                    return n;
                }
            });
        }

        @Override
        public MediaType contentType() {
            return delegate.contentType();
        }

        @Override
        public long contentLength() {
            return delegate.contentLength();
        }

        @Override
        public BufferedSource source() {
            return source;
        }
    }
}
