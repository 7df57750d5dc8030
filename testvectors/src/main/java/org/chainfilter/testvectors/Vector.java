package org.chainfilter.testvectors;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One vector of a {@link VectorFile}: its position, its {@code name} (unique within the file) and its suite fields,
 * read through the checked accessors of {@link Fields}. Unknown fields (notes) are kept and ignored.
 */
public final class Vector extends Fields {
    private final int number;
    private final String name;

    Vector(int number, String name, ObjectNode node) {
        super("vector " + number + " ('" + name + "')", "", node);
        this.number = number;
        this.name = name;
    }

    /** Position in the file's {@code vectors} list, counting from 1 (as error messages do). */
    public int number() {
        return number;
    }

    public String name() {
        return name;
    }

    /** The free-text {@code note} of the vector (its provenance), or the empty string. */
    public String note() {
        return has("note") && node().get("note").isTextual() ? node().get("note").asText() : "";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Vector v && v.number == number && v.name.equals(name) && v.node().equals(node());
    }

    @Override
    public int hashCode() {
        return 31 * (31 * number + name.hashCode()) + node().hashCode();
    }

    @Override
    public String toString() {
        return "vector " + number + " ('" + name + "')";
    }
}
