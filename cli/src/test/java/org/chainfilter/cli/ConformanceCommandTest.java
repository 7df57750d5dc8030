package org.chainfilter.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.chainfilter.testvectors.Suites;
import org.chainfilter.testvectors.VectorFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConformanceCommandTest {
    @TempDir
    Path dir;

    private Path write(String name, String json) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, json);
        return file;
    }

    private static int bundledVectorCount() {
        return Suites.bundled().stream().mapToInt(f -> f.vectors().size()).sum();
    }

    private static String lastLine(String text) {
        String[] lines = text.strip().split("\\R");
        return lines[lines.length - 1];
    }

    @Test
    void bundledVectorsAllPassAndAreCountedPerSuite() {
        CliRun run = CliRun.of("conformance", "--bundled");
        assertEquals(0, run.status, run.toString());
        assertEquals(bundledVectorCount() + " passed, 0 failed", lastLine(run.out));
        assertTrue(run.out.contains(String.format("%-26s %8d %8d", "murmur3-x86-32", 14, 14)), run.out);
        assertTrue(run.out.contains(String.format("%-26s %8d %8d", "siphash-2-4", 64, 64)), run.out);
        assertEquals("", run.err);
    }

    @Test
    void aFailingVectorIsPrintedWithItsFirstMismatchAndTheStatusIsOne() throws IOException {
        Path file = write("m.json", "{\"suite\": \"murmur3-x86-32\", \"source\": \"hand-made\", \"vectors\": ["
                + "{\"name\": \"right\", \"seed\": 4221880213, \"data\": \"\", \"hash\": \"6a396f08\"},"
                + "{\"name\": \"wrong\", \"seed\": 4221880213, \"data\": \"\", \"hash\": \"6a396f09\"}]}");
        CliRun run = CliRun.of("conformance", file.toString());
        assertEquals(1, run.status, run.toString());
        assertTrue(run.out.startsWith("FAILED " + file + " 'wrong': hash: expected 6a396f09 got 6a396f08 "
                + "(first difference at byte 3)"), run.out);
        assertEquals("1 passed, 1 failed", lastLine(run.out));
        // The table's passes are the suite's, not its vectors again (that passed every test: from a mutation review).
        assertTrue(run.out.contains(String.format("%-26s %8d %8d", "murmur3-x86-32", 2, 1)), run.out);
    }

    /** A misspelt field checks nothing, so the run says so on stderr (the vector still runs). */
    @Test
    void aFieldTheSchemaDoesNotGiveTheSuiteIsWarnedAbout() throws IOException {
        Path file = write("m.json", "{\"suite\": \"murmur3-x86-32\", \"source\": \"s\", \"vectors\": ["
                + "{\"name\": \"typo\", \"seed\": 0, \"data\": \"\", \"hash\": \"00000000\", \"hsah\": \"1\"}]}");
        CliRun run = CliRun.of("conformance", file.toString());
        assertEquals(0, run.status, run.toString());
        // On stderr: the report on stdout keeps the schema's shape.
        assertEquals("WARNING " + file + " vector 1 ('typo'): field 'hsah' is not a field of murmur3-x86-32 in the"
                + " schema, so nothing checks it (the schema's: seed, data, hash)\n", run.err);
        assertEquals("1 passed, 0 failed", lastLine(run.out));
    }

    @Test
    void verbosePrintsPassesToo() throws IOException {
        Path file = write("m.json", "{\"suite\": \"murmur3-x86-32\", \"source\": \"s\", \"vectors\": ["
                + "{\"name\": \"right\", \"seed\": 0, \"data\": \"\", \"hash\": \"00000000\"}]}");
        CliRun run = CliRun.of("conformance", "-v", file.toString());
        assertEquals(0, run.status, run.toString());
        assertTrue(run.out.startsWith("PASSED " + file + " 'right'\n"), run.out);
    }

    /** A file of a known suite with an empty list ran nothing; it was blamed on its suite, which chainfilter runs. */
    @Test
    void aFileWithoutVectorsIsSaidToHoldNone() throws IOException {
        Path file = write("e.json", "{\"suite\": \"gcs\", \"source\": \"s\", \"vectors\": []}");
        CliRun run = CliRun.of("conformance", file.toString());
        assertEquals(1, run.status, run.toString());
        assertEquals("0 passed, 0 failed", lastLine(run.out));
        assertEquals("chainfilter: no vector was run: the files hold no vectors\n", run.err);
        Path gcs = write("g.json", "{\"suite\": \"gcs\", \"source\": \"s\", \"vectors\": [{\"name\": \"a\"},"
                + " {\"name\": \"b\"}]}");
        run = CliRun.of("conformance", "--impl", "bitcoinj", gcs.toString());
        assertEquals(1, run.status, run.toString());
        assertEquals("chainfilter: no vector was run (2 skipped): no file is of a suite that bitcoinj runs\n", run.err);
    }

    /**
     * A file of a suite bitcoinj runs, whose one vector bitcoinj cannot fully check (it states a transaction index,
     * which bitcoinj's PartialMerkleTree does not report): nothing ran, and the message says why rather than that
     * bitcoinj runs no such suite. The merkle block is Core's merkle_block_3 (src/test/bloom_tests.cpp @ e3f416d).
     */
    @Test
    void aRunOfOnlyVectorsThePeerCannotCheckSaysSo() throws IOException {
        Path file = write("v.json", "{\"suite\": \"bip37-merkleblock-verify\", \"source\": \"s\", \"vectors\": [{"
                + "\"name\": \"merkle_block_3\", \"merkleblock\": \"0100000079cda856b143d9db2c1caff01d1aecc8630d30625d1"
                + "0e8b4b8b0000000000000b50cc069d6a3e33e3ff84a5c41d9d3febe7c770fdcc96b2c3ff60abe184f196367291b4d4c86041b"
                + "8fa45d630100000001b50cc069d6a3e33e3ff84a5c41d9d3febe7c770fdcc96b2c3ff60abe184f19630101\", \"valid\": "
                + "true, \"matched\": [{\"index\": 0, \"txid\": "
                + "\"63194f18be0af63f2c6bc9dc0f777cbefed3d9415c4af83f3ee3a3d669c00cb5\"}]}]}");
        CliRun run = CliRun.of("conformance", "--impl", "bitcoinj", file.toString());
        assertEquals(1, run.status, run.toString());
        assertEquals("0 passed, 0 failed, 1 skipped", lastLine(run.out));
        assertEquals("chainfilter: no vector was run (1 skipped): bitcoinj cannot check the vectors of the suites it"
                + " runs (the reasons are above)\n", run.err);
    }

    @Test
    void unknownSuitesAreSkippedAndSaidSo() throws IOException {
        Path file = write("u.json", "{\"suite\": \"bip999-future\", \"source\": \"s\", \"vectors\": [{\"name\": \"a\"}]}");
        CliRun run = CliRun.of("conformance", file.toString());
        assertEquals(1, run.status, run.toString());
        assertEquals("0 passed, 0 failed, 1 skipped", lastLine(run.out));
        assertEquals("chainfilter: no vector was run (1 skipped): no file is of a suite that chainfilter runs\n",
                run.err);
        Path known = write("m.json", "{\"suite\": \"murmur3-x86-32\", \"source\": \"s\", \"vectors\": ["
                + "{\"name\": \"right\", \"seed\": 0, \"data\": \"\", \"hash\": \"00000000\"}]}");
        run = CliRun.of("conformance", file.toString(), known.toString());
        assertEquals(0, run.status, run.toString());
        assertEquals("1 passed, 0 failed, 1 skipped", lastLine(run.out));
    }

    @Test
    void aFileOfAnotherShapeIsRefusedWithWhatIsWrong() throws IOException {
        Path file = write("bad.json", "{\"source\": \"s\", \"vectors\": []}");
        CliRun run = CliRun.of("conformance", file.toString());
        assertEquals(1, run.status, run.toString());
        assertEquals("chainfilter: " + file + ": not a conformance file: missing field 'suite'\n", run.err);
        Path dup = write("dup.json", "{\"suite\": \"gcs\", \"source\": \"s\", \"vectors\": [{\"name\": \"x\"}, {\"name\": \"x\"}]}");
        run = CliRun.of("conformance", dup.toString());
        assertEquals("chainfilter: " + dup + ": vector 2: duplicate name 'x' (also vector 1); names must be unique "
                + "within a file\n", run.err);
    }

    @Test
    void aMissingFileIsNamed() {
        Path missing = dir.resolve("nope.json");
        CliRun run = CliRun.of("conformance", missing.toString());
        assertEquals(1, run.status, run.toString());
        assertEquals("chainfilter: no such file: " + missing + "\n", run.err);
    }

    @Test
    void withoutFilesOrBundledItIsAUsageError() {
        CliRun run = CliRun.of("conformance");
        assertEquals(2, run.status, run.toString());
        assertEquals("chainfilter: give vector FILEs or --bundled (see 'chainfilter conformance --help')\n", run.err);
    }

    @Test
    void anUnknownImplementationIsAUsageError() {
        CliRun run = CliRun.of("conformance", "--bundled", "--impl", "ethers");
        assertEquals(2, run.status, run.toString());
        assertTrue(run.err.contains("--impl"), run.err);
    }

    @Test
    void web3jRunsTheBloomSuitesOnly() {
        CliRun run = CliRun.of("conformance", "--bundled", "--impl", "web3j");
        assertEquals(0, run.status, run.toString());
        long bloomVectors = Suites.bundled().stream()
                .filter(f -> f.suite().equals(Suites.ETH_BLOOM) || f.suite().equals(Suites.ETH_BLOOM_CONTAINS))
                .mapToLong(f -> f.vectors().size()).sum();
        assertTrue(run.out.startsWith("Implementation under test: web3j 4.13.0 (org.web3j.utils.Bloom)"), run.out);
        assertTrue(run.out.contains("Not run on web3j (suites it does not implement): {murmur3-x86-32=14, "), run.out);
        assertEquals(bloomVectors + " passed, 0 failed", lastLine(run.out));
    }

    @Test
    void bitcoinjIsReportedWhereItDepartsFromBitcoinCore() {
        CliRun run = CliRun.of("conformance", "--bundled", "--impl", "bitcoinj");
        assertEquals(1, run.status, run.toString());
        assertTrue(run.out.startsWith("Implementation under test: bitcoinj 0.17.1"), run.out);
        assertTrue(run.out.contains("departs from Bitcoin Core: FAILED bip37-tx-match.core.json "
                + "'bloom_match #1: txid via uint256': match: expected true got false"), run.out);
        assertEquals(14, run.out.lines().filter(l -> l.startsWith("departs from Bitcoin Core: ")).count(), run.out);
        assertEquals("35 passed, 14 failed, 2 skipped", lastLine(run.out));
        // A skip is printed with its reason without -v: it is not a pass.
        assertEquals(2, run.out.lines().filter(l -> l.startsWith("SKIPPED bip37-merkleblock-verify.")).count(),
                run.out);
        assertEquals("", run.err);
    }

    /**
     * A malformed vector is the file's fault, so it is not printed as a departure of the peer's; a wrong answer is
     * (every malformed vector used to be printed "departs from go-ethereum: FAILED … malformed vector").
     */
    @Test
    void aMalformedVectorIsNotReportedAsThePeersDeparture() throws IOException {
        String zeros = "00".repeat(256);
        Path file = write("c.json", "{\"suite\": \"eth-bloom-contains\", \"source\": \"hand-made\", \"vectors\": ["
                + "{\"name\": \"bloom only\", \"bloom\": \"" + zeros + "\"},"
                + "{\"name\": \"wrong\", \"bloom\": \"" + zeros + "\", \"present\": [\"00\"]}]}");
        CliRun run = CliRun.of("conformance", "--impl", "web3j", file.toString());
        assertEquals(1, run.status, run.toString());
        assertTrue(run.out.contains("\nFAILED " + file + " 'bloom only': malformed vector: "), run.out);
        assertTrue(run.out.contains("\ndeparts from go-ethereum: FAILED " + file + " 'wrong': "), run.out);
        assertEquals(1, run.out.lines().filter(l -> l.startsWith("departs from")).count(), run.out);
        assertEquals("0 passed, 2 failed", lastLine(run.out));
    }

    /** --list runs nothing, so options that run vectors beside it are a malformed command line (they were ignored). */
    @Test
    void listTakesNoOtherArgument() {
        for (String[] args : List.of(new String[] {"--list", "x.json"}, new String[] {"--list", "--bundled"},
                new String[] {"--list", "--impl", "web3j"}, new String[] {"--list", "-v"})) {
            CliRun run = CliRun.of(java.util.stream.Stream.concat(java.util.stream.Stream.of("conformance"),
                    java.util.Arrays.stream(args)).toArray(String[]::new));
            assertEquals(2, run.status, run::toString);
            assertTrue(run.err.startsWith("chainfilter: --list lists the bundled files and runs nothing; give it"
                    + " alone"), run.err);
        }
    }

    @Test
    void listNamesEveryBundledFileWithItsSuiteCountAndSource() {
        CliRun run = CliRun.of("conformance", "--list");
        assertEquals(0, run.status, run.toString());
        assertTrue(run.out.startsWith(String.format("%-40s %-26s %4d%n    bitcoin/bitcoin src/test/hash_tests.cpp @ ",
                "murmur3-x86-32.core.json", "murmur3-x86-32", 14)), run.out);
        assertEquals(Suites.bundledFileNames().size() + " files, " + bundledVectorCount()
                + " vectors, in /org/chainfilter/testvectors/vectors/ of chainfilter-testvectors", lastLine(run.out));
    }

    @Test
    void bundledAndFilesRunTogether() throws IOException {
        VectorFile one = Suites.bundled("murmur3-x86-32.core.json");
        Path file = write("copy.json", Files.readString(Path.of(
                "../testvectors/src/main/resources" + Suites.RESOURCE_DIRECTORY + "murmur3-x86-32.core.json")));
        CliRun run = CliRun.of("conformance", "--bundled", file.toString());
        assertEquals(0, run.status, run.toString());
        assertEquals((bundledVectorCount() + one.vectors().size()) + " passed, 0 failed", lastLine(run.out));
    }
}
