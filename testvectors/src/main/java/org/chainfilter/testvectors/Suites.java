package org.chainfilter.testvectors;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The suite names of {@code conformance/SCHEMA.md} and the vector files this module ships.
 *
 * <p>The bundled files live under {@value #RESOURCE_DIRECTORY}; the resource {@code index.txt} there lists them in
 * run order, one file name a line. Every published vector the schema can express is in one of them; their sources
 * are named in each file's {@code source} and each vector's {@code note}.
 */
public final class Suites {
    public static final String MURMUR3_X86_32 = "murmur3-x86-32";
    public static final String SIPHASH_2_4 = "siphash-2-4";
    public static final String BIP37_FILTER = "bip37-filter";
    public static final String BIP37_TX_MATCH = "bip37-tx-match";
    public static final String BIP37_MERKLEBLOCK = "bip37-merkleblock";
    public static final String BIP37_MERKLEBLOCK_VERIFY = "bip37-merkleblock-verify";
    public static final String BIP37_FILTERLOAD_PARSE = "bip37-filterload-parse";
    public static final String BIP158_BASIC = "bip158-basic";
    public static final String GCS = "gcs";
    public static final String ETH_BLOOM = "eth-bloom";
    public static final String ETH_BLOOM_CONTAINS = "eth-bloom-contains";
    public static final String ETH_LOG_FILTER = "eth-log-filter";

    /** Every suite of the schema, in the order the runner reports them. */
    public static final List<String> ALL = List.of(MURMUR3_X86_32, SIPHASH_2_4, BIP37_FILTER, BIP37_TX_MATCH,
            BIP37_MERKLEBLOCK, BIP37_MERKLEBLOCK_VERIFY, BIP37_FILTERLOAD_PARSE, BIP158_BASIC, GCS, ETH_BLOOM,
            ETH_BLOOM_CONTAINS, ETH_LOG_FILTER);

    /**
     * The fields SCHEMA.md gives each suite's vectors, for {@link VectorFile#warnings()}: with {@code name} and
     * {@code note}, every field a vector may carry to some purpose. Objects nested in a vector are named by their
     * path: {@code filter} (the filter's parameters), {@code matched[]} (one match), {@code logs[]} (one log).
     */
    private static final Map<String, List<String>> SCHEMA_FIELDS = Map.ofEntries(
            Map.entry(MURMUR3_X86_32, List.of("seed", "data", "hash")),
            Map.entry(SIPHASH_2_4, List.of("key", "data", "hash")),
            Map.entry(BIP37_FILTER, List.of("elements", "fpRate", "tweak", "flags", "insert", "contains", "absent",
                    "filterload")),
            Map.entry(BIP37_TX_MATCH, List.of("filter", "filterload", "tx", "match", "filterloadAfter",
                    "containsAfter", "absentAfter")),
            Map.entry(BIP37_MERKLEBLOCK, List.of("filter", "filterload", "block", "merkleblock", "matched",
                    "filterloadAfter", "containsAfter", "absentAfter")),
            Map.entry(BIP37_MERKLEBLOCK_VERIFY, List.of("merkleblock", "valid", "root", "matched")),
            Map.entry(BIP37_FILTERLOAD_PARSE, List.of("filterload", "valid")),
            Map.entry(BIP158_BASIC, List.of("height", "blockHash", "block", "prevoutScripts", "prevHeader", "filter",
                    "header")),
            Map.entry(GCS, List.of("key", "p", "m", "elements", "filter", "present", "absent")),
            Map.entry(ETH_BLOOM, List.of("logs", "bloom")),
            Map.entry(ETH_BLOOM_CONTAINS, List.of("bloom", "present", "absent")),
            Map.entry(ETH_LOG_FILTER, List.of("bloom", "addresses", "topics", "couldMatch")),
            Map.entry(BIP37_TX_MATCH + " filter", List.of("elements", "fpRate", "tweak", "flags", "insert")),
            Map.entry(BIP37_MERKLEBLOCK + " filter", List.of("elements", "fpRate", "tweak", "flags", "insert")),
            Map.entry(BIP37_MERKLEBLOCK + " matched[]", List.of("index", "txid")),
            Map.entry(BIP37_MERKLEBLOCK_VERIFY + " matched[]", List.of("index", "txid")),
            Map.entry(ETH_BLOOM + " logs[]", List.of("address", "topics")));

    /**
     * The schema's fields of a suite's vectors (without {@code name} and {@code note}), or of an object nested in them
     * when {@code path} is {@code "filter"}, {@code "matched[]"} or {@code "logs[]"} (an empty path for the vector
     * itself); empty when the schema gives none (an unknown suite or path).
     */
    public static List<String> schemaFields(String suite, String path) {
        return SCHEMA_FIELDS.getOrDefault(path.isEmpty() ? suite : suite + " " + path, List.of());
    }

    /** Class-path directory of the bundled files. */
    public static final String RESOURCE_DIRECTORY = "/org/chainfilter/testvectors/vectors/";

    private Suites() {
    }

    /** File names of the bundled vector files, in run order. */
    public static List<String> bundledFileNames() {
        List<String> names = new ArrayList<>();
        try (InputStream in = open("index.txt");
             BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                String name = line.strip();
                if (!name.isEmpty() && !name.startsWith("#")) {
                    names.add(name);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the bundled vector index", e);
        }
        return Collections.unmodifiableList(names);
    }

    /** Every bundled vector file, loaded and checked. */
    public static List<VectorFile> bundled() {
        List<VectorFile> files = new ArrayList<>();
        for (String name : bundledFileNames()) {
            files.add(bundled(name));
        }
        return Collections.unmodifiableList(files);
    }

    /** One bundled file by name, e.g. {@code "bip37-filter.core.json"}. */
    public static VectorFile bundled(String fileName) {
        try (InputStream in = open(fileName)) {
            return VectorFile.read(fileName, in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read bundled vector file " + fileName, e);
        }
    }

    private static InputStream open(String fileName) {
        InputStream in = Suites.class.getResourceAsStream(RESOURCE_DIRECTORY + fileName);
        if (in == null) {
            throw new IllegalArgumentException("no bundled vector file named '" + fileName + "'");
        }
        return in;
    }
}
