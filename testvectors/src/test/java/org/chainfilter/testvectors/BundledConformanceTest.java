package org.chainfilter.testvectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
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
import org.chainfilter.testvectors.peer.BitcoinjSuites;
import org.chainfilter.testvectors.peer.Web3jSuites;
import org.chainfilter.testvectors.suites.ChainfilterSuites;
import org.junit.jupiter.api.Test;

/** Every bundled vector passes through chainfilter, and no vector has gone missing. */
class BundledConformanceTest {
    /**
     * Vectors and stated values per file. Dropping or adding a vector must change this table (and the README's); so
     * must dropping a stated value, which keeps every vector passing: each field of
     * {@link WrongExpectationsFailTest#STATED} a vector carries counts 1, each item of a list 1 more (dropping an absent
     * item, a containsAfter or a match passed every test; found by a review).
     */
    private static final Map<String, Counts> EXPECTED_FILES = new LinkedHashMap<>();

    private record Counts(int vectors, int statedValues) {
    }

    static {
        EXPECTED_FILES.put("murmur3-x86-32.core.json", new Counts(14, 14));
        EXPECTED_FILES.put("siphash-2-4.reference.json", new Counts(64, 64));
        EXPECTED_FILES.put("bip37-filter.core.json", new Counts(5, 24));
        EXPECTED_FILES.put("bip37-filter.bitcoinj.json", new Counts(4, 16));
        EXPECTED_FILES.put("bip37-filter.btcd.json", new Counts(2, 4));
        EXPECTED_FILES.put("bip37-tx-match.core.json", new Counts(14, 16));
        EXPECTED_FILES.put("bip37-merkleblock.core.json", new Counts(11, 39));
        EXPECTED_FILES.put("bip37-merkleblock-verify.core.json", new Counts(2, 5));
        EXPECTED_FILES.put("bip37-merkleblock-verify.bitcoinj.json", new Counts(2, 5));
        EXPECTED_FILES.put("bip37-merkleblock-verify.btcd.json", new Counts(3, 5));
        EXPECTED_FILES.put("bip37-filterload-parse.core.json", new Counts(5, 5));
        EXPECTED_FILES.put("bip37-filterload-parse.bitcoinj.json", new Counts(1, 1));
        EXPECTED_FILES.put("bip37-filterload-parse.btcd.json", new Counts(2, 2));
        EXPECTED_FILES.put("bip158-basic.core.json", new Counts(10, 30));
        EXPECTED_FILES.put("gcs.bip158-basic.json", new Counts(10, 110));
        EXPECTED_FILES.put("gcs.generated.json", new Counts(8, 133));
        EXPECTED_FILES.put("eth-bloom.besu.json", new Counts(1, 1));
        EXPECTED_FILES.put("eth-bloom.ethers.json", new Counts(3, 3));
        EXPECTED_FILES.put("eth-bloom.execution-apis.json", new Counts(5, 5));
        EXPECTED_FILES.put("eth-bloom.geth.json", new Counts(1, 1));
        EXPECTED_FILES.put("eth-bloom.nethermind.json", new Counts(4, 4));
        EXPECTED_FILES.put("eth-bloom.parity-common.json", new Counts(1, 1));
        EXPECTED_FILES.put("eth-bloom.portal-spec-tests.json", new Counts(64, 64));
        EXPECTED_FILES.put("eth-bloom.viem.json", new Counts(1, 1));
        EXPECTED_FILES.put("eth-bloom.web.json", new Counts(1, 1));
        EXPECTED_FILES.put("eth-bloom-contains.besu.json", new Counts(1, 3));
        EXPECTED_FILES.put("eth-bloom-contains.geth.json", new Counts(2, 110));
        EXPECTED_FILES.put("eth-bloom-contains.parity-common.json", new Counts(2, 8));
        EXPECTED_FILES.put("eth-bloom-contains.shovel.json", new Counts(1, 3));
        EXPECTED_FILES.put("eth-bloom-contains.viem.json", new Counts(1, 7));
        EXPECTED_FILES.put("eth-bloom-contains.web.json", new Counts(6, 19));
        EXPECTED_FILES.put("eth-bloom-contains.web3j.json", new Counts(2, 22));
        EXPECTED_FILES.put("eth-log-filter.execution-apis.json", new Counts(18, 18));
        EXPECTED_FILES.put("eth-log-filter.mainnet.json", new Counts(41, 41));
    }

