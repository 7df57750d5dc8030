package org.chainfilter.ethbloom.scan;

import java.time.Duration;

/**
 * Progress of a scan, for a user watching it. Every method has an empty default; calls come from the scanning thread.
 */
public interface ScanListener {
    /** A listener that ignores everything. */
    ScanListener NONE = new ScanListener() {
    };

    /** After each header batch has been processed and checkpointed: the totals so far. */
    default void onProgress(ScanSummary soFar) {
    }

    /** A call failed transiently and will be sent again after {@code delay} ({@code failure} counts from 1). */
    default void onRetry(String call, int failure, Duration delay, String problem) {
    }

    /**
     * An {@code eth_getLogs} range is being fetched in halves, and no later range is wider: the provider refused it as
     * too large, or this client's timeout cut it off twice in a row ({@code problem} says which).
     */
    default void onRangeSplit(long fromBlock, long toBlockInclusive, String problem) {
    }

    /**
     * JSON-RPC batches are {@code toCalls} calls at most from now on, where one of {@code fromCalls} was too much: the
     * provider refused the batch (geth's "batch too large" above {@code --rpc.batch-request-limit}, a response above
     * its size limit; every later batch), or this client's timeout cut a batch of headers off twice in a row (every
     * later batch of headers); {@code problem} says which. The calls of that batch are sent again in smaller batches.
     */
    default void onBatchHalved(int fromCalls, int toCalls, String problem) {
    }

    /**
     * Section {@code section} of the section index is not used in this scan, for {@code reason}: its last block has
     * another hash on the node (the chain was reorganised after the section was built: the index should be rebuilt),
     * or it is beyond the head, or beyond the head less the scan's confirmations (not yet confirmed, it may still
     * change in a reorganisation that the confirmations absorb). Its blocks are decided by their headers' blooms
     * instead, so no log is lost.
     */
    default void onIndexSectionNotUsed(long section, String reason) {
    }
}
