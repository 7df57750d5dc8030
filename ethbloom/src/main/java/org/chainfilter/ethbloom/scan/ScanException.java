package org.chainfilter.ethbloom.scan;

/**
 * A scan that cannot go on: a provider error that retrying or splitting cannot cure, retries exhausted, a checkpoint
 * that belongs to another filter, or a chain that changed under the checkpoint. Everything emitted before it was
 * thrown has been checkpointed, so a new scan with the same checkpoint resumes where this one stopped.
 * {@link CheckpointAheadOfHeadException} singles out the one case a caller may wait out.
 */
public class ScanException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ScanException(String message) {
        super(message);
    }

    public ScanException(String message, Throwable cause) {
        super(message, cause);
    }
}
