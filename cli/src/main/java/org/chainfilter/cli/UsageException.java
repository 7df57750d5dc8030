package org.chainfilter.cli;

/**
 * A command line whose options do not go together (both or neither of an either/or pair, an option that needs
 * another): a malformed command line as much as one picocli cannot parse, so it ends with the same exit status,
 * {@link ErrorHandler#USAGE}, where refused input ends with {@link ErrorHandler#FAILURE}.
 */
final class UsageException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }
}
