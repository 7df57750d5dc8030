package org.chainfilter.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.chainfilter.common.Hex;
import org.chainfilter.testvectors.Suites;
import org.chainfilter.testvectors.Vector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code chainfilter bip37} on published vectors: bitcoin/bitcoin src/test/bloom_tests.cpp bloom_create_insert_serialize,
 * bloom_match and merkle_block_3_and_serialize (commit e3f416dbf7633b2fb19c933e5508bd231cc7e9cf).
 */
class Bip37CommandTest {
    private static final String NL = System.lineSeparator();
    /** bloom_match's transaction b4749f…ff6b. */
    private static final String TX = "01000000010b26e9b7735eb6aabdf358bab62f9816a21ba9ebdb719d5299e88607d722c19000000000"
            + "8b4830450220070aca44506c5cef3a16ed519d7c3c39f8aab192c4e1c90d065f37b8a4af6141022100a8e160b856c2d43d27d8fba7"
            + "1e5aef6405b8643ac4cb7cb3c462aced7f14711a0141046d11fee51b0e60666d5049a9101a72741df480b96ee26488a4d3466b95c9"
            + "a40ac5eeef87e10a5cd336c19a84565f80fa6c547957b7700ff4dfbdefe76036c339ffffffff021bff3d11000000001976a91404943f"
            + "dd508053c75000106d3bc6e2754dbcff1988ac2f15de00000000001976a914a266436d2965547608b9e15d9032a7b9d64fa43188ac"
            + "00000000";
    /** merkle_block_3_and_serialize's one-transaction block dab013…dc45. */
    private static final String BLOCK = "0100000079cda856b143d9db2c1caff01d1aecc8630d30625d10e8b4b8b0000000000000b50cc0"
            + "69d6a3e33e3ff84a5c41d9d3febe7c770fdcc96b2c3ff60abe184f196367291b4d4c86041b8fa45d6301010000000100000000000000"
            + "00000000000000000000000000000000000000000000000000ffffffff08044c86041b020a02ffffffff0100f2052a01000000434104"
            + "ecd3229b0571c3be876feaac0442a9f13c5a572742927af1dc623353ecf8c202225f64868137a18cdd85cbbb4c74fbccfd4f49639cf1"
            + "bdc94a5672bb15ad5d4cac00000000";
    private static final String MERKLEBLOCK = "0100000079cda856b143d9db2c1caff01d1aecc8630d30625d10e8b4b8b0000000000000"
            + "b50cc069d6a3e33e3ff84a5c41d9d3febe7c770fdcc96b2c3ff60abe184f196367291b4d4c86041b8fa45d630100000001b50cc069d6"
            + "a3e33e3ff84a5c41d9d3febe7c770fdcc96b2c3ff60abe184f19630101";

    @Test
    void createPrintsThePublishedFilterload() {
        CliRun run = CliRun.of("bip37", "create", "--elements", "3", "--fp-rate", "0.01", "--tweak", "0",
                "--insert", "99108ad8ed9bb6274d3980bab5a85c048f0950c8",
                "--insert", "b5a2c786d9ef4658287ced5914b37a1b4aa32eee",
                "--insert", "b9300670b4c5366e95b2699e8b18bc75e5f729c5");
        assertEquals(0, run.status, run::toString);
        assertEquals("filterload  03614e9b050000000000000001" + NL + "bytes       3" + NL + "nHashFuncs  5" + NL
                + "nTweak      0" + NL + "nFlags      1 (ALL)" + NL, run.out);
    }

    @Test
    void createWithHashesOutpointsAndARandomTweak() {
        CliRun run = CliRun.of("bip37", "create", "--elements", "10", "--fp-rate", "0.000001", "--update",
                "P2PUBKEY_ONLY", "--insert-hash", "b4749f017444b051c44dfd2720e88f314ff94f3dd6d56d40ef65854fcd7fff6b",
                "--insert-outpoint", "90c122d70786e899529d71dbeba91ba216982fb6ba58f3bdaab65e73b7e9260b:0");
        assertEquals(0, run.status, run::toString);
        assertTrue(run.out.contains("nFlags      2 (P2PUBKEY_ONLY)"), run.out);
        assertTrue(run.out.startsWith("filterload  23"), run.out);
    }

