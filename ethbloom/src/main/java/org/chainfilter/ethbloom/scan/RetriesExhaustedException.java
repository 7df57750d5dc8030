package org.chainfilter.ethbloom.scan;

/**
 * A call failed transiently (a transport error, a timeout, HTTP 429 or 5xx, a rate limit, a block a lagging backend
 * did not have yet) as many times in a row as the {@link RetryPolicy} allows. Nothing of the batch in progress was
 * emitted, so the checkpoint is where it was. A one-off scan reports it; a caller that runs for long (a follow) may
 * wait and scan again when {@link #nodeAnswered} is false: the node answered no call of the scan, so it may only be
 * away for a while (restarting, unreachable). When it is true, the node answered other calls and this one fails by
 * itself (one block it cannot serve within the call timeout, say), which waiting seldom cures.
 */
public final class RetriesExhaustedException extends ScanException {
    private static final long serialVersionUID = 1L;

    private final boolean nodeAnswered;

    public RetriesExhaustedException(String message, boolean nodeAnswered) {
        super(message);
        this.nodeAnswered = nodeAnswered;
    }

    /** Whether the node answered any call of the scan before this one ran out of retries. */
    public boolean nodeAnswered() {
        return nodeAnswered;
    }
}
