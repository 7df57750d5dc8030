package org.chainfilter.testvectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.chainfilter.testvectors.VectorResult.Outcome;
import org.chainfilter.testvectors.peer.BitcoinjSuites;
import org.chainfilter.testvectors.peer.Web3jSuites;
import org.chainfilter.testvectors.suites.ChainfilterSuites;
import org.junit.jupiter.api.Test;

/**
 * Every value a bundled vector states is compared: each vector that passes is run again with one stated value made
 * wrong (a hex digit changed at either end, a byte appended, a boolean flipped, a present item listed as absent and
 * the reverse, a match moved, dropped or added), and no such vector may pass. The bundled vectors all pass, so a suite
 * that stopped comparing a field (the merkleblock, a root, a header, the absent items of a GCS) passed every other test
 * (found by a mutation review).
 */
class WrongExpectationsFailTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The fields of each suite that state an expected value (the rest are inputs). */
    static final Map<String, List<String>> STATED = Map.ofEntries(
            Map.entry(Suites.MURMUR3_X86_32, List.of("hash")),
            Map.entry(Suites.SIPHASH_2_4, List.of("hash")),
            Map.entry(Suites.BIP37_FILTER, List.of("filterload", "contains", "absent")),
            Map.entry(Suites.BIP37_TX_MATCH, List.of("match", "filterloadAfter", "containsAfter", "absentAfter")),
            Map.entry(Suites.BIP37_MERKLEBLOCK, List.of("merkleblock", "matched", "filterloadAfter", "containsAfter",
                    "absentAfter")),
            Map.entry(Suites.BIP37_MERKLEBLOCK_VERIFY, List.of("valid", "root", "matched")),
            Map.entry(Suites.BIP37_FILTERLOAD_PARSE, List.of("valid")),
            Map.entry(Suites.BIP158_BASIC, List.of("blockHash", "filter", "header")),
            Map.entry(Suites.GCS, List.of("filter", "present", "absent")),
            Map.entry(Suites.ETH_BLOOM, List.of("bloom")),
            Map.entry(Suites.ETH_BLOOM_CONTAINS, List.of("present", "absent")),
            Map.entry(Suites.ETH_LOG_FILTER, List.of("couldMatch")));

    /**
     * Optional stated fields that few or no bundled vectors carry (no vector has a filterloadAfter): a vector lacking one
     * is given it with a wrong value, since the suite must compare it whenever it is there.
     */
    private static final Map<String, List<String>> ADDABLE = Map.of(
            Suites.BIP37_TX_MATCH, List.of("filterloadAfter"),
            Suites.BIP37_MERKLEBLOCK, List.of("merkleblock", "filterloadAfter"));

    /** The item lists whose items must test one way, each with the list of the other way. */
    private static final Map<String, String> OPPOSITE = Map.of("contains", "absent", "present", "absent",
            "containsAfter", "absentAfter", "absentAfter", "containsAfter");

    @Test
    void noBundledVectorPassesWithAStatedValueMadeWrong() {
        Map<String, ConformanceRunner> runners = new LinkedHashMap<>();
        runners.put("chainfilter", ChainfilterSuites.runner());
        runners.put("web3j", Web3jSuites.runner());
        runners.put("bitcoinj", BitcoinjSuites.runner());
        List<String> passedWhenWrong = new ArrayList<>();
        int wrongVectors = 0;
        for (VectorFile file : Suites.bundled()) {
            for (Vector vector : file.vectors()) {
                List<Map.Entry<String, ObjectNode>> wrong = wrongCopies(file.suite(), vector);
                for (Map.Entry<String, ConformanceRunner> runner : runners.entrySet()) {
                    if (!runner.getValue().suites().contains(file.suite())
                            || outcome(runner.getValue(), file, vector.node().deepCopy()) != Outcome.PASSED) {
                        continue;
                    }
                    for (Map.Entry<String, ObjectNode> copy : wrong) {
                        wrongVectors++;
                        if (outcome(runner.getValue(), file, copy.getValue()) == Outcome.PASSED) {
                            passedWhenWrong.add(runner.getKey() + ": " + file.origin() + " '" + vector.name() + "' "
                                    + copy.getKey());
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), passedWhenWrong);
        assertTrue(wrongVectors > 1000, wrongVectors + " wrong vectors run");
    }

    private static Outcome outcome(ConformanceRunner runner, VectorFile file, ObjectNode vector) {
        ObjectNode root = JSON.createObjectNode().put("suite", file.suite()).put("source", "s");
        root.putArray("vectors").add(vector);
        ConformanceReport report = runner.run(List.of(VectorFile.parse(file.origin(), root.toString())));
        return report.results().get(0).outcome();
    }

    /** Copies of the vector, each with one stated value made wrong, named by what was changed. */
    private static List<Map.Entry<String, ObjectNode>> wrongCopies(String suite, Vector vector) {
        List<Map.Entry<String, ObjectNode>> out = new ArrayList<>();
        ObjectNode original = vector.node();
        for (String field : ADDABLE.getOrDefault(suite, List.of())) {
            if (!original.has(field)) {
                out.add(copy(original, field + " added as 00", v -> v.put(field, "00")));
            }
        }
        JsonNode filter = original.get("filter");
        if (filter != null && filter.path("insert").size() > 0 && !original.has("absentAfter")) {
            out.add(copy(original, "absentAfter added with filter.insert[0]",
                    v -> v.putArray("absentAfter").add(filter.get("insert").get(0))));
        }
        for (String field : STATED.get(suite)) {
            JsonNode value = original.get(field);
            if (value == null || value.isNull()) {
                continue;
            }
            if (value.isBoolean()) {
                out.add(copy(original, field + " flipped", v -> v.put(field, !value.asBoolean())));
            } else if (value.isTextual()) {
                String hex = value.asText();
                out.add(copy(original, field + " first digit", v -> v.put(field, changeDigit(hex, firstDigit(hex)))));
                out.add(copy(original, field + " last digit", v -> v.put(field, changeDigit(hex, hex.length() - 1))));
                out.add(copy(original, field + " one byte longer", v -> v.put(field, hex + "00")));
            } else if (field.equals("matched")) {
                out.addAll(wrongMatches(original));
            } else if (value.size() > 0) {
                String other = field.equals("absent")
                        ? (suite.equals(Suites.BIP37_FILTER) ? "contains" : "present") : OPPOSITE.get(field);
                out.add(copy(original, field + "[0] listed in " + other, v -> {
                    JsonNode item = ((ArrayNode) v.get(field)).remove(0);
                    (v.has(other) && v.get(other).isArray() ? (ArrayNode) v.get(other) : v.putArray(other)).add(item);
                }));
            }
        }
        return out;
    }

    private static List<Map.Entry<String, ObjectNode>> wrongMatches(ObjectNode original) {
        List<Map.Entry<String, ObjectNode>> out = new ArrayList<>();
        int size = original.get("matched").size();
        out.add(copy(original, "matched with one more", v -> ((ArrayNode) v.get("matched")).addObject()
                .put("index", 999).put("txid", "11".repeat(32))));
        if (size > 0) {
            out.add(copy(original, "matched without its last", v -> ((ArrayNode) v.get("matched")).remove(size - 1)));
            out.add(copy(original, "matched[0].index + 1", v -> {
                ObjectNode first = (ObjectNode) v.get("matched").get(0);
                first.put("index", first.get("index").asInt() + 1);
            }));
            out.add(copy(original, "matched[0].txid last digit", v -> {
                ObjectNode first = (ObjectNode) v.get("matched").get(0);
                String txid = first.get("txid").asText();
                first.put("txid", changeDigit(txid, txid.length() - 1));
            }));
        }
        return out;
    }

    private static Map.Entry<String, ObjectNode> copy(ObjectNode original, String change, Consumer<ObjectNode> edit) {
        ObjectNode copy = original.deepCopy();
        edit.accept(copy);
        return Map.entry(change, copy);
    }

    private static int firstDigit(String hex) {
        return hex.startsWith("0x") || hex.startsWith("0X") ? 2 : 0;
    }

    /** The hex string with the digit at {@code at} changed (its lowest bit flipped); an empty string gains a byte. */
    private static String changeDigit(String hex, int at) {
        if (at >= hex.length() || at < firstDigit(hex)) {
            return hex + "00";
        }
        int digit = Character.digit(hex.charAt(at), 16) ^ 1;
        return hex.substring(0, at) + Character.forDigit(digit, 16) + hex.substring(at + 1);
    }
}
