package org.chainfilter.ethbloom.scan;

import java.util.List;
import java.util.Objects;
import org.web3j.protocol.Web3jService;
import org.web3j.protocol.core.methods.response.EthBlock;

/**
 * Block headers from a JSON-RPC node, read the way {@link BlockScanner} reads them: batched
 * {@code eth_getBlockByNumber} calls, bounded retries with backoff on transient failures (timeouts, HTTP 429 and 5xx,
 * rate limits, a block a lagging backend does not have yet), batches halved when the node refuses a batch (geth's
 * {@code --rpc.batch-request-limit} and {@code --rpc.batch-response-max-size}) or when this client's timeout (e.g.
 * {@link BoundedHttp}'s call timeout) cuts a batch off twice in a row, down to one header per request (the listener's
 * {@link ScanListener#onBatchHalved}), and each answer checked to be the block asked for with a well-formed hash. One
 * header that keeps timing out ends the read with a {@link ScanException} naming the block and the timeout. For tools
 * that need headers without scanning logs, such as a section-index builder. Not thread-safe; what it learns about the
 * node's batch limit lasts for the reader's life.
 */
public final class HeaderReader {
    private final RpcSession session;

    /**
     * @param service the node, e.g. {@link BoundedHttp#service}
     * @param batchSize headers per batch at first, 1 to {@link BlockScanner.Builder#MAX_HEADER_BATCH_SIZE}
     * @param listener told of each retry and each halving of the batch size
     * @throws IllegalArgumentException if the batch size is out of range
     */
    public HeaderReader(Web3jService service, RetryPolicy retryPolicy, int batchSize, ScanListener listener) {
        if (batchSize < 1 || batchSize > BlockScanner.Builder.MAX_HEADER_BATCH_SIZE) {
            throw new IllegalArgumentException("header batch size is " + batchSize + "; it must be 1.."
                    + BlockScanner.Builder.MAX_HEADER_BATCH_SIZE);
        }
        this.session = new RpcSession(Objects.requireNonNull(service, "service"),
                Objects.requireNonNull(retryPolicy, "retryPolicy"), delay -> Thread.sleep(delay.toMillis()),
                Objects.requireNonNull(listener, "listener"), new RpcSession.Limits(batchSize, 1), () -> false);
    }

    /**
     * The node's head, {@code eth_blockNumber}.
     *
     * @throws ScanException if the node refuses it or the retries run out
     */
    public long blockNumber() {
        return session.blockNumber();
    }

    /**
     * The headers of blocks {@code first..last} (without transactions), in order.
     *
     * @throws IllegalArgumentException if the range is empty, negative or wider than {@code Integer.MAX_VALUE}
     * @throws ScanException if the node refuses a header, answers another block, or the retries run out (also for one
     *                       header that this client's timeout keeps cutting off: the message names the block)
     */
    public List<EthBlock.Block> blocks(long first, long last) {
        if (first < 0 || last < first || last - first >= Integer.MAX_VALUE) {
            throw new IllegalArgumentException("block range " + first + ".." + last + " is not a range of 1 to "
                    + Integer.MAX_VALUE + " blocks from 0 on");
        }
        return session.blocks(first, last);
    }

    /** Calls retried so far. */
    public long retries() {
        return session.retries();
    }
}
