package org.chainfilter.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.chainfilter.ethbloom.scan.FileCheckpointStore;
import org.chainfilter.ethbloom.scan.fault.FaultProxy;
import org.chainfilter.ethbloom.scan.node.LogText;
import org.chainfilter.ethbloom.scan.node.TestChain;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --rpc-timeout} end to end, through the commands: ethbloom's {@link FaultProxy} in front of anvil (ethbloom's
 * test chain) holds selected requests for {@link #HOLD}, past {@code --rpc-timeout 1}, and answers the others at once
 * with anvil's own answers, so every header, bloom and log the commands read is real. A node too slow for wide
 * {@code eth_getLogs} ranges: {@code eth scan} splits them (said on stderr and counted in the summary) and prints
 * anvil's logs, as it does without the delay. A block, or a header, that is always held: the command exits with
 * status 1 and one line naming the block, the timeout and the option that sets it. Outcomes and messages only: the
 * hold is 2.5 times the timeout, and nothing here measures time.
 *
 * <p>{@code --retries 2} keeps each test to seconds: a range or header batch cut off twice in a row is split or halved
 * without an attempt lost on the second timeout, so two attempts are enough for every split, and a single block fails
 * after its second timeout.
 */
@Timeout(60)
class EthRpcTimeoutCommandTest {
    /** How long the proxy holds a request: longer than {@code --rpc-timeout 1}, so the client has given up. */
    private static final Duration HOLD = Duration.ofMillis(2500);
    /** The block held in the failure tests (it has logs, so with a match-all filter every scan asks for it). */
    private static final long SLOW_BLOCK = 9;
    /** The problem of a call cut off by the client: alone, or in a batch cut off as a whole ("batch of 2: "). */
    private static final String CUT_OFF = "no answer within the client's call timeout \\((batch of \\d+: )?"
            + "InterruptedIOException: timeout\\)";
    private static final String N = System.lineSeparator();

    private static TestChain chain;

    @BeforeAll
    static void startNode() {
        chain = TestChain.build(23);
    }

    @AfterAll
    static void stopNode() {
        chain.close();
    }

    /** A proxy in front of anvil that holds every request with a JSON-RPC call that {@code held} selects. */
    private static FaultProxy holding(Predicate<JsonNode> held) throws IOException {
        return holdingRequests(body -> FaultProxy.calls(body).stream().anyMatch(held));
    }

    /** A proxy in front of anvil that holds every request whose body (a call or a batch) {@code held} selects. */
    private static FaultProxy holdingRequests(Predicate<JsonNode> held) throws IOException {
        return new FaultProxy(chain.node().url(), FaultProxy.Script.transports((number, body) ->
                held.test(body) ? FaultProxy.Transport.DELAYED : FaultProxy.Transport.PASS), HOLD);
    }

    /** Whether {@code call} is an {@code eth_getLogs} for {@code block}: a range that covers it, or its hash. */
    private static Predicate<JsonNode> logsOf(long block, String blockHash) {
        return call -> {
            if (!"eth_getLogs".equals(call.path("method").asText())) {
                return false;
            }
            JsonNode filter = call.path("params").path(0);
            if (filter.has("blockHash")) {
                return filter.path("blockHash").asText().equalsIgnoreCase(blockHash);
            }
            return Long.decode(filter.path("fromBlock").asText()) <= block
                    && Long.decode(filter.path("toBlock").asText()) >= block;
        };
    }

    private static Predicate<JsonNode> headerOf(long block) {
        return call -> "eth_getBlockByNumber".equals(call.path("method").asText())
                && Long.decode(call.path("params").path(0).asText()) == block;
    }

    private static String[] scan(String url, long from, long to, String... more) {
        List<String> args = new ArrayList<>(List.of("eth", "scan", "--rpc", url, "--from", Long.toString(from),
                "--to", Long.toString(to), "--confirmations", "0", "--batch", "8", "--by-hash-max-run", "0",
                "--rpc-timeout", "1", "--retries", "2"));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    /** Anvil's own logs of blocks {@code from..to}, as {@link LogText} lines. */
    private static List<String> anvilLogs(long from, long to) {
        List<String> logs = new ArrayList<>();
        chain.node().rpc("eth_getLogs", Map.of("fromBlock", "0x" + Long.toHexString(from), "toBlock",
                "0x" + Long.toHexString(to))).forEach(log -> logs.add(LogText.of(log)));
        return logs;
    }

    /** The ranges of the "splitting eth_getLogs A..B in halves (...)" lines, each checked whole. */
    private static List<String> splits(String stderr) {
        Pattern split = Pattern.compile("splitting eth_getLogs (\\d+\\.\\.\\d+) in halves \\(" + CUT_OFF
                + ", twice\\)");
        List<String> ranges = new ArrayList<>();
        for (String line : stderr.split("\\R")) {
            if (line.startsWith("splitting ")) {
                Matcher matcher = split.matcher(line);
                assertTrue(matcher.matches(), line);
                ranges.add(matcher.group(1));
            }
        }
        return ranges;
    }

    /**
     * Every {@code eth_getLogs} of more than one block is held; single blocks are answered at once. The scan reads
     * headers 8 at a time, and with a match-all filter each batch is one run of 8 candidate blocks: 0..7 is cut off
     * twice and split, then 0..3 and 0..1, and the span of one block is kept for the rest of the scan. The logs are
     * anvil's, and the same as the same command prints straight from anvil.
     */
    @Test
    void rangesCutOffTwiceAreSplitAndTheLogsAreTheSameAsWithoutTheDelay() throws IOException {
        long last = 31;
        CliRun direct = CliRun.of(scan(chain.node().url(), 0, last));
        assertEquals(0, direct.status, direct::toString);
        assertTrue(direct.err.contains("retries 0, range splits 0, batch halvings 0" + N), direct.err);
        try (FaultProxy proxy = holding(call -> FaultProxy.logRangeSpan(call) > 1)) {
            CliRun run = CliRun.of(scan(proxy.url(), 0, last));
            assertEquals(0, run.status, run::toString);
            assertEquals(List.of("0..7", "0..3", "0..1"), splits(run.err));
            assertTrue(run.err.contains(", range splits 3, batch halvings 0" + N), run.err);
            assertTrue(Pattern.compile("(?m)^retrying eth_getLogs in 250 ms \\(failure 1: blocks 0\\.\\.7: " + CUT_OFF
                    + "\\)$").matcher(run.err).find(), run.err);
            assertTrue(proxy.faults() >= 6, "requests held: " + proxy.faults());
            List<String> logs = EthScanCommandTest.printedLogs(run.out);
            assertTrue(logs.size() > 100, "logs in blocks 0.." + last + ": " + logs.size());
            assertEquals(anvilLogs(0, last), logs);
            assertEquals(direct.out, run.out);
        }
    }

    /**
     * Every {@code eth_getLogs} that asks for block 9 is held: its range is split down to block 9 alone, which is
     * cut off until the retries run out. The command exits with status 1 and one line naming the block, the timeout
     * and {@code --rpc-timeout}. The logs of the header batches before block 9's (8..15) were printed and
     * checkpointed; the scanner emits a batch's logs once it has all of them, so a rerun resumes at block 8.
     */
    @Test
    void aBlockThatIsAlwaysCutOffEndsTheScanNamingTheBlockAndTheTimeout(@TempDir Path dir) throws IOException {
        Path checkpoint = dir.resolve("scan.checkpoint");
        String hash = chain.node().rpc("eth_getBlockByNumber", "0x" + Long.toHexString(SLOW_BLOCK), false)
                .get("hash").asText();
        try (FaultProxy proxy = holding(logsOf(SLOW_BLOCK, hash))) {
            CliRun run = CliRun.of(scan(proxy.url(), 0, 31, "--checkpoint", checkpoint.toString()));
            assertEquals(1, run.status, run::toString);
            assertEquals(List.of("8..15", "8..11", "8..9"), splits(run.err));
            String lastLine = run.err.strip().substring(run.err.strip().lastIndexOf('\n') + 1);
            assertTrue(lastLine.matches("chainfilter: eth_getLogs failed 2 times in a row \\(retry limit 2\\); last"
                    + " error: block 9: " + CUT_OFF + "; one block cannot be asked for in a smaller piece: raise the"
                    + " call timeout \\(--rpc-timeout is 1 s\\); rerun with the same --checkpoint to resume"),
                    lastLine);
            assertEquals(anvilLogs(0, 7), EthScanCommandTest.printedLogs(run.out));
            assertEquals(8, new FileCheckpointStore(checkpoint).load().orElseThrow().nextBlock());
        }
    }

    /** The same block held under {@code --follow}: the follow ends with the same line and the last scanned block. */
    @Test
    void aBlockThatIsAlwaysCutOffEndsTheFollowNamingTheBlockAndTheTimeout() throws IOException {
        String hash = chain.node().rpc("eth_getBlockByNumber", "0x" + Long.toHexString(SLOW_BLOCK), false)
                .get("hash").asText();
        try (FaultProxy proxy = holding(logsOf(SLOW_BLOCK, hash))) {
            CliRun run = CliRun.of("eth", "scan", "--rpc", proxy.url(), "--from", "0", "--follow", "--until-block",
                    "31", "--poll-interval", "10ms", "--confirmations", "0", "--batch", "8", "--by-hash-max-run",
                    "0", "--rpc-timeout", "1", "--retries", "2");
            assertEquals(1, run.status, run::toString);
            assertTrue(run.err.startsWith("following from block 0: 0 confirmations, polling every 10ms, until block"
                    + " 31" + N), run.err);
            assertTrue(run.err.strip().matches("(?s).*\\R\\Qchainfilter: eth_getLogs failed 2 times in a row (retry"
                    + " limit 2); last error: block 9: \\E" + CUT_OFF + "\\Q; one block cannot be asked for in a"
                    + " smaller piece: raise the call timeout (--rpc-timeout is 1 s) (follow: last scanned block"
                    + " 7)\\E"), run.err);
            assertEquals(anvilLogs(0, 7), EthScanCommandTest.printedLogs(run.out));
        }
    }

    /**
     * A node that cannot send more than 2 headers within the timeout (every request of 3 or more
     * {@code eth_getBlockByNumber} is held): {@code eth index build} halves its batches of 8 to 4, then to 2, says
     * so on stderr, and builds the same index, byte for byte, as straight from anvil.
     */
    @Test
    void indexBuildHalvesHeaderBatchesCutOffTwiceAndBuildsTheSameIndex(@TempDir Path dir) throws IOException {
        String[] build = {"eth", "index", "build", "--to", "40", "--confirmations", "0", "--batch", "8",
            "--rpc-timeout", "1", "--retries", "2", "--index"};
        CliRun direct = CliRun.of(concat(build, dir.resolve("direct").toString(), "--rpc", chain.node().url()));
        assertEquals(0, direct.status, direct::toString);
        try (FaultProxy proxy = holdingRequests(body -> FaultProxy.calls(body).stream()
                .filter(call -> "eth_getBlockByNumber".equals(call.path("method").asText())).count() > 2)) {
            CliRun run = CliRun.of(concat(build, dir.resolve("slow").toString(), "--rpc", proxy.url()));
            assertEquals(0, run.status, run::toString);
            assertEquals(direct.out, run.out);
            assertEquals("appended 41 blocks; SectionIndex[blocks 0..40, 1 sections]" + N, run.out);
            assertTrue(Pattern.compile("^retrying eth_getBlockByNumber 0\\.\\.7 in 250 ms \\(failure 1: blocks 0\\.\\.7: "
                    + CUT_OFF + "\\)\\R" + "halving JSON-RPC batches from 8 to 4 calls \\(blocks 0\\.\\.7: " + CUT_OFF
                    + ", twice\\)\\R" + "retrying eth_getBlockByNumber 0\\.\\.7 in 250 ms \\(failure 1: blocks"
                    + " 0\\.\\.3: " + CUT_OFF + "\\)\\R" + "halving JSON-RPC batches from 4 to 2 calls \\(blocks"
                    + " 0\\.\\.3: " + CUT_OFF + ", twice\\)\\R" + "indexed 0\\.\\.7\\R").matcher(run.err).find(),
                    run.err);
            assertIndexFilesEqual(dir.resolve("direct"), dir.resolve("slow"));
        }
    }

    /**
     * The header of block 9 is always held: batches are halved down to 1 and block 9 alone is cut off until the
     * retries run out; the build exits with status 1 and one line naming the block, the timeout and
     * {@code --rpc-timeout}, and the last block indexed.
     */
    @Test
    void indexBuildStopsAtAHeaderThatIsAlwaysCutOffNamingTheBlockAndTheTimeout(@TempDir Path dir)
            throws IOException {
        try (FaultProxy proxy = holding(headerOf(SLOW_BLOCK))) {
            CliRun run = CliRun.of("eth", "index", "build", "--index", dir.resolve("index").toString(), "--rpc",
                    proxy.url(), "--to", "40", "--confirmations", "0", "--batch", "4", "--rpc-timeout", "1",
                    "--retries", "2");
            assertEquals(1, run.status, run::toString);
            assertEquals("", run.out);
            assertTrue(run.err.startsWith("indexed 0..3" + N + "indexed 4..7" + N), run.err);
            String lastLine = run.err.strip().substring(run.err.strip().lastIndexOf('\n') + 1);
            assertEquals("chainfilter: eth_getBlockByNumber 8..11 failed 2 times in a row (retry limit 2); last error:"
                    + " block 9: no answer within the client's call timeout (InterruptedIOException: timeout); one"
                    + " header cannot be asked for in a smaller piece: raise the call timeout (--rpc-timeout is 1 s);"
                    + " indexed up to block 7 (complete sections are kept: rerun to resume)", lastLine);
        }
    }

    private static String[] concat(String[] first, String... more) {
        return Stream.concat(Stream.of(first), Stream.of(more)).toArray(String[]::new);
    }

    private static void assertIndexFilesEqual(Path expected, Path actual) throws IOException {
        List<Path> files;
        try (Stream<Path> listing = Files.list(expected)) {
            files = listing.sorted().toList();
        }
        try (Stream<Path> listing = Files.list(actual)) {
            assertEquals(files.stream().map(Path::getFileName).toList(),
                    listing.sorted().map(Path::getFileName).toList());
        }
        assertTrue(!files.isEmpty());
        for (Path file : files) {
            assertArrayEquals(Files.readAllBytes(file), Files.readAllBytes(actual.resolve(file.getFileName())),
                    file.getFileName().toString());
        }
    }
}
