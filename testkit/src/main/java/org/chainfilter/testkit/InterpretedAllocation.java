package org.chainfilter.testkit;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Counts the bytes a hot path allocates where escape analysis cannot hide a per-call object: the probe class's
 * {@code main} runs in a fresh JVM without a compiler ({@code -Xint}) on this test's class path, measures its cases
 * with {@link #allocatedBytes} and prints the counts on one line, separated by spaces. One object of 16 bytes per call
 * shows as 16 bytes per call, so a count under the number of calls means no allocation per call.
 */
public final class InterpretedAllocation {
    private InterpretedAllocation() {
    }

    /**
     * Runs {@code probe} in an interpreted JVM and returns the numbers it printed.
     *
     * @throws AssertionError if the JVM does not finish in two minutes, exits with a failure, or prints other than
     *     {@code expectedCounts} numbers (its output is in the message)
     */
    public static long[] run(Class<?> probe, int expectedCounts) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(java.toString(), "-Xint", "-Xmx64m", "-cp",
                System.getProperty("java.class.path"), probe.getName()).redirectErrorStream(true).start();
        try {
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                throw new AssertionError("the -Xint JVM running " + probe.getName() + " did not finish in 120 s");
            }
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            String[] fields = output.split(" ");
            if (process.exitValue() != 0 || fields.length != expectedCounts) {
                throw new AssertionError("the -Xint JVM running " + probe.getName() + " exited with "
                        + process.exitValue() + " and printed: " + output);
            }
            long[] counts = new long[expectedCounts];
            for (int i = 0; i < expectedCounts; i++) {
                counts[i] = Long.parseLong(fields[i]);
            }
            return counts;
        } finally {
            process.destroyForcibly();
        }
    }

    /** Bytes this thread allocated while {@code work} ran. */
    public static long allocatedBytes(Runnable work) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        work.run();
        return threads.getCurrentThreadAllocatedBytes() - before;
    }
}
