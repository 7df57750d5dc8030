package org.chainfilter.ethbloom.scan;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.web3j.protocol.exceptions.ClientConnectionException;

/**
 * What a failed JSON-RPC call means to a scanner: the request was too big (split it), the provider is momentarily
 * unable (retry later), or the request is wrong (stop). The shapes are those that public providers and clients answer
 * with:
 * <ul>
 *   <li>too big: Infura {@code -32005} "query returned more than 10000 results"; Alchemy and others {@code -32602}
 *   "Log response size exceeded" / "range exceeds limit"; QuickNode, Ankr "block range is too large"; geth
 *   {@code --rpc.rangelimit} "exceed maximum block range"; Besu {@code -32602}/"Requested range exceeds maximum range
 *   limit"; reth {@code -32602} "query exceeds max results 20000, retry with the range …" and "query exceeds max
 *   block range …"; {@code -32614} "eth_getLogs is limited to a 10,000 range"; Alchemy's free tier, HTTP 400 with
 *   {@code -32600} "… up to a 10 block range"; geth and Alchemy "query timeout exceeded" (a query too heavy to
 *   finish: "consider reducing your block range"); HTTP 413; an answer above this client's own size limit
 *   ({@link ResponseTooLargeException});</li>
 *   <li>transient: connection failures and timeouts (this client's own timeout on an {@code eth_getLogs} range
 *   splits it when it happens twice: {@link #isClientTimeout}), HTTP 429 and 5xx, Infura {@code -32005} when its
 *   message speaks of a rate or request count, "header not found" / "unknown block" (geth, anvil; also their answer
 *   to an EIP-234 {@code blockHash} query for a block they do not have), erigon's "block not found: …" and
 *   Nethermind's -32001 "… could not be found" from a load-balanced backend that lags, and geth's
 *   {@code -32602} "block range extends beyond current head block" (execution-apis
 *   {@code eth_getLogs/filter-error-future-block-range}) from one whose head is below blocks another backend already
 *   served, "timeout" and "try again";</li>
 *   <li>anything else is fatal.</li>
 * </ul>
 */
final class ProviderErrors {
    /** The three answers. */
    enum Kind { TOO_LARGE, TRANSIENT, FATAL }

    private static final String[] TOO_LARGE_MESSAGES = {
        "query returned more than", "more than 10000 results", "range exceeds limit", "range is too large",
        "range too large", "exceed maximum block range", "exceeds maximum range", "exceeds max range",
        "response size exceeded", "response size should not", "too many results", "block range limit",
        "batch too large", "batch size too large", "exceeds max results", "max block range",
    };
    /**
     * A provider's stated range limit: "eth_getLogs is limited to a 10,000 range" (-32614), Alchemy's free tier "you
     * can make eth_getLogs requests with up to a 10 block range" (-32600, with HTTP 400).
     */
    private static final Pattern RANGE_LIMIT = Pattern.compile("(limited to|up to) an? [0-9.,]+[km]? (block )?range");
    /** A query too heavy to finish: the same range would time out again, a narrower one may not. */
    private static final String[] SPLIT_HINTS = {
        "query timeout exceeded", "reduce your block range", "reducing your block range", "reduce the block range",
    };
    private static final String[] TRANSIENT_MESSAGES = {
        "rate limit", "rate-limit", "request rate", "too many requests", "request count exceeded", "timeout",
        "timed out", "try again", "temporarily", "unavailable", "header not found", "unknown block", "busy",
        "beyond current head", "block not found", "could not be found",
    };
    private static final Pattern HTTP_STATUS = Pattern.compile("Invalid response received: (\\d{3})");

    private ProviderErrors() {
    }

    /** A JSON-RPC error object ({@code code}, {@code message}). */
    static Kind classify(int code, String message) {
        String text = message == null ? "" : message.toLowerCase(Locale.ROOT);
        if (containsAny(text, SPLIT_HINTS)) {
            return Kind.TOO_LARGE;
        }
        // Infura uses -32005 both for "more than 10000 results" and for rate limiting: the message decides.
        if (containsAny(text, TRANSIENT_MESSAGES) || code == 429) {
            return Kind.TRANSIENT;
        }
        if (containsAny(text, TOO_LARGE_MESSAGES) || RANGE_LIMIT.matcher(text).find() || code == -32005) {
            return Kind.TOO_LARGE;
        }
        if (code == -32603) {
            return Kind.TRANSIENT;
        }
        return Kind.FATAL;
    }

