package org.chainfilter.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code chainfilter bip158} on a published BIP158 row: testnet3 block 1263442 ("Includes witness data"), from
 * bitcoin/bitcoin src/test/data/blockfilters.json @ c7efb652f3543b001b4dd22186a354605b14f47e.
 */
class Bip158CommandTest {
    private static final String NL = System.lineSeparator();
    private static final String BLOCK_HASH = "000000006f27ddfe1dd680044a34548f41bed47eba9e6f0b310da21423bc5f33";
    static final String BLOCK = "000000201c8d1a529c39a396db2db234d5ec152fa651a2872966daccbde028b400000000083f14"
            + "492679151dbfaa1a825ef4c18518e780c1f91044180280a7d33f4a98ff5f45765aaddc001d38333b9a020100000000010100000000"
            + "00000000000000000000000000000000000000000000000000000000ffffffff230352471300fe5f45765afe94690a000963676d69"
            + "6e6572343208000000000000000000ffffffff024423a804000000001976a914f2c25ac3d59f3d674b1d1d0a25c27339aaac0ba688"
            + "ac0000000000000000266a24aa21a9edcb26cb3052426b9ebb4d19c819ef87c19677bbf3a7c46ef0855bd1b2abe83491012000000000"
            + "000000000000000000000000000000000000000000000000000000000000000002000000000101d20978463906ba4ff5e7192494b8"
            + "8dd5eb0de85d900ab253af909106faa22cc5010000000004000000014777ff000000000016001446c29eabe8208a33aa1023c741fa"
            + "79aa92e881ff0347304402207d7ca96134f2bcfdd6b536536fdd39ad17793632016936f777ebb32c22943fda02206014d2fb8a6aa5"
            + "8279797f861042ba604ebd2f8f61e5bddbd9d3be5a245047b201004b632103eeaeba7ce5dc2470221e9517fb498e8d6bd4e73b85b8"
            + "be655196972eb9ccd5566754b2752103a40b74d43df244799d041f32ce1ad515a6cd99501701540e38750d883ae21d3a68ac000000"
            + "00";
    static final String SPENT = "002027a5000c7917f785d8fc6e5a55adfca8717ecb973ebb7743849ff956d896a7ed";
    private static final String PREVIOUS_HEADER = "31d66d516a9eda7de865df29f6ef6cb8e4bf9309e5dac899968a9a62a5df61e3";
    private static final String FILTER = "0385acb4f0fe889ef0";
    private static final String HEADER = "4e6d564c2a2452065c205dd7eb2791124e0c4e0dbb064c410c24968572589dec";
    /**
     * dSHA256 of {@link #FILTER} in display order, computed outside this library (Python hashlib); the vector file
     * publishes no filter hash.
     */
    private static final String FILTER_HASH = "5b753e331824ae32f87ee449e36405aac6229df814fa460c48fe4aca1b3fe713";
    /** The coinbase's P2PKH output script, a member of the filter. */
    private static final String PAID = "76a914f2c25ac3d59f3d674b1d1d0a25c27339aaac0ba688ac";

    @Test
    void buildPrintsThePublishedFilterAndHeader() {
        CliRun run = CliRun.of("bip158", "build", "--block", BLOCK, "--spent", SPENT, "--prev-header", PREVIOUS_HEADER);
        assertEquals(0, run.status, run::toString);
        assertEquals("block       " + BLOCK_HASH + NL + "elements    3" + NL + "filter      " + FILTER + NL
                + "filter-hash " + FILTER_HASH + NL + "header      " + HEADER + NL, run.out);
        assertEquals("", run.err);
    }

    @Test
    void buildReadsTheBlockAndSpentScriptsFromFiles(@TempDir Path dir) throws IOException {
        Path block = Files.writeString(dir.resolve("block.hex"), BLOCK + "\n");
        Path spent = Files.writeString(dir.resolve("spent.txt"), SPENT + "\n");
        CliRun run = CliRun.of("bip158", "build", "--block-file", block.toString(), "--spent-file", spent.toString());
        assertEquals(0, run.status, run::toString);
        assertEquals(4, run.out.lines().count());
        assertEquals("filter      " + FILTER, run.out.lines().skip(2).findFirst().orElseThrow());
    }

