package org.chainfilter.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.chainfilter.ethbloom.LogsBloom;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code chainfilter eth bloom}: the logsBloom of a set of logs. */
@Command(name = "bloom", mixinStandardHelpOptions = true,
        description = {"The logsBloom of logs given as JSON.",
            "The JSON is a list of logs, a receipt or block object with a \"logs\" list, a list of receipts, or a"
                + " JSON-RPC response wrapping any of these in \"result\".",
            "Each log needs \"address\" and \"topics\"; \"data\" is ignored (it never enters the bloom).",
            "Prints the bloom as 0x + 512 hex digits."})
final class EthBloomCommand implements Callable<Integer> {
    /** The most JSON accepted: generous for a block's logs, small enough to refuse a wrong file early. */
    static final long MAX_INPUT_BYTES = 256L << 20;
    /** How a refusal names {@link #MAX_INPUT_BYTES}: the number, its size in MiB and that it is the most read. */
    private static final String LIMIT = MAX_INPUT_BYTES + " bytes (" + (MAX_INPUT_BYTES >> 20)
            + " MiB), the most eth bloom reads";

    @Spec
    private CommandSpec spec;

    @Parameters(paramLabel = "FILE", arity = "0..1", description = "The JSON file; '-' or nothing reads stdin.")
    private String file;

    @Option(names = "--stats", description = "Also print the number of logs, bits set and the saturation.")
    private boolean stats;

    @Override
    public Integer call() throws IOException {
        JsonNode root = readJson(file);
        List<JsonNode> logs = new ArrayList<>();
        collectLogs(root, logs, "input");
        LogsBloom.Builder builder = LogsBloom.builder();
        for (int i = 0; i < logs.size(); i++) {
            JsonNode log = logs.get(i);
            builder.addLog(hexField(log, "address", 20, i), topics(log, i));
        }
        LogsBloom bloom = builder.build();
        PrintWriter out = spec.commandLine().getOut();
        out.println(bloom.toHex());
        if (stats) {
            out.println("logs " + logs.size());
            out.println("bits-set " + bloom.bitsSet());
            out.println("saturation " + String.format(Locale.ROOT, "%.4f", bloom.saturation()));
        }
        return 0;
    }

    static JsonNode readJson(String file) throws IOException {
        byte[] bytes;
        if (file == null || file.equals("-")) {
            bytes = readBounded(System.in, "stdin");
        } else {
            Path path = CliInputs.regularFile(Path.of(file), "FILE");
            if (!Files.exists(path)) {
                throw new IllegalArgumentException("FILE " + file + ": no such file");
            }
            long size = Files.size(path);
            if (size > MAX_INPUT_BYTES) {
                throw new IllegalArgumentException(file + " is " + size + " bytes, more than " + LIMIT);
            }
            try (InputStream in = Files.newInputStream(path)) {
                // the size a device or a growing file reports need not bound what it yields
                bytes = readBounded(in, file);
            }
        }
        try {
            return new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).readTree(bytes);
        } catch (JsonProcessingException e) {
            if (e.getOriginalMessage().startsWith("Trailing token")) {
                // JSON lines (eth scan's output, one log a line): the bloom of the first alone would be wrong.
                throw new IllegalArgumentException("input holds more than one JSON value (the second starts at line "
                        + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr()
                        + "); give one list of logs, e.g. JSON lines joined with commas inside [ ]", e);
            }
            String source = file == null || file.equals("-") ? "stdin" : file;
            String at = e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ", column "
                    + e.getLocation().getColumnNr() + ")";
            // Jackson names where an unclosed list or object began as "[Source: REDACTED (...); line: L, column: C]".
            String problem = e.getOriginalMessage().replaceAll("\\[Source: .*?; line: (\\d+), column: (\\d+)]",
                    "line $1, column $2");
            throw new IllegalArgumentException(source + " is not JSON" + at + ": " + problem, e);
        }
    }

    private static byte[] readBounded(InputStream in, String what) throws IOException {
        byte[] bytes = in.readNBytes((int) MAX_INPUT_BYTES + 1);
        if (bytes.length > MAX_INPUT_BYTES) {
            // A device or a pipe has no size to check first: it is read up to one byte past the limit.
            throw new IllegalArgumentException(what + " holds more than " + LIMIT);
        }
        return bytes;
    }

    /** Finds the logs: a list of logs or receipts, an object with "logs", or a JSON-RPC "result". */
    private static void collectLogs(JsonNode node, List<JsonNode> logs, String where) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            throw new IllegalArgumentException(where + " holds no logs");
        }
        if (node.isArray()) {
            for (JsonNode element : node) {
                if (element.has("logs") || element.has("result")) {
                    collectLogs(element, logs, where);
                } else if (element.isObject()) {
                    logs.add(element);
                } else {
                    throw new IllegalArgumentException(where + " holds " + element.getNodeType().toString()
                            .toLowerCase(Locale.ROOT) + " where a log object was expected");
                }
            }
        } else if (node.has("result")) {
            collectLogs(node.get("result"), logs, "result");
        } else if (node.has("logs")) {
            collectLogs(node.get("logs"), logs, "logs");
        } else if (node.has("error")) {
            // A JSON-RPC error answer piped in (eth_getLogs refused): the node's own words say why.
            JsonNode error = node.get("error");
            String said = error.isObject() ? "error " + error.path("code").asText("?") + ": "
                    + error.path("message").asText("") : error.toString();
            throw new IllegalArgumentException(where + " is a JSON-RPC error answer, not logs: "
                    + (said.length() <= MAX_QUOTED_ERROR_CHARS ? said : said.substring(0, MAX_QUOTED_ERROR_CHARS)
                            + "… (" + said.length() + " characters in all)"));
        } else {
            throw new IllegalArgumentException(
                    where + " is neither a list of logs nor an object with \"logs\" or \"result\"");
        }
    }

    /** The most of a piped error's words a refusal quotes (as the scanner quotes a provider's). */
    static final int MAX_QUOTED_ERROR_CHARS = 300;

    private static byte[] hexField(JsonNode log, String field, int length, int index) {
        JsonNode value = log.get(field);
        if (value == null || !value.isTextual()) {
            throw new IllegalArgumentException("log " + index + " has no " + field + " string");
        }
        return CliInputs.hex("log " + index + " of the input, " + field, value.asText(), length, field);
    }

    private static List<byte[]> topics(JsonNode log, int index) {
        JsonNode topics = log.get("topics");
        if (topics == null || !topics.isArray()) {
            throw new IllegalArgumentException("log " + index + " has no topics list");
        }
        List<byte[]> out = new ArrayList<>();
        for (int t = 0; t < topics.size(); t++) {
            JsonNode topic = topics.get(t);
            if (!topic.isTextual()) {
                throw new IllegalArgumentException("log " + index + " topic " + t + " is not a string");
            }
            out.add(CliInputs.hex("log " + index + " of the input, topics[" + t + "]", topic.asText(), 32, "topic"));
        }
        return out;
    }
}
