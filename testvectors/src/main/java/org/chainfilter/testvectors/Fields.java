package org.chainfilter.testvectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.chainfilter.common.Hex;

/**
 * Typed, checked access to the fields of one JSON object of a vector file: a vector itself, or an object nested in it
 * (a {@code filter}, a log, a matched entry). Every accessor refuses a value of the wrong type with a
 * {@link VectorFormatException} that names the vector and the field path; an absent field is reported the same way,
 * so a caller tests {@link #has(String)} first for the schema's optional fields.
 */
public class Fields {
    private final String where;
    private final String path;
    private final ObjectNode node;

    Fields(String where, String path, ObjectNode node) {
        this.where = where;
        this.path = path;
        this.node = node;
    }

    /** True when the field is present and not JSON {@code null}: the schema checks only fields that are present. */
    public final boolean has(String field) {
        JsonNode value = node.get(field);
        return value != null && !value.isNull();
    }

    /** Bytes of a hex string field; a leading {@code 0x} is ignored, either case is accepted. */
    public final byte[] hex(String field) {
        return hexValue(field, require(field));
    }

    /** Bytes of a hex string field that must be exactly {@code length} bytes long. */
    public final byte[] hex(String field, int length) {
        byte[] bytes = hex(field);
        if (bytes.length != length) {
            throw error(field, "must be " + length + " bytes of hex; it is " + bytes.length + " bytes");
        }
        return bytes;
    }

    /** A list of hex strings, each decoded. */
    public final List<byte[]> hexList(String field) {
        JsonNode list = requireArray(field);
        List<byte[]> out = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            out.add(hexValue(field + "[" + i + "]", list.get(i)));
        }
        return Collections.unmodifiableList(out);
    }

    /** An unsigned 32-bit JSON number (0 .. 4294967295), as a long. */
    public final long uint32(String field) {
        JsonNode value = require(field);
        boolean uint32 = value.isIntegralNumber() && value.canConvertToLong()
                && value.asLong() >= 0 && value.asLong() <= 0xFFFF_FFFFL;
        if (!uint32) {
            throw error(field, "must be a uint32 number (0 .. 4294967295); it is " + describe(value));
        }
        return value.asLong();
    }

    /** A non-negative JSON integer that fits in an int. */
    public final int count(String field) {
        JsonNode value = require(field);
        if (!value.isIntegralNumber() || !value.canConvertToInt() || value.asInt() < 0) {
            throw error(field, "must be a non-negative integer up to 2147483647; it is " + describe(value));
        }
        return value.asInt();
    }

    /** A finite JSON number. */
    public final double number(String field) {
        JsonNode value = require(field);
        if (!value.isNumber() || !Double.isFinite(value.asDouble())) {
            throw error(field, "must be a number; it is " + describe(value));
        }
        return value.asDouble();
    }

    /** A JSON boolean. */
    public final boolean bool(String field) {
        JsonNode value = require(field);
        if (!value.isBoolean()) {
            throw error(field, "must be true or false; it is " + describe(value));
        }
        return value.asBoolean();
    }

    /** A JSON string. */
    public final String text(String field) {
        JsonNode value = require(field);
        if (!value.isTextual()) {
            throw error(field, "must be a string; it is " + describe(value));
        }
        return value.asText();
    }

    /** A nested object, with the same checked access. */
    public final Fields object(String field) {
        JsonNode value = require(field);
        if (!value.isObject()) {
            throw error(field, "must be an object; it is " + describe(value));
        }
        return new Fields(where, qualified(field) + ".", (ObjectNode) value);
    }

    /** A list of nested objects. */
    public final List<Fields> objects(String field) {
        JsonNode list = requireArray(field);
        List<Fields> out = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            JsonNode item = list.get(i);
            String name = field + "[" + i + "]";
            if (!item.isObject()) {
                throw error(name, "must be an object; it is " + describe(item));
            }
            out.add(new Fields(where, qualified(name) + ".", (ObjectNode) item));
        }
        return Collections.unmodifiableList(out);
    }

    /**
     * A list whose entries are each JSON {@code null} or a list of hex strings (the {@code topics} of an
     * {@code eth-log-filter} vector); a {@code null} entry is returned as {@code null}.
     */
    public final List<List<byte[]>> nullableHexLists(String field) {
        JsonNode list = requireArray(field);
        List<List<byte[]>> out = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            JsonNode item = list.get(i);
            String name = field + "[" + i + "]";
            if (item.isNull()) {
                out.add(null);
                continue;
            }
            if (!item.isArray()) {
                throw error(name, "must be null or a list of hex strings; it is " + describe(item));
            }
            List<byte[]> alternatives = new ArrayList<>(item.size());
            for (int j = 0; j < item.size(); j++) {
                alternatives.add(hexValue(name + "[" + j + "]", item.get(j)));
            }
            out.add(Collections.unmodifiableList(alternatives));
        }
        return Collections.unmodifiableList(out);
    }

    /**
     * Which of two alternative fields is given: exactly one must be (both would leave one unchecked, or unused).
     *
     * @throws VectorFormatException if neither or both are present
     */
    public final String oneOf(String first, String second) {
        boolean hasFirst = has(first);
        boolean hasSecond = has(second);
        if (hasFirst && hasSecond) {
            throw error(second, "is given beside '" + first + "'; give one of them");
        }
        if (!hasFirst && !hasSecond) {
            throw error(first, "is missing (give '" + first + "' or '" + second + "')");
        }
        return hasFirst ? first : second;
    }

    /** The error for a field, prefixed with the vector it belongs to. */
    public final VectorFormatException error(String field, String problem) {
        return new VectorFormatException(where + ": field '" + qualified(field) + "' " + problem);
    }

    final ObjectNode node() {
        return node;
    }

    private String qualified(String field) {
        return path + field;
    }

    private JsonNode require(String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            throw error(field, "is missing");
        }
        return value;
    }

    private JsonNode requireArray(String field) {
        JsonNode value = require(field);
        if (!value.isArray()) {
            throw error(field, "must be a list; it is " + describe(value));
        }
        return value;
    }

    private byte[] hexValue(String field, JsonNode value) {
        if (!value.isTextual()) {
            throw error(field, "must be a hex string; it is " + describe(value));
        }
        try {
            return Hex.decode(value.asText());
        } catch (IllegalArgumentException e) {
            throw error(field, "must be a hex string: " + e.getMessage());
        }
    }

    private static String describe(JsonNode value) {
        String text = value.toString();
        String shown = text.length() > 40 ? text.substring(0, 40) + "…" : text;
        return value.getNodeType().name().toLowerCase(java.util.Locale.ROOT) + " " + shown;
    }
}
