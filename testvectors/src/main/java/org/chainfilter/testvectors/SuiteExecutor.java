package org.chainfilter.testvectors;

/**
 * Runs the vectors of one suite against one implementation (chainfilter itself, or a peer library).
 * An executor reads the vector's fields, computes, and throws a {@link Mismatch} at the first difference.
 */
public interface SuiteExecutor {
    /** The suite name of {@code conformance/SCHEMA.md} this executor runs. */
    String suite();

    /**
     * Checks one vector.
     *
     * @throws Mismatch              at the first expected value that the implementation does not reproduce
     * @throws VectorFormatException when the vector lacks a field the suite needs or has one of the wrong type
     */
    void check(Vector vector) throws Mismatch, NotCheckable;
}
