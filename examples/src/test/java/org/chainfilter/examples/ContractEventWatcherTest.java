package org.chainfilter.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.chainfilter.ethbloom.scan.node.TestChain;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The watcher against a real node (anvil with several hundred blocks of logs, ethbloom's test fixture). */
class ContractEventWatcherTest {
    private static final String TRANSFER = "Transfer(address,address,uint256)";
    private static TestChain chain;

    @BeforeAll
    static void startNode() {
        chain = TestChain.build(13);
    }

    @AfterAll
    static void stopNode() {
        chain.close();
    }

    @Test
    void printsEveryTransferOfTheContractOnceAcrossPollsAndRestarts(@TempDir Path dir) {
        String contract = chain.eventSources().get(1);
        int expected = chain.node().rpc("eth_getLogs", Map.of("fromBlock", "0x0", "toBlock", "latest", "address",
                contract, "topics", java.util.List.of(TestChain.topic0(TRANSFER)))).size();
        assertTrue(expected > 20, "Transfer logs of the contract: " + expected);
        String checkpoint = dir.resolve("watch.checkpoint").toString();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] args = {"--rpc", chain.node().url(), "--address", contract, "--event", TRANSFER, "--from", "0",
            "--confirmations", "0", "--poll-seconds", "0.05", "--max-polls", "3", "--checkpoint", checkpoint};

        long printed = ContractEventWatcher.watch(args, utf8(out), utf8(err));
        long printedAfterRestart = ContractEventWatcher.watch(args, utf8(out), utf8(err));

        assertEquals(expected, printed);
        assertEquals(0, printedAfterRestart, "the checkpoint holds: nothing is printed twice");
        String lines = out.toString(StandardCharsets.UTF_8);
        assertEquals(expected, lines.lines().filter(l -> l.contains(": Transfer indexed [0x")).count(), lines);
        String log = err.toString(StandardCharsets.UTF_8);
        assertTrue(log.startsWith("watching " + contract + " " + TRANSFER + " from block 0, 0 confirmations"), log);
        assertTrue(log.contains("blocks 0.." + chain.head() + ": " + expected + " events. Bloom skipping saved "), log);
    }

    /**
     * A restart without {@code --from} resumes at the checkpoint. It started at the confirmed head, past the blocks
     * that came while the watcher was stopped, and their events were never printed (found by a review). The head
     * moving on while the watcher is stopped is played by fewer confirmations on the restart, so the chain this class
     * shares stays as it was built.
     */
    @Test
    void aRestartWithoutFromResumesAtTheCheckpoint(@TempDir Path dir) {
        String contract = chain.eventSources().get(0);
        long stop = chain.head() - 100;
        int expected = transfers(contract, 0, chain.head());
        int afterStop = transfers(contract, stop + 1, chain.head());
        assertTrue(afterStop > 0 && afterStop < expected, afterStop + " of " + expected);
        String checkpoint = dir.resolve("watch.checkpoint").toString();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] first = {"--rpc", chain.node().url(), "--address", contract, "--event", TRANSFER, "--from", "0",
            "--confirmations", "100", "--max-polls", "1", "--checkpoint", checkpoint};
        String[] restart = {"--rpc", chain.node().url(), "--address", contract, "--event", TRANSFER,
            "--confirmations", "0", "--max-polls", "1", "--checkpoint", checkpoint};

        long printed = ContractEventWatcher.watch(first, utf8(new ByteArrayOutputStream()), utf8(err));
        long printedAfterRestart = ContractEventWatcher.watch(restart, utf8(new ByteArrayOutputStream()), utf8(err));

        assertEquals(expected - afterStop, printed);
        assertEquals(afterStop, printedAfterRestart);
        String log = err.toString(StandardCharsets.UTF_8);
        assertTrue(log.contains("watching " + contract + " " + TRANSFER + " from block " + (stop + 1)
                + ", 0 confirmations"), log);
    }

    /**
     * Without {@code --from} or a checkpoint the watch starts after the confirmed head, so only new events are printed;
     * with more confirmations than blocks, at block 0. Starting at the confirmed head itself, or at a negative block,
     * passed every test: each test gave --from or a checkpoint (from a mutation review).
     */
    @Test
    void withoutFromOrACheckpointOnlyNewBlocksAreWatched() {
        String contract = chain.eventSources().get(1);
        for (int confirmations : new int[] {3, 100_000}) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            long printed = ContractEventWatcher.watch(new String[] {"--rpc", chain.node().url(), "--address", contract,
                "--confirmations", Integer.toString(confirmations), "--max-polls", "1"},
                    utf8(new ByteArrayOutputStream()), utf8(err));
            assertEquals(0, printed);
            assertEquals("watching " + contract + " from block " + Math.max(0, chain.head() - confirmations + 1) + ", "
                    + confirmations + " confirmations" + System.lineSeparator(), err.toString(StandardCharsets.UTF_8));
        }
    }

    /**
     * Without a checkpoint each poll after the first scans only blocks not scanned yet, and a poll with none prints no
     * line. Polls that scanned the last block again (printing its events twice), or printed a line for an empty
     * pass, passed every test: the polling test had a checkpoint (from a mutation review). The safe head is put at the
     * contract's last Transfer, so a block scanned again shows in the count.
     */
    @Test
    void pollsWithoutACheckpointScanEachBlockOnce() {
        String contract = chain.eventSources().get(1);
        JsonNode logs = chain.node().rpc("eth_getLogs", Map.of("fromBlock", "0x0", "toBlock", "latest", "address",
                contract, "topics", List.of(TestChain.topic0(TRANSFER))));
        long lastTransfer = Long.decode(logs.get(logs.size() - 1).get("blockNumber").asText());
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        long printed = ContractEventWatcher.watch(new String[] {"--rpc", chain.node().url(), "--address", contract,
            "--event", TRANSFER, "--from", "0", "--confirmations", Long.toString(chain.head() - lastTransfer),
            "--poll-seconds", "0", "--max-polls", "3"}, utf8(new ByteArrayOutputStream()), utf8(err));
        assertEquals(logs.size(), printed);
        String log = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, log.lines().filter(l -> l.startsWith("blocks ")).count(), log);
        assertTrue(log.contains("blocks 0.." + lastTransfer + ": " + logs.size() + " events. "), log);
    }

    /** The Transfer logs of {@code contract} in blocks {@code from..to}, by the node's own eth_getLogs. */
    private static int transfers(String contract, long from, long to) {
        return chain.node().rpc("eth_getLogs", Map.of("fromBlock", "0x" + Long.toHexString(from), "toBlock",
                "0x" + Long.toHexString(to), "address", contract, "topics", List.of(TestChain.topic0(TRANSFER))))
                .size();
    }

    @Test
    void refusesMissingAndMalformedOptions() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ContractEventWatcher.watch(
                new String[] {"--rpc", chain.node().url()}, utf8(new ByteArrayOutputStream()),
                utf8(new ByteArrayOutputStream())));
        assertEquals("--address is required (--help alone prints the usage)", e.getMessage());
        // A misspelt option was ignored, so '--confrmations 0' watched with the default 12 without a word.
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> ContractEventWatcher
                .watch(new String[] {"--rpc", chain.node().url(), "--confrmations", "0"},
                        utf8(new ByteArrayOutputStream()), utf8(new ByteArrayOutputStream())));
        assertEquals("unknown option '--confrmations'; the options are --rpc, --address, --event, --from,"
                + " --confirmations, --checkpoint, --poll-seconds, --max-polls (--help alone prints the usage)",
                unknown.getMessage());
        IllegalArgumentException dangling = assertThrows(IllegalArgumentException.class, () -> ContractEventWatcher
                .watch(new String[] {"--rpc"}, utf8(new ByteArrayOutputStream()), utf8(new ByteArrayOutputStream())));
        assertEquals("expected '--option value' pairs; got '--rpc' without a value", dangling.getMessage());
        IllegalArgumentException notAnOption = assertThrows(IllegalArgumentException.class, () -> ContractEventWatcher
                .watch(new String[] {"--rpc", chain.node().url(), "address", "0x1234"},
                        utf8(new ByteArrayOutputStream()), utf8(new ByteArrayOutputStream())));
        assertEquals("expected '--option value' pairs; got 'address'", notAnOption.getMessage());
        IllegalArgumentException shortAddress = assertThrows(IllegalArgumentException.class, () -> ContractEventWatcher
                .watch(new String[] {"--rpc", chain.node().url(), "--address", "0x1234"},
                        utf8(new ByteArrayOutputStream()), utf8(new ByteArrayOutputStream())));
        assertEquals("--address is 2 bytes; it must be exactly 20 bytes", shortAddress.getMessage());
        // These three named neither the option nor the rule: a digit's position alone, OkHttp's message after the
        // retries of the first call, and the last of two values taken without a word.
        assertEquals("--address: not a hex digit: 'Z' at position 2", refusal("--rpc", chain.node().url(),
                "--address", "0xZZ" + "00".repeat(19)));
        assertEquals("--rpc: JSON-RPC URL '127.0.0.1:8545' is not an http:// or https:// URL with a host (and a port"
                + " up to 65535, if any), e.g. http://127.0.0.1:8545", refusal("--rpc", "127.0.0.1:8545",
                "--address", "00".repeat(20), "--from", "0"));
        assertEquals("--from is given twice", refusal("--rpc", chain.node().url(), "--address", "00".repeat(20),
                "--max-polls", "1", "--from", "0", "--from", "5"));
    }

    private static String refusal(String... args) {
        return assertThrows(IllegalArgumentException.class, () -> ContractEventWatcher.watch(args,
                utf8(new ByteArrayOutputStream()), utf8(new ByteArrayOutputStream()))).getMessage();
    }

    /**
     * An event name without its parameter list would watch a topic no log carries (and the line printer cut the name at
     * a missing '('); numbers are named with their option, not "For input string".
     */
    @Test
    void refusesAMalformedEventAndNumbersByName() {
        String url = chain.node().url();
        String contract = chain.eventSources().get(1);
        Map<String[], String> refusals = Map.of(
                new String[] {"--event", "Transfer"},
                "--event 'Transfer' is not an event signature such as Transfer(address,address,uint256)",
                new String[] {"--confirmations", "twelve"}, "--confirmations 'twelve' is not a whole number",
                new String[] {"--confirmations", "-1"}, "--confirmations is -1; it must be 0 to 2147483647",
                new String[] {"--confirmations", "2147483648"},
                "--confirmations is 2147483648; it must be 0 to 2147483647",
                new String[] {"--from", "-5"}, "--from is -5; it must be 0 to 9223372036854775807",
                new String[] {"--max-polls", "0"}, "--max-polls is 0; it must be 1 to 9223372036854775807",
                new String[] {"--poll-seconds", "NaN"}, "--poll-seconds is NaN; it must be a finite number, at least 0",
                new String[] {"--poll-seconds", "Infinity"},
                "--poll-seconds is Infinity; it must be a finite number, at least 0",
                new String[] {"--poll-seconds", "-1"}, "--poll-seconds is -1; it must be a finite number, at least 0",
                new String[] {"--poll-seconds", "soon"}, "--poll-seconds 'soon' is not a number");
        refusals.forEach((option, message) -> {
            // One poll, so an option wrongly taken ends the watch (an infinite pause would hold it) and fails the test.
            String polls = option[0].equals("--max-polls") ? option[1] : "1";
            String[] args = option[0].equals("--max-polls")
                    ? new String[] {"--rpc", url, "--address", contract, "--max-polls", polls}
                    : new String[] {"--rpc", url, "--address", contract, "--max-polls", polls, option[0], option[1]};
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ContractEventWatcher
                    .watch(args, utf8(new ByteArrayOutputStream()), utf8(new ByteArrayOutputStream())));
            assertEquals(message, e.getMessage());
        });
    }

    /**
     * Topic 0 is the hash of the canonical signature: the Solidity declaration pasted as it is written (names,
     * {@code indexed}, spaces) or an alias such as {@code uint} gave a topic no log carries, and the watch printed
     * nothing, forever (found by a review). Tuples and arrays of canonical types are accepted.
     */
    @Test
    void anEventSignatureMustBeCanonical() {
        Map<String, String> refusals = Map.of(
                "Transfer(address indexed from, address indexed to, uint256 value)", "holds white space",
                "Transfer(address, address, uint256)", "holds white space",
                "Transfer(address,address,uint)", "'uint' is not a canonical type",
                "Approval(address,address,byte)", "'byte' is not a canonical type",
                "Deposit(address,uint256 amount)", "holds white space");
        refusals.forEach((event, problem) -> {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ContractEventWatcher.checkEventSignature(event));
            assertTrue(e.getMessage().startsWith("--event '" + event + "'") && e.getMessage().contains(problem),
                    e.getMessage());
        });
        for (String event : List.of("Transfer(address,address,uint256)", "Ping()", "Swap(address,(uint256,bytes32)[],"
                + "int24)", "Batch(uint8[3][],bytes,string,bool,fixed128x18)", "Callback(function,ufixed8x1)")) {
            ContractEventWatcher.checkEventSignature(event);
        }
    }

    /**
     * A node that answers with an error is one line and status 1: an HTTP error status (a rate limit) and a JSON-RPC
     * error object escaped as web3j's exceptions with a stack trace, the second without the node's words (found by a
     * review).
     */
    @Test
    void aNodeAnsweringAnErrorIsOneLine() throws Exception {
        String rpcError = "{\"jsonrpc\":\"2.0\",\"id\":0,\"error\":{\"code\":-32005,\"message\":\"daily request"
                + " count exceeded\"}}";
        // The last: 65 zeros after 0x, one digit past any quantity, refused before BigInteger reads it (taking it for
        // block 0 passed every test: from a mutation review).
        List<Map.Entry<Integer, String>> answers = List.of(Map.entry(429, rpcError), Map.entry(200, rpcError),
                Map.entry(200, "{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":\"soon\"}"),
                Map.entry(200, "{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":\"0x" + "0".repeat(65) + "\"}"));
        for (Map.Entry<Integer, String> answer : answers) {
            com.sun.net.httpserver.HttpServer server =
                    com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/", exchange -> {
                exchange.getRequestBody().readAllBytes();
                byte[] body = answer.getValue().getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                exchange.sendResponseHeaders(answer.getKey(), body.length);
                try (var out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
            server.start();
            try {
                String url = "http://127.0.0.1:" + server.getAddress().getPort();
                String message = runFailingAgainst(url);
                assertEquals(1, message.lines().count(), message);
                assertTrue(message.startsWith("ContractEventWatcher: cannot read the head of " + url + ": "), message);
                String expected = answer.getValue().contains("soon") ? "the node answered 'soon', not a block number"
                        : answer.getValue().contains("0x0") ? "the node answered 67 characters; a quantity has at most"
                        + " 66 (0x and 64 hex digits)"
                        : "the node answered error -32005: daily request count exceeded";
                assertTrue(answer.getKey() != 200 || message.contains(expected), message);
            } finally {
                server.stop(0);
            }
        }
    }

    /**
     * --help (or -h) prints the usage with status 0; it was refused as 'got '--help' without a value'. -h not taken
     * passed every test (from a mutation review).
     */
    @Test
    void helpPrintsTheUsage() {
        for (String help : List.of("--help", "-h")) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            assertEquals(0, ContractEventWatcher.run(new String[] {help}, utf8(out), utf8(err)));
            assertEquals(ContractEventWatcher.USAGE + System.lineSeparator(), out.toString(StandardCharsets.UTF_8));
            assertEquals("", err.toString(StandardCharsets.UTF_8));
        }
        for (String option : ContractEventWatcher.OPTIONS) {
            assertTrue(ContractEventWatcher.USAGE.contains(option + " "), option);
        }
    }

    /** A node that cannot be reached is one line and status 1; its IOException escaped main as a stack trace. */
    @Test
    void anUnreachableNodeIsOneLine() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = ContractEventWatcher.run(new String[] {"--rpc", "http://127.0.0.1:1", "--address",
            "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"}, utf8(out), utf8(err));
        assertEquals(1, status);
        assertEquals("", out.toString(StandardCharsets.UTF_8));
        String message = err.toString(StandardCharsets.UTF_8);
        assertTrue(message.startsWith("ContractEventWatcher: cannot read the head of http://127.0.0.1:1: "), message);
        assertEquals(1, message.lines().count(), message);
    }

    /**
     * A node whose answer never ends (here 80 MiB of JSON white space) is cut off at the 64 MiB response limit and
     * reported as one line; web3j's own HttpService read the whole answer into one array, whatever its length.
     */
    @Test
    void aRunawayAnswerIsCutOffAtTheResponseLimit() throws Exception {
        com.sun.net.httpserver.HttpServer server =
                com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, 0);
            byte[] spaces = new byte[1 << 20];
            java.util.Arrays.fill(spaces, (byte) ' ');
            try (var body = exchange.getResponseBody()) {
                for (int i = 0; i < 80; i++) {
                    body.write(spaces);
                }
            } catch (java.io.IOException cutOff) {
                // the client stopped reading at its limit
            }
        });
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort();
            String message = runFailingAgainst(url);
            assertEquals("ContractEventWatcher: cannot read the head of " + url + ": the JSON-RPC answer from " + url
                    + "/ exceeds the response size limit of 67108864 bytes", message.strip());
        } finally {
            server.stop(0);
        }
    }

    /** Runs the watcher on the node at {@code url}, expecting status 1; returns what it printed on err. */
    private static String runFailingAgainst(String url) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = ContractEventWatcher.run(new String[] {"--rpc", url, "--address",
            "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", "--max-polls", "1"}, utf8(new ByteArrayOutputStream()),
            utf8(err));
        String message = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, status, message);
        return message;
    }

    /**
     * One line per log: the event's name and its indexed arguments, topic 0 left out, when topic 0 is the event's (its
     * hex digits in either case); else topic 0 and every topic; "anonymous" for a log without topics. Only the count of
     * lines holding ': Transfer indexed [0x' was checked, so listing topic 0 among the arguments passed every test
     * (from a mutation review).
     */
    @Test
    void eachLogIsOneLineNamingTheEventAndItsIndexedArguments() {
        String topic0 = TestChain.topic0(TRANSFER);
        String from = "0x" + "00".repeat(12) + "11".repeat(20);
        String to = "0x" + "00".repeat(12) + "22".repeat(20);
        assertEquals("block 7 log 2 tx 0xab: Transfer indexed [" + from + ", " + to + "] data 0x01",
                ContractEventWatcher.describe(log(List.of("0x" + topic0.substring(2).toUpperCase(java.util.Locale.ROOT),
                        from, to)), topic0, TRANSFER));
        assertEquals("block 7 log 2 tx 0xab: topic0 " + to + " indexed [" + to + ", " + from + "] data 0x01",
                ContractEventWatcher.describe(log(List.of(to, from)), topic0, TRANSFER));
        assertEquals("block 7 log 2 tx 0xab: topic0 " + topic0 + " indexed [" + topic0 + "] data 0x01",
                ContractEventWatcher.describe(log(List.of(topic0)), null, null));
        assertEquals("block 7 log 2 tx 0xab: anonymous indexed [] data 0x01",
                ContractEventWatcher.describe(log(List.of()), topic0, TRANSFER));
    }

    /** A log of block 7, index 2, transaction 0xab, data 0x01, with {@code topics}. */
    private static org.web3j.protocol.core.methods.response.Log log(List<String> topics) {
        org.web3j.protocol.core.methods.response.Log log = new org.web3j.protocol.core.methods.response.Log();
        log.setBlockNumber("0x7");
        log.setLogIndex("0x2");
        log.setTransactionHash("0xab");
        log.setTopics(topics);
        log.setData("0x01");
        return log;
    }

    private static PrintStream utf8(ByteArrayOutputStream bytes) {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }
}
