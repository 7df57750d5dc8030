package org.chainfilter.testvectors;

/**
 * A vector the implementation under test cannot check in full, because it does not expose what a field states (an
 * independent peer without the API, for instance): the runner reports it as skipped with this reason, never as passed.
 * Thrown after every field that can be checked matched (a difference there is a {@link Mismatch}).
 */
public final class NotCheckable extends Exception {
    private static final long serialVersionUID = 1L;

    public NotCheckable(String reason) {
        super(reason, null, false, false);
    }
}
