package org.chainfilter.testvectors;

/**
 * The first difference between what a vector expects and what the implementation under test produced, e.g.
 * {@code filterload: expected 03614e9b… got 03614e8b… (first difference at byte 3)}. Checked, because a suite
 * executor reports it rather than fails with it.
 */
public final class Mismatch extends Exception {
    private static final long serialVersionUID = 1L;

    public Mismatch(String message) {
        super(message, null, false, false);
    }
}
