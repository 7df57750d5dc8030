package org.chainfilter.ethbloom.index;

/** A section index file that is corrupt, truncated, of another version, or inconsistent with its neighbours. */
public final class IndexFormatException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /** An exception whose message names the file and what is wrong with it. */
    public IndexFormatException(String message) {
        super(message);
    }
}
