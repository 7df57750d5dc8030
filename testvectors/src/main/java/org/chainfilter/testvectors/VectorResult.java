package org.chainfilter.testvectors;

import java.util.Objects;

/**
 * The outcome of one vector: which file and vector, and for a failure the first mismatch (or the exception the
 * implementation threw).
 *
 * @param file    the file's origin (path or bundled name)
 * @param suite   the file's suite
 * @param vector  the vector's name; empty when a whole file was skipped
 * @param outcome passed, failed or skipped
 * @param detail  the first mismatch of a failure, the reason of a skip, empty for a pass
 */
public record VectorResult(String file, String suite, String vector, Outcome outcome, String detail) {
    /** What happened to a vector. */
    public enum Outcome { PASSED, FAILED, SKIPPED }

    public VectorResult {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(suite, "suite");
        Objects.requireNonNull(vector, "vector");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(detail, "detail");
    }

    /** One line for a report: {@code FAILED bip37-filter.core.json vector 'x': filterload: expected … got …}. */
    public String describe() {
        String which = vector.isEmpty() ? file : file + " '" + vector + "'";
        return outcome + " " + which + (detail.isEmpty() ? "" : ": " + detail);
    }
}
