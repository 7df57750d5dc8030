package org.chainfilter.ethbloom.scan;

/**
 * The scan was cancelled ({@link BlockScanner.Session#cancel}) while it still had calls to send or retry. Logs are
 * only emitted once every call of their batch has been answered, so nothing of the batch in progress was emitted and
 * the checkpoint is where it was: a new scan with it resumes without a gap or a repeat.
 */
public final class ScanCancelledException extends ScanException {
    private static final long serialVersionUID = 1L;

    public ScanCancelledException(String message) {
        super(message);
    }
}
