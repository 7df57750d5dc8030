package org.chainfilter.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.chainfilter.ethbloom.LogsBloom;
import org.chainfilter.ethbloom.index.SectionIndex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code chainfilter eth} on published data: the Besu LogsBloomFilterTest log (hyperledger/besu
 * evm/src/test/java/org/hyperledger/besu/evm/log/LogsBloomFilterTest.java, snapshot 3fd224e2e4) and the
 * ethereum/execution-apis test chain's eth_getLogs fixture contract-addr.io (snapshot 033ca6e69d).
 */
class EthCommandTest {
    private static final String NL = System.lineSeparator();
    private static final String BESU_ADDRESS = "0x095e7baea6a6c7c4c2dfeb977efac326af552d87";
    private static final String ZERO_TOPIC = "0x" + "00".repeat(32);
    private static final String BESU_BLOOM = "0x"
            + "0000000000000000100000000000000000000000000000000000000000000000"
            + "0000000000000000000000000000000000000000000000000000000000000000"
            + "0000000000000000000000000000000000000000000000000000000000000000"
            + "0000000002000000000000000000080000000000000000000000000000000000"
            + "0000000000000000000000000000000000000000000000000000000000000000"
            + "0000000000000000040000000000000000000000000000000000000000000000"
            + "0000000000000000000000000000000000000000000000000000000000002000"
            + "0000000040000000000000000000000000000000000000000000000000000000";
    private static final String LOG_JSON = "[{\"address\":\"" + BESU_ADDRESS + "\",\"topics\":[\"" + ZERO_TOPIC
            + "\"],\"data\":\"0x1234\"}]";

    /** execution-apis test chain: contract 0x7dcd...27df emits in blocks 2 and 4 (contract-addr.io). */
    private static final String CONTRACT = "0x7dcd17433742f4c0ca53122ab541d0ba67fc27df";
    private static final String EMIT = "0x00000000000000000000000000000000000000000000000000000000656d6974";

    @Test
    void bloomOfALogsFile(@TempDir Path dir) throws IOException {
        Path logs = Files.writeString(dir.resolve("logs.json"), LOG_JSON);
        CliRun run = CliRun.of("eth", "bloom", logs.toString());
        assertEquals(0, run.status, run::toString);
        assertEquals(LogsBloom.fromHex(BESU_BLOOM).toHex() + NL, run.out);
    }

    @Test
    void bloomOfAReceiptAndOfAJsonRpcResponseFromStdin() {
        String receipt = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"status\":\"0x1\",\"logs\":" + LOG_JSON + "}}";
        CliRun run = withStdin(receipt, () -> CliRun.of("eth", "bloom", "--stats"));
        assertEquals(0, run.status, run::toString);
        assertEquals(LogsBloom.fromHex(BESU_BLOOM).toHex() + NL + "logs 1" + NL + "bits-set 6" + NL
                + "saturation 0.0029" + NL, run.out);
        CliRun empty = withStdin("{\"logs\":[]}", () -> CliRun.of("eth", "bloom", "-"));
        assertEquals(LogsBloom.EMPTY.toHex() + NL, empty.out);
    }

    /**
     * Two JSON values (JSON lines, as eth scan prints logs) are refused: only the first was read, so the bloom left out
     * every later log without a word.
     */
    @Test
    void bloomRefusesMoreThanOneJsonValue() {
        String log = "{\"address\":\"0x" + "11".repeat(20) + "\",\"topics\":[]}";
        assertFailure("chainfilter: input holds more than one JSON value (the second starts at line 2, column 1); give"
                + " one list of logs, e.g. JSON lines joined with commas inside [ ]" + NL,
                withStdin("[" + log + "]\n[" + log + "]\n", () -> CliRun.of("eth", "bloom")));
        CliRun stray = withStdin("[" + log + "] 5", () -> CliRun.of("eth", "bloom"));
        assertEquals(1, stray.status, stray::toString);
        assertTrue(stray.err.startsWith("chainfilter: input holds more than one JSON value (the second starts at line 1,"),
                stray::toString);
    }

