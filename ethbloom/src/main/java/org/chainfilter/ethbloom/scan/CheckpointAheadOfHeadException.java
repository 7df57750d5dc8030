package org.chainfilter.ethbloom.scan;

/**
 * The checkpoint is past the node's head: its last block is above the block number {@code eth_blockNumber} returned,
 * so its hash cannot be checked. Either the node is another chain or not synced that far, or, behind a load balancer,
 * this answer came from a node a few blocks behind the one that served the checkpointed block. A one-off scan
 * reports it; a caller that polls (a follow) may wait and ask again, since nothing was emitted and the checkpoint is
 * unchanged. A changed block hash is a different failure (a plain {@link ScanException}) and never this one.
 */
public final class CheckpointAheadOfHeadException extends ScanException {
    private static final long serialVersionUID = 1L;

    private final long checkpointBlock;
    private final long headBlock;

    public CheckpointAheadOfHeadException(long checkpointBlock, long headBlock) {
        super("the checkpoint is past block " + checkpointBlock + " but the node's head is " + headBlock
                + ": is this the same chain, fully synced?");
        this.checkpointBlock = checkpointBlock;
        this.headBlock = headBlock;
    }

    /** The last block the checkpoint covers ({@code nextBlock - 1}). */
    public long checkpointBlock() {
        return checkpointBlock;
    }

    /** The head the node reported. */
    public long headBlock() {
        return headBlock;
    }
}