    @Test
    void createRefusesBadParameters() {
        CliRun zero = CliRun.of("bip37", "create", "--elements", "0", "--fp-rate", "0.01", "--tweak", "0");
        assertEquals(1, zero.status, zero::toString);
        assertEquals("chainfilter: nElements is 0; it must be 1..4294967295 (Core divides by it)" + NL, zero.err);
        CliRun rate = CliRun.of("bip37", "create", "--elements", "3", "--fp-rate", "1.5", "--tweak", "0");
        assertEquals("chainfilter: nFPRate is 1.5; it must be in (0, 1]" + NL, rate.err);
        CliRun outPoint = CliRun.of("bip37", "create", "--elements", "3", "--fp-rate", "0.1", "--tweak", "0",
                "--insert-outpoint", "abcd");
        assertEquals("chainfilter: outpoint 'abcd' is not TXID:INDEX" + NL, outPoint.err);
        CliRun tweak = CliRun.of("bip37", "create", "--elements", "3", "--fp-rate", "0.1", "--tweak", "4294967296");
        assertEquals("chainfilter: --tweak is 4294967296; nTweak is 0..4294967295" + NL, tweak.err);
        CliRun hexTweak = CliRun.of("bip37", "create", "--elements", "3", "--fp-rate", "0.1", "--tweak", "0x1ffffffff");
        assertEquals("chainfilter: --tweak is 0x1ffffffff; nTweak is 0..4294967295" + NL, hexTweak.err);
        CliRun wordTweak = CliRun.of("bip37", "create", "--elements", "3", "--fp-rate", "0.1", "--tweak", "seven");
        assertEquals("chainfilter: --tweak 'seven' is not a decimal or 0x-hex number" + NL, wordTweak.err);
        CliRun hugeTweak = CliRun.of("bip37", "create", "--elements", "3", "--fp-rate", "0.1", "--tweak",
                "99999999999999999999");
        assertEquals("chainfilter: --tweak is 99999999999999999999; nTweak is 0..4294967295" + NL, hugeTweak.err);
        String txid = "90c122d70786e899529d71dbeba91ba216982fb6ba58f3bdaab65e73b7e9260b";
        for (String index : List.of("99999999999999999999", "4294967296", "-1")) {
            CliRun hugeIndex = CliRun.of("bip37", "create", "--elements", "3", "--fp-rate", "0.1", "--tweak", "0",
                    "--insert-outpoint", txid + ":" + index);
            assertEquals("chainfilter: outpoint index " + index + " is outside the uint32 range 0..4294967295" + NL,
                    hugeIndex.err);
        }
        CliRun huge = CliRun.of("bip37", "create", "--elements", "1e20", "--fp-rate", "0.1", "--tweak", "0");
        assertEquals("chainfilter: Invalid value for option '--elements': nElements is 1e20; it must be 1..4294967295"
                + " (Core's uint32, and Core divides by it) (see 'chainfilter bip37 create --help')" + NL, huge.err);
        // Past a long on the negative side too, with Core's range (it was picocli's bare ArithmeticException); a long's
        // largest goes to the filter, a refused value (status 1; it was refused as past a long). From a mutation review.
        CliRun negative = CliRun.of("bip37", "create", "--elements", "-1e20", "--fp-rate", "0.1", "--tweak", "0");
        assertEquals(huge.err.replace("1e20", "-1e20"), negative.err);
        CliRun largest = CliRun.of("bip37", "create", "--elements", "9223372036854775807", "--fp-rate", "0.1");
        assertEquals(1, largest.status, largest::toString);
        assertEquals("chainfilter: nElements is 9223372036854775807; it must be 1..4294967295 (Core divides by it)" + NL,
                largest.err);
        CliRun tiny = CliRun.of("bip37", "create", "--elements", "3", "--fp-rate", "1e-400", "--tweak", "0");
        assertEquals("chainfilter: Invalid value for option '--fp-rate': '1e-400' is too small for a double (it rounds"
                + " to 0); the smallest positive rate is 4.9E-324 (see 'chainfilter bip37 create --help')" + NL,
                tiny.err);
        CliRun fraction = CliRun.of("bip37", "create", "--elements", "2.5", "--fp-rate", "0.1", "--tweak", "0");
        assertEquals(2, fraction.status, fraction::toString);
        assertEquals("chainfilter: Invalid value for option '--elements': '2.5' is not a whole number (see 'chainfilter"
                + " bip37 create --help')" + NL, fraction.err);
    }