    /**
     * eth scan's own output, a log object a line, is named as JSON lines (the streaming reader first said the input was
     * neither a list of logs nor an object with them); a key given twice and an object with both "result" and "logs"
     * are refused (all of them counted, or one taken, would be a bloom nobody asked for); a JSON-RPC error of any size
     * is read as it streams, its code and message kept.
     */
    @Test
    void bloomNamesJsonLinesAndRefusesAmbiguousContainers() {
        String log = "{\"address\":\"0x" + "11".repeat(20) + "\",\"topics\":[]}";
        assertFailure("chainfilter: input holds more than one JSON value (the second starts at line 2, column 1); give"
                + " one list of logs, e.g. JSON lines joined with commas inside [ ]" + NL,
                withStdin(log + "\n" + log + "\n", () -> CliRun.of("eth", "bloom")));
        CliRun twice = withStdin("{\"result\":[" + log + "],\"result\":[]}", () -> CliRun.of("eth", "bloom"));
        assertEquals(1, twice.status, twice::toString);
        assertTrue(twice.err.startsWith("chainfilter: stdin is not JSON (line 1, column ") && twice.err.contains(
                "Duplicate field 'result'"), twice::toString);
        assertFailure("chainfilter: input has both \"result\" and \"logs\"; give the logs once" + NL,
                withStdin("{\"result\":[" + log + "],\"logs\":[]}", () -> CliRun.of("eth", "bloom")));
        assertFailure("chainfilter: input has both \"logs\" and \"result\"; give the logs once" + NL,
                withStdin("[{\"logs\":[" + log + "],\"result\":[]}]", () -> CliRun.of("eth", "bloom")));
        String hugeError = "{\"error\":{\"code\":-32000,\"message\":\"boom\",\"data\":[" + "{},".repeat(2_000_000)
                + "{}]}}";
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        assertFailure("chainfilter: input is a JSON-RPC error answer, not logs: error -32000: boom" + NL,
                withStdin(hugeError, () -> CliRun.of("eth", "bloom")));
        // An error given as a bare string is quoted in the node's own words.
        assertFailure("chainfilter: input is a JSON-RPC error answer, not logs: \"rate limited\"" + NL,
                withStdin("{\"error\":\"rate limited\"}", () -> CliRun.of("eth", "bloom")));
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        // The 6 MB of input as bytes and its reading; as a tree it took about 170 MB.
        assertTrue(allocated < 60_000_000, "allocated " + allocated + " bytes");
    }

    @Test
    void bloomRefusesMalformedLogs() {
        assertFailure("chainfilter: log 0 of the input, address '0x" + "11".repeat(19) + "': address is 19 bytes;"
                + " it must be exactly 20 bytes" + NL,
                withStdin("[{\"address\":\"0x" + "11".repeat(19) + "\",\"topics\":[]}]", () -> CliRun.of("eth", "bloom")));
        assertFailure("chainfilter: log 0 of the input, topics[0] '0x" + "22".repeat(31) + "': topic is 31 bytes;"
                + " it must be exactly 32 bytes" + NL,
                withStdin("[{\"address\":\"0x" + "11".repeat(20) + "\",\"topics\":[\"0x" + "22".repeat(31) + "\"]}]",
                        () -> CliRun.of("eth", "bloom")));
        assertFailure("chainfilter: log 0 has no topics list" + NL,
                withStdin("[{\"address\":\"0x" + "11".repeat(20) + "\"}]", () -> CliRun.of("eth", "bloom")));
        // An address of null is none (taking it as the text 'null' passed every test: from a mutation review).
        assertFailure("chainfilter: log 0 has no address string" + NL,
                withStdin("[{\"address\":null,\"topics\":[]}]", () -> CliRun.of("eth", "bloom")));
        assertFailure("chainfilter: input is neither a list of logs nor an object with \"logs\" or \"result\"" + NL,
                withStdin("{\"foo\":1}", () -> CliRun.of("eth", "bloom")));
        assertFailure("chainfilter: input is a JSON-RPC error answer, not logs: error -32005: query returned more than"
                + " 10000 results" + NL, withStdin("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32005,"
                + "\"message\":\"query returned more than 10000 results\"}}", () -> CliRun.of("eth", "bloom")));
        assertFailure("chainfilter: input holds number where a log object was expected" + NL,
                withStdin("[1]", () -> CliRun.of("eth", "bloom")));
        CliRun notJson = withStdin("{", () -> CliRun.of("eth", "bloom"));
        assertEquals(1, notJson.status);
        assertTrue(notJson.err.startsWith("chainfilter: stdin is not JSON (line 1, column 2): "), notJson::toString);
        // Where an unclosed list began is named plainly, without Jackson's "[Source: REDACTED ...]".
        assertFailure("chainfilter: stdin is not JSON (line 1, column 2): Unexpected end-of-input: expected close"
                + " marker for Array (start marker at line 1, column 1)" + NL,
                withStdin("[", () -> CliRun.of("eth", "bloom")));
    }

