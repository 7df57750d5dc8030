package org.chainfilter.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.chainfilter.testvectors.Suites;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class DemoCommandTest {
    private static CliRun run;

    @BeforeAll
    static void runDemo() {
        run = CliRun.of("demo");
    }

    private static void assertLine(String fragment) {
        assertTrue(run.out.lines().anyMatch(l -> l.contains(fragment)), "no line with '" + fragment + "' in\n" + run.out);
    }

    @Test
    void succeedsWithoutErrorsOrMismatches() {
        assertEquals(0, run.status, run.toString());
        assertEquals("", run.err);
        assertFalse(run.out.contains("MISMATCH"), run.out);
        assertFalse(run.out.contains("Exception"), run.out);
    }

    @Test
    void showsTheBip37PathAsAnSpvClientSeesIt() {
        assertLine("== 1. BIP37");
        assertLine("filterload sent to the node: 35-byte filter, 19 hash functions, nTweak 0, BLOOM_UPDATE_ALL");
        assertLine("  1   28204cad1d7fc1d199e8ef4fa22f182de6258a3eaafe1bbe56ebdcacd3069a5f   yes       gained an outpoint");
        assertLine("  2   6b0f8a73a56c04b519f1883e8aafda643ba61a30bd1439969df21bea5f4e27e2   yes       unchanged");
        assertLine("proven transactions at positions [1, 2, 3]");
        assertLine("publishes the matches [0, 1, 2, 3]: ours plus tx 0 -> OK");
        assertLine("With BLOOM_UPDATE_NONE the node proves only [1, 3]");
    }

    @Test
    void showsTheBip158PathWithHeadersCheckedAndAWalletMatch() {
        assertLine("== 2. BIP158");
        assertLine("  926485  00000000…7313         5         9            25         1982  OK");
        assertEquals(10, run.out.lines().filter(l -> l.matches("  \\d+ +00000000….*  OK")).count(), run.out);
        assertLine("matches the filters of block(s) [926485]: download those; 9 blocks skipped");
    }

    @Test
    void showsWhichMainnetBlocksALogFilterSkips() {
        assertLine("== 3. Ethereum logsBloom");
        assertLine("  15537393      1        15        0.7% skip         no                     OK");
        assertLine("  7000000     130       353       17.2% fetch        yes                    OK");
        assertLine("  22263622      -      1038       50.7% fetch        (header only)");
    }

    /** The figures do not change with the default locale: under ar-EG they were Arabic-Indic digits, under de-DE "17,2%". */
    @Test
    void printsTheSameUnderAnyDefaultLocale() {
        Locale saved = Locale.getDefault();
        try {
            for (String tag : new String[] {"ar-EG", "de-DE", "hi-IN"}) {
                Locale.setDefault(Locale.forLanguageTag(tag));
                CliRun localized = CliRun.of("demo");
                assertEquals(run.out, localized.out, tag);
            }
        } finally {
            Locale.setDefault(saved);
        }
    }

    /**
     * The summary gives each suite's vectors and passes before the total: the demo without the table passed every test
     * (from a mutation review).
     */
    @Test
    void endsWithTheConformanceSummary() {
        assertLine("== 4. Conformance");
        assertLine("suite                       vectors   passed");
        java.util.Map<String, Integer> perSuite = new java.util.TreeMap<>();
        Suites.bundled().forEach(f -> perSuite.merge(f.suite(), f.vectors().size(), Integer::sum));
        perSuite.forEach((suite, count) -> assertLine(String.format(Locale.ROOT, "%-26s %8d %8d", suite, count, count)));
        int vectors = Suites.bundled().stream().mapToInt(f -> f.vectors().size()).sum();
        assertLine(vectors + " passed, 0 failed");
    }

    /** A block whose log matches but whose bloom says skip is shown as missed (and counted as a failed check). */
    @Test
    void aMatchingLogTheBloomSkipsIsShownAsMissed() {
        assertEquals("no", DemoCommand.matchingCell(false, false));
        assertEquals("no", DemoCommand.matchingCell(false, true));
        assertEquals("yes", DemoCommand.matchingCell(true, true));
        assertEquals("yes, bloom MISSED", DemoCommand.matchingCell(true, false));
    }

    /**
     * A heap too small for the demo ends it with the README's one line and status 1, never a stack trace, at every
     * size from 8 to 16 MiB (in a child JVM: below about 7 MiB the JVM cannot open its class path before main). With
     * -Xmx8m the command objects themselves did not fit, and their construction, outside the handler, printed an
     * {@code OutOfMemoryError} stack trace (found by a README walkthrough).
     */
    @Test
    void aHeapTooSmallEndsWithOneLineAtEverySize() throws IOException, InterruptedException {
        int outOfMemory = 0;
        for (int mebibytes = 8; mebibytes <= 16; mebibytes++) {
            Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx" + mebibytes + "m", "-cp", System.getProperty("java.class.path"),
                    ChainfilterCommand.class.getName(), "demo").redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the demo at -Xmx" + mebibytes + "m did not end");
            if (process.exitValue() != 0) {
                assertEquals(1, process.exitValue(), err);
                assertTrue(err.matches("chainfilter: out of memory \\(the JVM's maximum heap is \\d+ MiB; give it more"
                        + " with JAVA_OPTS=-Xmx\\.\\.\\.\\)\\R"), "-Xmx" + mebibytes + "m: " + err);
                outOfMemory++;
            }
        }
        assertTrue(outOfMemory > 0, "every heap from 8 MiB was enough: the test no longer reaches the handler");
    }
}
