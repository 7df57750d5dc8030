package org.chainfilter.testvectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.chainfilter.bip37.MerkleBlock;
import org.chainfilter.btcwire.Block;
import org.chainfilter.btcwire.Hash256;
import org.chainfilter.common.Hex;
import org.chainfilter.testvectors.VectorResult.Outcome;
import org.chainfilter.testvectors.peer.BitcoinjSuites;
import org.chainfilter.testvectors.suites.ChainfilterSuites;
import org.chainfilter.testvectors.suites.Murmur3Suite;
import org.junit.jupiter.api.Test;

class ConformanceRunnerTest {
    /** {@code vectors}, in order, as one file of {@code suite}. */
    private static VectorFile fileOf(String suite, ObjectNode... vectors) {
        String list = java.util.Arrays.stream(vectors).map(ObjectNode::toString)
                .collect(java.util.stream.Collectors.joining(", "));
        return VectorFile.parse("v.json",
                "{\"suite\": \"" + suite + "\", \"source\": \"s\", \"vectors\": [" + list + "]}");
    }

    /** The outcomes of {@code vectors}, in order, run as one file of {@code suite}. */
    private static List<Outcome> outcomes(String suite, ObjectNode... vectors) {
        return ChainfilterSuites.runner().run(List.of(fileOf(suite, vectors))).results().stream()
                .map(VectorResult::outcome).toList();
    }

    private static VectorFile murmur(String vectors) {
        return VectorFile.parse("m.json", "{\"suite\": \"murmur3-x86-32\", \"source\": \"s\", \"vectors\": [" + vectors + "]}");
    }

    /** A murmur3-x86-32 vector that passes (Core's hash_tests.cpp), and one whose hash is one bit off. */
    private static final String GOOD =
            "{\"name\": \"good\", \"seed\": 4221880213, \"data\": \"\", \"hash\": \"6a396f08\"}";
    private static final String BAD =
            "{\"name\": \"bad\", \"seed\": 4221880213, \"data\": \"\", \"hash\": \"6a396f09\"}";

    /** A file of one vector, 'a', of a suite no runner knows. */
    private static VectorFile unknownSuite() {
        return VectorFile.parse("u.json",
                "{\"suite\": \"future-suite\", \"source\": \"s\", \"vectors\": [{\"name\": \"a\"}]}");
    }

    @Test
    void reportsTheFirstMismatchWithItsPosition() {
        VectorFile file = murmur(GOOD + ", " + BAD);
        ConformanceReport report = ChainfilterSuites.runner().run(List.of(file));
        assertEquals("1 passed, 1 failed", report.summaryLine());
        VectorResult failure = report.failures().get(0);
        assertEquals("bad", failure.vector());
        assertEquals("hash: expected 6a396f09 got 6a396f08 (first difference at byte 3)", failure.detail());
        assertEquals("FAILED m.json 'bad': hash: expected 6a396f09 got 6a396f08 (first difference at byte 3)",
                failure.describe());
    }

    /**
     * The per-suite table of {@code chainfilter conformance}: a failure is run but not passed, a skip is neither (counting
     * every run vector as passed left the table saying a suite with failures passed in full; found by a review).
     */
    @Test
    void thePerSuiteCountsTellPassesFromFailuresAndLeaveSkipsOut() {
        VectorFile file = murmur(GOOD + ", " + BAD);
        VectorFile unknown = unknownSuite();
        ConformanceReport report = ChainfilterSuites.runner().run(List.of(file, unknown));
        assertEquals(java.util.Map.of("murmur3-x86-32", 2), report.vectorsPerSuite());
        assertEquals(java.util.Map.of("murmur3-x86-32", 1), report.passedPerSuite());
    }

    @Test
    void aMalformedVectorFailsAndNamesTheField() {
        ConformanceReport report = ChainfilterSuites.runner().run(List.of(
                murmur("{\"name\": \"x\", \"seed\": 1.5, \"data\": \"\", \"hash\": \"00000000\"}")));
        assertEquals("malformed vector: vector 1 ('x'): field 'seed' must be a uint32 number (0 .. 4294967295); "
                + "it is number 1.5", report.failures().get(0).detail());
        assertTrue(report.failures().get(0).malformed(), "the failure is the vector's own");
        VectorResult wrong = ChainfilterSuites.runner().run(List.of(murmur(BAD))).failures().get(0);
        assertFalse(wrong.malformed(), "a wrong answer is the implementation's failure: " + wrong);
    }