    /** --flags takes decimal or 0x-hex, as --tweak does (0x02 was refused), and one byte only. */
    @Test
    void flagsTakeDecimalOrHexAndOneByte() {
        CliRun hex = CliRun.of("bip37", "create", "--elements", "10", "--fp-rate", "0.01", "--tweak", "0", "--flags",
                "0x02");
        assertEquals(0, hex.status, hex::toString);
        assertTrue(hex.out.contains("nFlags      2 (P2PUBKEY_ONLY)"), hex.out);
        assertEquals(hex.out, CliRun.of("bip37", "create", "--elements", "10", "--fp-rate", "0.01", "--tweak", "0",
                "--flags", "2").out);
        CliRun big = CliRun.of("bip37", "create", "--elements", "10", "--fp-rate", "0.01", "--tweak", "0", "--flags",
                "0x100");
        assertEquals(1, big.status, big::toString);
        assertEquals("chainfilter: --flags is 0x100; nFlags is one byte, 0..255" + NL, big.err);
        // Below 0 too (the lower bound dropped passed every test: from a mutation review).
        assertEquals("chainfilter: --flags is -1; nFlags is one byte, 0..255" + NL, CliRun.of("bip37", "create",
                "--elements", "10", "--fp-rate", "0.01", "--tweak", "0", "--flags", "-1").err);
    }

    /** The largest nTweak and nFlags, 4294967295 and 255, are accepted as decimal and 0x-hex: each range is closed. */
    @Test
    void theLargestTweakAndFlagsAreAccepted() {
        for (String[] values : List.of(new String[] {"4294967295", "255"}, new String[] {"0xffffffff", "0xff"})) {
            CliRun run = CliRun.of("bip37", "create", "--elements", "3", "--fp-rate", "0.01", "--tweak", values[0],
                    "--flags", values[1]);
            assertEquals(0, run.status, run::toString);
            assertEquals("filterload  0300000005000000ffffffffff" + NL + "bytes       3" + NL + "nHashFuncs  5" + NL
                    + "nTweak      4294967295" + NL + "nFlags      255 (NONE)" + NL, run.out);
        }
    }

    /**
     * Without --tweak, nTweak comes from a SecureRandom: a fixed tweak (every wallet's filter alike) passed every test
     * (from a mutation review). Three runs agree by chance with probability 2^-64.
     */
    @Test
    void withoutTweakEachFilterGetsARandomOne() {
        java.util.Set<String> tweaks = new java.util.HashSet<>();
        for (int i = 0; i < 3; i++) {
            CliRun run = CliRun.of("bip37", "create", "--elements", "3", "--fp-rate", "0.01");
            assertEquals(0, run.status, run::toString);
            tweaks.add(run.out.lines().filter(l -> l.startsWith("nTweak ")).findFirst().orElseThrow());
        }
        assertTrue(tweaks.size() > 1, tweaks::toString);
    }

    /**
     * An outpoint's index is a uint32: its largest, 4294967295, is taken, and so is an index written with leading zeros
     * past ten digits. Refusing either passed every test (from a mutation review).
     */
    @Test
    void theLargestOutPointIndexIsTakenWithOrWithoutLeadingZeros() {
        String txid = "90c122d70786e899529d71dbeba91ba216982fb6ba58f3bdaab65e73b7e9260b";
        CliRun largest = CliRun.of("bip37", "create", "--elements", "3", "--fp-rate", "0.01", "--tweak", "0",
                "--insert-outpoint", txid + ":4294967295");
        assertEquals(0, largest.status, largest::toString);
        CliRun zeros = CliRun.of("bip37", "create", "--elements", "3", "--fp-rate", "0.01", "--tweak", "0",
                "--insert-outpoint", txid + ":0000000000004294967295");
        assertEquals(largest.out, zeros.out, zeros::toString);
        CliRun one = CliRun.of("bip37", "create", "--elements", "3", "--fp-rate", "0.01", "--tweak", "0",
                "--insert-outpoint", txid + ":000000000000000000001");
        assertEquals(CliRun.of("bip37", "create", "--elements", "3", "--fp-rate", "0.01", "--tweak", "0",
                "--insert-outpoint", txid + ":1").out, one.out, one::toString);
    }

    /**
     * --flags overrides --update whatever mode --update names; ignoring it beside a mode other than ALL passed every
     * test (from a mutation review).
     */
    @Test
    void flagsOverrideAnyUpdateMode() {
        for (String mode : List.of("NONE", "ALL", "P2PUBKEY_ONLY")) {
            CliRun run = CliRun.of("bip37", "create", "--elements", "3", "--fp-rate", "0.01", "--tweak", "0", "--update",
                    mode, "--flags", "0x81");
            assertEquals(0, run.status, run::toString);
            assertTrue(run.out.contains("nFlags      129 (ALL)"), mode + ": " + run.out);
        }
    }

