package org.chainfilter.ethbloom.scan;

import java.io.IOException;

/**
 * A JSON-RPC answer longer than the response size limit of the client that read it ({@link BoundedHttp}): either its
 * {@code Content-Length} declared more, or more bytes than the limit arrived; or an answer whose decoding would take
 * more heap than the client's decoding limit (an estimate from its tokens, made before anything is decoded). The answer
 * is abandoned; what was read of it is discarded. The scanner treats it like a provider's "response too large": it splits an {@code eth_getLogs}
 * range or sends smaller batches, and stops when a single call is still too large.
 */
public final class ResponseTooLargeException extends IOException {
    private static final long serialVersionUID = 1L;

    private final long limitBytes;

    ResponseTooLargeException(String message, long limitBytes) {
        super(message);
        this.limitBytes = limitBytes;
    }

    /**
     * The limit that was exceeded: the response size limit, in bytes of the (decompressed) body, or the decoding limit,
     * in bytes of heap; the message says which.
     */
    public long limitBytes() {
        return limitBytes;
    }
}
