package org.chainfilter.bench;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * A JMH profiler that reports the benchmark JVM's CPU time per operation ({@code cpu.time.norm}, ns/op): process CPU
 * time over the iteration divided by the operations the iteration ran. On a machine shared with other work,
 * throughput measures how much of the CPU the benchmark got as much as how fast it is; CPU time per operation does
 * not, so two libraries measured at different moments can still be compared. It counts every thread of the JVM:
 * garbage collection is part of the cost of allocating, and the JIT is idle after warm-up. Use it as
 * {@code -prof org.chainfilter.bench.CpuTimeProfiler}.
 */
public final class CpuTimeProfiler implements InternalProfiler {
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private long startNanos;

    @Override
    public String getDescription() {
        return "process CPU time per operation, robust against other load on the machine";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        startNanos = OS.getProcessCpuTime();
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams,
            IterationParams iterationParams, IterationResult result) {
        long cpuNanos = OS.getProcessCpuTime() - startNanos;
        long ops = result.getMetadata().getAllOps();
        double perOp = ops == 0 ? Double.NaN : (double) cpuNanos / ops;
        return List.of(new ScalarResult("cpu.time.norm", perOp, "ns/op", AggregationPolicy.AVG));
    }
}