    /** Core's sizing can give a match-all filter; the command says so on stderr (status 0, the filter is Core's). */
    @Test
    void createNotesAMatchAllFilter() {
        CliRun empty = CliRun.of("bip37", "create", "--elements", "1", "--fp-rate", "0.1", "--tweak", "0");
        assertEquals(0, empty.status, empty::toString);
        assertEquals("filterload  00000000000000000001" + NL + "bytes       0" + NL + "nHashFuncs  0" + NL
                + "nTweak      0" + NL + "nFlags      1 (ALL)" + NL, empty.out);
        assertEquals("chainfilter: note: Core's sizing of 1 elements at rate 0.1 gives 0 bytes of vData, a filter that"
                + " matches everything: a peer would send every transaction" + NL, empty.err);
        CliRun noHashes = CliRun.of("bip37", "create", "--elements", "4294967295", "--fp-rate", "1e-300", "--tweak",
                "0");
        assertTrue(noHashes.out.contains("bytes       36000" + NL + "nHashFuncs  0" + NL), noHashes.out);
        assertEquals("chainfilter: note: Core's sizing of 4294967295 elements at rate 1.0E-300 gives 0 hash functions,"
                + " a filter that matches everything: a peer would send every transaction" + NL, noHashes.err);
        CliRun normal = CliRun.of("bip37", "create", "--elements", "10", "--fp-rate", "0.01", "--tweak", "0");
        assertEquals("", normal.err);
    }

    /** --elements takes 1e3 and 1_000 as math does, --tweak 0x-hex as hash murmur3 --seed does; the same filter. */
    @Test
    void createTakesCountsAndTweaksAsTheOtherCommandsDo() {
        CliRun plain = CliRun.of("bip37", "create", "--elements", "1000", "--fp-rate", "0.01", "--tweak", "3735928559",
                "--insert", "00");
        assertEquals(0, plain.status, plain::toString);
        assertEquals(plain.out, CliRun.of("bip37", "create", "--elements", "1e3", "--fp-rate", "0.01", "--tweak",
                "0xdeadbeef", "--insert", "00").out);
        assertEquals(plain.out, CliRun.of("bip37", "create", "--elements", "1_000", "--fp-rate", "0.01", "--tweak",
                "0XDEADBEEF", "--insert", "00").out);
        assertTrue(plain.out.contains("nTweak      3735928559"), plain.out);
    }

    /** A hex value that does not decode is refused naming the option it came from (and the value when short). */
    @Test
    void badHexNamesItsOption() {
        CliRun insert = CliRun.of("bip37", "create", "--elements", "3", "--fp-rate", "0.1", "--tweak", "0",
                "--insert", "00", "--insert", "zz");
        assertEquals(1, insert.status, insert::toString);
        assertEquals("chainfilter: --insert 'zz': not a hex digit: 'z' at position 0" + NL, insert.err);
        CliRun hash = CliRun.of("bip37", "create", "--elements", "3", "--fp-rate", "0.1", "--insert-hash", "00");
        assertEquals("chainfilter: --insert-hash '00': display hash is 1 bytes; it must be exactly 32 bytes" + NL,
                hash.err);
        CliRun outPoint = CliRun.of("bip37", "create", "--elements", "3", "--fp-rate", "0.1", "--insert-outpoint",
                "abc:0");
        assertEquals("chainfilter: --insert-outpoint txid 'abc': hex string has an odd number of digits (3)" + NL,
                outPoint.err);
        CliRun filterLoad = CliRun.of("bip37", "match", "--filterload", "0x0", "--tx", TX);
        assertEquals("chainfilter: --filterload '0x0': hex string has an odd number of digits (1)" + NL,
                filterLoad.err);
        CliRun tx = CliRun.of("bip37", "match", "--filterload", "00000000000000000000", "--tx", TX + "g0");
        assertEquals("chainfilter: --tx: not a hex digit: 'g' at position " + TX.length() + NL, tx.err);
        CliRun block = CliRun.of("bip37", "merkleblock", "--filterload", "00000000000000000000", "--block", "0");
        assertEquals("chainfilter: --block '0': hex string has an odd number of digits (1)" + NL, block.err);
        CliRun merkleBlock = CliRun.of("bip37", "verify", "--merkleblock", "xy");
        assertEquals("chainfilter: --merkleblock 'xy': not a hex digit: 'x' at position 0" + NL, merkleBlock.err);
    }

