package org.chainfilter.ethbloom.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import org.chainfilter.ethbloom.scan.ProviderErrors.Kind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.web3j.protocol.exceptions.ClientConnectionException;
import org.junit.jupiter.api.Test;

/** The error shapes of public providers and clients, and what the scanner makes of them. */
class ProviderErrorsTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        // Infura
        "-32005|query returned more than 10000 results. Try with this block range [0x1, 0x2].|TOO_LARGE",
        "-32005|daily request count exceeded, request rate limited|TRANSIENT",
        "-32005|limit exceeded|TOO_LARGE",
        // Alchemy
        "-32602|Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range|TOO_LARGE",
        "429|Your app has exceeded its compute units per second capacity|TRANSIENT",
        // QuickNode, Ankr, geth --rpc.rangelimit, Besu
        "-32000|block range is too large|TOO_LARGE",
        "-32602|eth_getLogs block range exceeds limit of 10000|TOO_LARGE",
        "-32000|exceed maximum block range: 5000|TOO_LARGE",
        "-32602|Requested range exceeds maximum range limit|TOO_LARGE",
        // a query too heavy to finish in time: a narrower range may
        "-32000|query timeout exceeded|TOO_LARGE",
        "-32603|Query timeout exceeded. Consider reducing your block range.|TOO_LARGE",
        // lagging backends, overloaded nodes
        "-32000|header not found|TRANSIENT",
        "-32000|unknown block|TRANSIENT",
        // an EIP-234 blockHash query for a block the backend does not have: erigon (turbo/jsonrpc GetLogs),
        // Nethermind (BlockFinder SearchForHeader, ErrorCodes.ResourceNotFound)
        "-32000|block not found: 5e1cd6bbbba8c2ec6d4e6a3bc9ed9bd0d1f3c0ac1f2ab7a31d2ed7a6f3ee7d52|TRANSIENT",
        "-32001|0x5e1cd6bbbba8c2ec6d4e6a3bc9ed9bd0d1f3c0ac1f2ab7a31d2ed7a6f3ee7d52 could not be found|TRANSIENT",
        // geth, execution-apis tests/eth_getLogs/filter-error-future-block-range.io: a backend behind the head we read
        "-32602|block range extends beyond current head block|TRANSIENT",
        "-32000|request timed out|TRANSIENT",
        "-32603|internal error|TRANSIENT",
        // range limits stated by reth (default 20,000 logs an answer), a -32614 provider, Alchemy's free tier
        "-32602|query exceeds max results 20000, retry with the range 18000000-18000099|TOO_LARGE",
        "-32602|query exceeds max block range 100000|TOO_LARGE",
        "-32614|eth_getLogs is limited to a 10,000 range|TOO_LARGE",
        "-32600|Under the Free tier plan, you can make eth_getLogs requests with up to a 10 block range.|TOO_LARGE",
        // wrong requests
        "-32601|the method eth_getLogs does not exist/is not available|FATAL",
        "-32602|invalid argument 0: hex string without 0x prefix|FATAL",
        "-32000|invalid block range params|FATAL",
    })
    void classifiesJsonRpcErrors(int code, String message, Kind kind) {
        assertEquals(kind, ProviderErrors.classify(code, message));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        // geth rpc/handler.go: a batch above --rpc.batch-request-limit, the calls past --rpc.batch-response-max-size
        "-32600|batch too large|true",
        "-32003|response too large|true",
        "-32600|batch size too large: at most 10 calls|true",
        // a call's own answer, not the batch's
        "-32000|response too large|false",
        "-32602|Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range|false",
        "-32005|query returned more than 10000 results|false",
    })
    void tellsABatchRefusedInsideItsAnswerFromACallRefused(int code, String message, boolean refusesBatch) {
        assertEquals(refusesBatch, ProviderErrors.refusesBatch(code, message));
    }

    @ParameterizedTest
    @CsvSource({"413,TOO_LARGE", "408,TRANSIENT", "429,TRANSIENT", "500,TRANSIENT", "502,TRANSIENT", "503,TRANSIENT",
        "504,TRANSIENT", "400,FATAL", "401,FATAL", "403,FATAL", "404,FATAL"})
    void classifiesHttpStatuses(int status, Kind kind) {
        assertEquals(kind, ProviderErrors.classifyHttpStatus(status));
        assertEquals(kind, ProviderErrors.classify(
                new ClientConnectionException("Invalid response received: " + status + "; body")));
    }

    /**
     * Alchemy's free tier refuses a wide range with HTTP 400 and a -32600 body stating the limit: a range to split,
     * not a wrong request. A 400 with another body stays fatal.
     */
    @Test
    void anHttpRefusalWhoseBodyStatesARangeLimitIsARangeRefusal() {
        assertEquals(Kind.TOO_LARGE, ProviderErrors.classify(new ClientConnectionException("Invalid response received:"
                + " 400; {\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32600,\"message\":\"Under the Free tier"
                + " plan, you can make eth_getLogs requests with up to a 10 block range.\"}}")));
        assertEquals(Kind.FATAL, ProviderErrors.classify(new ClientConnectionException("Invalid response received:"
                + " 400; {\"error\":{\"code\":-32600,\"message\":\"invalid json request\"}}")));
    }

    /** geth's own timeout for a call past its HTTP write timeout, -32002 "request timed out" (rpc/errors.go). */
    @Test
    void tellsTheNodesOwnTimeoutFromOtherErrors() {
        assertTrue(ProviderErrors.isServerTimeout(-32002, "request timed out"));
        assertFalse(ProviderErrors.isServerTimeout(-32000, "request timed out"));
        assertFalse(ProviderErrors.isServerTimeout(-32002, null));
    }

    @Test
    void transportFailuresAreTransientOtherExceptionsFatal() {
        assertEquals(Kind.TRANSIENT, ProviderErrors.classify(new ConnectException("Connection refused")));
        assertEquals(Kind.TRANSIENT, ProviderErrors.classify(new SocketTimeoutException("timeout")));
        assertEquals(Kind.TRANSIENT, ProviderErrors.classify(new IOException("unexpected end of stream")));
        assertEquals(Kind.TRANSIENT, ProviderErrors.classify(new ClientConnectionException("closed")));
        assertEquals(Kind.FATAL, ProviderErrors.classify(new IllegalStateException("bug")));
        // Above this client's own size limit: an IOException, but the same call would bring the same answer.
        assertEquals(Kind.TOO_LARGE, ProviderErrors.classify(new ResponseTooLargeException("too large", 100)));
        assertEquals(Kind.FATAL, ProviderErrors.classify(0, null));
    }

    @Test
    void tellsThisClientsTimeoutsFromOtherTransportFailures() {
        // OkHttp's call timeout (BoundedHttp), its read timeout, and either as the cause of another exception
        assertTrue(ProviderErrors.isClientTimeout(new InterruptedIOException("timeout")));
        assertTrue(ProviderErrors.isClientTimeout(new SocketTimeoutException("Read timed out")));
        assertTrue(ProviderErrors.isClientTimeout(new IOException("canceled", new InterruptedIOException("timeout"))));
        // the node never reached, or failed otherwise: not a query too slow to answer
        assertFalse(ProviderErrors.isClientTimeout(new SocketTimeoutException("Connect timed out")));
        assertFalse(ProviderErrors.isClientTimeout(new ConnectException("Connection refused")));
        assertFalse(ProviderErrors.isClientTimeout(new IOException("unexpected end of stream")));
        assertFalse(ProviderErrors.isClientTimeout(new ClientConnectionException("Invalid response received: 503;")));
        assertFalse(ProviderErrors.isClientTimeout(new ResponseTooLargeException("too large", 100)));
    }
}
