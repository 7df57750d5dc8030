package org.chainfilter.testvectors;

import java.util.Objects;

/**
 * The outcome of one vector: which file and vector, and for a failure the first mismatch (or the exception the
 * implementation threw, or why the vector itself is malformed).
 *
 * @param file      the file's origin (path or bundled name)
 * @param suite     the file's suite
 * @param vector    the vector's name
 * @param outcome   passed, failed or skipped
 * @param detail    the first mismatch of a failure, the reason of a skip, empty for a pass
 * @param malformed whether the failure is the vector's own (a field missing or of the wrong form), not the
 *                  implementation's answer; only a failure can be malformed
 */
public record VectorResult(String file, String suite, String vector, Outcome outcome, String detail,
        boolean malformed) {
    /** What happened to a vector. */
    public enum Outcome { PASSED, FAILED, SKIPPED }

    public VectorResult {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(suite, "suite");
        Objects.requireNonNull(vector, "vector");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(detail, "detail");
        if (malformed && outcome != Outcome.FAILED) {
            throw new IllegalArgumentException("a " + outcome + " vector cannot be malformed; only a failure is");
        }
    }

    /** A result that is not a malformed vector's. */
    public VectorResult(String file, String suite, String vector, Outcome outcome, String detail) {
        this(file, suite, vector, outcome, detail, false);
    }

    /** One line for a report: {@code FAILED bip37-filter.core.json vector 'x': filterload: expected … got …}. */
    public String describe() {
        String which = vector.isEmpty() ? file : file + " '" + vector + "'";
        return outcome + " " + which + (detail.isEmpty() ? "" : ": " + detail);
    }
}
