package org.chainfilter.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ChainfilterCommandTest {

    private static void assertOneLineError(CliRun run, int status, String message) {
        assertEquals(status, run.status, run::toString);
        assertEquals("", run.out, run::toString);
        assertEquals("chainfilter: " + message + System.lineSeparator(), run.err, run::toString);
    }

    /** Bitcoin Core src/test/hash_tests.cpp (murmurhash3), as in Murmur3Test: seed 0xFBA4C795 and the 0x-hex form. */
    @ParameterizedTest
    @CsvSource({
        "0, '', 00000000",
        "0xfba4c795, 00, ea3f0b17",
        "4221880213, 00, ea3f0b17",
        "0xffffffff, '', 81f16f39",
        "0, 001122334455667788, b4698def",
        "0, 0xff, fd6cf10d",
    })
    void murmur3PrintsTheX86Hash(String seed, String hex, String expected) {
        CliRun run = CliRun.of("hash", "murmur3", "--seed", seed, hex);
        assertEquals(0, run.status, run::toString);
        assertEquals(expected + System.lineSeparator(), run.out);
        assertEquals("", run.err);
    }

    /** Guava's Murmur3Hash128Test known value for "hell" (68656c6c), seed 0: h1 629942693e10f867, h2 92db0b82baeb5347. */
    @Test
    void murmur3X64PrintsTheReferenceOutputBytes() {
        CliRun run = CliRun.of("hash", "murmur3", "--x64-128", "68656c6c");
        assertEquals(0, run.status, run::toString);
        assertEquals("67f8103e69429962" + "4753ebba820bdb92" + System.lineSeparator(), run.out);
    }

    /** The SipHash-2-4 reference vector 15 (vectors.h; Bitcoin Core hash_tests.cpp siphash): key 00..0f, message 00..0e. */
    @Test
    void siphashPrintsTheReferenceVector() {
        CliRun run = CliRun.of("hash", "siphash", "--key", "000102030405060708090a0b0c0d0e0f",
                "000102030405060708090a0b0c0d0e");
        assertEquals(0, run.status, run::toString);
        assertEquals("a129ca6149be45e5" + System.lineSeparator(), run.out);
        CliRun bytes = CliRun.of("hash", "siphash", "--bytes", "--key", "000102030405060708090a0b0c0d0e0f",
                "000102030405060708090a0b0c0d0e");
        assertEquals("e545be4961ca29a1" + System.lineSeparator(), bytes.out);
    }

    @Test
    void mathPrintsTheOptimalShape() {
        CliRun run = CliRun.of("math", "--elements", "1000000", "--fp", "0.01");
        assertEquals(0, run.status, run::toString);
        String nl = System.lineSeparator();
        assertEquals("elements            1000000" + nl
                + "target rate         0.01" + nl
                + "bits (m)            9585059" + nl
                + "hash functions (k)  7" + nl
                + "bytes               1198133 (1.2 MB)" + nl
                + "bits per element    9.585" + nl
                + "expected rate       0.0100392" + nl, run.out);
    }

    /** The size's unit changes at 1000 bytes: 999 bytes are "999 B", 1000 bytes "1.0 kB" (decimal units). */
    @Test
    void mathNamesAThousandBytesAKilobyte() {
        CliRun under = CliRun.of("math", "--elements", "833", "--fp", "0.01");
        assertEquals(0, under.status, under::toString);
        assertTrue(under.out.contains(System.lineSeparator() + "bytes               999 (999 B)"
                + System.lineSeparator()), under.out);
        CliRun thousand = CliRun.of("math", "--elements", "834", "--fp", "0.01");
        assertEquals(0, thousand.status, thousand::toString);
        assertTrue(thousand.out.contains(System.lineSeparator() + "bytes               1000 (1.0 kB)"
                + System.lineSeparator()), thousand.out);
    }

    @Test
    void hundredMillionElementsAtOnePercentTake120Megabytes() {
        CliRun run = CliRun.of("math", "--elements", "1e8", "--fp", "0.01");
        assertTrue(run.out.contains("bytes               119813230 (119.8 MB)"), run::toString);
    }

    @Test
    void elementCountsMustBeWhole() {
        assertOneLineError(CliRun.of("math", "--elements", "1.5", "--fp", "0.01"), 2,
                "Invalid value for option '--elements': '1.5' is not a whole number (see 'chainfilter math --help')");
        assertEquals(0, CliRun.of("math", "--elements", "1_000", "--fp", "0.01").status);
        assertOneLineError(CliRun.of("math", "--elements", "1e-999999999", "--fp", "0.01"), 2,
                "Invalid value for option '--elements': '1e-999999999' is not a whole number (see 'chainfilter math"
                        + " --help')");
    }

    /**
     * A rate a double cannot hold is refused with the value typed ("1e-400" became 0.0 and was refused as "0.0");
     * Java's other double literals still read as before.
     */
    @Test
    void ratesThatUnderflowADoubleAreRefusedAsTyped() {
        String tooSmall = " is too small for a double (it rounds to 0); the smallest positive rate is 4.9E-324";
        Map<String, String> refused = Map.of(
                "1e-400", "'1e-400'" + tooSmall, "1e-400d", "'1e-400d'" + tooSmall, "0x1p-2000", "'0x1p-2000'" + tooSmall,
                "1e400", "'1e400' is too large for a double", "0x1p2000", "'0x1p2000' is too large for a double",
                "Infinity", "'Infinity' is too large for a double", "NaN", "'NaN' is not a number",
                "often", "'often' is not a decimal number");
        refused.forEach((rate, why) -> assertOneLineError(CliRun.of("math", "--elements", "10", "--fp", rate), 2,
                "Invalid value for option '--fp': " + why + " (see 'chainfilter math --help')"));
        CliRun plain = CliRun.of("math", "--elements", "1000", "--fp", "0.0078125");
        for (String literal : List.of("0.0078125d", "0x1p-7", "7.8125E-3")) {
            assertEquals(plain.out, CliRun.of("math", "--elements", "1000", "--fp", literal).out, literal);
        }
    }

    /**
     * A rate of zero, however written (0, 0f, 0x0p0), reaches the shape's refusal of a rate outside (0, 1), status 1;
     * a hex literal whose digit before the exponent is a letter (0xap-2000) and which rounds to 0 is too small. Calling
     * every zero too small (status 2), taking an f suffix as a hex digit, and taking only 1-9 as non-zero hex digits
     * passed every test (from a mutation review).
     */
    @Test
    void aRateOfZeroIsRefusedByTheShapeHoweverWritten() {
        for (String zero : List.of("0", "0f", "0.0D", "0x0p0")) {
            assertOneLineError(CliRun.of("math", "--elements", "10", "--fp", zero), 1,
                    "false-positive rate is 0.0; it must be strictly between 0 and 1");
        }
        assertOneLineError(CliRun.of("math", "--elements", "10", "--fp", "0xap-2000"), 2, "Invalid value for option"
                + " '--fp': '0xap-2000' is too small for a double (it rounds to 0); the smallest positive rate is 4.9E-324"
                + " (see 'chainfilter math --help')");
    }

    /**
     * Sizes up to a long's largest are named in their unit, exabytes the last; stopping at petabytes passed every test
     * (from a mutation review).
     */
    @Test
    void theLargestSizesAreNamedInExabytes() {
        assertEquals("9.2 EB", MathCommand.humanBytes(Long.MAX_VALUE));
        assertEquals("1.0 PB", MathCommand.humanBytes(1_000_000_000_000_000L));
    }

    /**
     * A size that rounds up to 1000 of its unit at one decimal is named in the next unit: 999,999 bytes printed as
     * "1000.0 kB" (found by a mutation review).
     */
    @Test
    void aSizeThatRoundsUpToAThousandTakesTheNextUnit() {
        assertEquals("999 B", MathCommand.humanBytes(999));
        assertEquals("1.0 kB", MathCommand.humanBytes(1_000));
        assertEquals("999.9 kB", MathCommand.humanBytes(999_949));
        assertEquals("1.0 MB", MathCommand.humanBytes(999_950));
        assertEquals("1.0 MB", MathCommand.humanBytes(999_999));
        assertEquals("1.0 GB", MathCommand.humanBytes(999_999_999));
    }

    /** A whole number too large for a count is called that; it was refused as "not a whole number". */
    @Test
    void elementCountsPastALongAreTooLargeNotFractional() {
        assertOneLineError(CliRun.of("math", "--elements", "1e30", "--fp", "0.01"), 2,
                "Invalid value for option '--elements': '1e30' is a whole number beyond 9223372036854775807 in size,"
                        + " the most a count can be (see 'chainfilter math --help')");
        assertOneLineError(CliRun.of("math", "--elements", "-1e999999999", "--fp", "0.01"), 2,
                "Invalid value for option '--elements': '-1e999999999' is a whole number beyond 9223372036854775807 in"
                        + " size, the most a count can be (see 'chainfilter math --help')");
        CliRun largest = CliRun.of("math", "--elements", "9223372036854775807", "--fp", "0.5");
        assertOneLineError(largest, 1, "9223372036854775807 elements at rate 0.5 need 1.3306513097844322E19 bits; at"
                + " most 9223372036854775807 are representable");
        assertOneLineError(CliRun.of("math", "--elements", "2.0e1", "--fp", "1.5"), 1,
                "false-positive rate is 1.5; it must be strictly between 0 and 1");
    }

    @Test
    void badHexIsOneLine() {
        assertOneLineError(CliRun.of("hash", "murmur3", "0g"), 1, "HEX '0g': not a hex digit: 'g' at position 1");
        assertOneLineError(CliRun.of("hash", "murmur3", "abc"), 1, "HEX 'abc': hex string has an odd number of digits (3)");
        assertOneLineError(CliRun.of("hash", "siphash", "--key", "zz", "00"), 1,
                "--key 'zz': not a hex digit: 'z' at position 0");
    }

    /**
     * A hex value given on the command line is stripped of the white space around it (a pasted value ends in a line
     * break) before it is decoded; decoding it unstripped passed every test (from a mutation review).
     */
    @Test
    void hexArgumentsAreStrippedOfWhiteSpace() {
        CliRun run = CliRun.of("hash", "murmur3", " 0xff\n");
        assertEquals(0, run.status, run::toString);
        assertEquals("fd6cf10d" + System.lineSeparator(), run.out);
    }

    /**
     * A long or int option takes every value of its type, both ends included, and refuses one past either end naming
     * the value and the range. Refusing an end, or a refusal without the range, passed every test (from a mutation
     * review).
     */
    @Test
    void wholeNumberOptionsTakeTheEndsOfTheirType() {
        assertEquals(Long.MAX_VALUE, ChainfilterCommand.integerWithin("9223372036854775807", Long.MIN_VALUE,
                Long.MAX_VALUE));
        assertEquals(Long.MIN_VALUE, ChainfilterCommand.integerWithin(" -9223372036854775808", Long.MIN_VALUE,
                Long.MAX_VALUE));
        assertOneLineError(CliRun.of("eth", "index", "query", "--index", "idx", "--to", "9223372036854775808"), 2,
                "Invalid value for option '--to': '9223372036854775808' is outside"
                        + " -9223372036854775808..9223372036854775807 (see 'chainfilter eth index query --help')");
        assertOneLineError(CliRun.of("eth", "index", "build", "--index", "idx", "--blooms", "b", "--batch",
                "-2147483649"), 2, "Invalid value for option '--batch': '-2147483649' is outside"
                        + " -2147483648..2147483647 (see 'chainfilter eth index build --help')");
    }

    @Test
    void seedsOutsideUnsigned32BitsAreRefused() {
        assertOneLineError(CliRun.of("hash", "murmur3", "--seed", "0x100000000", "00"), 1,
                "seed is 0x100000000; it must be within [0, 0xffffffff]");
        assertOneLineError(CliRun.of("hash", "murmur3", "--seed", "-1", "00"), 1,
                "seed is -1; it must be within [0, 0xffffffff]");
        assertOneLineError(CliRun.of("hash", "murmur3", "--seed", "twelve", "00"), 1,
                "seed 'twelve' is not a decimal or 0x-hex number");
        // Beyond a long it is still a number, too large: refused with the range (it was called not a number).
        assertOneLineError(CliRun.of("hash", "murmur3", "--seed", "99999999999999999999", "00"), 1,
                "seed is 99999999999999999999; it must be within [0, 0xffffffff]");
        assertOneLineError(CliRun.of("hash", "murmur3", "--seed", "0xffffffffffffffffffff", "00"), 1,
                "seed is 0xffffffffffffffffffff; it must be within [0, 0xffffffff]");
    }

    @Test
    void siphashKeyMustBe16Bytes() {
        assertOneLineError(CliRun.of("hash", "siphash", "--key", "0001", "00"), 1,
                "--key is 2 bytes; SipHash-2-4 takes a key of exactly 16 bytes");
        // Too long is refused by the command too, naming the option (the library's refusal names no option).
        assertOneLineError(CliRun.of("hash", "siphash", "--key", "000102030405060708090a0b0c0d0e0f10", "00"), 1,
                "--key is 17 bytes; SipHash-2-4 takes a key of exactly 16 bytes");
    }

    @Test
    void mathRefusesImpossibleRates() {
        assertOneLineError(CliRun.of("math", "--elements", "10", "--fp", "1.5"), 1,
                "false-positive rate is 1.5; it must be strictly between 0 and 1");
        assertOneLineError(CliRun.of("math", "--elements", "0", "--fp", "0.01"), 1,
                "expected element count is 0; it must be at least 1");
        assertOneLineError(CliRun.of("math", "--elements", "1e6", "--fp", "1e-77"), 1,
                "false-positive rate is 1.0E-77; its optimal shape needs 256 hash functions, more than the 255 a shape"
                        + " allows (the rate must be at least about 1.2e-77)");
    }

    /** The overview lists the demo first, then the protocols in BIP order, conformance, and the generic tools. */
    @Test
    void helpListsTheCommandsInTheOrderAUserMeetsThem() {
        CliRun help = CliRun.of("--help");
        assertEquals(0, help.status, help::toString);
        String[] order = {"demo", "bip37", "bip158", "eth", "conformance", "hash", "math", "help"};
        int at = help.out.indexOf("Commands:");
        assertTrue(at >= 0, help.out);
        for (String command : order) {
            int next = help.out.indexOf(System.lineSeparator() + "  " + command + " ", at);
            assertTrue(next > at, command + " after position " + at + " in" + System.lineSeparator() + help.out);
            at = next;
        }
    }

    @Test
    void usageMistakesAreOneLineWithExitStatus2() {
        assertOneLineError(CliRun.of("hash", "siphash", "00"), 2,
                "Missing required option: '--key=HEX' (see 'chainfilter hash siphash --help')");
        assertOneLineError(CliRun.of("math", "--elements", "many", "--fp", "0.01"), 2,
                "Invalid value for option '--elements': 'many' is not a whole number (see 'chainfilter math --help')");
        assertOneLineError(CliRun.of("frobnicate"), 2,
                "Unmatched argument at index 0: 'frobnicate' (see 'chainfilter --help')");
        assertOneLineError(CliRun.of("demoo"), 2,
                "Unmatched argument at index 0: 'demoo'; did you mean demo? (see 'chainfilter --help')");
        assertOneLineError(CliRun.of("eth", "scna", "--rpc", "http://x"), 2,
                "Unmatched arguments from index 1: 'scna', '--rpc', 'http://x'; did you mean scan? (see 'chainfilter"
                        + " eth --help')");
        assertOneLineError(CliRun.of(), 2, "a subcommand is required (see 'chainfilter --help')");
        assertOneLineError(CliRun.of("hash"), 2,
                "a hash function is required: murmur3 or siphash (see 'chainfilter hash --help')");
    }

    /**
     * A stray word is offered the subcommands within one edit of it for a name of up to 3 letters and two for a longer
     * one, a swap of adjacent letters being one edit: "et" is close to eth, "ex" (two edits) is not, and "edom" (two
     * swaps) is close to demo. Allowing two edits for a short name, or counting a swap as two edits, passed every test
     * (from a mutation review).
     */
    @Test
    void aStrayWordIsOfferedTheSubcommandsCloseToIt() {
        assertOneLineError(CliRun.of("et"), 2, "Unmatched argument at index 0: 'et'; did you mean eth? (see 'chainfilter"
                + " --help')");
        assertOneLineError(CliRun.of("ex"), 2, "Unmatched argument at index 0: 'ex' (see 'chainfilter --help')");
        assertOneLineError(CliRun.of("edom"), 2, "Unmatched argument at index 0: 'edom'; did you mean demo? (see"
                + " 'chainfilter --help')");
    }

    /**
     * An unknown option is reported before what it caused: {@code --rcp} misspelt for {@code --rpc} was reported as
     * "Missing required option: '--rpc=URL'", never naming {@code --rcp}. picocli's similar option names follow when it
     * finds any (none for {@code --rcp}: it shares no pair of letters with {@code --rpc}). Only the unknown options
     * are named, not the words after them, and also after a stray word (picocli named them as unknown options only
     * when the first unmatched argument was one: found by a review).
     */
    @Test
    void anUnknownOptionIsReportedBeforeTheRequiredOptionsItLeavesMissing() {
        assertOneLineError(CliRun.of("eth", "scan", "--rcp", "http://x", "--from", "0"), 2,
                "Unknown option: '--rcp' (see 'chainfilter eth scan --help')");
        assertOneLineError(CliRun.of("eth", "scan", "--bogus"), 2,
                "Unknown option: '--bogus' (see 'chainfilter eth scan --help')");
        assertOneLineError(CliRun.of("math", "--elments", "5", "--fp", "0.01"), 2,
                "Unknown option: '--elments'; did you mean --elements? (see 'chainfilter math --help')");
        assertOneLineError(CliRun.of("hash", "siphash", "--kye", "00"), 2,
                "Unknown option: '--kye' (see 'chainfilter hash siphash --help')");
        assertOneLineError(CliRun.of("eth", "scan", "--rpc", "http://x", "--from", "0", "--confirmatoins", "3"), 2,
                "Unknown option: '--confirmatoins'; did you mean --confirmations? (see 'chainfilter eth scan"
                        + " --help')");
        assertOneLineError(CliRun.of("eth", "scan", "--from", "0", "extra"), 2,
                "Unmatched argument at index 4: 'extra' (see 'chainfilter eth scan --help')");
        assertOneLineError(CliRun.of("eth", "scan", "--rpc", "http://x", "--from", "0", "stray", "--confirmation",
                "3"), 2, "Unknown option: '--confirmation'; did you mean --confirmations? (see 'chainfilter eth scan"
                + " --help')");
        assertOneLineError(CliRun.of("math", "stray", "--elemnts", "5"), 2,
                "Unknown option: '--elemnts'; did you mean --elements? (see 'chainfilter math --help')");
        assertOneLineError(CliRun.of("eth", "scan", "--rcp", "x", "stray", "--frm=3"), 2,
                "Unknown options: '--rcp', '--frm=3' (see 'chainfilter eth scan --help')");
        assertOneLineError(CliRun.of("eth", "scan", "--rpc", "http://x", "--from", "-1"), 1,
                "--from is -1; block numbers start at 0");
    }

    /** An unknown option given to a parent command is named with that command, before its subcommand's errors. */
    @Test
    void anUnknownOptionOfAParentCommandIsReportedFirst() {
        assertOneLineError(CliRun.of("--bogus", "eth", "scan"), 2, "Unknown option: '--bogus' (see 'chainfilter"
                + " --help')");
        assertOneLineError(CliRun.of("eth", "--bogus", "scan", "--rcp", "http://x"), 2,
                "Unknown option: '--bogus' (see 'chainfilter eth --help')");
    }

    /**
     * An unknown option is reported before an invalid value wherever it stands: picocli collects every error of the
     * command line, and the unknown option, most often a typo that also explains the rest, goes first. Before, picocli
     * stopped at the invalid value and never saw an unknown option after it.
     */
    @Test
    void anUnknownOptionIsReportedBeforeAnInvalidValueWhereverItStands() {
        assertOneLineError(CliRun.of("eth", "scan", "--rpc", "http://x", "--rcp", "y", "--from", "abc"), 2,
                "Unknown option: '--rcp' (see 'chainfilter eth scan --help')");
        assertOneLineError(CliRun.of("eth", "scan", "--rpc", "http://x", "--from", "abc", "--rcp", "y"), 2,
                "Unknown option: '--rcp' (see 'chainfilter eth scan --help')");
        assertOneLineError(CliRun.of("eth", "scan", "--rpc", "http://x", "--from=abc", "--to", "def",
                "--confirmatoins", "3"), 2, "Unknown option: '--confirmatoins'; did you mean --confirmations?"
                        + " (see 'chainfilter eth scan --help')");
        assertOneLineError(CliRun.of("eth", "scan", "--from", "abc", "--rcp", "http://x"), 2,
                "Unknown option: '--rcp' (see 'chainfilter eth scan --help')");
        assertOneLineError(CliRun.of("math", "--elements", "many", "--fp", "0.01", "--elments", "5"), 2,
                "Unknown option: '--elments'; did you mean --elements? (see 'chainfilter math --help')");
        assertOneLineError(CliRun.of("eth", "--bogus", "scan", "--rpc", "http://x", "--from", "abc"), 2,
                "Unknown option: '--bogus' (see 'chainfilter eth --help')");
    }

    /**
     * Without an unknown option, the first invalid value on the command line is reported, before a stray argument
     * (wherever that stands) and before the required options missing; a stray argument goes before the required
     * options missing.
     */
    @Test
    void withoutAnUnknownOptionTheFirstInvalidValueIsReportedThenAStrayArgumentThenMissingOptions() {
        assertOneLineError(CliRun.of("eth", "scan", "--rpc", "http://x", "--from", "abc", "--to", "def"), 2,
                "Invalid value for option '--from': 'abc' is not a whole number (see 'chainfilter eth scan --help')");
        assertOneLineError(CliRun.of("eth", "scan", "--to", "def", "extra", "--from", "abc"), 2,
                "Invalid value for option '--to': 'def' is not a whole number (see 'chainfilter eth scan --help')");
        assertOneLineError(CliRun.of("eth", "scan", "extra", "--from", "abc"), 2,
                "Invalid value for option '--from': 'abc' is not a whole number (see 'chainfilter eth scan --help')");
        // An option given without its value is reported before the argument this leaves stray.
        assertOneLineError(CliRun.of("eth", "scan", "--rpc", "http://x", "--from", "--to", "5"), 2,
                "Expected parameter for option '--from' but found '--to' (see 'chainfilter eth scan --help')");
        assertOneLineError(CliRun.of("eth", "scan", "--to", "5", "extra"), 2,
                "Unmatched argument at index 4: 'extra' (see 'chainfilter eth scan --help')");
        assertOneLineError(CliRun.of("eth", "scan", "--to", "5"), 2,
                "Missing required options: '--rpc=URL', '--from=N' (see 'chainfilter eth scan --help')");
        assertOneLineError(CliRun.of("eth", "scan", "--rpc", "http://x", "--from"), 2,
                "Missing required parameter for option '--from' (N) (see 'chainfilter eth scan --help')");
    }

    /**
     * picocli reads the whole command line before any error is reported, and a command whose line has an error does
     * not run: {@code eth index build} with an invalid {@code --batch} creates no index directory.
     */
    @Test
    void aCommandLineWithAnErrorRunsNothing(@TempDir Path dir) throws IOException {
        Path blooms = Files.writeString(dir.resolve("blooms.txt"), "");
        Path index = dir.resolve("index");
        assertOneLineError(CliRun.of("eth", "index", "build", "--index", index.toString(), "--blooms",
                blooms.toString(), "--batch", "many"), 2, "Invalid value for option '--batch': 'many' is not a whole"
                        + " number (see 'chainfilter eth index build --help')");
        assertFalse(Files.exists(index), "index directory created");
        CliRun built = CliRun.of("eth", "index", "build", "--index", index.toString(), "--blooms", blooms.toString());
        assertEquals(0, built.status, built::toString);
        assertTrue(Files.isDirectory(index));
    }

    @Test
    void fileErrorsNameTheFileAndBugsNameTheirClass() {
        assertEquals("no such file: /nowhere/filter.bin", ErrorHandler.describe(new NoSuchFileException("/nowhere/filter.bin")));
        assertEquals("internal error: java.lang.NullPointerException: boom (set CHAINFILTER_DEBUG=1 for the stack trace)",
                ErrorHandler.describe(new NullPointerException("boom")));
        // Each of these passed every test said otherwise (from a mutation review): a file that cannot be read is named
        // with what went wrong, and an arithmetic overflow is a refused value, not a bug.
        assertEquals("permission denied: /root/filter.bin",
                ErrorHandler.describe(new java.nio.file.AccessDeniedException("/root/filter.bin")));
        assertEquals("cannot open /root/filter.bin (Permission denied)",
                ErrorHandler.describe(new java.io.FileNotFoundException("/root/filter.bin (Permission denied)")));
        assertEquals("long overflow", ErrorHandler.describe(new ArithmeticException("long overflow")));
    }

    /** A message of several lines is reported on one, its lines joined by "; " (from a mutation review). */
    @Test
    void aMessageOfSeveralLinesIsReportedOnOne() {
        java.io.StringWriter err = new java.io.StringWriter();
        ErrorHandler.report(new IllegalArgumentException("first\n  second \r\nthird\n"), new java.io.PrintWriter(err));
        assertEquals("chainfilter: first; second; third" + System.lineSeparator(), err.toString());
    }

    /** A directory given as an input file is named with its option; the bare "Is a directory" named neither. */
    @Test
    void aDirectoryGivenAsAFileIsNamed(@TempDir Path dir) {
        String d = dir.toString();
        assertOneLineError(CliRun.of("bip37", "merkleblock", "--filterload", "0000000000000000000000",
                "--block-file", d), 1, "--block-file " + d + " is a directory, not a file");
        assertOneLineError(CliRun.of("bip158", "build", "--block", Bip158CommandTest.BLOCK, "--spent-file", d), 1,
                "--spent-file " + d + " is a directory, not a file");
        assertOneLineError(CliRun.of("eth", "match", "--bloom-file", d, "--address",
                "0x0000000000000000000000000000000000000000"), 1, "--bloom-file " + d + " is a directory, not a file");
        assertOneLineError(CliRun.of("eth", "bloom", d), 1, "FILE " + d + " is a directory, not a file");
        assertOneLineError(CliRun.of("eth", "index", "build", "--index", dir.resolve("idx").toString(), "--blooms", d,
                "--first-block", "0"), 1, "--blooms " + d + " is a directory, not a file");
    }

    /**
     * List and line inputs are bounded too: a spent-script list over its limit, and a {@code --blooms} line with no
     * end (a megabyte of digits and no line break) are refused, not read whole into memory.
     */
    @Test
    void listFilesAndLinesAreReadOnlyUpToTheirLimits(@TempDir Path dir) throws IOException {
        Path spent = zeros(dir.resolve("spent.hex"), CliInputs.MAX_LIST_FILE_BYTES + 1);
        assertOneLineError(CliRun.of("bip158", "build", "--block", Bip158CommandTest.BLOCK, "--spent-file",
                spent.toString()), 1, "--spent-file " + spent + " holds more than 67108864 bytes, the most this option"
                + " reads");
        Path blooms = zeros(dir.resolve("blooms.txt"), 1 << 20);
        assertOneLineError(CliRun.of("eth", "index", "build", "--index", dir.resolve("idx").toString(), "--blooms",
                blooms.toString(), "--first-block", "0"), 1, "line 1 of --blooms " + blooms + " is longer than 4096"
                + " characters, the most a line may hold");
    }

    private static Path zeros(Path file, int bytes) throws IOException {
        byte[] chunk = new byte[1 << 20];
        java.util.Arrays.fill(chunk, (byte) '0');
        try (OutputStream out = Files.newOutputStream(file)) {
            for (int left = bytes; left > 0; left -= chunk.length) {
                out.write(chunk, 0, Math.min(left, chunk.length));
            }
        }
        return file;
    }

    /** A value file is read up to its limit, not whole: a block file larger than any block's hex is refused. */
    @Test
    void aValueFileIsReadOnlyUpToItsLimit(@TempDir Path dir) throws IOException {
        Path big = dir.resolve("big.hex");
        try (OutputStream out = Files.newOutputStream(big)) {
            byte[] zeros = new byte[1 << 20];
            java.util.Arrays.fill(zeros, (byte) '0');
            for (int i = 0; i <= CliInputs.MAX_VALUE_FILE_BYTES >> 20; i++) {
                out.write(zeros);
            }
        }
        assertOneLineError(CliRun.of("bip37", "merkleblock", "--filterload", "0000000000000000000000",
                "--block-file", big.toString()), 1, "--block-file " + big + " holds more than 16777216 bytes, the most"
                + " this option reads");
    }

    /**
     * A value or list file is checked as it is read: a byte no hex value holds ends the reading where it stands, so
     * /dev/zero is refused at its first byte (it was read up to the limit first: 16 MiB for --block-file, 64 MiB for
     * --spent-file, more than a 64 MiB heap held); a control character is named by its code point, never printed raw.
     */
    @Test
    void aFileIsRefusedAtItsFirstByteThatNoHexValueHolds(@TempDir Path dir) throws IOException {
        long before = THREADS.getCurrentThreadAllocatedBytes();
        assertOneLineError(CliRun.of("bip37", "merkleblock", "--filterload", "0000000000000000000000",
                "--block-file", "/dev/zero"), 1, "--block-file /dev/zero: not a hex digit: U+0000 at line 1, column 1");
        assertOneLineError(CliRun.of("bip158", "build", "--block", Bip158CommandTest.BLOCK, "--spent-file",
                "/dev/zero"), 1, "line 1 of --spent-file /dev/zero: not a hex digit: U+0000 at column 1");
        long allocated = THREADS.getCurrentThreadAllocatedBytes() - before;
        // The two runs' own workings (picocli's model of every command) take about 10 MB; reading to the limits took
        // more than 80 MB.
        assertTrue(allocated < 40_000_000, "allocated " + allocated + " bytes");
        Path escape = Files.writeString(dir.resolve("escape.hex"), "00ff\n0a\u001b[2J");
        assertOneLineError(CliRun.of("bip37", "merkleblock", "--filterload", "0000000000000000000000",
                "--block-file", escape.toString()), 1, "--block-file " + escape + ": not a hex digit: U+001B at line 2,"
                + " column 3");
        // DEL (0x7f) is a control character too, named by its code point rather than printed raw.
        Path delete = Files.writeString(dir.resolve("delete.hex"), Bip158CommandTest.SPENT + "\n00\u007f");
        assertOneLineError(CliRun.of("bip158", "build", "--block", Bip158CommandTest.BLOCK, "--spent-file",
                delete.toString()), 1, "line 2 of --spent-file " + delete + ": not a hex digit: U+007F at column 3");
        Path accented = Files.writeString(dir.resolve("accented.hex"), "00\u00e9", StandardCharsets.UTF_8);
        assertOneLineError(CliRun.of("bip37", "merkleblock", "--filterload", "0000000000000000000000",
                "--block-file", accented.toString()), 1, "--block-file " + accented + ": not a hex digit: byte 0xc3 (not"
                + " ASCII) at line 1, column 3");
        // A list file's last line of white space alone is no script, as when the file was split into lines and
        // stripped (a review found the stream reader making it an empty script).
        Path spent = dir.resolve("spent.hex");
        Files.writeString(spent, Bip158CommandTest.SPENT + "\n \r");
        CliRun trailing = CliRun.of("bip158", "build", "--block", Bip158CommandTest.BLOCK, "--spent-file",
                spent.toString());
        assertEquals(CliRun.of("bip158", "build", "--block", Bip158CommandTest.BLOCK, "--spent",
                Bip158CommandTest.SPENT).out, trailing.out, trailing::toString);
        Path twice = Files.writeString(dir.resolve("twice.hex"), " 0x0x00");
        assertOneLineError(CliRun.of("bip37", "merkleblock", "--filterload", "0000000000000000000000",
                "--block-file", twice.toString()), 1, "--block-file " + twice + ": not a hex digit: 'x' at line 1,"
                + " column 5");
    }

    /**
     * A block no node would accept is refused before a merkleblock or a filter is built on it: a header whose merkle
     * root its transactions do not hash to, and more transactions than a block can hold. (Both were built, and
     * bip37 verify then refused the merkleblock.)
     */
    @Test
    void aBlockWhoseHeaderDoesNotCommitToItsTransactionsIsRefused(@TempDir Path dir) throws IOException {
        String block = Bip158CommandTest.BLOCK;
        // The merkle root is the header's bytes 36..67: change its first byte.
        String forged = block.substring(0, 72) + (block.charAt(72) == '0' ? '1' : '0') + block.substring(73);
        CliRun merkle = CliRun.of("bip37", "merkleblock", "--filterload", "0000000000000000000000", "--block", forged);
        assertEquals(1, merkle.status, merkle::toString);
        assertTrue(merkle.err.startsWith("chainfilter: --block: the block's transactions hash to merkle root ")
                && merkle.err.contains(", so the header does not commit to them"), merkle::toString);
        CliRun filter = CliRun.of("bip158", "build", "--block", forged);
        assertEquals(1, filter.status, filter::toString);
        assertEquals(merkle.err, filter.err);
        // 16,667 transactions of 60 bytes: one more than a block of 4,000,000 weight units holds.
        String tx = "01000000" + "01" + "00".repeat(32) + "ffffffff" + "00" + "ffffffff" + "01" + "00".repeat(8) + "00"
                + "00000000";
        StringBuilder many = new StringBuilder(block.substring(0, 160)).append("fd1b41");
        many.append(tx.repeat(16_667));
        Path file = Files.writeString(dir.resolve("many.hex"), many);
        assertOneLineError(CliRun.of("bip37", "merkleblock", "--filterload", "0000000000000000000000", "--block-file",
                file.toString()), 1, "--block-file " + file + ": the block holds 16667 transactions; a block holds at"
                + " most 16666 (4,000,000 weight units / 240, the lightest transaction)");
    }

    /**
     * A block of exactly MAX_BLOCK_TRANSACTIONS (16,666) transactions, each different and under a header that commits
     * to them, is taken: refusing it at the limit passed every test, the one tried being a block of one more (from a
     * mutation review).
     */
    @Test
    void aBlockOfTheMostTransactionsIsTaken(@TempDir Path dir) throws IOException {
        StringBuilder hex = new StringBuilder(Bip158CommandTest.BLOCK.substring(0, 160)).append("fd1a41");
        for (int i = 0; i < CliInputs.MAX_BLOCK_TRANSACTIONS; i++) {
            hex.append("01000000" + "01" + "00".repeat(32) + "ffffffff" + "00" + "ffffffff" + "01")
                    .append(String.format("%08x", Integer.reverseBytes(i))).append("00000000" + "00" + "00000000");
        }
        String root = org.chainfilter.btcwire.Block.fromHex(hex.toString()).computeMerkleRoot().toInternalHex();
        hex.replace(72, 136, root);
        Path file = Files.writeString(dir.resolve("most.hex"), hex);
        // A filter of one zero byte and one hash function, which matches nothing.
        CliRun run = CliRun.of("bip37", "merkleblock", "--filterload", "0100" + "01000000" + "00000000" + "00",
                "--block-file", file.toString());
        assertEquals(0, run.status, run::toString);
        assertTrue(run.out.startsWith("merkleblock ") && !run.out.contains("matched"), run::toString);
    }

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();

    @Test
    void helpAndVersion() {
        CliRun help = CliRun.of("--help");
        assertEquals(0, help.status);
        assertTrue(help.out.contains("Usage: chainfilter"), help::toString);
        assertTrue(help.out.contains("murmur3") || help.out.contains("hash"), help::toString);
        CliRun version = CliRun.of("--version");
        assertEquals(0, version.status);
        assertTrue(version.out.startsWith("chainfilter 0.1.0"), version::toString);
    }

    /**
     * A command list in --help shows each subcommand's first description line, so that line must be a whole sentence:
     * it was cut mid-sentence for eleven of them ("insert items,", "merkle root:", "a receipt or block object with a").
     */
    @Test
    void everySubcommandIsListedWithAWholeSentence() {
        java.util.List<String> cut = new java.util.ArrayList<>();
        java.util.Deque<picocli.CommandLine> todo = new java.util.ArrayDeque<>(
                new picocli.CommandLine(new ChainfilterCommand()).getSubcommands().values());
        while (!todo.isEmpty()) {
            picocli.CommandLine command = todo.pop();
            todo.addAll(command.getSubcommands().values());
            String[] description = command.getCommandSpec().usageMessage().description();
            String first = description.length == 0 ? "" : description[0].strip();
            if (!first.endsWith(".")) {
                cut.add(command.getCommandSpec().qualifiedName() + ": " + first);
            }
        }
        assertEquals(java.util.List.of(), cut);
        String help = CliRun.of("bip37", "--help").out;
        assertTrue(help.contains("  create       Create a filter with Core's sizing, insert items and print its"), help);
    }

    /** Every subcommand's help lists -V, --version; it printed an empty line for all but the top command. */
    @ParameterizedTest
    @CsvSource({"math", "hash", "hash murmur3", "bip37 create", "bip158 match", "eth", "eth index query",
        "eth scan", "conformance", "demo"})
    void everySubcommandPrintsTheVersion(String command) {
        String[] args = (command + " --version").split(" ");
        CliRun run = CliRun.of(args);
        assertEquals(0, run.status, run::toString);
        assertEquals(CliRun.of("--version").out, run.out, run::toString);
        assertTrue(run.out.startsWith("chainfilter 0.1.0"), run::toString);
    }

    /**
     * "@FILE" is an argument like any other: picocli expanded it into the file's contents, unbounded ({@code @/dev/zero}
     * never ended) and with a stack trace for a directory.
     */
    @Test
    void anArgumentStartingWithAtIsNotAFileOfArguments() {
        CliRun run = CliRun.of("hash", "murmur3", "@/dev/zero");
        assertEquals(1, run.status, run::toString);
        assertTrue(run.err.startsWith("chainfilter: ") && run.err.contains("'@/dev/zero'")
                && run.err.strip().lines().count() == 1, run::toString);
    }

    /** A write to standard output that failed (a full disk) is an error: exit 1, not a cut-off answer and 0. */
    @Test
    void aFailedWriteToStandardOutputIsAFailure() {
        OutputStream full = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("No space left on device");
            }
        };
        java.io.StringWriter err = new java.io.StringWriter();
        int status = ChainfilterCommand.execute(new java.io.PrintWriter(new java.io.PrintStream(full), true),
                new java.io.PrintWriter(err), "hash", "murmur3", "00");
        assertEquals(1, status);
        assertEquals("chainfilter: standard output: write error (the output is incomplete)", err.toString().strip());
        // A 'no match' (3) whose answer did not get out is a failure too: a script would read 3 as an answer.
        java.io.StringWriter noMatchErr = new java.io.StringWriter();
        int noMatch = ChainfilterCommand.execute(new java.io.PrintWriter(new java.io.PrintStream(full), true),
                new java.io.PrintWriter(noMatchErr), "eth", "match", "--bloom", "00".repeat(256), "--address",
                "11".repeat(20));
        assertEquals(1, noMatch);
        assertEquals("chainfilter: standard output: write error (the output is incomplete)",
                noMatchErr.toString().strip());
        // A reader that has gone (a broken pipe) ends the command quietly with 141, as SIGPIPE would.
        java.io.StringWriter quiet = new java.io.StringWriter();
        int piped = ChainfilterCommand.execute(new java.io.PrintWriter(new java.io.PrintStream(full), true),
                new java.io.PrintWriter(quiet), () -> new IOException("Broken pipe"), "hash", "murmur3", "00");
        assertEquals(ChainfilterCommand.BROKEN_PIPE, piped);
        assertEquals("", quiet.toString());
    }

    /** {@code help -h} describes help itself; a path past a command without subcommands says so. */
    @Test
    void helpHasItsOwnHelp() {
        assertTrue(CliRun.of("help", "-h").out.startsWith("Usage: chainfilter help [-hV] [COMMAND...]"));
        CliRun extra = CliRun.of("help", "bip37", "create", "extra");
        assertEquals(2, extra.status, extra::toString);
        assertTrue(extra.err.startsWith("chainfilter: 'chainfilter bip37 create' has no subcommands (no 'extra')"),
                extra::toString);
    }

    /** A spent script's line may end in Unicode white space (an em space), which String.strip takes off, as before. */
    @Test
    void aListLineMayEndInUnicodeWhiteSpace(@TempDir Path dir) throws IOException {
        Path spent = Files.writeString(dir.resolve("spent.hex"), Bip158CommandTest.SPENT + "\u2003\n",
                StandardCharsets.UTF_8);
        CliRun run = CliRun.of("bip158", "build", "--block", Bip158CommandTest.BLOCK, "--spent-file", spent.toString());
        assertEquals(0, run.status, run::toString);
        assertEquals(CliRun.of("bip158", "build", "--block", Bip158CommandTest.BLOCK, "--spent",
                Bip158CommandTest.SPENT).out, run.out);
    }

    /** {@code help} takes a subcommand's whole path (picocli's took one name and showed bip37's usage here). */
    @Test
    void helpDescribesASubcommandGivenByItsPath() {
        CliRun create = CliRun.of("help", "bip37", "create");
        assertEquals(0, create.status, create::toString);
        assertTrue(create.out.startsWith("Usage: chainfilter bip37 create "), create::toString);
        assertEquals(CliRun.of("bip37", "create", "--help").out, create.out);
        CliRun unknown = CliRun.of("help", "bip37", "nope");
        assertEquals(2, unknown.status, unknown::toString);
        assertTrue(unknown.err.startsWith("chainfilter: Unknown subcommand 'nope' of 'chainfilter bip37'; its"
                + " subcommands are create, match, merkleblock, verify"), unknown::toString);
        assertTrue(CliRun.of("help").out.startsWith("Usage: chainfilter [-hV] [COMMAND]"));
    }
}