    @Test
    void buildRefusesAWrongNumberOfSpentScripts() {
        CliRun run = CliRun.of("bip158", "build", "--block", BLOCK);
        assertEquals(1, run.status, run::toString);
        assertEquals("chainfilter: block " + BLOCK_HASH + " has 1 inputs after its coinbase but 0 spent scripts were"
                + " given" + NL, run.err);
        CliRun both = CliRun.of("bip158", "build", "--block", BLOCK, "--block-file", "x");
        assertEquals("chainfilter: give exactly one of --block and --block-file" + NL, both.err);
        assertEquals(2, both.status, both::toString);
    }

    @Test
    void matchFindsAMemberAndExitsThreeOnNoMatch() {
        CliRun hit = CliRun.of("bip158", "match", "--filter", FILTER, "--block-hash", BLOCK_HASH, "51", PAID);
        assertEquals(0, hit.status, hit::toString);
        assertEquals("match" + NL, hit.out);
        CliRun spent = CliRun.of("bip158", "match", "--filter", FILTER, "--block-hash", BLOCK_HASH, SPENT);
        assertEquals("match" + NL, spent.out);
        CliRun miss = CliRun.of("bip158", "match", "--filter", FILTER, "--block-hash", BLOCK_HASH, "51", "0014" + "00".repeat(20));
        assertEquals(3, miss.status, miss::toString);
        assertEquals("no match" + NL, miss.out);
    }

