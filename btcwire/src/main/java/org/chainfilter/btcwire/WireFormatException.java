package org.chainfilter.btcwire;

/**
 * Bytes that do not form the Bitcoin structure being read: too short, a length beyond what is left or beyond a limit,
 * a non-canonical CompactSize, trailing bytes. The message names what was being read, the value and the limit.
 *
 * <p>Unchecked, and an {@link IllegalArgumentException}, because malformed input is a caller's argument error: the
 * wire layer never declares checked exceptions.
 */
public final class WireFormatException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public WireFormatException(String message) {
        super(message);
    }
}
