package org.chainfilter.ethbloom.scan;

/**
 * The checkpoint's last block has another hash on the node now: the chain reorganised at or below the block the
 * checkpoint vouches for, so the logs emitted up to it may not be the chain's any more, and the scan cannot go on from
 * it. Resuming from the same checkpoint fails the same way; rescan from an earlier block with a new checkpoint.
 */
public final class CheckpointReorganisedException extends ScanException {
    private static final long serialVersionUID = 1L;

    private final long checkpointBlock;

    public CheckpointReorganisedException(long checkpointBlock, String hashNow, String checkpointHash) {
        super("block " + checkpointBlock + " now has hash " + hashNow + " but the checkpoint recorded "
                + checkpointHash + ": the chain reorganised below the checkpoint; rescan from an earlier block with a"
                + " new checkpoint (and more confirmations)");
        this.checkpointBlock = checkpointBlock;
    }

    /** The checkpoint's last block, whose hash changed. */
    public long checkpointBlock() {
        return checkpointBlock;
    }
}