    /** A filter too long for one argument (a full block's is tens of kilobytes of hex) comes from --filter-file. */
    @Test
    void matchReadsTheFilterFromAFile(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("filter.hex"), FILTER + "\n");
        CliRun hit = CliRun.of("bip158", "match", "--filter-file", file.toString(), "--block-hash", BLOCK_HASH, PAID);
        assertEquals(0, hit.status, hit::toString);
        assertEquals("match" + NL, hit.out);
        CliRun both = CliRun.of("bip158", "match", "--filter", FILTER, "--filter-file", file.toString(),
                "--block-hash", BLOCK_HASH, PAID);
        assertEquals("chainfilter: give exactly one of --filter and --filter-file" + NL, both.err);
    }

    @Test
    void matchRefusesAMalformedFilter() {
        CliRun run = CliRun.of("bip158", "match", "--filter", "0385acb4f0fe889ef000", "--block-hash", BLOCK_HASH, PAID);
        assertEquals(1, run.status, run::toString);
        assertEquals("chainfilter: --filter: GCS filter has 1 bytes of excess data after its N = 3 elements" + NL,
                run.err);
        CliRun shortHash = CliRun.of("bip158", "match", "--filter", FILTER, "--block-hash", "00", PAID);
        assertEquals("chainfilter: --block-hash '00': display hash is 1 bytes; it must be exactly 32 bytes" + NL,
                shortHash.err);
        CliRun badDigit = CliRun.of("bip158", "match", "--filter", "03zz", "--block-hash", BLOCK_HASH, PAID);
        assertEquals("chainfilter: --filter '03zz': not a hex digit: 'z' at position 2" + NL, badDigit.err);
        CliRun badScript = CliRun.of("bip158", "match", "--filter", FILTER, "--block-hash", BLOCK_HASH, PAID, "abc");
        assertEquals("chainfilter: SCRIPT 'abc': hex string has an odd number of digits (3)" + NL, badScript.err);
    }

    /** A bad --prev-header is refused before anything is printed, so no partial answer reaches stdout. */
    @Test
    void buildRefusesABadPreviousHeaderBeforePrinting(@TempDir Path dir) throws IOException {
        CliRun run = CliRun.of("bip158", "build", "--block", BLOCK, "--spent", SPENT, "--prev-header", "00");
        assertEquals(1, run.status, run::toString);
        assertEquals("", run.out);
        assertEquals("chainfilter: --prev-header '00': display hash is 1 bytes; it must be exactly 32 bytes" + NL,
                run.err);
        CliRun spent = CliRun.of("bip158", "build", "--block", BLOCK, "--spent", "0g");
        assertEquals("chainfilter: --spent '0g': not a hex digit: 'g' at position 1" + NL, spent.err);
        Path list = Files.writeString(dir.resolve("spent.txt"), SPENT + "\nxyz\n");
        CliRun file = CliRun.of("bip158", "build", "--block", BLOCK, "--spent-file", list.toString());
        assertEquals("chainfilter: line 2 of --spent-file " + list + " 'xyz': hex string has an odd number of digits"
                + " (3)" + NL, file.err);
        Path block = Files.writeString(dir.resolve("block.hex"), BLOCK.substring(0, 161) + "\n");
        CliRun odd = CliRun.of("bip158", "build", "--block-file", block.toString(), "--spent", SPENT);
        assertEquals("chainfilter: --block-file " + block + ": hex string has an odd number of digits (161)" + NL,
                odd.err);
        Path missing = dir.resolve("missing.txt");
        CliRun bothStdin = CliRun.of("bip158", "build", "--block-file", "-", "--spent-file", "-");
        assertEquals(2, bothStdin.status, bothStdin::toString);
        assertEquals("chainfilter: --block-file and --spent-file both read stdin ('-'); give one of them a file" + NL,
                bothStdin.err);
        Path spentList = Files.writeString(dir.resolve("spent.txt"), SPENT + "\n");
        CliRun bothSpent = CliRun.of("bip158", "build", "--block", BLOCK, "--spent", SPENT, "--spent-file",
                spentList.toString());
        assertEquals(2, bothSpent.status, bothSpent::toString);
        assertEquals("chainfilter: --spent and --spent-file are alternatives; give the spent scripts one way" + NL,
                bothSpent.err);
        Path empty = Files.writeString(dir.resolve("empty.hex"), "");
        CliRun emptyBlock = CliRun.of("bip158", "build", "--block-file", empty.toString(), "--spent", SPENT);
        assertEquals("chainfilter: --block-file " + empty + " holds no hex value (it is empty)" + NL, emptyBlock.err);
        CliRun noSpent = CliRun.of("bip158", "build", "--block", BLOCK, "--spent-file", missing.toString());
        assertEquals("chainfilter: --spent-file " + missing + ": no such file" + NL, noSpent.err);
        CliRun noBlock = CliRun.of("bip158", "build", "--block-file", missing.toString(), "--spent", SPENT);
        assertEquals("chainfilter: --block-file " + missing + ": no such file" + NL, noBlock.err);
    }

    /**
     * The block may come from stdin while the spent scripts come from a file; only both from stdin is refused. Refusing
     * the block from stdin beside any --spent-file passed every test (from a mutation review).
     */
    @Test
    void theBlockMayComeFromStdinBesideASpentFile(@TempDir Path dir) throws IOException {
        Path spent = Files.writeString(dir.resolve("spent.txt"), SPENT + "\n");
        java.io.InputStream savedStdin = System.in;
        System.setIn(new java.io.ByteArrayInputStream(BLOCK.getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
        try {
            CliRun run = CliRun.of("bip158", "build", "--block-file", "-", "--spent-file", spent.toString());
            assertEquals(0, run.status, run::toString);
            assertEquals(CliRun.of("bip158", "build", "--block", BLOCK, "--spent", SPENT).out, run.out);
        } finally {
            System.setIn(savedStdin);
        }
    }

    @Test
    void bip158WithoutACommandIsAUsageError() {
        CliRun run = CliRun.of("bip158");
        assertEquals(2, run.status, run::toString);
    }

    /**
     * Neither --filter nor --filter-file is a malformed command line (status 2), said before a --block-hash that would
     * be refused as input (status 1). Reading the block hash first passed every test (from a mutation review).
     */
    @Test
    void aMissingFilterIsAUsageErrorBeforeABadBlockHash() {
        CliRun run = CliRun.of("bip158", "match", "--block-hash", "00", "51");
        assertEquals(2, run.status, run::toString);
        assertEquals("", run.out, run::toString);
        assertEquals("chainfilter: give exactly one of --filter and --filter-file" + NL, run.err);
    }
}
