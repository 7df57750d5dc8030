package org.chainfilter.ethbloom.scan;

import java.util.Optional;

/**
 * A scan that cannot go on: a provider error that retrying or splitting cannot cure, retries exhausted, a checkpoint
 * that belongs to another filter, or a chain that changed under the checkpoint. Everything emitted before it was
 * thrown has been checkpointed, so a new scan with the same checkpoint resumes where this one stopped.
 * {@link CheckpointAheadOfHeadException} singles out the one case a caller may wait out.
 */
public class ScanException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private ScanSummary soFar;

    public ScanException(String message) {
        super(message);
    }

    public ScanException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * What the scan had done when this was thrown (the blocks it scanned, the logs it emitted, its retries), from its
     * first block; empty when it failed before its first batch began (reading the head, checking the checkpoint).
     */
    public Optional<ScanSummary> summarySoFar() {
        return Optional.ofNullable(soFar);
    }

    /** Records what the scan had done, once: the innermost scan's record stands. */
    ScanException withSummarySoFar(ScanSummary summary) {
        if (soFar == null) {
            soFar = summary;
        }
        return this;
    }
}