    @Test
    void onlyAFailureCanBeMalformed() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> new VectorResult("f", "s", "v", VectorResult.Outcome.PASSED, "", true));
        assertEquals("a PASSED vector cannot be malformed; only a failure is", refused.getMessage());
    }

    /**
     * A vector that would check nothing is malformed, not passed: an eth-bloom-contains vector with neither present
     * nor absent items, a bip37-merkleblock vector without the matched list the schema requires.
     */
    @Test
    void aVectorThatChecksNothingIsMalformed() {
        VectorFile bloomOnly = VectorFile.parse("c.json", "{\"suite\": \"eth-bloom-contains\", \"source\": \"s\","
                + " \"vectors\": [{\"name\": \"bloom only\", \"bloom\": \"" + "00".repeat(256) + "\"}]}");
        ConformanceReport report = ChainfilterSuites.runner().run(List.of(bloomOnly));
        assertEquals("0 passed, 1 failed", report.summaryLine());
        assertEquals("malformed vector: an eth-bloom-contains vector lists at least one present or absent item; this"
                + " one lists none", report.failures().get(0).detail());
        VectorFile noMatched = VectorFile.parse("m.json", "{\"suite\": \"bip37-merkleblock\", \"source\": \"s\","
                + " \"vectors\": [{\"name\": \"no matched\", \"filterload\": \"0000000000000000000000\","
                + " \"block\": \"" + GENESIS_BLOCK + "\"}]}");
        report = ChainfilterSuites.runner().run(List.of(noMatched));
        assertEquals("0 passed, 1 failed", report.summaryLine());
        assertTrue(report.failures().get(0).detail().startsWith("malformed vector: vector 1 ('no matched'): field"
                + " 'matched'"), report.failures().get(0).detail());
    }

    /** A vector giving both a filter and a filterload is malformed: one of them would go unused (found by a review). */
    @Test
    void aVectorWithBothFilterFormsIsMalformed() {
        VectorFile both = VectorFile.parse("m.json", "{\"suite\": \"bip37-merkleblock\", \"source\": \"s\","
                + " \"vectors\": [{\"name\": \"both\", \"filterload\": \"0100010000000000000000\", \"filter\":"
                + " {\"elements\": 1, \"fpRate\": 0.01, \"tweak\": 0, \"flags\": 0, \"insert\": []}, \"block\": \""
                + GENESIS_BLOCK + "\", \"matched\": []}]}");
        ConformanceReport report = ChainfilterSuites.runner().run(List.of(both));
        assertEquals("malformed vector: vector 1 ('both'): field 'filterload' is given beside 'filter'; give one of"
                + " them", report.failures().get(0).detail());
    }

    /**
     * The schema's {@code matched} is in block order. Each bundled {@code bip37-merkleblock} vector of two or more
     * matches fails with its first two swapped; and a merkle block proving those matches, run as a
     * {@code bip37-merkleblock-verify} vector, passes with them as listed and fails swapped, on chainfilter and on
     * bitcoinj (which checks txids, then skips for the indices it cannot see: the swap must fail before the skip).
     * Comparing the matches as a set passed every test in both suites (from a mutation review).
     */
    @Test
    void matchesAreComparedInBlockOrder() {
        int swapped = 0;
        for (Vector built : Suites.bundled("bip37-merkleblock.core.json").vectors()) {
            if (built.node().get("matched").size() < 2) {
                continue;
            }
            Set<org.chainfilter.btcwire.Hash256> txids = new HashSet<>();
            for (Fields match : built.objects("matched")) {
                txids.add(Hash256.fromDisplayHex(match.text("txid")));
            }
            byte[] proof = MerkleBlock.fromBlockAndTxids(
                    Block.parse(built.hex("block")), txids).serialize();
            ObjectNode verify = built.node().objectNode();
            verify.put("name", built.name()).put("merkleblock", Hex.encode(proof))
                    .put("valid", true).set("matched", built.node().get("matched").deepCopy());
            ObjectNode wrong = verify.deepCopy();
            wrong.put("name", built.name() + ", two matches swapped");
            ArrayNode matches =
                    (ArrayNode) wrong.get("matched");
            matches.insert(0, matches.remove(1));
            VectorFile file = VectorFile.parse("v.json", "{\"suite\": \"bip37-merkleblock-verify\", \"source\": \"s\","
                    + " \"vectors\": [" + verify + ", " + wrong + "]}");
            assertEquals(List.of(Outcome.PASSED, Outcome.FAILED), ChainfilterSuites.runner().run(List.of(file))
                    .results().stream().map(VectorResult::outcome).toList(), built.name());
            assertEquals(List.of(Outcome.SKIPPED, Outcome.FAILED),
                    BitcoinjSuites.runner().run(List.of(file)).results().stream()
                            .map(VectorResult::outcome).toList(), built.name());
            VectorFile build = VectorFile.parse("b.json", "{\"suite\": \"bip37-merkleblock\", \"source\": \"s\","
                    + " \"vectors\": [" + ((ObjectNode) built.node().deepCopy())
                    .set("matched", matches) + "]}");
            assertEquals("0 passed, 1 failed", ChainfilterSuites.runner().run(List.of(build)).summaryLine(),
                    built.name());
            swapped++;
        }
        assertTrue(swapped >= 4, swapped + " merkle blocks of two or more matches");
    }

    /**
     * JSON {@code null} is an absent field (the schema checks only fields that are present): a vector giving
     * {@code "present": null} or {@code "merkleblock": null} is run without them, not refused as malformed. Taking null
     * for present passed every test (from a mutation review).
     */
    @Test
    void aNullOptionalFieldIsNotChecked() {
        VectorFile absentOnly = VectorFile.parse("c.json", "{\"suite\": \"eth-bloom-contains\", \"source\": \"s\","
                + " \"vectors\": [{\"name\": \"x\", \"bloom\": \"" + "00".repeat(256) + "\", \"present\": null,"
                + " \"absent\": [\"00\"]}]}");
        ConformanceReport report = ChainfilterSuites.runner().run(List.of(absentOnly));
        assertEquals("1 passed, 0 failed", report.summaryLine(), report.results().get(0).describe());
        VectorFile noMerkleBlock = VectorFile.parse("m.json", "{\"suite\": \"bip37-merkleblock\", \"source\": \"s\","
                + " \"vectors\": [{\"name\": \"y\", \"filterload\": \"0000000000000000000000\", \"block\": \""
                + GENESIS_BLOCK + "\", \"merkleblock\": null, \"filterloadAfter\": null,"
                // An empty filter matches every transaction, as Core's does: here the coinbase.
                + " \"matched\": [{\"index\": 0, \"txid\":"
                + " \"4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b\"}]}]}");
        report = ChainfilterSuites.runner().run(List.of(noMerkleBlock));
        assertEquals("1 passed, 0 failed", report.summaryLine(), report.results().get(0).describe());
    }

    /** Bitcoin's genesis block, serialized. */
    static final String GENESIS_BLOCK = "0100000000000000000000000000000000000000000000000000000000000000000000"
            + "003ba3edfd7a7b12b27ac72c3e67768f617fc81bc3888a51323a9fb8aa4b1e5e4a29ab5f49ffff001d1dac2b7c01010000000100"
            + "00000000000000000000000000000000000000000000000000000000000000ffffffff4d04ffff001d0104455468652054696d"
            + "65732030332f4a616e2f32303039204368616e63656c6c6f72206f6e206272696e6b206f66207365636f6e64206261696c6f"
            + "757420666f722062616e6b73ffffffff0100f2052a01000000434104678afdb0fe5548271967f1a67130b7105cd6a828e03909"
            + "a67962e0ea1f61deb649f6bc3f4cef38c4f35504e51ec112de5c384df7ba0b8d578a4c702b6bf11d5fac00000000";

    @Test
    void unknownSuitesAreSkippedAndCounted() {
        VectorFile unknown = VectorFile.parse("u.json",
                "{\"suite\": \"future-suite\", \"source\": \"s\", \"vectors\": [{\"name\": \"a\"}, {\"name\": \"b\"}]}");
        List<VectorResult> seen = new ArrayList<>();
        ConformanceReport report = ChainfilterSuites.runner().run(List.of(unknown), seen::add);
        assertEquals("0 passed, 0 failed, 2 skipped", report.summaryLine());
        assertEquals(Outcome.SKIPPED, seen.get(0).outcome());
        assertEquals("unknown suite 'future-suite'", seen.get(0).detail());
        // A suite is named exactly as the schema names it: another spelling is a suite this runner does not know, so
        // its vectors are reported skipped, not run by a near namesake (dispatch ignoring case passed every test).
        VectorFile upper = VectorFile.parse("m.json",
                "{\"suite\": \"MURMUR3-x86-32\", \"source\": \"s\", \"vectors\": [" + GOOD + "]}");
        assertEquals("0 passed, 0 failed, 1 skipped", ChainfilterSuites.runner().run(List.of(upper)).summaryLine());
    }

    /** A murmur3-x86-32 executor that does {@code check} to each vector (and throws what it throws). */
    private static SuiteExecutor murmurExecutor(java.util.function.Consumer<Vector> check) {
        return new SuiteExecutor() {
            @Override
            public String suite() {
                return Suites.MURMUR3_X86_32;
            }

            @Override
            public void check(Vector vector) {
                check.accept(vector);
            }
        };
    }

    @Test
    void anExceptionFromTheImplementationIsAFailureNamingIt() {
        SuiteExecutor crashing = murmurExecutor(vector -> {
            throw new IllegalStateException("boom");
        });
        ConformanceReport report = new ConformanceRunner(List.of(crashing)).run(List.of(murmur("{\"name\": \"x\"}")));
        assertEquals("threw IllegalStateException: boom", report.failures().get(0).detail());
    }

    /**
     * An Error the implementation throws (a stack overflow on a deep input, memory running out on a large one, its own
     * assertion under -ea, a peer library's missing class) fails its vector, and the run goes on to the next: without
     * the catch the whole run ended there, its report lost (from mutation reviews; the last two were found by one).
     */
    @Test
    void anErrorOfTheImplementationFailsItsVectorAndTheRunGoesOn() {
        SuiteExecutor failing = murmurExecutor(vector -> {
            switch (vector.name()) {
                case "deep" -> throw new StackOverflowError("too deep");
                case "big" -> throw new OutOfMemoryError("too big");
                case "asserted" -> throw new AssertionError("invariant broken");
                case "unlinked" -> throw new NoClassDefFoundError("org/peer/Missing");
                default -> { }
            }
        });
        ConformanceReport report = new ConformanceRunner(List.of(failing)).run(List.of(murmur("{\"name\": \"deep\"},"
                + " {\"name\": \"big\"}, {\"name\": \"asserted\"}, {\"name\": \"unlinked\"}, {\"name\": \"fine\"}")));
        assertEquals("1 passed, 4 failed", report.summaryLine());
        assertEquals(List.of("FAILED m.json 'deep': threw StackOverflowError: too deep",
                "FAILED m.json 'big': threw OutOfMemoryError: too big",
                "FAILED m.json 'asserted': threw AssertionError: invariant broken",
                "FAILED m.json 'unlinked': threw NoClassDefFoundError: org/peer/Missing", "PASSED m.json 'fine'"),
                report.results().stream().map(VectorResult::describe).toList());
    }

    /**
     * The listener hears every result as it is known, passes too ({@code conformance -v} prints them from there), in
     * the report's order; told only of failures and skips, it passed every test (from a mutation review).
     */
    @Test
    void theListenerHearsEveryResultInRunOrder() {
        VectorFile file = murmur(GOOD + ", " + BAD);
        VectorFile unknown = unknownSuite();
        List<VectorResult> seen = new ArrayList<>();
        ConformanceReport report = ChainfilterSuites.runner().run(List.of(file, unknown), seen::add);
        assertEquals(report.results(), seen);
        assertEquals(List.of(Outcome.PASSED, Outcome.FAILED, Outcome.SKIPPED),
                seen.stream().map(VectorResult::outcome).toList());
    }

    /**
     * The summary line names a single skip too, and {@code succeeded()} (the exit status of a run in which vectors
     * ran) means nothing failed: a skip is not a failure, a failure among skips and passes is. The summary line
     * leaving out one skip, succeeded() always true and succeeded() false on a skip each passed every test (from a
     * mutation review).
     */
    @Test
    void oneSkipIsCountedAndSucceededMeansNothingFailed() {
        VectorFile unknown = unknownSuite();
        ConformanceReport passAndSkip = ChainfilterSuites.runner().run(List.of(murmur(GOOD), unknown));
        assertEquals("1 passed, 0 failed, 1 skipped", passAndSkip.summaryLine());
        assertEquals(1, passAndSkip.skipped());
        assertTrue(passAndSkip.succeeded());
        ConformanceReport withFailure = ChainfilterSuites.runner().run(List.of(murmur(GOOD + ", " + BAD), unknown));
        assertEquals("1 passed, 1 failed, 1 skipped", withFailure.summaryLine());
        assertFalse(withFailure.succeeded());
    }

    @Test
    void twoExecutorsForOneSuiteAreRefused() {
        assertEquals("two executors for suite 'murmur3-x86-32': " + Murmur3Suite.class.getName() + " and "
                        + Murmur3Suite.class.getName(),
                assertThrows(IllegalArgumentException.class,
                        () -> new ConformanceRunner(List.of(new Murmur3Suite(), new Murmur3Suite()))).getMessage());
    }

    @Test
    void longByteStringsAreShownAroundTheFirstDifference() throws Exception {
        byte[] expected = new byte[40];
        byte[] actual = expected.clone();
        actual[20] = 1;
        Mismatch m = assertThrows(Mismatch.class, () -> Expect.bytes("block", expected, actual));
        assertEquals("block: expected …00000000000000000000000000000000… got …00000000000000000100000000000000… "
                + "(first difference at byte 20)", m.getMessage());
        Mismatch shorter = assertThrows(Mismatch.class, () -> Expect.bytes("f", new byte[] {1, 2}, new byte[] {1}));
        assertEquals("f: expected 0102 got 01 (first difference at byte 1; lengths 2 and 1 bytes)", shorter.getMessage());
        Expect.bytes("same", expected, expected.clone());
    }

    @Test
    void aMalformedPayloadIsNeverTakenForARefusal() {
        VectorFile file = VectorFile.parse("p.json", "{\"suite\": \"bip37-filterload-parse\", \"source\": \"s\", "
                + "\"vectors\": [{\"name\": \"typo\", \"filterload\": \"0zz\", \"valid\": false}]}");
        ConformanceReport report = ChainfilterSuites.runner().run(List.of(file));
        assertEquals("0 passed, 1 failed", report.summaryLine());
        assertEquals("malformed vector: vector 1 ('typo'): field 'filterload' must be a hex string: hex string has an "
                + "odd number of digits (3)", report.failures().get(0).detail());
    }

    @Test
    void validityTellsRefusalsFromCrashes() throws Exception {
        Supplier<String> accepts = () -> "x";
        Supplier<String> refuses = () -> {
            throw new IllegalArgumentException("too big");
        };
        Supplier<String> crashes = () -> {
            throw new IllegalStateException("bug");
        };
        Function<String, String> describe = v -> "accepted " + v;
        assertEquals("x", Expect.validity(true, accepts, IllegalArgumentException.class, describe));
        assertNull(Expect.validity(false, refuses, IllegalArgumentException.class, describe));
        assertEquals("valid: expected true got false (IllegalArgumentException: too big)", assertThrows(Mismatch.class,
                () -> Expect.validity(true, refuses, IllegalArgumentException.class, describe)).getMessage());
        assertEquals("valid: expected false got true (accepted x)", assertThrows(Mismatch.class,
                () -> Expect.validity(false, accepts, IllegalArgumentException.class, describe)).getMessage());
        assertEquals("bug", assertThrows(IllegalStateException.class,
                () -> Expect.validity(false, crashes, IllegalArgumentException.class, describe)).getMessage());
        // Several refusal types (the bitcoinj peer's): each is a refusal, anything else still a crash.
        List<Class<? extends RuntimeException>> refusals =
                List.of(IndexOutOfBoundsException.class, IllegalArgumentException.class);
        assertNull(Expect.validity(false, refuses, refusals, describe));
        // A malformed vector field met inside the parse is never a refusal, though it is an IllegalArgumentException
        // (taking it for one passed every test: the bundled suites decode their fields first; from a mutation review).
        Supplier<String> malformed = () -> {
            throw new VectorFormatException("vector 1 ('x'): field 'filterload' must be a hex string");
        };
        VectorFormatException thrown = assertThrows(VectorFormatException.class,
                () -> Expect.validity(false, malformed, IllegalArgumentException.class, describe));
        assertEquals("vector 1 ('x'): field 'filterload' must be a hex string", thrown.getMessage());
        assertEquals("bug", assertThrows(IllegalStateException.class,
                () -> Expect.validity(false, crashes, refusals, describe)).getMessage());
    }

    /** The bitcoinj peer takes only bitcoinj's own refusals for one: a crash in bitcoinj fails the vector. */
    @Test
    void theBitcoinjPeerTakesOnlyItsRefusalsForRefusals() {
        List<Class<? extends RuntimeException>> refusals = org.chainfilter.testvectors.peer.BitcoinjSuitesAccess
                .refusals();
        assertTrue(refusals.contains(org.bitcoinj.core.VerificationException.class));
        assertTrue(refusals.stream().noneMatch(type -> type.isAssignableFrom(NullPointerException.class)
                || type.isAssignableFrom(IllegalStateException.class)), refusals.toString());
    }

    /**
     * bip158-basic's {@code height}: from mainnet's BIP34 height on every block states it in its coinbase, so a wrong
     * one fails; below it a block need not (49291 does, but a block of its height on mainnet could lack it), so there
     * the height is a label, as is a height that does not read as a whole number (the schema gives it no type; an
     * integer, {@code 926485.0} and digits in a string are read). (Until a review found it, the height was never
     * read.)
     */
    @Test
    void aBip158VectorsHeightIsCheckedWhereTheBlockStatesIt() throws Exception {
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        com.fasterxml.jackson.databind.JsonNode bundled;
        try (java.io.InputStream in = ConformanceRunnerTest.class.getResourceAsStream(
                "/org/chainfilter/testvectors/vectors/bip158-basic.core.json")) {
            bundled = json.readTree(in);
        }
        List<String> outcomes = new ArrayList<>();
        for (Object[] change : new Object[][] {{6, 926486}, {8, 1263441}, {4, 49292}, {1, 3}, {4, -1}, {6, "926486"},
                {6, 926485.0}, {6, "926485"}, {6, "block nine hundred"}, {6, 227931}}) {
            com.fasterxml.jackson.databind.node.ObjectNode vector =
                    (com.fasterxml.jackson.databind.node.ObjectNode) bundled.get("vectors").get((Integer) change[0])
                            .deepCopy();
            if (change[1] instanceof Integer number) {
                vector.put("height", number);
            } else if (change[1] instanceof Double number) {
                vector.put("height", number);
            } else {
                vector.put("height", (String) change[1]);
            }
            VectorFile file = VectorFile.parse("b.json", "{\"suite\": \"bip158-basic\", \"source\": \"s\","
                    + " \"vectors\": [" + vector + "]}");
            ConformanceReport report = ChainfilterSuites.runner().run(List.of(file));
            outcomes.add(report.summaryLine() + (report.failures().isEmpty() ? ""
                    : ": " + report.failures().get(0).detail()));
        }
        assertEquals(List.of(
                "0 passed, 1 failed: height (BIP34, the coinbase's first push): expected 926486 got 926485",
                "0 passed, 1 failed: height (BIP34, the coinbase's first push): expected 1263441 got 1263442",
                "1 passed, 0 failed",
                "1 passed, 0 failed",
                // The schema gives height no type: what does not read as a whole number is a label.
                "1 passed, 0 failed",
                "0 passed, 1 failed: height (BIP34, the coinbase's first push): expected 926486 got 926485",
                "1 passed, 0 failed",
                "1 passed, 0 failed",
                "1 passed, 0 failed",
                // Mainnet's BIP34 height itself is checked (from it on, not after it: a > passed every test).
                "0 passed, 1 failed: height (BIP34, the coinbase's first push): expected 227931 got 926485"),
                outcomes);
    }

    /**
     * A bip158-basic vector whose height the block must state (from mainnet's BIP34 height on, version 2 or more) but
     * whose block has no coinbase to state it: no transaction at all, or a first transaction without inputs (Core's
     * empty vin with a zero flags byte). It fails with a mismatch naming the height, not with an
     * IndexOutOfBoundsException from looking for the coinbase's first push (a crash the fuzz contract counts as a
     * finding; found by a mutation review).
     */
    @Test
    void aBip158HeightCheckOfABlockWithoutACoinbaseInputIsAMismatch() {
        String header = "02000000" + "00".repeat(32) + "00".repeat(32) + "00000000" + "ffff001d" + "00000000";
        String noInputs = "01000000" + "00" + "00" + "00000000";
        List<String> details = new ArrayList<>();
        for (String block : List.of(header + "00", header + "01" + noInputs)) {
            VectorFile file = VectorFile.parse("b.json", "{\"suite\": \"bip158-basic\", \"source\": \"s\","
                    + " \"vectors\": [{\"name\": \"x\", \"height\": 300000, \"block\": \"" + block + "\","
                    + " \"prevoutScripts\": [], \"prevHeader\": \"" + "00".repeat(32) + "\", \"filter\": \"00\","
                    + " \"header\": \"" + "00".repeat(32) + "\"}]}");
            ConformanceReport report = ChainfilterSuites.runner().run(List.of(file));
            assertEquals("0 passed, 1 failed", report.summaryLine());
            details.add(report.failures().get(0).detail());
        }
        assertEquals(List.of("height (BIP34, the coinbase's first push): expected 300000 got -1",
                "height (BIP34, the coinbase's first push): expected 300000 got -1"), details);
    }

    /**
     * A skipped vector is reported under its own name, as a passed or failed one is: one result per vector, each
     * saying which. Skipping an unknown suite's vectors under an empty name passed every test (from a mutation review).
     */
    @Test
    void eachSkippedVectorIsNamed() {
        VectorFile unknown = VectorFile.parse("u.json",
                "{\"suite\": \"future-suite\", \"source\": \"s\", \"vectors\": [{\"name\": \"a\"}, {\"name\": \"b\"}]}");
        assertEquals(List.of("SKIPPED u.json 'a': unknown suite 'future-suite'",
                        "SKIPPED u.json 'b': unknown suite 'future-suite'"),
                ChainfilterSuites.runner().run(List.of(unknown)).results().stream().map(VectorResult::describe)
                        .toList());
    }

    /**
     * A parse that returns, even null, accepted the payload: a vector stating it invalid fails. Taking a null answer
     * for a refusal passed every test (from a mutation review).
     */
    @Test
    void aParseAnsweringNullAcceptedThePayload() {
        Supplier<String> answersNull = () -> null;
        assertEquals("valid: expected false got true (accepted null)", assertThrows(Mismatch.class,
                () -> Expect.validity(false, answersNull, IllegalArgumentException.class, v -> "accepted " + v))
                .getMessage());
    }

    /**
     * Values are compared exactly: a hash or txid differing from the expectation only in case is a mismatch (the suites
     * lower-case hex on both sides before comparing, so comparing ignoring case passed every test; from a mutation
     * review).
     */
    @Test
    void equalComparesExactly() throws Exception {
        assertEquals("root: expected ab got AB",
                assertThrows(Mismatch.class, () -> Expect.equal("root", "ab", "AB")).getMessage());
        Expect.equal("match", true, Boolean.valueOf("true"));
    }

    /**
     * A filter's flags are a byte: 256 is a malformed vector, not a filter of some other flags (refusing only from 257
     * on passed every test; from a mutation review).
     */
    @Test
    void flagsAboveAByteAreMalformed() {
        VectorFile file = VectorFile.parse("f.json", "{\"suite\": \"bip37-filter\", \"source\": \"s\","
                + " \"vectors\": [{\"name\": \"x\", \"elements\": 1, \"fpRate\": 0.01, \"tweak\": 0,"
                + " \"flags\": 256, \"insert\": [], \"filterload\": \"00\"}]}");
        ConformanceReport report = ChainfilterSuites.runner().run(List.of(file));
        assertEquals("malformed vector: vector 1 ('x'): field 'flags' must be a byte (0 .. 255); it is 256",
                report.failures().get(0).detail());
    }

    /**
     * The after-state lists are checked beside a filterloadAfter, not instead of it: the bundled vector whose matched
     * output's outpoint the filter takes in, given its right filterloadAfter and that outpoint moved from containsAfter to
     * absentAfter, fails. No bundled vector states a filterloadAfter, so checking the lists only without one passed
     * every test (from a mutation review).
     */
    @Test
    void theAfterListsAreCheckedBesideAFilterloadAfter() throws Exception {
        Vector update = Suites.bundled("bip37-tx-match.core.json").vectors().get(12);
        Fields params = update.object("filter");
        org.chainfilter.bip37.Bip37BloomFilter filter = org.chainfilter.bip37.Bip37BloomFilter.fromElementsAndRate(
                params.count("elements"), params.number("fpRate"), (int) params.uint32("tweak"), params.count("flags"));
        params.hexList("insert").forEach(filter::insert);
        assertTrue(filter.isRelevantAndUpdate(org.chainfilter.btcwire.Transaction.parse(update.hex("tx"))));
        ObjectNode right = update.node().deepCopy();
        right.put("filterloadAfter", Hex.encode(filter.toFilterLoad()));
        ObjectNode wrong = right.deepCopy();
        wrong.put("name", "outpoint listed as absent");
        wrong.set("absentAfter", wrong.remove("containsAfter"));
        assertEquals(List.of(Outcome.PASSED, Outcome.FAILED), outcomes("bip37-tx-match", right, wrong));
    }

    /**
     * A valid merkle block's matches are compared when the vector lists them, an empty list included: stating no
     * matches for a block that proves one fails (comparing only a non-empty list passed every test; from a mutation
     * review).
     */
    @Test
    void anEmptyMatchedListIsCompared() {
        ObjectNode verify = Suites.bundled("bip37-merkleblock-verify.core.json").vectors().get(0).node().deepCopy();
        verify.putArray("matched");
        ConformanceReport report = ChainfilterSuites.runner().run(List.of(fileOf("bip37-merkleblock-verify", verify)));
        assertEquals("0 passed, 1 failed", report.summaryLine());
        assertTrue(report.failures().get(0).detail().startsWith("matched: expected [] got [0:63194f18"),
                report.failures().get(0).detail());
    }

    /**
     * An eth-bloom log without its address or its topics is malformed, not a log of the rest alone (skipping either
     * when missing passed every test; from a mutation review).
     */
    @Test
    void anEthBloomLogWithoutAnAddressOrTopicsIsMalformed() {
        VectorFile file = VectorFile.parse("b.json", "{\"suite\": \"eth-bloom\", \"source\": \"s\", \"vectors\":"
                + " [{\"name\": \"x\", \"logs\": [{\"topics\": []}], \"bloom\": \"" + "00".repeat(256) + "\"},"
                + " {\"name\": \"y\", \"logs\": [{\"address\": \"" + "11".repeat(20) + "\"}], \"bloom\": \""
                + "00".repeat(256) + "\"}]}");
        assertEquals(List.of("malformed vector: vector 1 ('x'): field 'logs[0].address' is missing",
                        "malformed vector: vector 2 ('y'): field 'logs[0].topics' is missing"),
                ChainfilterSuites.runner().run(List.of(file)).failures().stream().map(VectorResult::detail).toList());
    }

    /**
     * A bip158-basic vector's blockHash is compared whether or not it states a height: the bundled vectors all state
     * both, so comparing the hash only beside a height passed every test (from a mutation review).
     */
    @Test
    void aBip158BlockHashIsComparedWithoutAHeight() {
        ObjectNode vector = Suites.bundled("bip158-basic.core.json").vectors().get(1).node().deepCopy();
        vector.remove("height");
        ObjectNode wrong = vector.deepCopy();
        wrong.put("name", "wrong hash");
        wrong.put("blockHash", "00".repeat(32));
        assertEquals(List.of(Outcome.PASSED, Outcome.FAILED), outcomes("bip158-basic", vector, wrong));
    }

    /**
     * A murmur3 hash of other than 4 bytes is a malformed vector, said so, not a mismatch of lengths (reading the hash
     * at any length passed every test; from a mutation review).
     */
    @Test
    void aMurmurHashOfTheWrongLengthIsMalformed() {
        ConformanceReport report = ChainfilterSuites.runner().run(List.of(
                murmur("{\"name\": \"x\", \"seed\": 4221880213, \"data\": \"\", \"hash\": \"6a396f0800\"}")));
        assertEquals("malformed vector: vector 1 ('x'): field 'hash' must be 4 bytes of hex; it is 5 bytes",
                report.failures().get(0).detail());
    }

    /**
     * An eth-log-filter vector states its filter whole: without topics (as without addresses) it is malformed, never
     * run as a filter without topic constraints (reading a missing topics as none passed every test; from a mutation
     * review).
     */
    @Test
    void anEthLogFilterWithoutTopicsIsMalformed() {
        VectorFile file = VectorFile.parse("l.json", "{\"suite\": \"eth-log-filter\", \"source\": \"s\","
                + " \"vectors\": [{\"name\": \"x\", \"bloom\": \"" + "00".repeat(256) + "\", \"addresses\": [],"
                + " \"couldMatch\": true}]}");
        assertEquals("malformed vector: vector 1 ('x'): field 'topics' is missing",
                ChainfilterSuites.runner().run(List.of(file)).failures().get(0).detail());
    }

    /**
     * A bip37-filter vector's absent items are checked without contains items: the bundled vector with an empty filter
     * lists only an absent item, and given an inserted item as absent instead it fails. Checking membership only beside
     * a contains list passed every test (from a mutation review).
     */
    @Test
    void aBip37FilterVectorsAbsentItemsAreCheckedWithoutContains() {
        ObjectNode vector = Suites.bundled("bip37-filter.core.json").vectors().get(0).node().deepCopy();
        vector.remove("contains");
        vector.putArray("absent").add(vector.get("insert").get(0).asText());
        ConformanceReport report = ChainfilterSuites.runner().run(List.of(fileOf("bip37-filter", vector)));
        assertEquals("0 passed, 1 failed", report.summaryLine());
        assertTrue(report.failures().get(0).detail().startsWith("absent: the filter contains "),
                report.failures().get(0).detail());
    }
}
