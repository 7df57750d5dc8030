package org.chainfilter.testvectors;

import java.util.Arrays;
import java.util.Objects;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
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

    /**
     * Membership as listed: every item of the hex-list field {@code presentField} passes {@code test}, no item of
     * {@code absentField} does. An absent field is not checked.
     *
     * @param subject what is tested, for the message ("the filter", "web3j's bloom")
     */
    public static int membership(Vector vector, String presentField, String absentField, Predicate<byte[]> test,
                                 String subject) throws Mismatch {
        int tested = 0;
        if (vector.has(presentField)) {
            for (byte[] item : vector.hexList(presentField)) {
                that(test.test(item), presentField + ": " + subject + " lacks " + Hex.encode(item));
                tested++;
            }
        }
        if (vector.has(absentField)) {
            for (byte[] item : vector.hexList(absentField)) {
                that(!test.test(item), absentField + ": " + subject + " contains " + Hex.encode(item));
                tested++;
            }
        }
        return tested;
    }

    /**
     * {@link #membership} for a suite whose vectors state nothing else: a vector without a single present or absent
     * item (the fields missing, null or empty) would check nothing and still count as passed, so it is malformed.
     */
    public static void membershipOfSomeItem(Vector vector, String suite, String presentField, String absentField,
                                            Predicate<byte[]> test, String subject) throws Mismatch {
        if (membership(vector, presentField, absentField, test, subject) == 0) {
            throw new VectorFormatException("an " + suite + " vector lists at least one " + presentField + " or "
                    + absentField + " item; this one lists none");
        }
    }

    /**
     * A parse that must succeed exactly when {@code expectValid}: a refusal is an exception of type {@code refusal}
     * (any other exception propagates, so a crash is never taken for a refusal; nor is a malformed vector field, so
     * decode the vector's fields before the parse).
     *
     * @param describe what an accepted value looks like, for the message when it should have been refused
     * @return the parsed value, or {@code null} when it was (rightly) refused
     */
    public static <T> T validity(boolean expectValid, Supplier<T> parse, Class<? extends RuntimeException> refusal,
                                 Function<T, String> describe) throws Mismatch {
        return validity(expectValid, parse, List.of(refusal), describe);
    }

    /** {@link #validity(boolean, Supplier, Class, Function)} for an implementation that refuses with any of several types. */
    public static <T> T validity(boolean expectValid, Supplier<T> parse,
                                 List<Class<? extends RuntimeException>> refusals, Function<T, String> describe)
            throws Mismatch {
        T value;
        try {
            value = parse.get();
        } catch (RuntimeException e) {
            if (refusals.stream().noneMatch(refusal -> refusal.isInstance(e)) || e instanceof VectorFormatException) {
                throw e;
            }
            that(!expectValid, "valid: expected true got false (" + e.getClass().getSimpleName() + ": "
                    + e.getMessage() + ")");
            return null;
        }
        that(expectValid, "valid: expected false got true (" + describe.apply(value) + ")");
        return value;
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