    @Test
    void matchUpdatesTheFilterUnderUpdateAll() {
        String filter = CliRun.of("bip37", "create", "--elements", "10", "--fp-rate", "0.000001", "--tweak", "0",
                "--insert", "04943fdd508053c75000106d3bc6e2754dbcff19").out.lines().findFirst().orElseThrow()
                .substring(12);
        CliRun run = CliRun.of("bip37", "match", "--filterload", filter, "--tx", TX);
        assertEquals(0, run.status, run::toString);
        assertTrue(run.out.startsWith("match" + NL + "txid        "
                + "b4749f017444b051c44dfd2720e88f314ff94f3dd6d56d40ef65854fcd7fff6b" + NL), run.out);
        String after = run.out.lines().skip(2).findFirst().orElseThrow().substring(12);
        assertTrue(!after.equals(filter), "the outpoint was inserted");
        CliRun miss = CliRun.of("bip37", "match", "--filterload", "03000000050000000000000001", "--tx", TX);
        assertEquals(3, miss.status, miss::toString);
        assertTrue(miss.out.startsWith("no match" + NL), miss.out);
    }

    @Test
    void matchRefusesAnOversizedFilter() {
        CliRun run = CliRun.of("bip37", "match", "--filterload", "fda18c" + "00".repeat(36001) + "000000000000000000",
                "--tx", TX);
        assertEquals(1, run.status, run::toString);
        assertEquals("chainfilter: --filterload: filter is 36001 bytes; BIP37 allows at most 36000" + NL, run.err);
    }

    @Test
    void merkleblockPrintsThePublishedSerializationAndMatches() {
        String filter = CliRun.of("bip37", "create", "--elements", "10", "--fp-rate", "0.000001", "--tweak", "0",
                "--insert-hash", "63194f18be0af63f2c6bc9dc0f777cbefed3d9415c4af83f3ee3a3d669c00cb5").out.lines()
                .findFirst().orElseThrow().substring(12);
        CliRun run = CliRun.of("bip37", "merkleblock", "--filterload", filter, "--block", BLOCK);
        assertEquals(0, run.status, run::toString);
        assertTrue(run.out.startsWith("merkleblock " + MERKLEBLOCK + NL + "matched     0 "
                + "63194f18be0af63f2c6bc9dc0f777cbefed3d9415c4af83f3ee3a3d669c00cb5" + NL), run.out);
    }

