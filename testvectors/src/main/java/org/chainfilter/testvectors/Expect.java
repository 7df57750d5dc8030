package org.chainfilter.testvectors;

import java.util.Arrays;
import java.util.Objects;
import org.chainfilter.common.Hex;

/** Comparisons for suite executors: each throws a {@link Mismatch} that names the field and the first difference. */
public final class Expect {
    /** Bytes shown on either side of the first difference in a long byte string. */
    private static final int CONTEXT_BYTES = 8;

    private Expect() {
    }

    /** Byte strings equal, or a mismatch showing both around the first differing byte. */
    public static void bytes(String what, byte[] expected, byte[] actual) throws Mismatch {
        int at = Arrays.mismatch(expected, actual);
        if (at < 0) {
            return;
        }
        String lengths = expected.length == actual.length ? ""
                : "; lengths " + expected.length + " and " + actual.length + " bytes";
        throw new Mismatch(what + ": expected " + window(expected, at) + " got " + window(actual, at)
                + " (first difference at byte " + at + lengths + ")");
    }

    /** Values equal (by {@code equals}), or a mismatch showing both. */
    public static void equal(String what, Object expected, Object actual) throws Mismatch {
        if (!Objects.equals(expected, actual)) {
            throw new Mismatch(what + ": expected " + expected + " got " + actual);
        }
    }

    /** A condition that must hold; {@code failure} says what went wrong. */
    public static void that(boolean condition, String failure) throws Mismatch {
        if (!condition) {
            throw new Mismatch(failure);
        }
    }

    /** Hex of a byte string, cut to a window around {@code at} with ellipses where bytes are left out. */
    static String window(byte[] bytes, int at) {
        int from = Math.max(0, Math.min(at, bytes.length) - CONTEXT_BYTES);
        int to = Math.min(bytes.length, at + CONTEXT_BYTES);
        if (bytes.length == 0) {
            return "(empty)";
        }
        return (from > 0 ? "…" : "") + Hex.encode(bytes, from, to - from) + (to < bytes.length ? "…" : "");
    }
}