    /**
     * A bad hex digit names the log (its index among all the logs of the input, receipts flattened) and the field:
     * the bare "not a hex digit: 'z' at position 2" left the user to search a block's worth of logs.
     */
    @Test
    void bloomNamesTheLogAndFieldOfABadHexDigit() {
        String good = "{\"address\":\"0x" + "11".repeat(20) + "\",\"topics\":[\"" + ZERO_TOPIC + "\"]}";
        String badTopic = "{\"address\":\"0x" + "11".repeat(20) + "\",\"topics\":[\"" + ZERO_TOPIC + "\",\"0xzz"
                + "00".repeat(31) + "\"]}";
        String receipts = "[{\"logs\":[" + good + "]},{\"logs\":[" + good + "," + badTopic + "]}]";
        assertFailure("chainfilter: log 2 of the input, topics[1] '0xzz" + "00".repeat(31) + "': not a hex digit: 'z'"
                + " at position 2" + NL, withStdin(receipts, () -> CliRun.of("eth", "bloom")));
        assertFailure("chainfilter: log 0 of the input, topics[0] '0x00': topic is 1 bytes; it must be exactly 32"
                + " bytes" + NL, withStdin("[{\"address\":\"0x" + "11".repeat(20) + "\",\"topics\":[\"0x00\"]}]",
                        () -> CliRun.of("eth", "bloom")));
        assertFailure("chainfilter: log 0 of the input, topics[0] '0xzz': not a hex digit: 'z' at position 2" + NL,
                withStdin("[{\"address\":\"0x" + "11".repeat(20) + "\",\"topics\":[\"0xzz\"]}]",
                        () -> CliRun.of("eth", "bloom")));
        String badAddress = "[{\"address\":\"0x" + "1g".repeat(20) + "\",\"topics\":[]}]";
        assertFailure("chainfilter: log 0 of the input, address '0x" + "1g".repeat(20) + "': not a hex digit: 'g' at"
                + " position 3" + NL, withStdin(badAddress, () -> CliRun.of("eth", "bloom")));
    }