    @Test
    void everyBundledVectorPasses() {
        ConformanceReport report = ChainfilterSuites.runner().run(Suites.bundled());
        String failures = report.failures().stream().map(VectorResult::describe).collect(Collectors.joining("\n"));
        assertEquals(0, report.failed(), failures);
        assertEquals(0, report.skipped(), "every bundled suite must have an executor");
        assertEquals(EXPECTED_FILES.values().stream().mapToInt(Counts::vectors).sum(), report.passed());
    }

    /**
     * The schema takes hex in either case, with or without {@code 0x}: every bundled vector, each hex value written
     * {@code 0x} and upper case, has the outcome it has as shipped, on chainfilter and on both peers. Four suites
     * comparing a hash as the vector's own text (the merkle root, a bip158 header, a match's txid on chainfilter and
     * on bitcoinj) passed every test, the shipped values all being lower case (from a mutation review).
     */
    @Test
    void everyHexValueReadsTheSameInUpperCaseWithAPrefix() {
        int rewritten = 0;
        for (ConformanceRunner runner : List.of(ChainfilterSuites.runner(), Web3jSuites.runner(),
                BitcoinjSuites.runner())) {
            for (VectorFile file : Suites.bundled()) {
                if (!runner.suites().contains(file.suite())) {
                    continue;
                }
                ObjectNode shipped = JSON.createObjectNode().put("suite", file.suite()).put("source", file.source());
                ObjectNode prefixed = shipped.deepCopy();
                for (Vector vector : file.vectors()) {
                    shipped.withArray("vectors").add(vector.node().deepCopy());
                    prefixed.withArray("vectors").add(upperCaseHex(vector.node().deepCopy()));
                }
                List<VectorResult.Outcome> expected = runner.run(List.of(VectorFile.parse(file.origin(),
                        shipped.toString()))).results().stream().map(VectorResult::outcome).toList();
                ConformanceReport report = runner.run(List.of(VectorFile.parse(file.origin(), prefixed.toString())));
                assertEquals(expected, report.results().stream().map(VectorResult::outcome).toList(),
                        report.results().stream().map(VectorResult::describe).collect(Collectors.joining("\n")));
                rewritten += report.results().size();
            }
        }
        assertEquals(312 + 96 + 51, rewritten);
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern HEX = Pattern.compile("(?:[0-9a-f]{2})*");

    /** Every hex string in the node (its name and note aside), nested ones too, as {@code 0x} and upper case. */
    private static JsonNode upperCaseHex(JsonNode node) {
        if (node instanceof ObjectNode object) {
            object.fieldNames().forEachRemaining(field -> {
                if (!field.equals("name") && !field.equals("note")) {
                    object.set(field, upperCaseHex(object.get(field)));
                }
            });
        } else if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                array.set(i, upperCaseHex(array.get(i)));
            }
        } else if (node.isTextual() && HEX.matcher(node.asText()).matches()) {
            return TextNode.valueOf("0x" + node.asText().toUpperCase(java.util.Locale.ROOT));
        }
        return node;
    }

    @Test
    void bundledFilesHoldTheExpectedNumberOfVectorsAndStatedValues() {
        Map<String, Counts> actual = new LinkedHashMap<>();
        for (VectorFile file : Suites.bundled()) {
            int stated = 0;
            for (Vector vector : file.vectors()) {
                for (String field : WrongExpectationsFailTest.STATED.get(file.suite())) {
                    if (vector.has(field)) {
                        JsonNode value = vector.node().get(field);
                        stated += 1 + (value.isArray() ? value.size() : 0);
                    }
                }
            }
            actual.put(file.origin(), new Counts(file.vectors().size(), stated));
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
