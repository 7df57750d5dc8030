package org.chainfilter.testvectors;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One conformance vector file as {@code conformance/SCHEMA.md} defines it:
 * {@code {"suite": ..., "source": ..., "vectors": [{"name": ..., ...}, ...]}}.
 *
 * <p>Reading checks the envelope only (the three top-level fields, every vector an object with a unique string
 * {@code name}); the suite fields of a vector are checked when a suite executor reads them, so a file of a suite this
 * version does not know still loads, and the runner reports it as skipped. Files larger than
 * {@value #MAX_FILE_BYTES} bytes are refused before they are read into memory.
 */
public final class VectorFile {
    /** Upper bound on a vector file (the largest bundled file is about 0.3 MB). */
    public static final int MAX_FILE_BYTES = 64 * 1024 * 1024;

    /** Duplicate keys and anything after the top-level object are refused: either would hide vectors unread. */
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private final String origin;
    private final String suite;
    private final String source;
    private final List<Vector> vectors;
    private final List<String> warnings;

    private VectorFile(String origin, String suite, String source, List<Vector> vectors) {
        this.origin = origin;
        this.suite = suite;
        this.source = source;
        this.vectors = vectors;
        this.warnings = unknownFields(origin, suite, vectors);
    }

    /**
     * One line for each field of a vector (or of a filter, match or log inside it) that the schema does not give its
     * suite: the schema lets a runner ignore such fields (they may carry notes), so a misspelt optional field
     * ({@code "hsah"}, {@code "containsafter"}) would turn its check off in silence. Nothing for a suite the schema
     * does not know.
     */
    private static List<String> unknownFields(String origin, String suite, List<Vector> vectors) {
        if (Suites.schemaFields(suite, "").isEmpty()) {
            return List.of();
        }
        List<String> warnings = new ArrayList<>();
        for (Vector vector : vectors) {
            String where = origin + " " + vector + ": ";
            unknownFields(where, suite, "", vector.node(), warnings);
            JsonNode filter = vector.node().get("filter");
            if (filter != null && filter.isObject()) {
                unknownFields(where, suite, "filter", filter, warnings);
            }
            for (String list : List.of("matched", "logs")) {
                JsonNode items = vector.node().get(list);
                if (items != null && items.isArray()) {
                    for (int i = 0; i < items.size(); i++) {
                        if (items.get(i).isObject()) {
                            unknownFields(where + list + "[" + i + "]: ", suite, list + "[]", items.get(i), warnings);
                        }
                    }
                }
            }
        }
        return Collections.unmodifiableList(warnings);
    }

    private static void unknownFields(String where, String suite, String path, JsonNode object, List<String> out) {
        List<String> known = Suites.schemaFields(suite, path);
        if (known.isEmpty()) {
            return;
        }
        object.fieldNames().forEachRemaining(field -> {
            boolean note = path.isEmpty() && (field.equals("name") || field.equals("note"));
            if (!note && !known.contains(field)) {
                out.add(where + "field '" + field + "' is not a field of " + suite
                        + (path.isEmpty() ? "" : " " + path) + " in the schema, so nothing checks it (the schema's: "
                        + String.join(", ", known) + ")");
            }
        });
    }

    /** Reads and checks a file from disk. */
    public static VectorFile read(Path path) {
        if (Files.isDirectory(path)) {
            throw new VectorFormatException(path + ": is a directory, not a vector file");
        }
        try {
            long size = Files.size(path);
            if (size > MAX_FILE_BYTES) {
                throw new VectorFormatException(
                        path + ": file is " + size + " bytes; a vector file may be at most " + MAX_FILE_BYTES
                                + " bytes");
            }
            // Read bounded even so: a device or a file still growing yields more than the size it reports.
            try (InputStream in = Files.newInputStream(path)) {
                return read(path.toString(), in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path + ": " + e.getMessage(), e);
        }
    }

    /** Reads and checks a file from a stream (at most {@value #MAX_FILE_BYTES} bytes are read). */
    public static VectorFile read(String origin, InputStream in) {
        try {
            byte[] bytes = in.readNBytes(MAX_FILE_BYTES + 1);
            if (bytes.length > MAX_FILE_BYTES) {
                throw new VectorFormatException(origin + ": file is larger than " + MAX_FILE_BYTES + " bytes");
            }
            return parse(origin, utf8(origin, bytes));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + origin + ": " + e.getMessage(), e);
        }
    }

    /**
     * The text of a file's bytes, which must be UTF-8 (RFC 8259): a byte that is not was read as U+FFFD, so a name or
     * a value changed in silence (a hex value was then refused for a character the file does not hold).
     */
    private static String utf8(String origin, byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(in).toString();
        } catch (CharacterCodingException e) {
            // The decoder stops at the first byte it cannot decode.
            throw new VectorFormatException(String.format(Locale.ROOT,
                    "%s: not UTF-8: byte 0x%02x at offset %d does not begin a valid UTF-8 sequence", origin,
                    bytes[in.position()] & 0xff, in.position()), e);
        }
    }

    /**
     * Jackson's message with each embedded location {@code [Source: REDACTED (`...` disabled); line: 1, column: 1]}
     * shortened to {@code line 1, column 1}: an unclosed object or list names where it started that way, and the
     * source description says nothing to a user (the message already names the file).
     */
    private static String withoutSourceDescription(String message) {
        return message == null ? ""
                : message.replaceAll("\\[Source: .*?; line: (\\d+), column: (\\d+)]", "line $1, column $2");
    }

    /**
     * Parses the text of a vector file.
     *
     * @param origin where the text came from (a path or resource name), used in every error message
     * @throws VectorFormatException when the text is not JSON or not in the schema's shape
     */
    public static VectorFile parse(String origin, String json) {
        Objects.requireNonNull(origin, "origin");
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new VectorFormatException(origin + ": not JSON: " + withoutSourceDescription(e.getOriginalMessage())
                    + (e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr()
                    + ", column " + e.getLocation().getColumnNr() + ")"), e);
        }
        if (root == null || !root.isObject()) {
            // Jackson reads text of no JSON value (empty, or white space) as a missing node, which was said "missing".
            String found = root == null || root.isMissingNode() ? "empty"
                    : root.getNodeType().name().toLowerCase(Locale.ROOT);
            throw new VectorFormatException(origin + ": not a conformance file: the top level must be an object with "
                    + "'suite', 'source' and 'vectors'; it is " + found);
        }
        String suite = envelopeText(origin, root, "suite");
        String source = envelopeText(origin, root, "source");
        JsonNode list = root.get("vectors");
        if (list == null) {
            throw new VectorFormatException(origin + ": not a conformance file: missing field 'vectors'");
        }
        if (!list.isArray()) {
            throw new VectorFormatException(origin + ": not a conformance file: field 'vectors' must be a list");
        }
        List<Vector> vectors = new ArrayList<>(list.size());
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < list.size(); i++) {
            int number = i + 1;
            JsonNode item = list.get(i);
            if (!item.isObject()) {
                throw new VectorFormatException(origin + ": vector " + number + " must be an object");
            }
            JsonNode name = item.get("name");
            if (name == null || !name.isTextual() || name.asText().isEmpty()) {
                throw new VectorFormatException(
                        origin + ": vector " + number + ": missing field 'name' (a non-empty string)");
            }
            Integer earlier = seen.putIfAbsent(name.asText(), number);
            if (earlier != null) {
                throw new VectorFormatException(origin + ": vector " + number + ": duplicate name '" + name.asText()
                        + "' (also vector " + earlier + "); names must be unique within a file");
            }
            vectors.add(new Vector(number, name.asText(), (ObjectNode) item));
        }
        return new VectorFile(origin, suite, source, Collections.unmodifiableList(vectors));
    }

    private static String envelopeText(String origin, JsonNode root, String field) {
        JsonNode value = root.get(field);
        if (value == null) {
            throw new VectorFormatException(origin + ": not a conformance file: missing field '" + field + "'");
        }
        if (!value.isTextual() || value.asText().isBlank()) {
            throw new VectorFormatException(
                    origin + ": not a conformance file: field '" + field + "' must be a non-empty string");
        }
        return value.asText();
    }

    /** Where the file came from: a path or a resource name. */
    public String origin() {
        return origin;
    }

    public String suite() {
        return suite;
    }

    /** The provenance of the values: repository, path, commit and test. */
    public String source() {
        return source;
    }

    public List<Vector> vectors() {
        return vectors;
    }

    /**
     * Fields the schema does not give this file's suite (a misspelling turns a check off; a note is harmless), one
     * line each naming the vector and the field; empty for the bundled files and for a suite the schema does not know.
     */
    public List<String> warnings() {
        return warnings;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof VectorFile f && f.origin.equals(origin) && f.suite.equals(suite)
                && f.source.equals(source) && f.vectors.equals(vectors);
    }

    @Override
    public int hashCode() {
        return Objects.hash(origin, suite, source, vectors);
    }

    @Override
    public String toString() {
        return origin + " (" + suite + ", " + vectors.size() + " vectors)";
    }
}
