package org.chainfilter.testvectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.chainfilter.testvectors.suites.ChainfilterSuites;
import org.junit.jupiter.api.Test;

/** Every bundled vector passes through chainfilter, and no vector has gone missing. */
class BundledConformanceTest {
    /** Vectors per file. Dropping or adding a vector must change this table (and the README's). */
    private static final Map<String, Integer> EXPECTED_FILES = new LinkedHashMap<>();

    static {
        EXPECTED_FILES.put("murmur3-x86-32.core.json", 14);
        EXPECTED_FILES.put("siphash-2-4.reference.json", 64);
        EXPECTED_FILES.put("bip37-filter.core.json", 5);
        EXPECTED_FILES.put("bip37-filter.bitcoinj.json", 4);
        EXPECTED_FILES.put("bip37-filter.btcd.json", 2);
        EXPECTED_FILES.put("bip37-tx-match.core.json", 14);
        EXPECTED_FILES.put("bip37-merkleblock.core.json", 11);
        EXPECTED_FILES.put("bip37-merkleblock-verify.core.json", 2);
        EXPECTED_FILES.put("bip37-merkleblock-verify.bitcoinj.json", 2);
        EXPECTED_FILES.put("bip37-merkleblock-verify.btcd.json", 3);
        EXPECTED_FILES.put("bip37-filterload-parse.core.json", 5);
        EXPECTED_FILES.put("bip37-filterload-parse.bitcoinj.json", 1);
        EXPECTED_FILES.put("bip37-filterload-parse.btcd.json", 2);
        EXPECTED_FILES.put("bip158-basic.core.json", 10);
        EXPECTED_FILES.put("gcs.bip158-basic.json", 10);
        EXPECTED_FILES.put("gcs.generated.json", 8);
        EXPECTED_FILES.put("eth-bloom.besu.json", 1);
        EXPECTED_FILES.put("eth-bloom.ethers.json", 3);
        EXPECTED_FILES.put("eth-bloom.execution-apis.json", 5);
        EXPECTED_FILES.put("eth-bloom.geth.json", 1);
        EXPECTED_FILES.put("eth-bloom.nethermind.json", 4);
        EXPECTED_FILES.put("eth-bloom.parity-common.json", 1);
        EXPECTED_FILES.put("eth-bloom.portal-spec-tests.json", 64);
        EXPECTED_FILES.put("eth-bloom.viem.json", 1);
        EXPECTED_FILES.put("eth-bloom.web.json", 1);
        EXPECTED_FILES.put("eth-bloom-contains.besu.json", 1);
        EXPECTED_FILES.put("eth-bloom-contains.geth.json", 2);
        EXPECTED_FILES.put("eth-bloom-contains.parity-common.json", 2);
        EXPECTED_FILES.put("eth-bloom-contains.shovel.json", 1);
        EXPECTED_FILES.put("eth-bloom-contains.viem.json", 1);
        EXPECTED_FILES.put("eth-bloom-contains.web.json", 6);
        EXPECTED_FILES.put("eth-bloom-contains.web3j.json", 2);
        EXPECTED_FILES.put("eth-log-filter.execution-apis.json", 18);
        EXPECTED_FILES.put("eth-log-filter.mainnet.json", 41);
    }

    @Test
    void everyBundledVectorPasses() {
        ConformanceReport report = ChainfilterSuites.runner().run(Suites.bundled());
        String failures = report.failures().stream().map(VectorResult::describe).collect(Collectors.joining("\n"));
        assertEquals(0, report.failed(), failures);
        assertEquals(0, report.skipped(), "every bundled suite must have an executor");
        assertEquals(EXPECTED_FILES.values().stream().mapToInt(Integer::intValue).sum(), report.passed());
    }

    @Test
    void bundledFilesHoldTheExpectedNumberOfVectors() {
        Map<String, Integer> actual = new LinkedHashMap<>();
        for (VectorFile file : Suites.bundled()) {
            actual.put(file.origin(), file.vectors().size());
        }
        assertEquals(EXPECTED_FILES, actual);
    }

    @Test
    void everyBundledFileNamesItsSuiteInItsFileName() {
        for (VectorFile file : Suites.bundled()) {
            assertTrue(Suites.ALL.contains(file.suite()), file.origin() + ": unknown suite " + file.suite());
            assertTrue(file.origin().startsWith(file.suite() + "."), file.origin() + " holds suite " + file.suite());
            assertTrue(file.source().length() > 20, file.origin() + ": source must name repository, path, commit");
        }
    }

    @Test
    void theReadmeStatesTheVectorCountOfEverySuite() throws IOException {
        Map<String, Integer> perSuite = new LinkedHashMap<>();
        for (VectorFile file : Suites.bundled()) {
            perSuite.merge(file.suite(), file.vectors().size(), Integer::sum);
        }
        Map<String, Integer> inReadme = new LinkedHashMap<>();
        String readme = Files.readString(Path.of("../README.md"));
        int from = readme.indexOf("### testvectors");
        int to = readme.indexOf("\n### ", from + 1);
        Matcher row = Pattern.compile("(?m)^\\| `([a-z0-9-]+)` \\| (\\d+) \\|")
                .matcher(readme.substring(from, to < 0 ? readme.length() : to));
        while (row.find()) {
            inReadme.put(row.group(1), Integer.parseInt(row.group(2)));
        }
        assertEquals(perSuite, inReadme);
        // The total row and the summary line of the example too: the rows were right while the total said 301.
        String section = readme.substring(from, to < 0 ? readme.length() : to);
        int total = perSuite.values().stream().mapToInt(Integer::intValue).sum();
        Matcher totalRow = Pattern.compile("(?m)^\\| \\*\\*total\\*\\* \\| \\*\\*(\\d+)\\*\\* \\|").matcher(section);
        assertTrue(totalRow.find(), "no total row in the README's testvectors table");
        assertEquals(total, Integer.parseInt(totalRow.group(1)), "the README's total row");
        Matcher summary = Pattern.compile("\"(\\d+) passed, 0 failed\"").matcher(section);
        while (summary.find()) {
            assertEquals(total, Integer.parseInt(summary.group(1)), "the README's example summary line");
        }
    }

    @Test
    void everyVectorFileInTheResourceDirectoryIsBundled() throws IOException {
        Path dir = Path.of("src/main/resources" + Suites.RESOURCE_DIRECTORY);
        List<String> onDisk;
        try (Stream<Path> files = Files.list(dir)) {
            onDisk = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".json")).toList();
        }
        assertEquals(new TreeSet<>(onDisk), new TreeSet<>(Suites.bundledFileNames()));
    }
}