    @Test
    void merkleblockReadsTheBlockFromAFileAndRefusesBothOrNeither(@TempDir Path dir) throws IOException {
        String filter = CliRun.of("bip37", "create", "--elements", "10", "--fp-rate", "0.000001", "--tweak", "0",
                "--insert-hash", "63194f18be0af63f2c6bc9dc0f777cbefed3d9415c4af83f3ee3a3d669c00cb5").out.lines()
                .findFirst().orElseThrow().substring(12);
        Path block = Files.writeString(dir.resolve("block.hex"), BLOCK + "\n");
        CliRun fromFile = CliRun.of("bip37", "merkleblock", "--filterload", filter, "--block-file", block.toString());
        assertEquals(0, fromFile.status, fromFile::toString);
        assertTrue(fromFile.out.startsWith("merkleblock " + MERKLEBLOCK + NL), fromFile.out);
        // Wrapped at 60 digits a line (CRLF), as xxd -p and many tools write hex: the same block.
        Path wrapped = Files.writeString(dir.resolve("wrapped.hex"), String.join("\r\n",
                BLOCK.split("(?<=\\G.{60})")) + "\r\n");
        CliRun fromWrapped = CliRun.of("bip37", "merkleblock", "--filterload", filter, "--block-file",
                wrapped.toString());
        assertEquals(fromFile.out, fromWrapped.out, fromWrapped::toString);
        java.io.InputStream savedStdin = System.in;
        System.setIn(new java.io.ByteArrayInputStream(Files.readAllBytes(wrapped)));
        try {
            CliRun fromStdin = CliRun.of("bip37", "merkleblock", "--filterload", filter, "--block-file", "-");
            assertEquals(fromFile.out, fromStdin.out, fromStdin::toString);
        } finally {
            System.setIn(savedStdin);
        }
        Path bad = Files.writeString(dir.resolve("bad.hex"), BLOCK.substring(0, 60) + "\n" + "zz" + BLOCK.substring(62));
        CliRun fromBad = CliRun.of("bip37", "merkleblock", "--filterload", filter, "--block-file", bad.toString());
        // CR-only line ends count as lines; an 0x after leading white space opens the value.
        Path crOnly = Files.writeString(dir.resolve("cr.hex"), BLOCK.substring(0, 60) + "\r" + BLOCK.substring(60, 120)
                + "\rzz");
        assertEquals("chainfilter: --block-file " + crOnly + ": not a hex digit: 'z' at line 3, column 1" + NL,
                CliRun.of("bip37", "merkleblock", "--filterload", filter, "--block-file", crOnly.toString()).err);
        Path prefixed = Files.writeString(dir.resolve("prefixed.hex"), "\n  0x" + BLOCK + "\n");
        assertEquals(fromFile.out, CliRun.of("bip37", "merkleblock", "--filterload", filter, "--block-file",
                prefixed.toString()).out);
        assertEquals("chainfilter: --block-file " + bad + ": not a hex digit: 'z' at line 2, column 1" + NL, fromBad.err);
        CliRun both = CliRun.of("bip37", "merkleblock", "--filterload", filter, "--block", BLOCK, "--block-file",
                block.toString());
        // Options that do not go together: a malformed command line, status 2 as for one picocli cannot parse.
        assertEquals(2, both.status, both::toString);
        assertEquals("chainfilter: give exactly one of --block and --block-file" + NL, both.err);
        CliRun neither = CliRun.of("bip37", "merkleblock", "--filterload", filter);
        assertEquals(2, neither.status, neither::toString);
        assertEquals("chainfilter: give exactly one of --block and --block-file" + NL, neither.err);
        // The options are checked before any value is read: a bad filterload does not hide them (it was status 1).
        CliRun badFilterAndBoth = CliRun.of("bip37", "merkleblock", "--filterload", "00", "--block", BLOCK,
                "--block-file", block.toString());
        assertEquals(2, badFilterAndBoth.status, badFilterAndBoth::toString);
        assertEquals("chainfilter: give exactly one of --block and --block-file" + NL, badFilterAndBoth.err);
        CliRun badFilterNoTx = CliRun.of("bip37", "match", "--filterload", "00");
        assertEquals(2, badFilterNoTx.status, badFilterNoTx::toString);
        assertEquals("chainfilter: give exactly one of --tx and --tx-file" + NL, badFilterNoTx.err);
        CliRun noFilterBadBlock = CliRun.of("bip37", "merkleblock", "--block", "00");
        assertEquals(2, noFilterBadBlock.status, noFilterBadBlock::toString);
        assertEquals("chainfilter: give exactly one of --filterload and --filterload-file" + NL, noFilterBadBlock.err);
    }

    @Test
    void verifyPrintsRootAndMatchesOrWhyItIsInvalid() {
        CliRun run = CliRun.of("bip37", "verify", "--merkleblock", MERKLEBLOCK);
        assertEquals(0, run.status, run::toString);
        assertEquals("block        000000000000dab0130bbcc991d3d7ae6b81aa6f50a798888dfe62337458dc45" + NL
                + "root         63194f18be0af63f2c6bc9dc0f777cbefed3d9415c4af83f3ee3a3d669c00cb5" + NL
                + "transactions 1 (as the peer states it; the root does not commit to the count)" + NL
                + "matched      0 63194f18be0af63f2c6bc9dc0f777cbefed3d9415c4af83f3ee3a3d669c00cb5" + NL, run.out);
        CliRun extraByte = CliRun.of("bip37", "verify", "--merkleblock",
                MERKLEBLOCK.substring(0, MERKLEBLOCK.length() - 4) + "020100");
        assertEquals(1, extraByte.status, extraByte::toString);
        assertEquals("chainfilter: partial Merkle tree used 1 flag bits but carries 2 flag bytes" + NL, extraByte.err);
        String wrongRoot = MERKLEBLOCK.substring(0, MERKLEBLOCK.length() - 68) + "00" + MERKLEBLOCK.substring(
                MERKLEBLOCK.length() - 66);
        CliRun forged = CliRun.of("bip37", "verify", "--merkleblock", wrongRoot);
        assertEquals(1, forged.status, forged::toString);
        assertTrue(forged.err.startsWith("chainfilter: partial Merkle tree root "), forged.err);
    }