    /**
     * An endless input is refused at the limit, and the message says that is the most eth bloom reads; the JSON is
     * read as it streams in, so an input that is not JSON (/dev/zero) is refused at its first byte.
     */
    @Test
    void bloomNamesItsInputLimit() {
        Path zero = Path.of("/dev/zero");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(zero), "no /dev/zero on this system");
        assertFailure("chainfilter: /dev/zero is not JSON (line 1, column 2): Illegal character ((CTRL-CHAR, code 0)):"
                + " only regular white space (\\r, \\n, \\t) is allowed between tokens" + NL,
                CliRun.of("eth", "bloom", zero.toString()));
        InputStream saved = System.in;
        // Endless white space before any value: valid JSON so far, so only the limit ends it.
        System.setIn(new InputStream() {
            @Override
            public int read() {
                return ' ';
            }

            @Override
            public int read(byte[] b, int off, int len) {
                java.util.Arrays.fill(b, off, off + len, (byte) ' ');
                return len;
            }
        });
        try {
            assertFailure("chainfilter: stdin holds more than 268435456 bytes (256 MiB), the most eth bloom reads" + NL,
                    CliRun.of("eth", "bloom"));
        } finally {
            System.setIn(saved);
        }
    }

    /**
     * A log has at most four topics (LOG0 to LOG4), as the scanner requires: a fifth means the input is not logs.
     * The logs are read as they stream in, one at a time, whatever the size of the input.
     */
    @Test
    void bloomRefusesALogWithMoreThanFourTopics() {
        String five = "[{\"address\":\"0x" + "11".repeat(20) + "\",\"topics\":[" + ("\"" + ZERO_TOPIC + "\",").repeat(4)
                + "\"" + ZERO_TOPIC + "\"]}]";
        assertFailure("chainfilter: log 0 has 5 topics; a log has at most 4 (LOG0 to LOG4)" + NL,
                withStdin(five, () -> CliRun.of("eth", "bloom")));
    }

    /**
     * A log whose topics are not strings is refused naming the first of them: naming the last read past the topics
     * kept and failed as an internal error (IndexOutOfBoundsException) without failing a test (from a mutation review).
     */
    @Test
    void bloomNamesTheFirstTopicThatIsNotAString() {
        assertFailure("chainfilter: log 0 topic 0 is not a string" + NL, withStdin("[{\"address\":\"" + BESU_ADDRESS
                + "\",\"topics\":[1,2]}]", () -> CliRun.of("eth", "bloom")));
    }

    /**
     * A log of four topics (LOG4) puts all four in the bloom: one that dropped the fourth passed every test, the logs
     * tried having at most one (from a mutation review).
     */
    @Test
    void bloomOfALogWithFourTopicsHoldsEachOfThem() {
        List<String> topics = List.of("0x" + "01".repeat(32), "0x" + "02".repeat(32), "0x" + "03".repeat(32),
                "0x" + "04".repeat(32));
        String log = "[{\"address\":\"" + BESU_ADDRESS + "\",\"topics\":[\"" + String.join("\",\"", topics) + "\"]}]";
        CliRun run = withStdin(log, () -> CliRun.of("eth", "bloom"));
        assertEquals(0, run.status, run::toString);
        LogsBloom expected = LogsBloom.builder().addLog(org.chainfilter.common.Hex.decode(BESU_ADDRESS),
                topics.stream().map(org.chainfilter.common.Hex::decode).toList()).build();
        assertEquals(expected.toHex() + NL, run.out);
    }

    /**
     * A wildcard topic position is '*' or 'null' in any case, as JSON-RPC's null: refusing 'NULL' as hex, or 'null'
     * altogether, passed every test (from a mutation review).
     */
    @Test
    void matchTakesNullInAnyCaseAsAWildcard() {
        for (String wildcard : List.of("null", "NULL", " Null ")) {
            CliRun run = CliRun.of("eth", "match", "--bloom", BESU_BLOOM, "--address", BESU_ADDRESS, "--topic", wildcard);
            assertEquals(0, run.status, run::toString);
            assertEquals("could match", run.out.lines().findFirst().orElseThrow());
        }
    }

    @Test
    void matchSaysCouldMatchOrNoMatch() {
        CliRun could = CliRun.of("eth", "match", "--bloom", BESU_BLOOM, "--address", BESU_ADDRESS,
                "--topic", ZERO_TOPIC);
        assertEquals(0, could.status, could::toString);
        assertEquals("could match" + NL + "saturation 0.0029 (6 of 2048 bits set)" + NL, could.out);
        CliRun no = CliRun.of("eth", "match", "--bloom", BESU_BLOOM, "--address", CONTRACT);
        assertEquals(EthMatchCommand.NO_MATCH, no.status, no::toString);
        assertEquals("no match", no.out.lines().findFirst().orElseThrow());
        CliRun alternatives = CliRun.of("eth", "match", "--bloom", BESU_BLOOM, "--address", CONTRACT + ","
                + BESU_ADDRESS, "--topic", "*", "--topic", EMIT + "," + ZERO_TOPIC);
        assertEquals(0, alternatives.status, alternatives::toString);
    }

    /** Four --topic positions, as many as a log has (LOG4), are a filter: only a fifth is refused. */
    @Test
    void matchTakesFourTopicPositions() {
        CliRun four = CliRun.of("eth", "match", "--bloom", BESU_BLOOM, "--address", BESU_ADDRESS, "--topic", "*",
                "--topic", "*", "--topic", "*", "--topic", "*");
        assertEquals(0, four.status, four::toString);
        assertEquals("could match" + NL + "saturation 0.0029 (6 of 2048 bits set)" + NL, four.out);
        CliRun fourthRulesOut = CliRun.of("eth", "match", "--bloom", BESU_BLOOM, "--topic", "*", "--topic", "*",
                "--topic", "*", "--topic", EMIT);
        assertEquals(EthMatchCommand.NO_MATCH, fourthRulesOut.status, fourthRulesOut::toString);
    }

    @Test
    void matchRefusesBadInput() {
        assertFailure("chainfilter: --bloom '0x0000': logsBloom is 2 bytes; it must be exactly 256 bytes" + NL,
                CliRun.of("eth", "match", "--bloom", "0x0000", "--address", CONTRACT));
        assertFailure("chainfilter: --address '0x1234': address is 2 bytes; it must be exactly 20 bytes" + NL,
                CliRun.of("eth", "match", "--bloom", BESU_BLOOM, "--address", "0x1234"));
        assertFailure("chainfilter: 5 --topic positions given; at most 4 are allowed" + NL,
                CliRun.of("eth", "match", "--bloom", BESU_BLOOM, "--topic", "*", "--topic", "*", "--topic", "*",
                        "--topic", "*", "--topic", "*"));
        assertFailure("chainfilter: --topic '' is empty (position 1); give '*' (or 'null', as in JSON-RPC) for any"
                + " topic" + NL, CliRun.of("eth", "match", "--bloom", BESU_BLOOM, "--topic", "*", "--topic", ""));
        // An empty piece of a comma list is refused, as --topic's are: picocli's split dropped it, so '--address ,'
        // gave a filter of any address (found by a review).
        for (String addresses : List.of(",", ",,", CONTRACT + ",")) {
            assertFailure("chainfilter: --address '': address is 0 bytes; it must be exactly 20 bytes" + NL,
                    CliRun.of("eth", "match", "--bloom", BESU_BLOOM, "--address", addresses));
        }
        for (String topics : List.of(",", ",,", ZERO_TOPIC + ",", "," + ZERO_TOPIC)) {
            assertFailure("chainfilter: --topic '': topic is 0 bytes; it must be exactly 32 bytes" + NL,
                    CliRun.of("eth", "match", "--bloom", BESU_BLOOM, "--topic", topics));
        }
        CliRun neither = CliRun.of("eth", "match", "--address", CONTRACT);
        assertEquals(2, neither.status, neither::toString);
        assertEquals("chainfilter: give exactly one of --bloom and --bloom-file" + NL, neither.err);
    }

    /** A bad hex value names the option it came from: the bare "not a hex digit" did not say which. */
    @Test
    void matchNamesTheOptionOfBadHex(@TempDir Path dir) throws IOException {
        assertFailure("chainfilter: --topic '00': topic is 1 bytes; it must be exactly 32 bytes" + NL,
                CliRun.of("eth", "match", "--bloom", BESU_BLOOM, "--topic", "00"));
        assertFailure("chainfilter: --topic 'zz': not a hex digit: 'z' at position 0" + NL,
                CliRun.of("eth", "match", "--bloom", BESU_BLOOM, "--topic", "zz"));
        String badTopic = "0x" + "zz".repeat(32);
        assertFailure("chainfilter: --topic '" + badTopic + "': not a hex digit: 'z' at position 2" + NL,
                CliRun.of("eth", "match", "--bloom", BESU_BLOOM, "--topic", "*", "--topic", ZERO_TOPIC + "," + badTopic));
        assertFailure("chainfilter: --address '0x" + "zz".repeat(20) + "': not a hex digit: 'z' at position 2" + NL,
                CliRun.of("eth", "match", "--bloom", BESU_BLOOM, "--address", "0x" + "zz".repeat(20)));
        String badBloom = "0xzz" + BESU_BLOOM.substring(4);
        assertFailure("chainfilter: --bloom: not a hex digit: 'z' at position 2" + NL,
                CliRun.of("eth", "match", "--bloom", badBloom));
        Path file = Files.writeString(dir.resolve("bloom.txt"), badBloom + "\n");
        assertFailure("chainfilter: --bloom-file " + file + ": not a hex digit: 'z' at line 1, column 3" + NL,
                CliRun.of("eth", "match", "--bloom-file", file.toString()));
    }

    @Test
    void indexBuildAndQueryOnTheExecutionApisChain(@TempDir Path dir) throws IOException {
        // Blocks 1..4 of the test chain: block 2 and 4 hold the contract's logs (their blooms are recomputed from
        // the fixture's logs), blocks 1 and 3 hold none of its logs (empty blooms here).
        LogsBloom block2 = LogsBloom.builder().addLog(org.chainfilter.common.Hex.decode(CONTRACT), List.of(
                org.chainfilter.common.Hex.decode(EMIT),
                org.chainfilter.common.Hex.decode(
                        "0xf4da19d6c17928e683661a52829cf391d3dc26d581152b81ce595a1207944f09"))).build();
        LogsBloom block4 = LogsBloom.builder().addLog(org.chainfilter.common.Hex.decode(CONTRACT), List.of(
                org.chainfilter.common.Hex.decode(EMIT),
                org.chainfilter.common.Hex.decode(
                        "0x95b7276947f6331672b0c63eca28c1d39f25286d5e2793d6a487837ff1475ba0"))).build();
        // The fixture holds blooms, not hashes: block n of this file has hash 0x..n and parent 0x..(n-1).
        List<String> lines = new ArrayList<>();
        lines.add("# number hash parent-hash bloom");
        lines.add("1 " + hash(1) + " " + hash(0) + " " + LogsBloom.EMPTY.toHex());
        lines.add("2 " + hash(2) + " " + hash(1) + " " + block2.toHex());
        lines.add("");
        lines.add("3 " + hash(3) + " " + hash(2) + " " + LogsBloom.EMPTY.toHex());
        lines.add("0x4 " + hash(4).substring(2) + " " + hash(3) + " " + block4.toHex().substring(2));
        Path blooms = Files.write(dir.resolve("blooms.txt"), lines);
        Path index = dir.resolve("index");

        CliRun build = CliRun.of("eth", "index", "build", "--index", index.toString(), "--blooms", blooms.toString(),
                "--first-block", "1");
        assertEquals(0, build.status, build::toString);
        assertEquals("appended 4 blocks; SectionIndex[blocks 1..4, 1 sections]" + NL, build.out);

        CliRun query = CliRun.of("eth", "index", "query", "--index", index.toString(), "--address", CONTRACT);
        assertEquals(0, query.status, query::toString);
        assertEquals("2" + NL + "4" + NL, query.out);
        assertEquals("2 candidate blocks of 4" + NL, query.err);

        CliRun narrow = CliRun.of("eth", "index", "query", "--index", index.toString(), "--from", "3", "--to", "4",
                "--topic", EMIT, "--topic", "0x95b7276947f6331672b0c63eca28c1d39f25286d5e2793d6a487837ff1475ba0");
        assertEquals("4" + NL, narrow.out, narrow::toString);
        assertEquals("1 candidate block of 2" + NL, narrow.err, narrow::toString);

        assertFailure("chainfilter: --to 9 is past the index's last block 4 (it covers blocks 1..4)" + NL,
                CliRun.of("eth", "index", "query", "--index", index.toString(), "--from", "3", "--to", "9"));
        assertFailure("chainfilter: --from 0 is outside the index, which covers blocks 1..4" + NL,
                CliRun.of("eth", "index", "query", "--index", index.toString(), "--from", "0", "--to", "2"));
        assertFailure("chainfilter: --from 5 is outside the index, which covers blocks 1..4" + NL,
                CliRun.of("eth", "index", "query", "--index", index.toString(), "--from", "5"));

        // The same file and one longer: the lines of blocks 1..4, which the index holds, are skipped; block 5's
        // parent ties the rest to the index. A file of another chain fails at its first new block.
        lines.add("5 " + hash(5) + " " + hash(4) + " " + LogsBloom.EMPTY.toHex());
        Path longer = Files.write(dir.resolve("longer.txt"), lines);
        Path copy = Files.createDirectory(dir.resolve("copy"));
        try (var files = Files.list(index)) {
            for (Path f : files.toList()) {
                Files.copy(f, copy.resolve(f.getFileName()));
            }
        }
        CliRun again = CliRun.of("eth", "index", "build", "--index", index.toString(), "--blooms", blooms.toString());
        assertEquals(0, again.status, again::toString);
        assertEquals("appended 0 blocks; SectionIndex[blocks 1..4, 1 sections]" + NL, again.out);
        assertEquals("skipped 4 lines of blocks the index already holds (it resumed at block 5)" + NL, again.err);
        CliRun resumed = CliRun.of("eth", "index", "build", "--index", copy.toString(), "--blooms", longer.toString());
        assertEquals(0, resumed.status, resumed::toString);
        assertEquals("appended 1 blocks; SectionIndex[blocks 1..5, 1 sections]" + NL, resumed.out);
        assertFailure("chainfilter: the index in " + copy + " starts at block 1, not 0" + NL,
                CliRun.of("eth", "index", "build", "--index", copy.toString(), "--blooms", longer.toString(),
                        "--first-block", "0"));
        Path otherChain = Files.writeString(dir.resolve("other.txt"), "1 " + hash(11) + " " + hash(0) + " "
                + LogsBloom.EMPTY.toHex() + "\n" + "6 " + hash(6) + " " + hash(55) + " " + LogsBloom.EMPTY.toHex()
                + "\n");
        assertFailure("chainfilter: line 2: block 6 has parent hash " + hash(55) + " but block 5 was indexed with hash "
                + hash(5) + ": the chain was reorganised (or the headers come from two forks); an index is never"
                + " rewritten, so rebuild it from blocks with more confirmations" + NL,
                CliRun.of("eth", "index", "build", "--index", copy.toString(), "--blooms", otherChain.toString()));

        Path low = Files.writeString(dir.resolve("low.txt"), "0 " + hash(0) + " " + hash(99) + " "
                + LogsBloom.EMPTY.toHex() + "\n");
        assertFailure("chainfilter: line 1: block 0 is below the index's first block 1; the index expects block 6 next" + NL,
                CliRun.of("eth", "index", "build", "--index", copy.toString(), "--blooms", low.toString()));
        Path otherLast = Files.writeString(dir.resolve("other-last.txt"), "4 " + hash(4) + " " + hash(3) + " "
                + block4.toHex() + "\n5 " + hash(50) + " " + hash(4) + " " + LogsBloom.EMPTY.toHex() + "\n");
        assertFailure("chainfilter: line 2: block 5 has hash " + hash(50) + " but the index holds it with hash "
                + hash(5) + ": the file is of another chain" + NL,
                CliRun.of("eth", "index", "build", "--index", copy.toString(), "--blooms", otherLast.toString()));
        // Every held line is checked, not only the last (found by a review): its parent is the line before, its
        // bloom the one the index holds, and the held lines are consecutive.
        Path brokenChain = Files.writeString(dir.resolve("broken-chain.txt"), "3 " + hash(33) + " " + hash(2) + " "
                + LogsBloom.EMPTY.toHex() + "\n4 " + hash(4) + " " + hash(3) + " " + block4.toHex() + "\n");
        assertFailure("chainfilter: line 2: block 4 has parent hash " + hash(3) + " but the line before gives block 3"
                + " the hash " + hash(33) + ": the lines are not of one chain" + NL,
                CliRun.of("eth", "index", "build", "--index", copy.toString(), "--blooms", brokenChain.toString()));
        Path otherBloom = Files.writeString(dir.resolve("other-bloom.txt"), "2 " + hash(2) + " " + hash(1) + " "
                + LogsBloom.EMPTY.toHex() + "\n");
        assertFailure("chainfilter: line 1: block 2 has a bloom other than the one the index holds for it: the file is"
                + " of another chain, or was changed (5 blocks indexed from block 1)" + NL,
                CliRun.of("eth", "index", "build", "--index", copy.toString(), "--blooms", otherBloom.toString()));
        Path gap = Files.writeString(dir.resolve("gap.txt"), "1 " + hash(1) + " " + hash(0) + " "
                + LogsBloom.EMPTY.toHex() + "\n3 " + hash(3) + " " + hash(2) + " " + LogsBloom.EMPTY.toHex() + "\n");
        assertFailure("chainfilter: line 2: block 3 follows block 1; the lines must be of consecutive blocks" + NL,
                CliRun.of("eth", "index", "build", "--index", copy.toString(), "--blooms", gap.toString()));
        Path junk = Files.writeString(dir.resolve("junk.txt"), "2 zz zz zz\n");
        assertFailure("chainfilter: line 1, HASH 'zz': not a hex digit: 'z' at position 0" + NL,
                CliRun.of("eth", "index", "build", "--index", copy.toString(), "--blooms", junk.toString()));
        Path fresh = dir.resolve("fresh");
        assertFailure("chainfilter: line 2: block 1 is below the index's first block 3; the index expects block 3 next" + NL,
                CliRun.of("eth", "index", "build", "--index", fresh.toString(), "--blooms", blooms.toString(),
                        "--first-block", "3"));
        assertFalse(Files.exists(fresh), "a new index is not resumed: nothing skipped, nothing left behind");

        for (String option : List.of("--batch", "--retries", "--rpc-timeout", "--rpc-max-response-bytes")) {
            CliRun ignored = CliRun.of("eth", "index", "build", "--index", index.toString(), "--blooms",
                    blooms.toString(), option, "5");
            assertEquals(2, ignored.status, ignored::toString);
            assertEquals("chainfilter: " + option + " goes with --rpc; --blooms reads no node" + NL, ignored.err);
        }

        Path more = Files.writeString(dir.resolve("more.txt"),
                "7 " + hash(7) + " " + hash(6) + " " + LogsBloom.EMPTY.toHex() + "\n");
        assertFailure("chainfilter: line 1: block 7 cannot follow block 4 (blocks 5..6 are missing); the index expects block 5"
                + " next" + NL,
                CliRun.of("eth", "index", "build", "--index", index.toString(), "--blooms", more.toString(),
                        "--first-block", "1"));
        Path bad = Files.writeString(dir.resolve("bad.txt"), "5 " + hash(5) + " " + hash(4) + " 0x00\n");
        assertFailure("chainfilter: line 1, BLOOM '0x00': logsBloom is 1 bytes; it must be exactly 256 bytes" + NL,
                CliRun.of("eth", "index", "build", "--index", index.toString(), "--blooms", bad.toString(),
                        "--first-block", "1"));
        Path fork = Files.writeString(dir.resolve("fork.txt"),
                "5 " + hash(5) + " " + hash(44) + " " + LogsBloom.EMPTY.toHex() + "\n");
        assertFailure("chainfilter: line 1: block 5 has parent hash " + hash(44) + " but block 4 was indexed with hash "
                + hash(4) + ": the chain was reorganised (or the headers come from two forks); an index is never"
                + " rewritten, so rebuild it from blocks with more confirmations" + NL,
                CliRun.of("eth", "index", "build", "--index", index.toString(), "--blooms", fork.toString(),
                        "--first-block", "1"));
        Path shortHash = Files.writeString(dir.resolve("short.txt"),
                "5 0x1234 " + hash(4) + " " + LogsBloom.EMPTY.toHex() + "\n");
        assertFailure("chainfilter: line 1, HASH '0x1234': hash is 2 bytes; it must be exactly 32 bytes" + NL,
                CliRun.of("eth", "index", "build", "--index", index.toString(), "--blooms", shortHash.toString(),
                        "--first-block", "1"));
        String badParent = "0x" + "zz".repeat(32);
        Path badDigit = Files.writeString(dir.resolve("digit.txt"),
                "5 " + hash(5) + " " + badParent + " " + LogsBloom.EMPTY.toHex() + "\n");
        assertFailure("chainfilter: line 1, PARENTHASH '" + badParent + "': not a hex digit: 'z' at position 2" + NL,
                CliRun.of("eth", "index", "build", "--index", index.toString(), "--blooms", badDigit.toString(),
                        "--first-block", "1"));
        Path oldFormat = Files.writeString(dir.resolve("old.txt"), "5 " + LogsBloom.EMPTY.toHex() + "\n");
        assertFailure("chainfilter: line 1 has 2 fields; expected 'NUMBER HASH PARENTHASH BLOOM'" + NL,
                CliRun.of("eth", "index", "build", "--index", index.toString(), "--blooms", oldFormat.toString(),
                        "--first-block", "1"));
        Path noIndex = Files.createDirectory(dir.resolve("none"));
        assertFailure("chainfilter: " + noIndex + " holds no section index (index.meta is missing)" + NL,
                CliRun.of("eth", "index", "query", "--index", noIndex.toString()));
    }

    /** The hash of block n of the hand-made chain: 0x then 64 hex digits holding n. */
    private static String hash(long n) {
        return String.format("0x%064x", n);
    }

    private static void assertFailure(String expectedErr, CliRun run) {
        assertEquals(1, run.status, run::toString);
        assertEquals(expectedErr, run.err);
    }

    private static CliRun withStdin(String input, java.util.function.Supplier<CliRun> action) {
        InputStream saved = System.in;
        System.setIn(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)));
        try {
            return action.get();
        } finally {
            System.setIn(saved);
        }
    }

    /**
     * A bloom from --bloom-file that is not 256 bytes is named by the option and the file, as one given inline is by
     * --bloom. Naming --bloom for either passed every test, which read only well-formed blooms from files or refused
     * a file's bad digit before its length was checked (from a mutation review).
     */
    @Test
    void matchNamesTheFileOfAShortBloom(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("bloom.txt"), "0x0000\n");
        assertFailure("chainfilter: --bloom-file " + file + " '0000': logsBloom is 2 bytes; it must be exactly 256"
                + " bytes" + NL, CliRun.of("eth", "match", "--bloom-file", file.toString(), "--address", CONTRACT));
    }

    /**
     * A piped JSON-RPC error is quoted whole up to 300 characters and cut beyond them, with its length said. Cutting
     * an error of exactly 300 characters passed every test, whose errors were all short (from a mutation review).
     */
    @Test
    void bloomQuotesAJsonRpcErrorOfUpTo300Characters() {
        String said = "error -32000: "; // 14 characters before the message
        String exact = "m".repeat(300 - said.length());
        assertFailure("chainfilter: input is a JSON-RPC error answer, not logs: " + said + exact + NL,
                withStdin("{\"error\":{\"code\":-32000,\"message\":\"" + exact + "\"}}", () -> CliRun.of("eth", "bloom")));
        String longer = exact + "n";
        assertFailure("chainfilter: input is a JSON-RPC error answer, not logs: " + said + exact + "… (301 characters"
                + " in all)" + NL, withStdin("{\"error\":{\"code\":-32000,\"message\":\"" + longer + "\"}}",
                        () -> CliRun.of("eth", "bloom")));
    }
}
