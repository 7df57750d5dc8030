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

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
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
        LogsBloom.Builder builder = LogsBloom.builder();
        int logs = readLogs(file, builder);
        LogsBloom bloom = builder.build();
        PrintWriter out = spec.commandLine().getOut();
        out.println(bloom.toHex());
        if (stats) {
            out.println("logs " + logs);
            out.println("bits-set " + bloom.bitsSet());
            out.println("saturation " + String.format(Locale.ROOT, "%.4f", bloom.saturation()));
        }
        return 0;
    }

    /**
     * Reads the logs of {@code file} (null or {@code -}: standard input) into {@code builder} as the JSON streams in,
     * keeping of each log only its address and topics: the input is never held whole, nor as a tree (a 250 MB list
     * of empty objects took more than a 6 GB heap as one). Returns the number of logs.
     */
    static int readLogs(String file, LogsBloom.Builder builder) throws IOException {
        boolean stdin = file == null || file.equals(CliInputs.STDIN);
        String source = stdin ? "stdin" : file;
        Path path = Path.of(stdin ? CliInputs.STDIN : file);
        InputStream raw = CliInputs.open(path, "FILE");
        long size = stdin ? 0 : Files.size(path);
        if (size > MAX_INPUT_BYTES) {
            raw.close();
            throw new IllegalArgumentException(file + " is " + size + " bytes, more than " + LIMIT);
        }
        // The size a device or a growing file reports need not bound what it yields: counted as it is read.
        try (InputStream in = new Bounded(raw, source); JsonParser parser = JSON.createParser(in)) {
            LogReader reader = new LogReader(parser, builder);
            JsonToken first = parser.nextToken();
            if (first == null) {
                throw new IllegalArgumentException("input holds no logs");
            }
            reader.container(first, "input");
            if (parser.nextToken() != null) {
                // JSON lines (eth scan's output, one log a line): the bloom of the first alone would be wrong.
                throw moreThanOneValue(parser);
            }
            return reader.count;
        } catch (JsonProcessingException e) {
            String at = e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ", column "
                    + e.getLocation().getColumnNr() + ")";
            // Jackson names where an unclosed list or object began as "[Source: REDACTED (...); line: L, column: C]".
            String problem = e.getOriginalMessage().replaceAll("\\[Source: .*?; line: (\\d+), column: (\\d+)]",
                    "line $1, column $2");
            throw new IllegalArgumentException(source + " is not JSON" + at + ": " + problem, e);
        }
    }

    /** The refusal of a second JSON value, whose first token {@code parser} has just read. */
    static IllegalArgumentException moreThanOneValue(JsonParser parser) {
        JsonLocation at = parser.currentTokenLocation();
        return new IllegalArgumentException("input holds more than one JSON value (the second starts at line "
                + at.getLineNr() + ", column " + at.getColumnNr() + "); give one list of logs, e.g. JSON lines"
                + " joined with commas inside [ ]");
    }

    /** A key given twice is refused: which of the two lists of logs was meant cannot be told. */
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    /** An input refused once more than {@link #MAX_INPUT_BYTES} have been read from it. */
    private static final class Bounded extends java.io.FilterInputStream {
        private final String what;
        private long read;

        Bounded(InputStream in, String what) {
            super(in);
            this.what = what;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            count(b < 0 ? 0 : 1);
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, (int) Math.min(length, MAX_INPUT_BYTES - read + 1));
            count(Math.max(n, 0));
            return n;
        }

        private void count(int n) {
            read += n;
            if (read > MAX_INPUT_BYTES) {
                // A device or a pipe has no size to check first: it is read up to one byte past the limit.
                throw new IllegalArgumentException(what + " holds more than " + LIMIT);
            }
        }
    }

    /**
     * Walks the JSON: a list of logs or receipts, an object with "logs", or a JSON-RPC "result". An object in a list
     * that has "logs" or "result" is a container; any other is a log, whose address and topics are checked and added
     * when it ends (the logs are counted in document order, receipts flattened, as before).
     */
    private static final class LogReader {
        private final JsonParser parser;
        private final LogsBloom.Builder builder;
        int count;

        LogReader(JsonParser parser, LogsBloom.Builder builder) {
            this.parser = parser;
            this.builder = builder;
        }

        /** The value at {@code token} where logs are expected. */
        void container(JsonToken token, String where) throws IOException {
            if (token == JsonToken.START_ARRAY) {
                for (JsonToken element = parser.nextToken(); element != JsonToken.END_ARRAY;
                        element = parser.nextToken()) {
                    if (element == JsonToken.START_OBJECT) {
                        objectInList(where);
                    } else {
                        throw new IllegalArgumentException(where + " holds " + kind(element)
                                + " where a log object was expected");
                    }
                }
            } else if (token == JsonToken.START_OBJECT) {
                containerObject(where);
            } else if (token == JsonToken.VALUE_NULL) {
                throw new IllegalArgumentException(where + " holds no logs");
            } else {
                throw new IllegalArgumentException(
                        where + " is neither a list of logs nor an object with \"logs\" or \"result\"");
            }
        }

        /** An object where logs are expected: its "result" or "logs", or a JSON-RPC error. */
        private void containerObject(String where) throws IOException {
            String found = null;
            String error = null;
            boolean logFields = false;
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                if (name.equals("result") || name.equals("logs")) {
                    refuseBoth(where, found, name);
                    container(value, name);
                    found = name;
                } else if (name.equals("error")) {
                    error = said(value);
                } else {
                    logFields |= name.equals("address") || name.equals("topics");
                    parser.skipChildren();
                }
            }
            if (found == null && logFields && where.equals("input") && parser.nextToken() != null) {
                // JSON lines (eth scan's output, one log a line): a log, then more values.
                throw moreThanOneValue(parser);
            }
            boolean foundAny = found != null;
            if (!foundAny && error != null) {
                // A JSON-RPC error answer piped in (eth_getLogs refused): the node's own words say why.
                throw new IllegalArgumentException(where + " is a JSON-RPC error answer, not logs: "
                        + (error.length() <= MAX_QUOTED_ERROR_CHARS ? error
                                : error.substring(0, MAX_QUOTED_ERROR_CHARS) + "… (" + error.length()
                                        + " characters in all)"));
            }
            if (!foundAny) {
                throw new IllegalArgumentException(
                        where + " is neither a list of logs nor an object with \"logs\" or \"result\"");
            }
        }

        /** An object with both "result" and "logs": which is meant cannot be told (the old reading took "result"). */
        private static void refuseBoth(String where, String earlier, String name) {
            if (earlier != null) {
                throw new IllegalArgumentException(where + " has both \"" + earlier + "\" and \"" + name
                        + "\"; give the logs once");
            }
        }

        /**
         * A JSON-RPC error's words, read as they stream: its code and its message (a string, which Jackson bounds),
         * the rest skipped (an error value is never built whole, however large).
         */
        private String said(JsonToken value) throws IOException {
            if (value.isScalarValue()) {
                // A node's own words, however it shaped them (quoted as the old tree reading quoted them).
                return value == JsonToken.VALUE_STRING ? "\"" + parser.getText() + "\"" : parser.getText();
            }
            if (value != JsonToken.START_OBJECT) {
                parser.skipChildren();
                return "error (" + kind(value) + ")";
            }
            String code = "?";
            String message = "";
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken field = parser.nextToken();
                if (name.equals("code") && field.isScalarValue()) {
                    code = excerpt(parser.getText());
                } else if (name.equals("message") && field == JsonToken.VALUE_STRING) {
                    message = parser.getText();
                } else {
                    parser.skipChildren();
                }
            }
            return "error " + code + ": " + message;
        }

        private static String excerpt(String text) {
            return text.length() <= MAX_QUOTED_ERROR_CHARS ? text : text.substring(0, MAX_QUOTED_ERROR_CHARS) + "…";
        }

        /** An object in a list: a receipt or response (it has "logs" or "result") or a log. */
        private void objectInList(String where) throws IOException {
            boolean container = false;
            String containerField = null;
            String address = null;
            List<String> topics = null;
            int topicCount = 0;
            int notString = -1;
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                switch (name) {
                    case "logs":
                    case "result":
                        refuseBoth(where, containerField, name);
                        container(value, name);
                        container = true;
                        containerField = name;
                        break;
                    case "address":
                        address = value == JsonToken.VALUE_STRING ? parser.getText() : null;
                        parser.skipChildren();
                        break;
                    case "topics":
                        if (value != JsonToken.START_ARRAY) {
                            topics = null;
                            parser.skipChildren();
                            break;
                        }
                        topics = new ArrayList<>();
                        topicCount = 0;
                        notString = -1;
                        for (JsonToken topic = parser.nextToken(); topic != JsonToken.END_ARRAY;
                                topic = parser.nextToken()) {
                            if (topic == JsonToken.VALUE_STRING && topicCount < 5) {
                                topics.add(parser.getText());
                            } else if (topic != JsonToken.VALUE_STRING && notString < 0) {
                                notString = topicCount;
                            }
                            parser.skipChildren();
                            topicCount++;
                        }
                        break;
                    default:
                        parser.skipChildren();
                        break;
                }
            }
            if (container) {
                return;
            }
            int index = count++;
            if (address == null) {
                throw new IllegalArgumentException("log " + index + " has no address string");
            }
            if (topics == null) {
                throw new IllegalArgumentException("log " + index + " has no topics list");
            }
            byte[] addressBytes = CliInputs.hex("log " + index + " of the input, address", address, 20, "address");
            List<byte[]> topicBytes = new ArrayList<>(topics.size());
            for (int t = 0; t < Math.min(topicCount, 5); t++) {
                if (t == notString) {
                    throw new IllegalArgumentException("log " + index + " topic " + t + " is not a string");
                }
                if (t < 4) {
                    topicBytes.add(CliInputs.hex("log " + index + " of the input, topics[" + t + "]", topics.get(t),
                            32, "topic"));
                }
            }
            if (notString >= 0) {
                throw new IllegalArgumentException("log " + index + " topic " + notString + " is not a string");
            }
            if (topicCount > 4) {
                // LOG0 to LOG4: no log has more, so such an input is not logs (the scanner refuses them too).
                throw new IllegalArgumentException("log " + index + " has " + topicCount + " topics; a log has at"
                        + " most 4 (LOG0 to LOG4)");
            }
            builder.addLog(addressBytes, topicBytes);
        }

        private static String kind(JsonToken token) {
            switch (token) {
                case START_ARRAY:
                    return "array";
                case VALUE_STRING:
                    return "string";
                case VALUE_NUMBER_INT:
                case VALUE_NUMBER_FLOAT:
                    return "number";
                case VALUE_TRUE:
                case VALUE_FALSE:
                    return "boolean";
                case VALUE_NULL:
                    return "null";
                default:
                    return token.toString().toLowerCase(Locale.ROOT);
            }
        }
    }

    /** The most of a piped error's words a refusal quotes (as the scanner quotes a provider's). */
    static final int MAX_QUOTED_ERROR_CHARS = 300;
}
