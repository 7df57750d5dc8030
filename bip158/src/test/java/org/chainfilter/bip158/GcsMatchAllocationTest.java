package org.chainfilter.bip158;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The match paths allocate nothing per call, whatever the JIT does. A figure of 0 B/op under JMH could come from
 * escape analysis removing a per-call object; so the calls are also counted in JVMs where that cannot happen: one with
 * {@code -XX:-DoEscapeAnalysis} (C2 compiles, but keeps every {@code new}) and one with {@code -Xint} (no compiler at
 * all). A per-call object of even 16 bytes would show as at least 16 bytes per call; the bound is under 1 byte per
 * call so that a one-off allocation outside the calls cannot fail the test.
 */
class GcsMatchAllocationTest {
    @Test
    void matchingAllocatesNothingPerCallInThisJvm() {
        assertNoAllocationPerCall(measure(20_000, 10_000), 10_000);
    }

    @Test
    void matchingAllocatesNothingPerCallWithoutEscapeAnalysis() throws Exception {
        assertNoAllocationPerCall(measureInForkedJvm("-XX:-DoEscapeAnalysis", 20_000, 10_000), 10_000);
    }

    /** No compiler to warm up: the few calls before the count only load and link the classes. */
    @Test
    void matchingAllocatesNothingPerCallInTheInterpreter() throws Exception {
        assertNoAllocationPerCall(measureInForkedJvm("-Xint", 100, 1_000), 1_000);
    }

    private static void assertNoAllocationPerCall(long[] allocatedBytes, int calls) {
        String[] paths = {"match(byte[])", "matchAny(GcsQuery)", "matchAll(GcsQuery)"};
        for (int i = 0; i < paths.length; i++) {
            assertTrue(allocatedBytes[i] < calls, paths[i] + " allocated " + allocatedBytes[i] + " bytes over " + calls
                    + " calls");
        }
    }

    /**
     * Bytes this thread allocated over {@code calls} calls of each match path after {@code warmUpCalls} others: a
     * 200-element basic-parameter set, absent and present items alternating, a 5-item query.
     */
    static long[] measure(int warmUpCalls, int calls) {
        SplittableRandom random = new SplittableRandom(2024);
        GcsParams params = GcsParams.of(random.nextLong(), random.nextLong(), BasicFilter.P, BasicFilter.M);
        List<byte[]> members = items(random, 200);
        GcsFilter filter = GcsFilter.build(params, members);
        byte[][] probes = {members.get(17), items(random, 1).get(0), members.get(199), items(random, 1).get(0)};
        List<byte[]> wanted = items(random, 4);
        wanted.add(members.get(100));
        GcsQuery query = GcsQuery.of(wanted);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long[] allocated = new long[3];
        int hits = 0;
        for (int path = 0; path < 3; path++) {
            hits += run(path, filter, probes, query, warmUpCalls);
            long before = threads.getCurrentThreadAllocatedBytes();
            hits += run(path, filter, probes, query, calls);
            allocated[path] = threads.getCurrentThreadAllocatedBytes() - before;
        }
        // match: half the probes are members; matchAny: always true; matchAll: never (4 absent items).
        int expectedHits = (warmUpCalls + calls) / 2 + (warmUpCalls + calls);
        if (hits != expectedHits) {
            throw new AssertionError("the probes gave " + hits + " matches, expected " + expectedHits);
        }
        return allocated;
    }

    private static int run(int path, GcsFilter filter, byte[][] probes, GcsQuery query, int calls) {
        int hits = 0;
        for (int i = 0; i < calls; i++) {
            boolean hit = switch (path) {
                case 0 -> filter.match(probes[i & 3]);
                case 1 -> filter.matchAny(query);
                default -> filter.matchAll(query);
            };
            hits += hit ? 1 : 0;
        }
        return hits;
    }

    private static List<byte[]> items(SplittableRandom random, int count) {
        List<byte[]> items = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            byte[] item = new byte[22];
            random.nextBytes(item);
            items.add(item);
        }
        return items;
    }

    private static long[] measureInForkedJvm(String vmOption, int warmUpCalls, int calls)
            throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(java.toString(), "-Xmx128m", vmOption, "-cp",
                System.getProperty("java.class.path"), Probe.class.getName(), Integer.toString(warmUpCalls),
                Integer.toString(calls))
                .redirectErrorStream(true)
                .start();
        try {
            assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the " + vmOption + " JVM did not finish in 120 s");
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            assertEquals(0, process.exitValue(), output);
            String[] fields = output.split(" ");
            assertEquals(3, fields.length, output);
            long[] allocated = new long[3];
            for (int i = 0; i < 3; i++) {
                allocated[i] = Long.parseLong(fields[i]);
            }
            return allocated;
        } finally {
            process.destroyForcibly();
        }
    }

    /** The forked JVM's entry point: the bytes each path allocated over {@code args[1]} calls after {@code args[0]}. */
    static final class Probe {
        public static void main(String[] args) {
            long[] allocated = measure(Integer.parseInt(args[0]), Integer.parseInt(args[1]));
            System.out.println(allocated[0] + " " + allocated[1] + " " + allocated[2]);
        }
    }
}