    /**
     * merkleblock and verify print every match in block order, each as its index and its txid in display order: Core's
     * merkle_block_1 step 2 proves transactions 7 and 8 of a block of 9. Printing the matches last first, or verify
     * printing the first alone, passed every test, the block tried matching once (from a mutation review).
     */
    @Test
    void everyMatchIsPrintedInBlockOrder() {
        Vector v = Suites.bundled("bip37-merkleblock.core.json").vectors().stream()
                .filter(vector -> vector.name().equals("merkle_block_1 step 2")).findFirst().orElseThrow();
        List<String> create = new java.util.ArrayList<>(List.of("bip37", "create", "--elements", "10", "--fp-rate",
                "0.000001", "--tweak", "0"));
        for (byte[] item : v.object("filter").hexList("insert")) {
            create.addAll(List.of("--insert", Hex.encode(item)));
        }
        String filter = CliRun.of(create.toArray(String[]::new)).out.lines().findFirst().orElseThrow().substring(12);
        List<String> published = v.objects("matched").stream()
                .map(m -> m.count("index") + " " + Hex.encode(m.hex("txid"))).toList();
        assertEquals(List.of("7 dd1fd2a6fc16404faf339881a90adbde7f4f728691ac62e8f168809cdfae1053",
                "8 74d681e0e03bafa802c8aa084379aa98d9fcd632ddc2ed9782b586ec87451f20"), published);
        CliRun built = CliRun.of("bip37", "merkleblock", "--filterload", filter, "--block", Hex.encode(v.hex("block")));
        assertEquals(0, built.status, built::toString);
        assertEquals(published, built.out.lines().filter(l -> l.startsWith("matched ")).map(l -> l.substring(12))
                .toList(), built::toString);
        String merkleBlock = built.out.lines().findFirst().orElseThrow().substring(12);
        CliRun verified = CliRun.of("bip37", "verify", "--merkleblock", merkleBlock);
        assertEquals(0, verified.status, verified::toString);
        assertEquals(published, verified.out.lines().filter(l -> l.startsWith("matched ")).map(l -> l.substring(13))
                .toList(), verified::toString);
    }

    /**
     * Either input of match and merkleblock may come from stdin while the other comes from a file; both from stdin is a
     * malformed command line (status 2), for merkleblock as for match. Refusing stdin for the filter whatever the other
     * input, or letting merkleblock's filter take all of stdin (the block then "empty", status 1), passed every test
     * (from a mutation review).
     */
    @Test
    void oneInputMayComeFromStdin(@TempDir Path dir) throws IOException {
        String filter = "0a" + "ff".repeat(10) + "05000000" + "00000000" + "01";
        Path txFile = Files.writeString(dir.resolve("tx.hex"), TX + "\n");
        java.io.InputStream savedStdin = System.in;
        System.setIn(new java.io.ByteArrayInputStream((filter + "\n").getBytes(
                java.nio.charset.StandardCharsets.US_ASCII)));
        try {
            CliRun fromStdin = CliRun.of("bip37", "match", "--filterload-file", "-", "--tx-file", txFile.toString());
            assertEquals(0, fromStdin.status, fromStdin::toString);
            assertEquals(CliRun.of("bip37", "match", "--filterload", filter, "--tx", TX).out, fromStdin.out);
            CliRun twoStdin = CliRun.of("bip37", "merkleblock", "--filterload-file", "-", "--block-file", "-");
            assertEquals(2, twoStdin.status, twoStdin::toString);
            assertEquals("chainfilter: --filterload-file and --block-file both read stdin ('-'); give one of them a"
                    + " file" + NL, twoStdin.err);
        } finally {
            System.setIn(savedStdin);
        }
    }

    @Test
    void bip37WithoutACommandIsAUsageError() {
        CliRun run = CliRun.of("bip37");
        assertEquals(2, run.status, run::toString);
        assertTrue(run.err.startsWith("chainfilter: a bip37 command is required"), run.err);
    }

