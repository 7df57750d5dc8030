package org.chainfilter.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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
        IllegalArgumentException shortAddress = assertThrows(IllegalArgumentException.class, () -> ContractEventWatcher
                .watch(new String[] {"--rpc", chain.node().url(), "--address", "0x1234"},
                        utf8(new ByteArrayOutputStream()), utf8(new ByteArrayOutputStream())));
        assertEquals("--address is 2 bytes; it must be exactly 20 bytes", shortAddress.getMessage());
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
                new String[] {"--from", "-5"}, "--from is -5; it must be 0 to 9223372036854775807",
                new String[] {"--max-polls", "0"}, "--max-polls is 0; it must be 1 to 9223372036854775807",
                new String[] {"--poll-seconds", "NaN"}, "--poll-seconds is NaN; it must be a finite number, at least 0",
                new String[] {"--poll-seconds", "soon"}, "--poll-seconds 'soon' is not a number");
        refusals.forEach((option, message) -> {
            String[] args = {"--rpc", url, "--address", contract, option[0], option[1]};
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ContractEventWatcher
                    .watch(args, utf8(new ByteArrayOutputStream()), utf8(new ByteArrayOutputStream())));
            assertEquals(message, e.getMessage());
        });
    }

    /** --help prints the usage with status 0; it was refused as 'got '--help' without a value'. */
    @Test
    void helpPrintsTheUsage() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(0, ContractEventWatcher.run(new String[] {"--help"}, utf8(out), utf8(err)));
        assertEquals(ContractEventWatcher.USAGE + System.lineSeparator(), out.toString(StandardCharsets.UTF_8));
        assertEquals("", err.toString(StandardCharsets.UTF_8));
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
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int status = ContractEventWatcher.run(new String[] {"--rpc", url, "--address",
                "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"}, utf8(new ByteArrayOutputStream()), utf8(err));
            assertEquals(1, status);
            String message = err.toString(StandardCharsets.UTF_8);
            assertEquals("ContractEventWatcher: cannot read the head of " + url + ": the JSON-RPC answer from " + url
                    + "/ exceeds the response size limit of 67108864 bytes", message.strip());
        } finally {
            server.stop(0);
        }
    }

    private static PrintStream utf8(ByteArrayOutputStream bytes) {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }
}
