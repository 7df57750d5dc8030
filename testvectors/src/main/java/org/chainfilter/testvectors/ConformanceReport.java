package org.chainfilter.testvectors;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.chainfilter.testvectors.VectorResult.Outcome;

/**
 * All results of one run, with the counts the schema's last line reports: {@code N passed, N failed}, and
 * {@code , N skipped} only when a vector was skipped: a file of an unknown suite (the schema's case), or a vector that
 * an independent peer under test cannot fully check ({@link NotCheckable}, never counted as passed). Immutable.
 */
public final class ConformanceReport {
    private final List<VectorResult> results;

    ConformanceReport(List<VectorResult> results) {
        this.results = List.copyOf(results);
    }

    /** Every vector's result, in run order. */
    public List<VectorResult> results() {
        return results;
    }

    /** How many vectors passed. */
    public long passed() {
        return count(Outcome.PASSED);
    }

    /** How many vectors failed (a mismatch, a malformed field, or an exception of the implementation). */
    public long failed() {
        return count(Outcome.FAILED);
    }

    /**
     * How many vectors were skipped: no executor knows their suite, or the peer under test cannot check a field they
     * state ({@link NotCheckable}).
     */
    public long skipped() {
        return count(Outcome.SKIPPED);
    }

    /** The failed results, in run order. */
    public List<VectorResult> failures() {
        return results.stream().filter(r -> r.outcome() == Outcome.FAILED).toList();
    }

    /** Vectors run per suite (passed plus failed), in first-seen order. */
    public Map<String, Integer> vectorsPerSuite() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (VectorResult r : results) {
            if (r.outcome() != Outcome.SKIPPED) {
                counts.merge(r.suite(), 1, Integer::sum);
            }
        }
        return Collections.unmodifiableMap(counts);
    }

    /** Passed vectors per suite, in first-seen order. */
    public Map<String, Integer> passedPerSuite() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (VectorResult r : results) {
            if (r.outcome() != Outcome.SKIPPED) {
                counts.merge(r.suite(), r.outcome() == Outcome.PASSED ? 1 : 0, Integer::sum);
            }
        }
        return Collections.unmodifiableMap(counts);
    }

    /** True when nothing failed. */
    public boolean succeeded() {
        return failed() == 0;
    }

    /** The schema's last line: {@code 312 passed, 0 failed} (plus {@code , 2 skipped} when vectors were skipped). */
    public String summaryLine() {
        long skipped = skipped();
        return passed() + " passed, " + failed() + " failed" + (skipped > 0 ? ", " + skipped + " skipped" : "");
    }

    private long count(Outcome outcome) {
        return results.stream().filter(r -> r.outcome() == outcome).count();
    }

    @Override
    public String toString() {
        return summaryLine();
    }
}