    /**
     * Values too long for one command-line argument (Linux caps one at 128 KiB; a transaction reaches 400 kB) come from
     * files: --tx-file, --filterload-file, --merkleblock-file, each wrapped over lines if need be, and exactly one of
     * the value and its file; two options cannot both read stdin.
     */
    @Test
    void longValuesComeFromFiles(@TempDir Path dir) throws IOException {
        String filter = "0a" + "ff".repeat(10) + "05000000" + "00000000" + "01";
        Path filterFile = Files.writeString(dir.resolve("filter.hex"), filter.substring(0, 10) + "\n" + filter.substring(10));
        Path txFile = Files.writeString(dir.resolve("tx.hex"), TX.replaceAll("(.{64})", "$1\n"));
        CliRun inline = CliRun.of("bip37", "match", "--filterload", filter, "--tx", TX);
        CliRun fromFiles = CliRun.of("bip37", "match", "--filterload-file", filterFile.toString(), "--tx-file",
                txFile.toString());
        assertEquals(0, fromFiles.status, fromFiles::toString);
        assertEquals(inline.out, fromFiles.out);
        Path merkleFile = Files.writeString(dir.resolve("merkle.hex"), MERKLEBLOCK);
        CliRun verified = CliRun.of("bip37", "verify", "--merkleblock-file", merkleFile.toString());
        assertEquals(CliRun.of("bip37", "verify", "--merkleblock", MERKLEBLOCK).out, verified.out);
        assertEquals(0, verified.status, verified::toString);
        CliRun both = CliRun.of("bip37", "match", "--filterload", filter, "--tx", TX, "--tx-file", txFile.toString());
        assertEquals(2, both.status, both::toString);
        assertEquals("chainfilter: give exactly one of --tx and --tx-file" + NL, both.err);
        CliRun neither = CliRun.of("bip37", "verify");
        assertEquals("chainfilter: give exactly one of --merkleblock and --merkleblock-file" + NL, neither.err);
        CliRun twoStdin = CliRun.of("bip37", "match", "--filterload-file", "-", "--tx-file", "-");
        assertEquals(2, twoStdin.status, twoStdin::toString);
        assertEquals("chainfilter: --filterload-file and --tx-file both read stdin ('-'); give one of them a file" + NL,
                twoStdin.err);
        // A value too short for what it should hold is named by its option (with two inputs, which was short?).
        CliRun shortTx = CliRun.of("bip37", "match", "--filterload", filter, "--tx", "0100");
        assertEquals(1, shortTx.status, shortTx::toString);
        assertTrue(shortTx.err.startsWith("chainfilter: --tx: "), shortTx::toString);
        CliRun emptyMerkle = CliRun.of("bip37", "verify", "--merkleblock", "");
        assertTrue(emptyMerkle.err.startsWith("chainfilter: --merkleblock: "), emptyMerkle::toString);
        Path bad = Files.writeString(dir.resolve("bad.hex"), "00zz");
        CliRun badTx = CliRun.of("bip37", "match", "--filterload", filter, "--tx-file", bad.toString());
        assertEquals("chainfilter: --tx-file " + bad + ": not a hex digit: 'z' at line 1, column 3" + NL, badTx.err);
    }

    /**
     * verify prints the transaction count the merkleblock states, not the number of matches: a block of one transaction
     * under a filter that matches nothing is "transactions 1" with no match. Printing the matches' count passed every
     * test, whose merkleblocks matched each of their transactions (from a mutation review).
     */
    @Test
    void verifyPrintsTheStatedCountNotTheMatches() {
        String matchesNothing = "01" + "00" + "01000000" + "00000000" + "00";
        CliRun built = CliRun.of("bip37", "merkleblock", "--filterload", matchesNothing, "--block", BLOCK);
        assertEquals(0, built.status, built::toString);
        String merkleBlock = built.out.lines().findFirst().orElseThrow().substring(12);
        CliRun verified = CliRun.of("bip37", "verify", "--merkleblock", merkleBlock);
        assertEquals(0, verified.status, verified::toString);
        assertEquals("block        000000000000dab0130bbcc991d3d7ae6b81aa6f50a798888dfe62337458dc45" + NL
                + "root         63194f18be0af63f2c6bc9dc0f777cbefed3d9415c4af83f3ee3a3d669c00cb5" + NL
                + "transactions 1 (as the peer states it; the root does not commit to the count)" + NL, verified.out);
    }

    /**
     * A value read from a file and refused by its parser is named by the file option and the file: "--merkleblock:"
     * for a bad --merkleblock-file did not say where the value came from. Naming the inline option for either passed
     * every test (from a mutation review).
     */
    @Test
    void aValueFromAFileIsRefusedNamingTheFile(@TempDir Path dir) throws IOException {
        Path shortMerkle = Files.writeString(dir.resolve("merkle.hex"), "0100");
        CliRun merkle = CliRun.of("bip37", "verify", "--merkleblock-file", shortMerkle.toString());
        assertEquals(1, merkle.status, merkle::toString);
        assertTrue(merkle.err.startsWith("chainfilter: --merkleblock-file " + shortMerkle + ": "), merkle::toString);
        Path shortTx = Files.writeString(dir.resolve("tx.hex"), "0100");
        CliRun tx = CliRun.of("bip37", "match", "--filterload", "0a" + "ff".repeat(10) + "05000000" + "00000000" + "01",
                "--tx-file", shortTx.toString());
        assertEquals(1, tx.status, tx::toString);
        assertTrue(tx.err.startsWith("chainfilter: --tx-file " + shortTx + ": "), tx::toString);
    }
}
