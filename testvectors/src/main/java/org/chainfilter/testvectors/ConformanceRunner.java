package org.chainfilter.testvectors;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.chainfilter.testvectors.VectorResult.Outcome;

/**
 * Runs vector files through one {@link SuiteExecutor} per suite and collects a {@link ConformanceReport}.
 *
 * <p>A vector passes when its executor returns, and fails with the executor's first {@link Mismatch}, with the
 * {@link VectorFormatException} of a malformed field, or with whatever the implementation threw (named with its
 * type, so that a crash is never mistaken for a pass). The vectors of a file whose suite has no executor are
 * skipped, one result per vector, as the schema asks of a runner that does not know a suite.
 *
 * <p>A run does not change the runner: it can be reused, and used from several threads when its executors allow it
 * (chainfilter's own, {@code ChainfilterSuites}, hold no state).
 */
public final class ConformanceRunner {
    private final Map<String, SuiteExecutor> executors = new LinkedHashMap<>();

    /** A runner with these executors; two executors for one suite are refused. */
    public ConformanceRunner(Collection<? extends SuiteExecutor> executors) {
        for (SuiteExecutor executor : executors) {
            SuiteExecutor earlier = this.executors.putIfAbsent(executor.suite(), executor);
            if (earlier != null) {
                throw new IllegalArgumentException("two executors for suite '" + executor.suite() + "': "
                        + earlier.getClass().getName() + " and " + executor.getClass().getName());
            }
        }
    }

    /** The suites this runner can execute. */
    public List<String> suites() {
        return List.copyOf(executors.keySet());
    }

    /**
     * Runs every vector of {@code files}, in order, and reports each as passed, failed or skipped; never throws for a
     * failing or malformed vector (that is a failed result), nor for a vector whose implementation throws a
     * {@code RuntimeException}, an {@code AssertionError}, a {@code LinkageError} (a peer's missing class or failed
     * static initialiser), a {@code StackOverflowError} or an {@code OutOfMemoryError} (each a failed result).
     */
    public ConformanceReport run(List<VectorFile> files) {
        return run(files, result -> { });
    }

    /** Runs every vector of every file in order, handing each result to {@code listener} as it is known. */
    public ConformanceReport run(List<VectorFile> files, Consumer<VectorResult> listener) {
        List<VectorResult> results = new ArrayList<>();
        for (VectorFile file : files) {
            SuiteExecutor executor = executors.get(file.suite());
            for (Vector vector : file.vectors()) {
                VectorResult result = executor == null
                        ? new VectorResult(file.origin(), file.suite(), vector.name(), Outcome.SKIPPED,
                                "unknown suite '" + file.suite() + "'")
                        : runOne(executor, file, vector);
                results.add(result);
                listener.accept(result);
            }
        }
        return new ConformanceReport(results);
    }

    private static VectorResult runOne(SuiteExecutor executor, VectorFile file, Vector vector) {
        try {
            executor.check(vector);
            return new VectorResult(file.origin(), file.suite(), vector.name(), Outcome.PASSED, "");
        } catch (Mismatch mismatch) {
            return failed(file, vector, mismatch.getMessage());
        } catch (NotCheckable partly) {
            return new VectorResult(file.origin(), file.suite(), vector.name(), Outcome.SKIPPED, partly.getMessage());
        } catch (VectorFormatException malformed) {
            return new VectorResult(file.origin(), file.suite(), vector.name(), Outcome.FAILED,
                    "malformed vector: " + malformed.getMessage(), true);
        } catch (RuntimeException | AssertionError | LinkageError | StackOverflowError | OutOfMemoryError thrown) {
            // An implementation's own assertion (run with -ea), a peer library missing a class or failing its static
            // initialisation, a deep or large input: that vector fails and the run goes on. Other Errors (a JVM
            // fault, ThreadDeath) are not the implementation's answer and end the run.
            return failed(file, vector, "threw " + thrown.getClass().getSimpleName() + ": " + thrown.getMessage());
        }
    }

    private static VectorResult failed(VectorFile file, Vector vector, String detail) {
        return new VectorResult(file.origin(), file.suite(), vector.name(), Outcome.FAILED, detail);
    }
}
