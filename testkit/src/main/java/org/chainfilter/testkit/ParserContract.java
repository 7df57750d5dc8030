package org.chainfilter.testkit;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The rule every fuzz target checks against a parser of untrusted input.
 *
 * <ol>
 *   <li>The parser either returns a value or refuses the input with one of its <em>declared</em> exception types
 *       (for chainfilter's parsers: {@link IllegalArgumentException} and its subclasses, sometimes a checked
 *       {@link java.io.IOException} for file readers). A refusal must carry a message that is not blank and not
 *       longer than {@link #MAX_MESSAGE_CHARS} characters: a user reads it, and a log must not be flooded with a
 *       peer's bytes. The one exception is {@link java.io.EOFException}, whose type says it all (the JDK's
 *       stream readers throw it without a message).</li>
 *   <li>Anything else escaping is a finding and is rethrown as it is (ArrayIndexOutOfBoundsException,
 *       NegativeArraySizeException, ArithmeticException, NullPointerException, OutOfMemoryError,
 *       StackOverflowError...), so Jazzer records the input.</li>
 *   <li>Allocation is bounded by the input: while parsing an {@code n}-byte input the calling thread may allocate at
 *       most {@code ALLOCATION_ALLOWANCE_BYTES + ALLOCATION_BYTES_PER_INPUT_BYTE * n} bytes. A parser that sizes an
 *       array from a length field before checking it against the bytes that remain breaks this on a tiny input that
 *       claims a huge length, long before it would run out of memory. A parse over the bound is run a second time
 *       and only a repeated excess counts: the first run may have loaded classes (which Jazzer instruments on the
 *       same thread while fuzzing). Measured with HotSpot's per-thread allocation
 *       counter ({@code com.sun.management.ThreadMXBean#getThreadAllocatedBytes}); where the JVM lacks it the check
 *       is skipped.</li>
 * </ol>
 * Hangs are caught by the fuzzer's per-input timeout ({@code -timeout} in the {@code fuzz} profile).
 *
 * @param <T> what the parser returns
 */
public final class ParserContract<T> {
    /** Fixed allowance for one parse: class initialisation, small tables, exception objects and their stack traces. */
    public static final long ALLOCATION_ALLOWANCE_BYTES = 4L << 20;
    /**
     * Allowance per input byte: a parsed value holds copies of the input in objects (hashes, scripts, lists, field
     * names built for messages), which for degenerate inputs (thousands of one-byte empty items) costs up to about a
     * hundred bytes per input byte; an unchecked length field costs orders of magnitude more (a 9-byte CompactSize
     * claiming {@code 0x02000000} would allocate 32 MiB).
     */
    public static final long ALLOCATION_BYTES_PER_INPUT_BYTE = 256;
    /** Longest acceptable refusal message. */
    public static final int MAX_MESSAGE_CHARS = 1000;

    private static final com.sun.management.ThreadMXBean THREADS = threadBean();

    private final String parserName;
    private final List<Class<? extends Throwable>> declared;

    private ParserContract(String parserName, List<Class<? extends Throwable>> declared) {
        this.parserName = parserName;
        this.declared = declared;
    }

    /** A contract for a parser (named for messages) whose only declared refusal is {@code declared}. */
    public static <T> ParserContract<T> refusing(String parserName, Class<? extends Throwable> declared) {
        return new ParserContract<>(parserName, List.of(declared));
    }

    /** A contract for a parser whose declared refusals are {@code first} and {@code second}. */
    public static <T> ParserContract<T> refusing(
            String parserName, Class<? extends Throwable> first, Class<? extends Throwable> second) {
        return new ParserContract<>(parserName, List.of(first, second));
    }

    /** A parse that may throw checked exceptions (file readers declare IOException). */
    @FunctionalInterface
    public interface Parse<T> {
        T run() throws Exception;
    }

    /**
     * Runs {@code parse} over an input of {@code inputLength} bytes (or characters) and applies the contract. Anything
     * undeclared that the parser threw is rethrown unchanged (sneakily, if it is a checked exception).
     *
     * @return the parsed value, or empty when the parser refused the input with a declared exception
     * @throws AssertionError when a refusal's message is blank or too long, or the parse allocated beyond its bound
     */
    public Optional<T> parse(long inputLength, Parse<T> parse) {
        Outcome<T> outcome = run(parse);
        if (outcome.thrown != null && !isDeclared(outcome.thrown)) {
            throw ParserContract.<RuntimeException>sneaky(outcome.thrown);
        }
        long bound = ALLOCATION_ALLOWANCE_BYTES + ALLOCATION_BYTES_PER_INPUT_BYTE * inputLength;
        if (outcome.allocatedBytes > bound) {
            // The first run may have loaded classes on this thread (and, while fuzzing, Jazzer instruments each class
            // as it loads): only an excess that repeats on a second, warm run is the parser's own.
            outcome = run(parse);
            if (outcome.allocatedBytes > bound) {
                throw new AssertionError(parserName + " allocated " + outcome.allocatedBytes + " bytes for a "
                        + inputLength + "-byte input; the bound is " + bound
                        + " (a length field used before it was checked?)");
            }
        }
        if (outcome.thrown != null) {
            checkMessage(outcome.thrown);
            return Optional.empty();
        }
        if (outcome.value == null) {
            throw new AssertionError(parserName + " returned null instead of a value or a refusal");
        }
        return Optional.of(outcome.value);
    }

    private static <T> Outcome<T> run(Parse<T> parse) {
        long before = allocatedBytes();
        T value = null;
        Throwable thrown = null;
        try {
            value = parse.run();
        } catch (Throwable t) {
            thrown = t;
        }
        long allocated = before < 0 ? 0 : allocatedBytes() - before;
        return new Outcome<>(value, thrown, allocated);
    }

    private record Outcome<T>(T value, Throwable thrown, long allocatedBytes) {
    }

    private boolean isDeclared(Throwable t) {
        for (Class<? extends Throwable> type : declared) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    private void checkMessage(Throwable refusal) {
        if (refusal instanceof java.io.EOFException) {
            // The JDK's stream readers end a truncated stream with a bare EOFException: its type is the reason.
            return;
        }
        String message = refusal.getMessage();
        if (message == null || message.isBlank()) {
            throw new AssertionError(parserName + " refused an input without saying why: " + refusal, refusal);
        }
        if (message.length() > MAX_MESSAGE_CHARS) {
            throw new AssertionError(parserName + " refused an input with a " + message.length()
                    + "-character message; at most " + MAX_MESSAGE_CHARS + " are acceptable", refusal);
        }
    }

    /**
     * Checks the round trip of a strict parser: serializing what was parsed gives back the very input (the parser
     * accepts one encoding per value: canonical CompactSize, no trailing bytes).
     */
    public static void assertCanonical(String what, byte[] input, byte[] reserialized) {
        if (!Arrays.equals(input, reserialized)) {
            throw new AssertionError(what + ": parse then serialize changed the bytes (" + input.length + " in, "
                    + reserialized.length + " out, first difference at byte " + Arrays.mismatch(input, reserialized)
                    + ")");
        }
    }

    /**
     * Checks parse → serialize → parse: the value read back from its own serialization equals it, and serializes to
     * the same bytes again.
     */
    public static <V> void assertRoundTrip(String what, V value, Function<V, byte[]> serialize,
                                           Function<byte[], V> parse) {
        byte[] first = serialize.apply(value);
        V again = parse.apply(first);
        if (!Objects.equals(value, again)) {
            throw new AssertionError(what + ": the value read back from its serialization differs: " + value
                    + " then " + again);
        }
        assertCanonical(what, first, serialize.apply(again));
    }

    private static long allocatedBytes() {
        return THREADS == null ? -1 : THREADS.getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    private static com.sun.management.ThreadMXBean threadBean() {
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean bean
                && bean.isThreadAllocatedMemorySupported()) {
            bean.setThreadAllocatedMemoryEnabled(true);
            return bean;
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E sneaky(Throwable t) throws E {
        throw (E) t;
    }
}
