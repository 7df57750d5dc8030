package org.chainfilter.testvectors;

/**
 * A vector file, or one field of a vector, is not in the shape of {@code conformance/SCHEMA.md}. The message says
 * where ("vector 3 ('x'): field 'seed' must be a uint32 number") so that a user can fix the file.
 */
public final class VectorFormatException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public VectorFormatException(String message) {
        super(message);
    }

    public VectorFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
