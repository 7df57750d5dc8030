package org.chainfilter.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.chainfilter.ethbloom.scan.FileCheckpointStore;
import org.chainfilter.ethbloom.scan.fault.FaultProxy;
import org.chainfilter.ethbloom.scan.node.LogText;
import org.chainfilter.ethbloom.scan.node.TestChain;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code chainfilter eth scan} against a real node: anvil with several hundred blocks of logs (ethbloom's test
 * fixture). Its stdout must equal anvil's own {@code eth_getLogs} for the same filter and range.
 */
class EthScanCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static TestChain chain;

    @BeforeAll
    static void startNode() {
        chain = TestChain.build(9);
    }

    @AfterAll
    static void stopNode() {
        chain.close();
    }

    private static String transfer() {
        return TestChain.topic0("Transfer(address,address,uint256)");
    }

    private static List<String> anvilLogs(List<String> addresses, String topic0, long from, long to) {
        return anvilLogs(chain, addresses, topic0, from, to);
    }

    /** Anvil's own {@code eth_getLogs} answer, as {@link LogText} lines (also used by {@link EthScanFollowTest}). */
    static List<String> anvilLogs(TestChain chain, List<String> addresses, String topic0, long from, long to) {
        List<String> logs = new ArrayList<>();
        chain.node().rpc("eth_getLogs", Map.of("fromBlock", "0x" + Long.toHexString(from), "toBlock",
                "0x" + Long.toHexString(to), "address", addresses, "topics", List.of(topic0)))
                .forEach(log -> logs.add(LogText.of(log)));
        return logs;
    }

    private static List<String> printed(CliRun run) {
        return printedLogs(run.out);
    }

    /** The JSON lines an {@code eth scan} printed, as {@link LogText} lines. */
    static List<String> printedLogs(String stdout) {
        List<String> logs = new ArrayList<>();
        for (String line : stdout.split("\\R")) {
            if (!line.isBlank()) {
                try {
                    logs.add(LogText.of(JSON.readTree(line)));
                } catch (IOException e) {
                    throw new UncheckedIOException("not a JSON line: " + line, e);
                }
            }
        }
        return logs;
    }

    @Test
    void printsTheMatchingLogsAsJsonLinesAndTheSummaryOnStderr() {
        List<String> sources = chain.eventSources();
        CliRun run = CliRun.of("eth", "scan", "--rpc", chain.node().url(), "--from", "0", "--to",
                Long.toString(chain.head()), "--address", sources.get(0) + "," + sources.get(1), "--topic", transfer(),
                "--confirmations", "0", "--batch", "64");
        assertEquals(0, run.status, run::toString);
        List<String> expected = anvilLogs(sources.subList(0, 2), transfer(), 0, chain.head());
        assertTrue(expected.size() > 50, "Transfer logs: " + expected.size());
        assertEquals(expected, printed(run));
        assertTrue(run.err.contains("scanned 0..63: "), run.err);
        assertTrue(run.err.contains("blocks 0.." + chain.head() + " scanned (" + (chain.head() + 1) + " blocks)"),
                run.err);
        assertTrue(run.err.contains("logs emitted " + expected.size()), run.err);
        assertTrue(run.err.contains("Bloom skipping saved "), run.err);
    }

    /** Ranges only, the default, and by hash only: the same logs, anvil's own. */
    @Test
    void byHashMaxRunChangesHowLogsAreAskedForNotWhichArePrinted() {
        List<String> sources = chain.eventSources();
        List<String> expected = anvilLogs(sources.subList(1, 3), transfer(), 0, chain.head());
        assertTrue(expected.size() > 50, "Transfer logs: " + expected.size());
        for (String run : new String[] {"0", "16", "1000"}) {
            CliRun scan = CliRun.of("eth", "scan", "--rpc", chain.node().url(), "--from", "0", "--address",
                    sources.get(1) + "," + sources.get(2), "--topic", transfer(), "--confirmations", "0",
                    "--by-hash-max-run", run, "--quiet");
            assertEquals(0, scan.status, scan::toString);
            assertEquals(expected, printed(scan), "--by-hash-max-run " + run);
        }
    }

    @Test
    void aCheckpointMakesTheSecondRunResumeAfterTheFirst(@TempDir Path dir) {
        String checkpoint = dir.resolve("scan.checkpoint").toString();
        String address = chain.eventSources().get(2);
        long middle = chain.head() / 2;
        CliRun first = CliRun.of("eth", "scan", "--rpc", chain.node().url(), "--from", "0", "--to",
                Long.toString(middle), "--address", address, "--topic", transfer(), "--confirmations", "0",
                "--checkpoint", checkpoint, "--quiet");
        CliRun second = CliRun.of("eth", "scan", "--rpc", chain.node().url(), "--from", "0", "--to",
                Long.toString(chain.head()), "--address", address, "--topic", transfer(), "--confirmations", "0",
                "--checkpoint", checkpoint, "--quiet");
        assertEquals(0, first.status, first::toString);
        assertEquals(0, second.status, second::toString);
        assertTrue(second.err.contains("blocks " + (middle + 1) + ".." + chain.head() + " scanned"), second.err);
        assertTrue(second.err.contains("resumed from checkpoint"), second.err);
        assertTrue(!first.err.contains("scanned 0..") && !second.err.contains("scanned " + (middle + 1) + ".."),
                "--quiet prints no progress");
        List<String> both = new ArrayList<>(printed(first));
        both.addAll(printed(second));
        assertEquals(anvilLogs(List.of(address), transfer(), 0, chain.head()), both);
    }

    @Test
    void aClosedStdoutEndsTheScanBeforeTheCheckpointPassesTheLostLog(@TempDir Path dir) {
        String address = chain.eventSources().get(1);
        List<String> all = anvilLogs(List.of(address), transfer(), 0, chain.head());
        assertTrue(all.size() > 10, "Transfer logs: " + all.size());
        String[] args = {"eth", "scan", "--rpc", chain.node().url(), "--from", "0", "--to",
            Long.toString(chain.head()), "--address", address, "--topic", transfer(), "--confirmations", "0",
            "--batch", "16", "--checkpoint", dir.resolve("scan.checkpoint").toString(), "--quiet"};
        assertClosedStdoutLosesNothing(all, dir.resolve("scan.checkpoint"), args, () -> CliRun.of(args).out);
    }

    /**
     * Without --checkpoint there is no file to name: a closed stdout's error, in a scan and in a follow, advises
     * resuming with --from alone (the follow's said "or the same --checkpoint" too, with a mutant that took its
     * in-memory checkpoint for a file: from a mutation review).
     */
    @Test
    void aClosedStdoutWithoutACheckpointAdvisesOnlyFrom() {
        String address = chain.eventSources().get(1);
        List<String> all = anvilLogs(List.of(address), transfer(), 0, chain.head());
        long lostBlock = block(all.get(5));
        String to = Long.toString(chain.head());
        for (String[] mode : List.of(new String[] {"--to", to}, new String[] {"--follow", "--until-block", to})) {
            List<String> args = new ArrayList<>(List.of("eth", "scan", "--rpc", chain.node().url(), "--from", "0",
                    "--address", address, "--topic", transfer(), "--confirmations", "0", "--batch", "16", "--quiet"));
            args.addAll(List.of(mode));
            ClosingStdout stdout = new ClosingStdout(5);
            StringWriter err = new StringWriter();
            int status = ChainfilterCommand.execute(stdout.writer(), new PrintWriter(err), args.toArray(String[]::new));
            assertEquals(1, status, err::toString);
            assertEquals(all.subList(0, 5), printedLogs(stdout.received()));
            assertTrue(err.toString().strip().endsWith("chainfilter: standard output is closed: a log of block "
                    + lostBlock + " was not delivered (the logs of the blocks before it were); resume with --from "
                    + lostBlock), mode[0] + ": " + err);
        }
    }

    /**
     * Runs {@code args} with a stdout closed after 5 lines: the command must end with status 1 and the one-line error
     * naming the block of the first log lost, the checkpoint must not pass that block, and {@code rerun} (the same
     * command) must print the rest, so that the logs before that block plus the rerun's are {@code all}.
     */
    static void assertClosedStdoutLosesNothing(List<String> all, Path checkpoint, String[] args,
                                               Supplier<String> rerun) {
        ClosingStdout stdout = new ClosingStdout(5);
        StringWriter err = new StringWriter();
        int status = ChainfilterCommand.execute(stdout.writer(), new PrintWriter(err), args);
        long lostBlock = block(all.get(5));
        assertEquals(1, status, err::toString);
        assertEquals(all.subList(0, 5), printedLogs(stdout.received()));
        assertTrue(err.toString().strip().endsWith("chainfilter: standard output is closed: a log of block "
                + lostBlock + " was not delivered (the logs of the blocks before it were); resume with --from "
                + lostBlock + " or the same --checkpoint"), err::toString);
        long lastWholeBlock = all.subList(0, 5).stream().mapToLong(EthScanCommandTest::block)
                .filter(block -> block < lostBlock).max().orElse(-1);
        long nextBlock = new FileCheckpointStore(checkpoint).load().orElseThrow().nextBlock();
        assertTrue(nextBlock > lastWholeBlock && nextBlock <= lostBlock,
                "checkpoint at " + nextBlock + ", lost block " + lostBlock + ", last whole block " + lastWholeBlock);
        List<String> both = new ArrayList<>(all.subList(0, 5).stream().filter(log -> block(log) < nextBlock).toList());
        both.addAll(printedLogs(rerun.get()));
        assertEquals(all, both);
    }

    private static long block(String logText) {
        return Long.parseLong(logText.substring(0, logText.indexOf(' ')));
    }

    @Test
    void anIndexBuiltWithEthIndexBuildDecidesTheBlocksItCovers(@TempDir Path dir) throws IOException {
        StringBuilder blooms = new StringBuilder();
        long indexed = chain.head() / 2;
        for (long n = 0; n < indexed; n++) {
            JsonNode block = chain.node().rpc("eth_getBlockByNumber", "0x" + Long.toHexString(n), false);
            blooms.append(n).append(' ').append(block.get("hash").asText()).append(' ')
                    .append(block.get("parentHash").asText()).append(' ').append(block.get("logsBloom").asText())
                    .append('\n');
        }
        Path bloomFile = Files.writeString(dir.resolve("blooms.txt"), blooms);
        CliRun build = CliRun.of("eth", "index", "build", "--index", dir.resolve("index").toString(), "--blooms",
                bloomFile.toString());
        assertEquals(0, build.status, build::toString);
        String address = chain.eventSources().get(0);
        CliRun run = CliRun.of("eth", "scan", "--rpc", chain.node().url(), "--from", "0", "--to",
                Long.toString(chain.head()), "--address", address, "--topic", transfer(), "--confirmations", "0",
                "--index", dir.resolve("index").toString(), "--quiet");
        assertEquals(0, run.status, run::toString);
        assertEquals(anvilLogs(List.of(address), transfer(), 0, chain.head()), printed(run));
        assertTrue(run.err.matches("(?s).*skipped by bloom \\d+ \\(by the index [1-9]\\d*\\).*"), run.err);
    }

    /** Short of --to, the status is 3 (a script can tell a partial run from a complete one); without --to, 0. */
    @Test
    void staysTwelveBlocksBehindTheHeadByDefault() {
        CliRun run = CliRun.of("eth", "scan", "--rpc", chain.node().url(), "--from", Long.toString(chain.head() - 30),
                "--to", Long.toString(chain.head()), "--topic", transfer(), "--quiet");
        assertEquals(3, run.status, run::toString);
        CliRun toTheConfirmedHead = CliRun.of("eth", "scan", "--rpc", chain.node().url(), "--from",
                Long.toString(chain.head() - 30), "--topic", transfer(), "--quiet");
        assertEquals(0, toTheConfirmedHead.status, toTheConfirmedHead::toString);
        CliRun nothing = CliRun.of("eth", "scan", "--rpc", chain.node().url(), "--from", Long.toString(chain.head()),
                "--to", Long.toString(chain.head()), "--topic", transfer(), "--quiet");
        assertEquals(3, nothing.status, nothing::toString);
        assertTrue(nothing.err.contains("No block was scanned."), nothing.err);
        assertTrue(run.err.contains("scanned (19 blocks); head " + chain.head() + ", 12 confirmations; stopped short"
                + " of the requested block " + chain.head() + " (not yet confirmed)"), run.err);
        assertEquals(anvilLogs(List.of(), transfer(), chain.head() - 30, chain.head() - 12), printed(run));
        CliRun beyond = CliRun.of("eth", "scan", "--rpc", chain.node().url(), "--from", Long.toString(chain.head()
                + 1000), "--topic", transfer(), "--quiet");
        assertEquals(0, beyond.status, beyond::toString);
        assertTrue(beyond.err.startsWith("blocks " + (chain.head() + 1000) + ".." + (chain.head() + 999) + " scanned"
                + " (0 blocks); head " + chain.head() + ", 12 confirmations; nothing to scan: block " + (chain.head()
                + 1000) + " is past the confirmed head, block " + (chain.head() - 12) + System.lineSeparator()), beyond.err);
    }

    /**
     * A provider that refuses every {@code eth_getLogs} wider than 10 blocks (a proxy in front of anvil): each split
     * is one stderr line naming the range and the refusal (a range cut off twice by {@code --rpc-timeout} is split and
     * said the same way, with "no answer within the client's call timeout"), and stdout is anvil's own answer.
     */
    @Test
    void eachRangeSplitIsSaidOnStderr() throws IOException {
        FaultProxy.Script limit = new FaultProxy.Script() {
            @Override
            public ObjectNode refusal(JsonNode call) {
                return FaultProxy.logRangeSpan(call) > 10
                        ? FaultProxy.error(-32005, "query returned more than 10000 results") : null;
            }
        };
        try (FaultProxy proxy = new FaultProxy(chain.node().url(), limit, Duration.ZERO)) {
            CliRun run = CliRun.of("eth", "scan", "--rpc", proxy.url(), "--from", "0", "--to", "79", "--batch", "40",
                    "--by-hash-max-run", "0", "--confirmations", "0");
            assertEquals(0, run.status, run::toString);
            String n = System.lineSeparator();
            assertTrue(run.err.startsWith("splitting eth_getLogs 0..39 in halves (error -32005: query returned more"
                    + " than 10000 results)" + n + "splitting eth_getLogs 0..19 in halves (error -32005: query returned"
                    + " more than 10000 results)" + n + "scanned 0..39: "), run.err);
            assertTrue(run.err.contains("retries 0, range splits 2, batch halvings 0" + n), run.err);
            List<String> all = new ArrayList<>();
            chain.node().rpc("eth_getLogs", Map.of("fromBlock", "0x0", "toBlock", "0x4f"))
                    .forEach(log -> all.add(LogText.of(log)));
            assertTrue(all.size() > 10, "logs in blocks 0..79: " + all.size());
            assertEquals(all, printed(run));
        }
    }

    /**
     * A provider that refuses every JSON-RPC batch of more than 10 calls as geth does ("batch too large"): each halving
     * is one stderr line (a batch of headers cut off twice by {@code --rpc-timeout} is halved and said the same way),
     * the summary counts them, and stdout is anvil's own answer.
     */
    @Test
    void eachBatchHalvingIsSaidOnStderr() throws IOException {
        FaultProxy.Script limit = FaultProxy.Script.transports((number, body) -> body.size() > 10
                ? FaultProxy.Transport.BATCH_TOO_LARGE : FaultProxy.Transport.PASS);
        try (FaultProxy proxy = new FaultProxy(chain.node().url(), limit, Duration.ZERO)) {
            CliRun run = CliRun.of("eth", "scan", "--rpc", proxy.url(), "--from", "0", "--to", "79", "--batch", "40",
                    "--confirmations", "0");
            assertEquals(0, run.status, run::toString);
            String n = System.lineSeparator();
            assertTrue(run.err.startsWith("halving JSON-RPC batches from 40 to 20 calls (batch of 40 refused: error"
                    + " -32600: batch too large)" + n + "halving JSON-RPC batches from 20 to 10 calls (batch of 20"
                    + " refused: error -32600: batch too large)" + n + "scanned 0..39: "), run.err);
            assertTrue(run.err.contains("retries 0, range splits 0, batch halvings 2" + n), run.err);
            List<String> all = new ArrayList<>();
            chain.node().rpc("eth_getLogs", Map.of("fromBlock", "0x0", "toBlock", "0x4f"))
                    .forEach(log -> all.add(LogText.of(log)));
            assertEquals(all, printed(run));
        }
    }

    @Test
    void anUnreachableNodeFailsWithTheLastErrorAfterTheRetries() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            closedPort = socket.getLocalPort();
        }
        CliRun run = CliRun.of("eth", "scan", "--rpc", "http://127.0.0.1:" + closedPort, "--from", "0", "--to", "10",
                "--retries", "2");
        assertEquals(1, run.status, run::toString);
        assertTrue(run.err.startsWith("retrying eth_blockNumber in 250 ms (failure 1: ConnectException"), run.err);
        assertTrue(run.err.contains("chainfilter: eth_blockNumber failed 2 times in a row (retry limit 2); last error:"
                + " ConnectException"), run.err);
        assertEquals("", run.out);
    }

    @Test
    void badArgumentsAreRefusedWithTheirLimits() {
        String url = chain.node().url();
        assertEquals("chainfilter: --from is -1; block numbers start at 0",
                CliRun.of("eth", "scan", "--rpc", url, "--from", "-1").err.strip());
        assertEquals("chainfilter: --batch is 0; it must be 1..1000",
                CliRun.of("eth", "scan", "--rpc", url, "--from", "0", "--batch", "0").err.strip());
        assertEquals("chainfilter: --by-hash-max-run is 1001; it must be 0..1000",
                CliRun.of("eth", "scan", "--rpc", url, "--from", "0", "--by-hash-max-run", "1001").err.strip());
        assertEquals("chainfilter: --by-hash-max-run is -1; it must be 0..1000",
                CliRun.of("eth", "scan", "--rpc", url, "--from", "0", "--by-hash-max-run", "-1").err.strip());
        assertEquals("chainfilter: --to 4 is below --from 5",
                CliRun.of("eth", "scan", "--rpc", url, "--from", "5", "--to", "4").err.strip());
        assertEquals("chainfilter: --address '0x12': address is 1 bytes; it must be exactly 20 bytes",
                CliRun.of("eth", "scan", "--rpc", url, "--from", "0", "--address", "0x12").err.strip());
        CliRun noRpc = CliRun.of("eth", "scan", "--from", "0");
        assertEquals(2, noRpc.status);
        assertTrue(noRpc.err.startsWith("chainfilter: Missing required option: '--rpc=URL'"), noRpc.err);
    }
}