    /**
     * Whether an error found inside a batch answer refuses the batch rather than its call: geth answers a batch above
     * {@code --rpc.batch-request-limit} with an array of one error, -32600 "batch too large", under the first call's
     * id ({@code rpc/handler.go respondWithBatchTooLarge}), and the calls left once a batch's answer passed
     * {@code --rpc.batch-response-max-size} (25 MB by default) with -32003 "response too large"
     * ({@code handleBatch}). The same calls pass in a smaller batch.
     */
    static boolean refusesBatch(int code, String message) {
        String text = message == null ? "" : message.toLowerCase(Locale.ROOT);
        return text.contains("batch too large") || text.contains("batch size too large")
                || code == -32003 && text.contains("response too large");
    }

    /** An HTTP status other than 200. */
    static Kind classifyHttpStatus(int status) {
        if (status == 413) {
            return Kind.TOO_LARGE;
        }
        if (status == 408 || status == 425 || status == 429 || status >= 500) {
            return Kind.TRANSIENT;
        }
        return Kind.FATAL;
    }

    /** An exception thrown by the transport (web3j wraps HTTP statuses in {@link ClientConnectionException}). */
    static Kind classify(Throwable failure) {
        if (failure instanceof ResponseTooLargeException) {
            // The same call would bring the same answer; a narrower range or a smaller batch brings less.
            return Kind.TOO_LARGE;
        }
        if (failure instanceof ClientConnectionException) {
            String message = String.valueOf(failure.getMessage());
            Matcher status = HTTP_STATUS.matcher(message);
            if (!status.find()) {
                return Kind.TRANSIENT;
            }
            Kind kind = classifyHttpStatus(Integer.parseInt(status.group(1)));
            // A refusal whose body states a range limit (Alchemy answers HTTP 400 with -32600 "... up to a 10 block
            // range"): the range is what to change, not a request to give up on.
            return kind == Kind.FATAL && classify(0, message) == Kind.TOO_LARGE ? Kind.TOO_LARGE : kind;
        }
        if (failure instanceof IOException || failure instanceof UncheckedIOException) {
            return Kind.TRANSIENT;
        }
        return Kind.FATAL;
    }

    /**
     * Whether a JSON-RPC error is the node giving up on a call it could not finish in time: geth answers a call that
     * outlives its HTTP write timeout (30 s by default) with -32002 "request timed out" ({@code rpc/errors.go}). Like
     * this client's own timeout ({@link #isClientTimeout}) it is retried first and splits an {@code eth_getLogs} range
     * when it comes again; as a plain transient error the same range was asked for until the retries ran out.
     */
    static boolean isServerTimeout(int code, String message) {
        return code == -32002 && message != null && message.toLowerCase(Locale.ROOT).contains("timed out");
    }

    /**
     * Whether {@code failure} is this client giving up on an answer that did not come in time: OkHttp's call timeout
     * ({@link BoundedHttp}) ends a call with an {@link InterruptedIOException} "timeout", its read timeout with a
     * {@link java.net.SocketTimeoutException} (a subclass). Such a call reached the node, which may still be working
     * on it: unlike the node's own "query timeout exceeded" it does not say the query was too heavy, only that it
     * took longer than this client waits, so the scanner retries it first and splits an {@code eth_getLogs} range only
     * when it times out again. A connect timeout ("connect timed out") is not one: the node was never reached.
     */
    static boolean isClientTimeout(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof InterruptedIOException) {
                String message = String.valueOf(cause.getMessage()).toLowerCase(Locale.ROOT);
                return !message.contains("connect");
            }
        }
        return false;
    }

    private static boolean containsAny(String text, String[] needles) {
        for (String needle : needles) {
            if (text.contains(needle)) {
                return true;
            }
        }
        return false;
    }
}
