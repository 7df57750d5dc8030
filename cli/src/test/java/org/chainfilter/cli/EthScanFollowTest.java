package org.chainfilter.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

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
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.chainfilter.common.Hex;
import org.chainfilter.ethbloom.LogFilter;
import org.chainfilter.ethbloom.scan.BlockScanner;
import org.chainfilter.ethbloom.scan.Checkpoint;
import org.chainfilter.ethbloom.scan.RetriesExhaustedException;
import org.chainfilter.ethbloom.scan.RetryPolicy;
import org.chainfilter.ethbloom.scan.ScanSummary;
import org.chainfilter.ethbloom.scan.fault.FaultProxy;
import org.chainfilter.ethbloom.scan.node.TestChain;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.web3j.protocol.core.BatchRequest;
import org.web3j.protocol.core.BatchResponse;
import org.web3j.protocol.core.Request;
import org.web3j.protocol.core.Response;
import org.web3j.protocol.core.methods.response.EthBlockNumber;
import org.web3j.protocol.http.HttpService;

/**
 * {@code chainfilter eth scan --follow} against a real anvil: blocks with matching and non-matching logs are mined
 * while the command follows. The test mines the next block only after the command has scanned up to the confirmed
 * head, so at each step the head is known exactly: what the command printed must then equal anvil's own
 * {@code eth_getLogs} up to {@code head - confirmations}, no log missing, repeated, out of order or early. Ctrl-C
 * (SIGINT) is sent to a real {@code java} process. Every wait is bounded.
 */
class EthScanFollowTest {
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final Pattern PROGRESS = Pattern.compile("scanned \\d+\\.\\.(\\d+): ");
    private static final String FIRE = TestChain.topic0("fire(uint8,address,address,bytes32,bytes32,uint256)")
            .substring(0, 10);
    private static final int TRANSFER = 0;
    private static final int APPROVAL = 1;
    private static final int NOTE = 2;

    private static TestChain chain;
    private static String account;
    private static long value;

    @BeforeAll
    static void startNode() {
        chain = TestChain.build(17);
        account = chain.node().rpc("eth_accounts").get(0).asText();
    }

    @AfterAll
    static void stopNode() {
        chain.close();
    }

    @Test
    void reportsEveryMatchingLogOfTheNewBlocksOnceInOrderAndOnlyWithItsConfirmations() {
        String watched = chain.eventSources().get(0);
        String other = chain.eventSources().get(1);
        long start = head();
        long from = start - 10;
        long until = start + 7;
        int confirmations = 2;
        Background run = Background.start("eth", "scan", "--rpc", chain.node().url(), "--from", Long.toString(from),
                "--follow", "--confirmations", Integer.toString(confirmations), "--poll-interval", "20ms",
                "--until-block", Long.toString(until), "--address", watched, "--topic", transfer(), "--batch", "4");
        run.awaitScannedUpTo(start - confirmations);
        assertEquals(anvilLogs(watched, from, start - confirmations), run.printed(), run::toString);
        for (long step = 1; head() < until + confirmations; step++) {
            List<Map<String, String>> block = new ArrayList<>();
            if (step % 3 != 0) {
                block.add(fire(watched, TRANSFER));
            }
            if (step % 2 == 1) {
                block.add(fire(watched, APPROVAL));
                block.add(fire(other, TRANSFER));
                block.add(fire(watched, TRANSFER));
            }
            block.add(fire(other, NOTE));
            mine(block);
            long confirmed = head() - confirmations;
            if (confirmed <= until) {
                run.awaitScannedUpTo(confirmed);
                assertEquals(anvilLogs(watched, from, confirmed), run.printed(), run::toString);
            }
        }
        assertEquals(0, run.status(), run::toString);
        List<String> expected = anvilLogs(watched, from, until);
        assertTrue(expected.size() >= 9, "matching logs mined while following: " + expected);
        assertEquals(expected, run.printed(), run::toString);
        assertTrue(run.err().contains("following from block " + from + ": 2 confirmations, polling every 20ms, until"
                + " block " + until), run.err());
        assertTrue(run.err().contains("blocks " + from + ".." + until + " scanned (" + (until - from + 1) + " blocks)"),
                run.err());
        assertTrue(run.err().strip().endsWith("follow block " + until + " reached; last scanned block " + until
                + "; resume with --from " + (until + 1)), run.err());
    }

    @Test
    void aReorganisationWithinTheConfirmationsIsNeverSeen() {
        String watched = chain.eventSources().get(0);
        long start = head();
        long from = start - 5;
        long until = start + 3;
        Background run = Background.start("eth", "scan", "--rpc", chain.node().url(), "--from", Long.toString(from),
                "--follow", "--confirmations", "3", "--poll-interval", "20ms", "--until-block", Long.toString(until),
                "--address", watched, "--topic", transfer());
        mine(List.of(fire(watched, TRANSFER)));
        mine(List.of(fire(watched, TRANSFER)));
        run.awaitScannedUpTo(start - 1);
        List<String> orphaned = anvilLogs(watched, start + 1, start + 2);
        assertEquals(2, orphaned.size(), orphaned::toString);
        reorganise(2, fire(watched, TRANSFER), fire(watched, TRANSFER), fire(watched, TRANSFER));
        for (int i = 0; i < 4; i++) {
            mine(List.of(fire(watched, TRANSFER)));
        }
        assertEquals(0, run.status(), run::toString);
        List<String> expected = anvilLogs(watched, from, until);
        assertEquals(expected, run.printed(), run::toString);
        assertEquals(3, anvilLogs(watched, start + 1, start + 2).size(), "the replacing blocks' logs");
        assertTrue(orphaned.stream().noneMatch(expected::contains), "the orphaned logs are not on the chain");
    }

    @Test
    void aReorganisationDeeperThanTheConfirmationsEndsTheFollowWithTheScannersError() {
        String watched = chain.eventSources().get(0);
        long start = head();
        Background run = Background.start("eth", "scan", "--rpc", chain.node().url(), "--from",
                Long.toString(start - 4), "--follow", "--confirmations", "1", "--poll-interval", "20ms", "--address",
                watched, "--topic", transfer());
        run.awaitScannedUpTo(start - 1);
        reorganise(3, fire(watched, TRANSFER));
        assertEquals(1, run.status(), run::toString);
        assertTrue(run.err().contains("chainfilter: block " + (start - 1) + " now has hash "), run.err());
        assertTrue(run.err().strip().endsWith(": the chain reorganised below the checkpoint; rescan from an earlier"
                + " block with a new checkpoint (and more confirmations) (follow: last scanned block " + (start - 1)
                + ")"), run.err());
    }

    @Test
    void maxNewBlocksCountsFromTheEndOfTheInitialRange() {
        String watched = chain.eventSources().get(2);
        long start = head();
        Background fromTo = Background.start("eth", "scan", "--rpc", chain.node().url(), "--from",
                Long.toString(start - 6), "--to", Long.toString(start - 4), "--follow", "--max-new-blocks", "3",
                "--confirmations", "0", "--poll-interval", "20ms", "--address", watched, "--topic", transfer());
        assertEquals(0, fromTo.status(), fromTo::toString);
        assertTrue(fromTo.err().strip().endsWith("follow block " + (start - 1) + " reached; last scanned block "
                + (start - 1) + "; resume with --from " + start), fromTo.err());
        assertEquals(anvilLogs(watched, start - 6, start - 1), fromTo.printed());

        Background fromHead = Background.start("eth", "scan", "--rpc", chain.node().url(), "--from",
                Long.toString(start - 3), "--follow", "--max-new-blocks", "2", "--confirmations", "1",
                "--poll-interval", "20ms", "--address", watched, "--topic", transfer());
        fromHead.awaitScannedUpTo(start - 1);
        mine(List.of(fire(watched, TRANSFER)));
        fromHead.awaitScannedUpTo(start);
        mine(List.of(fire(watched, TRANSFER), fire(watched, APPROVAL)));
        mine(List.of(fire(watched, TRANSFER)));
        assertEquals(0, fromHead.status(), fromHead::toString);
        assertTrue(fromHead.err().contains("follow block " + (start + 1) + " reached"), fromHead.err());
        assertEquals(anvilLogs(watched, start - 3, start + 1), fromHead.printed());
        assertEquals(1, anvilLogs(watched, start + 1, start + 1).size());
        assertEquals(1, anvilLogs(watched, start + 2, start + 2).size(), "a matching log after the last block");
    }

    /**
     * A --to beyond the confirmed head: --max-new-blocks still counts from --to, not from the head the first pass saw
     * (counting from the head, so stopping one block early here, passed every test: from a mutation review).
     */
    @Test
    void maxNewBlocksCountsFromAToBeyondTheHead() {
        String watched = chain.eventSources().get(2);
        long start = head();
        Background run = Background.start("eth", "scan", "--rpc", chain.node().url(), "--from",
                Long.toString(start - 1), "--to", Long.toString(start + 1), "--follow", "--max-new-blocks", "1",
                "--confirmations", "0", "--poll-interval", "20ms", "--address", watched, "--topic", transfer());
        run.awaitScannedUpTo(start);
        for (int i = 0; i < 3; i++) {
            mine(List.of(fire(watched, TRANSFER)));
        }
        assertEquals(0, run.status(), run::toString);
        assertTrue(run.err().strip().endsWith("follow block " + (start + 2) + " reached; last scanned block "
                + (start + 2) + "; resume with --from " + (start + 3)), run::toString);
        assertEquals(anvilLogs(watched, start - 1, start + 2), run.printed());
        // A follow of the one block --from names it as scanned (it said "no block scanned" with a mutant that took
        // the last scanned block for none when it was the --from block).
        Background one = Background.start("eth", "scan", "--rpc", chain.node().url(), "--from", Long.toString(start),
                "--follow", "--until-block", Long.toString(start), "--confirmations", "0", "--address", watched);
        assertEquals(0, one.status(), one::toString);
        assertTrue(one.err().strip().endsWith("follow block " + start + " reached; last scanned block " + start
                + "; resume with --from " + (start + 1)), one::toString);
    }

    /**
     * An --until-block before the end that --to and --max-new-blocks give stops the follow at it (the follow went on
     * to --to + --max-new-blocks, with a mutant that dropped --until-block when both were given: from a mutation
     * review).
     */
    @Test
    void anUntilBlockBeforeTheEndOfMaxNewBlocksStopsTheFollowThere() {
        String watched = chain.eventSources().get(0);
        long start = head();
        // The largest count too: --to + --max-new-blocks saturates (it overflowed, ending the follow at once, with a
        // mutant that added plainly).
        for (String maxNewBlocks : List.of("4", Long.toString(Long.MAX_VALUE))) {
            CliRun run = CliRun.of("eth", "scan", "--rpc", chain.node().url(), "--from", Long.toString(start - 6),
                    "--to", Long.toString(start - 5), "--follow", "--max-new-blocks", maxNewBlocks, "--until-block",
                    Long.toString(start - 3), "--confirmations", "0", "--address", watched, "--topic", transfer());
            assertEquals(0, run.status, run::toString);
            assertTrue(run.err.strip().endsWith("follow block " + (start - 3) + " reached; last scanned block "
                    + (start - 3) + "; resume with --from " + (start - 2)), run::toString);
            assertEquals(anvilLogs(watched, start - 6, start - 3), EthScanCommandTest.printedLogs(run.out));
        }
    }

    /**
     * A --from beyond the confirmed head with --max-new-blocks and no --to: the count starts at the block before
     * --from, not at the head, so the follow waits for its blocks (it ended at once, at a block before --from, with a
     * mutant that counted from the head: from a mutation review). The wait mines the blocks.
     */
    @Test
    void maxNewBlocksCountsFromAFromBeyondTheHead() {
        String watched = chain.eventSources().get(0);
        long start = head();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        LogFilter filter = LogFilter.builder().address(Hex.decode(watched)).topic(0, Hex.decode(transfer())).build();
        AtomicInteger waits = new AtomicInteger();
        int status = follow(new ScriptedHead(), new EthScanFollow.MemoryCheckpointStore(), filter, start + 3,
                Long.MAX_VALUE, 2L, 100, out, err, 1, 100, () -> { }, halted -> fail("halted " + halted))
                .waitingWith((stop, interval) -> {
                    for (int i = 0; i < 5; i++) {
                        mine(List.of(fire(watched, TRANSFER)));
                    }
                    return waits.incrementAndGet() > 1;
                }).run();
        assertEquals(0, status, err::toString);
        assertEquals(1, waits.get(), err::toString);
        assertEquals(anvilLogs(watched, start + 3, start + 4), EthScanCommandTest.printedLogs(out.toString()));
        assertEquals(1, anvilLogs(watched, start + 5, start + 5).size(), "a matching log after the last block");
        assertTrue(err.toString().strip().endsWith("follow block " + (start + 4) + " reached; last scanned block "
                + (start + 4) + "; resume with --from " + (start + 5)), err::toString);
    }

    @Test
    void ctrlCStopsAtABlockBoundaryAndNamesTheLastBlockSoARestartLosesNothing(@TempDir Path dir)
            throws IOException, InterruptedException {
        String watched = chain.eventSources().get(1);
        long end = head();
        Path checkpoint = dir.resolve("follow.checkpoint");
        Path out = dir.resolve("out.jsonl");
        Path err = dir.resolve("err.txt");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), ChainfilterCommand.class.getName()));
        command.addAll(List.of("eth", "scan", "--rpc", chain.node().url(), "--from", "0", "--follow",
                "--confirmations", "0", "--poll-interval", "50ms", "--batch", "3", "--checkpoint",
                checkpoint.toString(), "--address", watched, "--topic", transfer()));
        Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try {
            awaitCondition(() -> !read(out).isEmpty(), () -> "no log printed: " + read(err));
            int expectedStatus = interrupt(process);
            assertTrue(process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS), "the follow did not stop");
            assertEquals(expectedStatus, process.exitValue(), read(err));
        } finally {
            process.destroyForcibly();
        }
        Matcher stop = Pattern.compile("follow stopped by a signal; last scanned block (\\d+); resume with --from"
                + " (\\d+) or the same --checkpoint").matcher(read(err));
        assertTrue(stop.find(), read(err));
        long last = Long.parseLong(stop.group(1));
        assertEquals(last + 1, Long.parseLong(stop.group(2)));
        assertTrue(read(err).contains("blocks 0.." + last + " scanned (" + (last + 1) + " blocks)"), read(err));
        List<String> firstRun = EthScanCommandTest.printedLogs(read(out));
        assertTrue(!firstRun.isEmpty(), "stopped after printing a log");
        assertEquals(anvilLogs(watched, 0, last), firstRun, "the logs of whole blocks, up to the last one named");

        CliRun byFrom = CliRun.of("eth", "scan", "--rpc", chain.node().url(), "--from", Long.toString(last + 1),
                "--to", Long.toString(end), "--confirmations", "0", "--address", watched, "--topic", transfer());
        Background byCheckpoint = Background.start("eth", "scan", "--rpc", chain.node().url(), "--from", "0",
                "--follow", "--until-block", Long.toString(end), "--confirmations", "0", "--poll-interval", "20ms",
                "--checkpoint", checkpoint.toString(), "--address", watched, "--topic", transfer());
        assertEquals(0, byFrom.status, byFrom::toString);
        assertEquals(0, byCheckpoint.status(), byCheckpoint::toString);
        assertTrue(byCheckpoint.err().contains("following from block " + (last + 1) + ":"), byCheckpoint.err());
        List<String> all = anvilLogs(watched, 0, end);
        assertTrue(all.size() > 20, "Transfer logs: " + all.size());
        for (List<String> rest : List.of(EthScanCommandTest.printedLogs(byFrom.out), byCheckpoint.printed())) {
            List<String> both = new ArrayList<>(firstRun);
            both.addAll(rest);
            assertEquals(all, both);
        }
    }

    @Test
    void badFollowOptionsAreRefusedWithTheirValues() throws IOException {
        String url;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            url = "http://127.0.0.1:" + socket.getLocalPort();
        }
        Map<List<String>, String> refused = new LinkedHashMap<>();
        refused.put(List.of("--follow", "--poll-interval", "5"),
                "--poll-interval is '5'; write whole milliseconds or seconds with their unit, e.g. 500ms or 2s");
        refused.put(List.of("--follow", "--poll-interval", "1.5s"),
                "--poll-interval is '1.5s'; write whole milliseconds or seconds with their unit, e.g. 500ms or 2s");
        refused.put(List.of("--follow", "--poll-interval", "-2s"),
                "--poll-interval is '-2s'; write whole milliseconds or seconds with their unit, e.g. 500ms or 2s");
        refused.put(List.of("--follow", "--poll-interval", "9ms"),
                "--poll-interval is 9ms; it must be from 10ms to 3600s");
        refused.put(List.of("--follow", "--poll-interval", "3601s"),
                "--poll-interval is 3601s; it must be from 10ms to 3600s");
        refused.put(List.of("--follow", "--until-block", "4"), "--until-block 4 is below --from 5");
        refused.put(List.of("--follow", "--to", "4", "--max-new-blocks", "3"), "--to 4 is below --from 5");
        refused.put(List.of("--follow", "--to", "9"), "--to 9 with --follow only sets where --max-new-blocks starts"
                + " counting; give --max-new-blocks too, or --until-block 9 to stop at that block");
        refused.put(List.of("--follow", "--to", "9", "--max-new-blocks", "3", "--until-block", "8"),
                "--until-block 8 is below --to 9; the follow would stop before the end of the initial range");
        refused.put(List.of("--follow", "--max-new-blocks", "-1"), "--max-new-blocks is -1; it must not be negative");
        refused.put(List.of("--follow", "--confirmations", "-3"), "--confirmations is -3; it must not be negative");
        refused.put(List.of("--until-block", "9"),
                "--until-block 9 is given without --follow; it only applies when following new blocks");
        refused.put(List.of("--max-new-blocks", "9"),
                "--max-new-blocks 9 is given without --follow; it only applies when following new blocks");
        refused.put(List.of("--poll-interval", "2s"),
                "--poll-interval 2s is given without --follow; it only applies when following new blocks");
        for (Map.Entry<List<String>, String> c : refused.entrySet()) {
            List<String> args = new ArrayList<>(List.of("eth", "scan", "--rpc", url, "--from", "5"));
            args.addAll(c.getKey());
            CliRun run = CliRun.of(args.toArray(String[]::new));
            // An option given without the one it needs is a malformed command line (2); a refused value is 1.
            boolean usage = c.getValue().contains("without --follow") || c.getValue().contains("give --max-new-blocks");
            assertEquals(usage ? 2 : 1, run.status, run::toString);
            assertEquals("chainfilter: " + c.getValue(), run.err.strip(), c.getKey()::toString);
            assertEquals("", run.out);
        }
        CliRun negativeFrom = CliRun.of("eth", "scan", "--rpc", url, "--from", "-1", "--follow");
        assertEquals("chainfilter: --from is -1; block numbers start at 0", negativeFrom.err.strip());
        CliRun notANumber = CliRun.of("eth", "scan", "--rpc", url, "--from", "0", "--follow", "--until-block", "soon");
        assertEquals(2, notANumber.status, notANumber::toString);
        assertTrue(notANumber.err.startsWith("chainfilter: Invalid value for option '--until-block': 'soon' is not a"
                + " whole number"), notANumber.err);
        CliRun tooLarge = CliRun.of("eth", "scan", "--rpc", url, "--from", "99999999999999999999", "--follow");
        assertEquals(2, tooLarge.status, tooLarge::toString);
        assertTrue(tooLarge.err.startsWith("chainfilter: Invalid value for option '--from': '99999999999999999999' is"
                + " outside -9223372036854775808..9223372036854775807"), tooLarge.err);
    }

    /**
     * Two passes add up count by count (each count distinct, so a count taken from the wrong component or one pass
     * only fails), the range runs from the first's start to the second's end, and the end asked for stays open.
     */
    @Test
    void twoPassesAddUpEveryCountIncludingRetriesSplitsAndBatchHalvings() {
        ScanSummary first = new ScanSummary(10, 19, 19, 40, 3, true, false, 10, 6, 2, 4, 1, 1, 5, 9, 900, 1, 7, 11,
                13);
        ScanSummary second = new ScanSummary(20, 29, 29, 45, 4, false, false, 10, 7, 3, 3, 2, 0, 6, 10, 1000, 2, 17,
                19, 23);
        assertEquals(new ScanSummary(10, 29, Long.MAX_VALUE, 45, 4, true, false, 20, 13, 5, 7, 3, 1, 11, 19, 1900, 3,
                24, 30, 36), EthScanFollow.combined(first, second));
    }

    /**
     * A one-off scan whose checkpoint's last block was reorganised away says so without advising a rerun from that
     * checkpoint, which would fail the same way every time (found by a review), and without claiming a depth: the
     * checkpoint may have been written with fewer confirmations than this run's.
     */
    @Test
    void aScanAfterAReorganisationBelowItsCheckpointDoesNotAdviseResumingFromIt(@TempDir Path dir) {
        String watched = chain.eventSources().get(0);
        long end = head();
        String checkpoint = dir.resolve("c").toString();
        String[] args = {"eth", "scan", "--rpc", chain.node().url(), "--from", Long.toString(end - 5), "--to",
            Long.toString(end), "--confirmations", "0", "--checkpoint", checkpoint, "--address", watched, "--quiet"};
        CliRun first = CliRun.of(args);
        assertEquals(0, first.status, first::toString);
        reorganise(2, fire(watched, TRANSFER));
        args[7] = Long.toString(end + 5);
        args[9] = "12";
        CliRun again = CliRun.of(args);
        assertEquals(1, again.status, again::toString);
        assertTrue(again.err.strip().startsWith("chainfilter: block " + end + " now has hash "), again.err);
        assertTrue(again.err.strip().endsWith(": the chain reorganised below the checkpoint; rescan from an earlier"
                + " block with a new checkpoint (and more confirmations)"), again.err);
    }

    @Test
    void aCheckpointAlreadyPastTheLastBlockScansNothing(@TempDir Path dir) {
        String watched = chain.eventSources().get(0);
        long end = head();
        String checkpoint = dir.resolve("c").toString();
        CliRun first = CliRun.of("eth", "scan", "--rpc", chain.node().url(), "--from", Long.toString(end - 5),
                "--to", Long.toString(end - 2), "--confirmations", "0", "--checkpoint", checkpoint, "--address",
                watched, "--quiet");
        assertEquals(0, first.status, first::toString);
        Background again = Background.start("eth", "scan", "--rpc", chain.node().url(), "--from",
                Long.toString(end - 5), "--follow", "--until-block", Long.toString(end - 3), "--confirmations", "0",
                "--checkpoint", checkpoint, "--address", watched);
        assertEquals(0, again.status(), again::toString);
        assertEquals("", again.out());
        assertTrue(again.err().strip().endsWith("follow block " + (end - 3) + " reached; last scanned block "
                + (end - 2) + "; resume with --from " + (end - 1) + " or the same --checkpoint"), again.err());
    }

    @Test
    void aClosedStdoutEndsTheFollowBeforeTheCheckpointPassesTheLostLog(@TempDir Path dir) {
        String watched = chain.eventSources().get(2);
        long end = head();
        Path checkpoint = dir.resolve("follow.checkpoint");
        String[] args = {"eth", "scan", "--rpc", chain.node().url(), "--from", "0", "--follow", "--until-block",
            Long.toString(end), "--confirmations", "0", "--poll-interval", "20ms", "--batch", "4", "--checkpoint",
            checkpoint.toString(), "--address", watched, "--topic", transfer(), "--quiet"};
        EthScanCommandTest.assertClosedStdoutLosesNothing(anvilLogs(watched, 0, end), checkpoint, args, () -> {
            Background again = Background.start(args);
            assertEquals(0, again.status(), again::toString);
            return again.out();
        });
    }

    /**
     * The order Ctrl-C depends on: a failure of the batch in progress (here the node refuses the call) is printed
     * before the follow lets the shutdown hook return (after which the JVM may halt), and the process ends with the
     * failure's status. The hook's work runs on a thread here; the node's answer is held back until that thread
     * waits.
     */
    @Test
    void anErrorWhileStoppingIsPrintedBeforeTheShutdownHookReturns() throws Exception {
        CountDownLatch asked = new CountDownLatch(1);
        CountDownLatch answer = new CountDownLatch(1);
        HttpService failing = new HttpService("http://127.0.0.1:1") {
            @Override
            public <T extends Response> T send(Request request, Class<T> type) {
                asked.countDown();
                await(answer);
                EthBlockNumber refused = new EthBlockNumber();
                refused.setId(request.getId());
                refused.setJsonrpc("2.0");
                refused.setError(new Response.Error(-32601, "the method eth_blockNumber does not exist/is not"
                        + " available"));
                return type.cast(refused);
            }
        };
        StringWriter err = new StringWriter();
        List<Integer> halted = new CopyOnWriteArrayList<>();
        EthScanFollow follow = follow(failing, LogFilter.builder().build(), 0, Long.MAX_VALUE, new StringWriter(), err,
                1, 100, () -> { }, halted::add);
        CompletableFuture<Integer> status = CompletableFuture.supplyAsync(follow::run);
        await(asked);
        AtomicReference<String> errWhenTheHookReturned = new AtomicReference<>();
        Thread hook = new Thread(() -> {
            follow.shutdownHook();
            errWhenTheHookReturned.set(err.toString());
        });
        hook.start();
        awaitCondition(() -> hook.getState() == Thread.State.TIMED_WAITING, () -> "the hook is " + hook.getState());
        answer.countDown();
        hook.join(WAIT.toMillis());
        assertEquals(1, status.get(WAIT.toSeconds(), TimeUnit.SECONDS), err::toString);
        assertEquals(List.of(1), halted, "the process ends with the failure's status, not the signal's");
        String printed = errWhenTheHookReturned.get();
        assertTrue(printed != null && printed.strip().endsWith("chainfilter: eth_blockNumber failed: error -32601: the"
                + " method eth_blockNumber does not exist/is not available (follow: no block scanned)"), printed);
    }

    /**
     * A stop whose cancellation ends the call in flight (it fails as a cancelled OkHttp call does, with an
     * IOException) is a stop, also when that was the call's last attempt ({@code --retries 1}): no retry, status 0
     * (the signal's, no halt), and the stop's words, not an error.
     */
    @Test
    void aCallEndedByTheStopOnItsLastAttemptIsAStopNotAnError() throws Exception {
        CountDownLatch asked = new CountDownLatch(1);
        CountDownLatch cancelled = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        HttpService held = new HttpService("http://127.0.0.1:1") {
            @Override
            public <T extends Response> T send(Request request, Class<T> type) throws IOException {
                calls.incrementAndGet();
                asked.countDown();
                await(cancelled);
                throw new IOException("Canceled");
            }
        };
        StringWriter err = new StringWriter();
        EthScanFollow follow = follow(held, LogFilter.builder().build(), 0, Long.MAX_VALUE, new StringWriter(), err,
                1, 100, cancelled::countDown, halted -> fail("halted " + halted));
        CompletableFuture<Integer> status = CompletableFuture.supplyAsync(follow::run);
        await(asked);
        follow.shutdownHook();
        assertEquals(0, status.get(WAIT.toSeconds(), TimeUnit.SECONDS), err::toString);
        assertEquals(1, calls.get());
        assertTrue(err.toString().strip().endsWith("follow stopped by a signal; no block scanned; resume with --from 0"),
                err::toString);
    }

    @Test
    void aHeadThatDropsBelowTheLastScannedBlockIsWaitedForNotFatal() throws Exception {
        String watched = chain.eventSources().get(1);
        long start = head();
        LaggingHead service = new LaggingHead(chain.node().url(), start - 2, 3);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        LogFilter filter = LogFilter.builder().address(Hex.decode(watched)).topic(0, Hex.decode(transfer())).build();
        EthScanFollow follow = follow(service, filter, start - 6, start + 1, out, err);
        CompletableFuture<Integer> status = CompletableFuture.supplyAsync(follow::run);
        awaitCondition(() -> service.lies.get() == 0 || status.isDone(), err::toString);
        mine(List.of(fire(watched, TRANSFER)));
        assertEquals(0, status.get(WAIT.toSeconds(), TimeUnit.SECONDS), err::toString);
        assertEquals(anvilLogs(watched, start - 6, start + 1), EthScanCommandTest.printedLogs(out.toString()));
        String waiting = "the node's head " + (start - 2) + " is below the last scanned block " + start
                + "; waiting for it to catch up";
        assertEquals(1, err.toString().split(Pattern.quote(waiting), -1).length - 1, err::toString);
        assertTrue(err.toString().strip().endsWith("follow block " + (start + 1) + " reached; last scanned block "
                + (start + 1) + "; resume with --from " + (start + 2)), err::toString);
    }

    /**
     * When the follow waits, with the waits scripted instead of the clock: one poll interval once a pass has caught up
     * with the head, after a pass the node did not answer, and while its head is below the last scanned block; none
     * between the full passes (of 2 blocks here) that catch up, nor after the last block. A head that lags again after
     * a pass is said again. Each wait's action moves the script on: the next head answered lags or fails, or a block
     * is mined. (Not waiting during an outage or while the head lagged, waiting after full passes too, never waiting
     * once caught up, not saying the second lagging head, and passes of one block more each passed every test: from
     * a mutation review.)
     */
    @Test
    void theFollowWaitsAPollIntervalOnlyWhenCaughtUpOrWaitingForTheNode() {
        String watched = chain.eventSources().get(1);
        long start = head();
        ScriptedHead service = new ScriptedHead();
        List<Runnable> script = List.of(
                () -> service.next.set(start - 2),
                () -> mine(List.of(fire(watched, TRANSFER))),
                () -> service.next.set(ScriptedHead.FAILS),
                () -> service.next.set(start - 1),
                () -> mine(List.of(fire(watched, TRANSFER))));
        List<Duration> waits = new ArrayList<>();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        LogFilter filter = LogFilter.builder().address(Hex.decode(watched)).topic(0, Hex.decode(transfer())).build();
        EthScanFollow follow = follow(service, new EthScanFollow.MemoryCheckpointStore(), filter, start - 4,
                start + 2, null, 2, out, err, 1, 100, () -> { }, halted -> fail("halted " + halted));
        int status = follow.waitingWith((stop, interval) -> {
            waits.add(interval);
            if (waits.size() > script.size()) {
                return true;
            }
            script.get(waits.size() - 1).run();
            return false;
        }).run();
        assertEquals(0, status, err::toString);
        assertEquals(Collections.nCopies(script.size(), Duration.ofMillis(20)), waits, err::toString);
        // A pass per poll of the head: three of 2 blocks up to start + 1, then one per wait but the outage's.
        assertEquals(8, service.calls.get(), err::toString);
        assertEquals(anvilLogs(watched, start - 4, start + 2), EthScanCommandTest.printedLogs(out.toString()));
        for (long[] lag : new long[][] {{start - 2, start}, {start - 1, start + 1}}) {
            String waiting = "the node's head " + lag[0] + " is below the last scanned block " + lag[1]
                    + "; waiting for it to catch up";
            assertEquals(1, err.toString().split(Pattern.quote(waiting), -1).length - 1, err::toString);
        }
        assertTrue(err.toString().contains("the node does not answer (eth_blockNumber failed once (retry limit 1);"
                + " last error: IOException: connection refused); still following, last scanned block " + (start + 1)
                + "; next pass in 20ms"), err::toString);
        assertTrue(err.toString().contains("the node answers again, after 1 failed pass"), err::toString);
        assertTrue(err.toString().strip().endsWith("follow block " + (start + 2) + " reached; last scanned block "
                + (start + 2) + "; resume with --from " + (start + 3)), err::toString);
    }

    /**
     * A checkpoint the follow cannot start from (written for another filter) ends it naming no block as scanned (it
     * named the --from block, with a mutant that started the last scanned block there: from a mutation review).
     */
    @Test
    void aFollowThatCannotStartNamesNoBlockAsScanned() {
        LogFilter filter = LogFilter.builder().address(Hex.decode(chain.eventSources().get(0))).build();
        LogFilter other = LogFilter.builder().address(Hex.decode(chain.eventSources().get(1))).build();
        EthScanFollow.MemoryCheckpointStore checkpoints = new EthScanFollow.MemoryCheckpointStore();
        checkpoints.save(new Checkpoint(8, "0x" + "ab".repeat(32), Checkpoint.fingerprint(other)));
        StringWriter err = new StringWriter();
        int status = follow(new HttpService("http://127.0.0.1:1"), checkpoints, filter, 5, Long.MAX_VALUE, null,
                100, new StringWriter(), err, 1, 100, () -> { }, halted -> fail("halted " + halted)).run();
        assertEquals(1, status, err::toString);
        assertTrue(err.toString().strip().endsWith("; use a new checkpoint for a new filter (follow: no block"
                + " scanned)"), err::toString);
    }

    /** A follow with no confirmations and an in-memory checkpoint over {@code service}, one attempt per call. */
    private static EthScanFollow follow(HttpService service, LogFilter filter, long from, long until,
                                        StringWriter out, StringWriter err) {
        return follow(service, filter, from, until, out, err, 1, 100, () -> { }, status -> fail("halted " + status));
    }

    /**
     * A follow with no confirmations and an in-memory checkpoint over {@code service}: {@code attempts} per call,
     * passes of 100 blocks in header batches of {@code headerBatch}.
     */
    private static EthScanFollow follow(HttpService service, LogFilter filter, long from, long until,
                                        StringWriter out, StringWriter err, int attempts, int headerBatch,
                                        Runnable cancelCalls, IntConsumer halt) {
        return follow(service, new EthScanFollow.MemoryCheckpointStore(), filter, from, until, null, 100, out, err,
                attempts, headerBatch, cancelCalls, halt);
    }

    /** As above, with this checkpoint store, {@code --max-new-blocks} (or null) and passes of {@code passBlocks}. */
    private static EthScanFollow follow(HttpService service, EthScanFollow.MemoryCheckpointStore checkpoints,
                                        LogFilter filter, long from, long until, Long maxNewBlocks, int passBlocks,
                                        StringWriter out, StringWriter err, int attempts, int headerBatch,
                                        Runnable cancelCalls, IntConsumer halt) {
        return follow(service, checkpoints, filter, from, until, maxNewBlocks, passBlocks, out, err, attempts,
                headerBatch, new EthScanFollow.Hooks(cancelCalls, halt, away -> { }));
    }

    /** As above, with these hooks. */
    private static EthScanFollow follow(HttpService service, EthScanFollow.MemoryCheckpointStore checkpoints,
                                        LogFilter filter, long from, long until, Long maxNewBlocks, int passBlocks,
                                        StringWriter out, StringWriter err, int attempts, int headerBatch,
                                        EthScanFollow.Hooks hooks) {
        BlockScanner scanner = BlockScanner.builder(service).confirmations(0).checkpoints(checkpoints)
                .headerBatchSize(headerBatch)
                .retryPolicy(RetryPolicy.of(attempts, Duration.ofMillis(1), Duration.ofMillis(1))).build();
        return new EthScanFollow(scanner, checkpoints, filter, from, null, until, maxNewBlocks, passBlocks, 0,
                Duration.ofMillis(20), new PrintWriter(out), new PrintWriter(err), UnaryOperator.identity(), hooks);
    }

    /**
     * A pass that ends in an error after some of its batches were printed and checkpointed (a pass of 100 blocks
     * in header batches of 2 here; with {@code --index}, a pass across two sections) names the block the checkpoint
     * reached, not the end of the pass before: resuming after the block named prints nothing twice.
     */
    @Test
    void aPassThatFailsAfterItsFirstBatchNamesTheBlockItsCheckpointReached() throws Exception {
        String watched = chain.eventSources().get(0);
        mine(List.of(fire(watched, TRANSFER)));
        long start = head();
        HttpService service = failingTheHeaderOf(start - 1, () -> new IOException("connection reset"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        LogFilter filter = LogFilter.builder().address(Hex.decode(watched)).topic(0, Hex.decode(transfer())).build();
        int status = follow(service, filter, start - 3, start, out, err, 1, 2, () -> { },
                halted -> fail("halted")).run();
        assertEquals(1, status, err::toString);
        assertEquals(anvilLogs(watched, start - 3, start - 2), EthScanCommandTest.printedLogs(out.toString()));
        assertTrue(err.toString().strip().endsWith("connection reset (follow: last scanned block " + (start - 2)
                + ")"), err::toString);
    }

    /** Anvil, but a batch asking for the header of {@code block} fails with what {@code failure} gives. */
    private static HttpService failingTheHeaderOf(long block, Supplier<IOException> failure) {
        String number = "0x" + Long.toHexString(block);
        return new HttpService(chain.node().url()) {
            @Override
            public BatchResponse sendBatch(BatchRequest batch) throws IOException {
                for (Request<?, ?> request : batch.getRequests()) {
                    if (request.getMethod().equals("eth_getBlockByNumber")
                            && request.getParams().get(0).equals(number)) {
                        throw failure.get();
                    }
                }
                return super.sendBatch(batch);
            }
        };
    }

    /**
     * A pass cut short by a failed call after its first batch (headers in batches of 2; the header of block
     * {@code start + 3} fails once): the report still counts that batch's blocks, so its range and count reach the
     * last scanned block.
     */
    @Test
    void theReportCountsTheBlocksOfAPassCutShort() throws Exception {
        String watched = chain.eventSources().get(0);
        long start = head();
        chain.node().rpc("anvil_mine", 4);
        String failOnce = "0x" + Long.toHexString(start + 3);
        AtomicBoolean failed = new AtomicBoolean();
        AtomicInteger headCalls = new AtomicInteger();
        HttpService service = new HttpService(chain.node().url()) {
            @Override
            public <T extends Response> T send(Request request, Class<T> type) throws IOException {
                if (request.getMethod().equals("eth_blockNumber") && headCalls.incrementAndGet() == 1) {
                    // The first pass sees the head as it was: blocks start + 1.. come in the second, all four.
                    return type.cast(headAnswer(request, start));
                }
                return super.send(request, type);
            }

            @Override
            public BatchResponse sendBatch(BatchRequest batch) throws IOException {
                for (Request<?, ?> request : batch.getRequests()) {
                    if (request.getMethod().equals("eth_getBlockByNumber")
                            && request.getParams().get(0).equals(failOnce) && !failed.getAndSet(true)) {
                        throw new IOException("connection reset");
                    }
                }
                return super.sendBatch(batch);
            }
        };
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        LogFilter filter = LogFilter.builder().address(Hex.decode(watched)).topic(0, Hex.decode(transfer())).build();
        List<Boolean> outageSaid = new ArrayList<>();
        int status = follow(service, new EthScanFollow.MemoryCheckpointStore(), filter, start - 7, start + 4, null,
                100, out, err, 1, 2, new EthScanFollow.Hooks(() -> { }, halted -> fail("halted"), outageSaid::add))
                .run();
        assertEquals(0, status, err::toString);
        // One failed call is not an outage: the command is never told to stop printing retries, only (harmlessly)
        // that the node answers again (told of an outage too, with a mutant that took "a call failed" for one: from
        // a mutation review).
        assertEquals(List.of(false), outageSaid, err::toString);
        assertEquals(anvilLogs(watched, start - 7, start + 4), EthScanCommandTest.printedLogs(out.toString()));
        assertTrue(err.toString().contains("a call failed (eth_getBlockByNumber " + (start + 3) + ".." + (start + 4)
                + " failed once (retry limit 1); last error: batch of 2: IOException: connection reset); still"
                + " following, last scanned block " + (start + 2)), err::toString);
        assertTrue(err.toString().contains("blocks " + (start - 7) + ".." + (start + 4) + " scanned (12 blocks)"),
                err::toString);
    }

    /**
     * A node that stops answering after the follow's first pass (every call fails, past the retry limit) is waited
     * out: the follow says so once, goes on polling, says when the node is back, and prints the next block's log
     * once. Before the first pass, the same failure ends the follow ({@link #anErrorWhileStoppingIsPrintedBeforeTheShutdownHookReturns}).
     */
    @Test
    void aNodeThatStopsAnsweringAfterTheFirstPassIsWaitedOut() throws Exception {
        String watched = chain.eventSources().get(2);
        long start = head();
        AtomicInteger headCalls = new AtomicInteger();
        AtomicInteger failuresLeft = new AtomicInteger(5);
        HttpService service = new HttpService(chain.node().url()) {
            @Override
            public <T extends Response> T send(Request request, Class<T> type) throws IOException {
                if (request.getMethod().equals("eth_blockNumber") && headCalls.incrementAndGet() > 1
                        && failuresLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                    throw new IOException("connection refused");
                }
                return super.send(request, type);
            }
        };
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        LogFilter filter = LogFilter.builder().address(Hex.decode(watched)).topic(0, Hex.decode(transfer())).build();
        EthScanFollow follow = follow(service, filter, start - 2, start + 1, out, err, 1, 100, () -> { },
                halted -> fail("halted"));
        CompletableFuture<Integer> status = CompletableFuture.supplyAsync(follow::run);
        awaitCondition(() -> err.toString().contains("the node answers again") || status.isDone(), err::toString);
        mine(List.of(fire(watched, TRANSFER)));
        assertEquals(0, status.get(WAIT.toSeconds(), TimeUnit.SECONDS), err::toString);
        List<String> expected = anvilLogs(watched, start - 2, start + 1);
        assertTrue(!anvilLogs(watched, start + 1, start + 1).isEmpty());
        assertEquals(expected, EthScanCommandTest.printedLogs(out.toString()));
        String down = "the node does not answer (eth_blockNumber failed once (retry limit 1); last error: IOException:"
                + " connection refused); still following, last scanned block " + start + "; next pass in 20ms";
        assertEquals(1, err.toString().split(Pattern.quote(down), -1).length - 1, err::toString);
        assertTrue(err.toString().contains("the node answers again, after 5 failed passes"), err::toString);
        assertTrue(err.toString().strip().endsWith("follow block " + (start + 1) + " reached; last scanned block "
                + (start + 1) + "; resume with --from " + (start + 2)), err::toString);
    }

    /**
     * The command through a proxy that answers HTTP 503 while the test says the node is down: after the first
     * failed pass (its retries printed) the follow says once that the node does not answer, prints no retry of the
     * later failed passes, says when the node is back, and prints the next block's log.
     */
    @Test
    void theCommandWaitsOutAnOutageWithoutRepeatingItsRetries() throws IOException {
        String watched = chain.eventSources().get(2);
        long start = head();
        AtomicBoolean down = new AtomicBoolean();
        try (FaultProxy proxy = new FaultProxy(chain.node().url(), FaultProxy.Script.transports((number, body) ->
                down.get() ? FaultProxy.Transport.HTTP_503 : FaultProxy.Transport.PASS), Duration.ZERO)) {
            Background run = Background.start("eth", "scan", "--rpc", proxy.url(), "--from", Long.toString(start - 3),
                    "--follow", "--until-block", Long.toString(start + 1), "--confirmations", "0", "--poll-interval",
                    "20ms", "--retries", "2", "--address", watched, "--topic", transfer());
            run.awaitScannedUpTo(start);
            down.set(true);
            awaitCondition(() -> run.err().contains("the node does not answer"), run::toString);
            int faultsWhenSaid = proxy.faults();
            awaitCondition(() -> proxy.faults() >= faultsWhenSaid + 8, run::toString);
            down.set(false);
            awaitCondition(() -> run.err().contains("the node answers again"), run::toString);
            mine(List.of(fire(watched, TRANSFER)));
            assertEquals(0, run.status(), run::toString);
            assertEquals(anvilLogs(watched, start - 3, start + 1), run.printed(), run::toString);
            String err = run.err();
            String during = err.substring(err.indexOf("the node does not answer"), err.indexOf("the node answers again"));
            assertEquals(1, during.lines().count(), "nothing between the two lines: " + err);
            assertTrue(err.substring(0, err.indexOf("the node does not answer")).contains("retrying eth_blockNumber in"
                    + " 250 ms (failure 1: ClientConnectionException: Invalid response received: 503;"), err);
            // The report counts the retries of the failed passes too (it said 0: found by a review); with --retries
            // 2 each failed pass retried its call once.
            java.util.regex.Matcher retries = Pattern.compile("; retries (\\d+),").matcher(err);
            assertTrue(retries.find(), err);
            long failedPasses = Long.parseLong(err.replaceAll("(?s).*the node answers again, after (\\d+) failed.*",
                    "$1"));
            assertTrue(failedPasses >= 2 && Long.parseLong(retries.group(1)) >= failedPasses, err);
        }
    }

    /**
     * Which failed passes a follow waits out: none before a pass has finished; a node that answers nothing for as long
     * as that lasts, said once; a call that fails while the node answers others once, not twice in a row (a node that
     * went away during the pass shows it in the next, answering nothing).
     */
    @Test
    void anOutageIsWaitedOutButACallThatFailsAloneTwiceInARowEndsTheFollow() {
        RetriesExhaustedException away = new RetriesExhaustedException("eth_blockNumber failed", false);
        RetriesExhaustedException alone = new RetriesExhaustedException("eth_getLogs failed", true);
        EthScanFollow.Outage outage = new EthScanFollow.Outage();
        assertSame(away, assertThrows(RetriesExhaustedException.class, () -> outage.failed(away)));
        assertEquals(0, outage.passed());
        assertEquals("a call failed", outage.failed(alone));
        assertEquals("the node does not answer", outage.failed(away));
        assertEquals(null, outage.failed(away));
        assertSame(alone, assertThrows(RetriesExhaustedException.class, () -> outage.failed(alone)),
                "a call that failed alone, then the node away, then the call alone again: not an outage");

        EthScanFollow.Outage later = new EthScanFollow.Outage();
        assertEquals(0, later.passed());
        assertEquals("the node does not answer", later.failed(away));
        assertEquals(null, later.failed(away));
        assertEquals(2, later.passed());
        assertEquals("the node does not answer", later.failed(away), "said again in a new outage");
        assertEquals("a call failed", later.failed(alone));
        assertEquals(null, later.failed(away));
        assertEquals(3, later.passed());
        assertEquals("a call failed", later.failed(alone), "once again after a pass that finished");
        assertEquals("the node does not answer", later.failed(away));
        assertEquals(2, later.answered(), "the node answered the head, below the last scanned block");
        assertEquals("the node does not answer", later.failed(away), "a new outage");
        assertSame(alone, assertThrows(RetriesExhaustedException.class, () -> later.failed(alone)),
                "the head answered is not a pass that finished");
    }

    /**
     * Ctrl-C while a call fails: the stop cancels the calls in flight (here the transport's cancellation ends the
     * held call) and the failed call is not retried, though six attempts remain; the follow ends as stopped, at the
     * last checkpointed block, with the signal's status (no halt).
     */
    @Test
    void aStopCancelsTheCallInFlightAndRetriesNothing() throws Exception {
        String watched = chain.eventSources().get(1);
        long start = head();
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch cancelled = new CountDownLatch(1);
        AtomicInteger headCalls = new AtomicInteger();
        HttpService service = new HttpService(chain.node().url()) {
            @Override
            public <T extends Response> T send(Request request, Class<T> type) throws IOException {
                if (request.getMethod().equals("eth_blockNumber") && headCalls.incrementAndGet() > 1) {
                    throw heldUntilCancelled(held, cancelled);
                }
                return super.send(request, type);
            }
        };
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        stopWhileHeld(service, held, cancelled, watched, start - 2, out, err);
        assertEquals(2, headCalls.get(), "eth_blockNumber calls: the first pass's and the one cancelled");
        assertEquals(anvilLogs(watched, start - 2, start), EthScanCommandTest.printedLogs(out.toString()));
        assertTrue(err.toString().strip().endsWith("follow stopped by a signal; last scanned block " + start
                + "; resume with --from " + (start + 1)), err::toString);
    }

    /**
     * A stop while the first pass's first header batch is in flight: nothing was scanned, so the follow prints no
     * report, only that no block was scanned (it printed a report of 0 blocks, with a mutant that added a cancelled
     * pass's empty summary to the totals: from a mutation review).
     */
    @Test
    void aStopBeforeTheFirstBlockIsScannedPrintsNoReport() throws Exception {
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch cancelled = new CountDownLatch(1);
        HttpService service = new HttpService(chain.node().url()) {
            @Override
            public BatchResponse sendBatch(BatchRequest batch) throws IOException {
                throw heldUntilCancelled(held, cancelled);
            }
        };
        long start = head();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        stopWhileHeld(service, held, cancelled, chain.eventSources().get(1), start - 2, out, err);
        assertEquals("", out.toString());
        assertFalse(err.toString().contains(" scanned ("), err::toString);
        assertTrue(err.toString().strip().endsWith("follow stopped by a signal; no block scanned; resume with --from "
                + (start - 2)), err::toString);
    }

    /** Holds a call: counts {@code held} down, waits for {@code cancelled} and gives the transport's cancel error. */
    private static IOException heldUntilCancelled(CountDownLatch held, CountDownLatch cancelled) {
        held.countDown();
        await(cancelled);
        return new IOException("Canceled");
    }

    /**
     * Follows the Transfer logs of {@code watched} from {@code from} over {@code service} (7 attempts a call), stops
     * the follow once {@code held} is counted down (the service then waits for {@code cancelled}, which the stop's
     * cancellation of calls in flight counts down) and checks that it ended with status 0.
     */
    private static void stopWhileHeld(HttpService service, CountDownLatch held, CountDownLatch cancelled,
                                      String watched, long from, StringWriter out, StringWriter err) throws Exception {
        LogFilter filter = LogFilter.builder().address(Hex.decode(watched)).topic(0, Hex.decode(transfer())).build();
        EthScanFollow follow = follow(service, filter, from, Long.MAX_VALUE, out, err, 7, 100, cancelled::countDown,
                halted -> fail("halted " + halted));
        CompletableFuture<Integer> status = CompletableFuture.supplyAsync(follow::run);
        await(held);
        follow.shutdownHook();
        assertEquals(0, status.get(WAIT.toSeconds(), TimeUnit.SECONDS), err::toString);
    }

    /**
     * A stop while the second header batch of a pass is in flight (passes of 100 blocks in header batches of 2; the
     * first batch printed and checkpointed): the follow names the block the checkpoint reached, so resuming after it
     * repeats nothing (it named the block before the pass, with a mutant that did not read the checkpoint after a
     * cancelled pass: from a mutation review).
     */
    @Test
    void aStopDuringAPassNamesTheBlockItsCheckpointReached() throws Exception {
        String watched = chain.eventSources().get(0);
        mine(List.of(fire(watched, TRANSFER)));
        long start = head();
        CountDownLatch cancelled = new CountDownLatch(1);
        AtomicReference<EthScanFollow> follow = new AtomicReference<>();
        Thread hook = new Thread(() -> follow.get().shutdownHook());
        HttpService service = failingTheHeaderOf(start - 1, () -> {
            hook.start();
            await(cancelled);
            return new IOException("Canceled");
        });
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        LogFilter filter = LogFilter.builder().address(Hex.decode(watched)).topic(0, Hex.decode(transfer())).build();
        follow.set(follow(service, new EthScanFollow.MemoryCheckpointStore(), filter, start - 3, start, null, 100,
                out, err, 7, 2, cancelled::countDown, halted -> fail("halted " + halted)));
        assertEquals(0, follow.get().run(), err::toString);
        hook.join(WAIT.toMillis());
        assertEquals(anvilLogs(watched, start - 3, start - 2), EthScanCommandTest.printedLogs(out.toString()));
        assertTrue(err.toString().contains("blocks " + (start - 3) + ".." + (start - 2) + " scanned (2 blocks)"),
                err::toString);
        assertTrue(err.toString().strip().endsWith("follow stopped by a signal; last scanned block " + (start - 2)
                + "; resume with --from " + (start - 1)), err::toString);
    }

    /**
     * Anvil, but the next {@code eth_blockNumber} answers {@link #next} once that is set: a head, or {@link #FAILS}
     * (the call fails as a refused connection does). Every call after the 30th fails: a follow that polls without
     * waiting ends as an outage its test does not expect instead of polling for ever.
     */
    private static final class ScriptedHead extends HttpService {
        static final long FAILS = -1;
        final AtomicLong next = new AtomicLong(Long.MIN_VALUE);
        final AtomicInteger calls = new AtomicInteger();

        ScriptedHead() {
            super(chain.node().url());
        }

        @Override
        public <T extends Response> T send(Request request, Class<T> type) throws IOException {
            if (request.getMethod().equals("eth_blockNumber")) {
                long scripted = next.getAndSet(Long.MIN_VALUE);
                if (calls.incrementAndGet() > 30 || scripted == FAILS) {
                    throw new IOException("connection refused");
                }
                if (scripted != Long.MIN_VALUE) {
                    return type.cast(headAnswer(request, scripted));
                }
            }
            return super.send(request, type);
        }
    }

    /**
     * A load-balanced provider: {@code eth_blockNumber} calls 2 to {@code 1 + lies} are answered by a backend whose
     * head is {@code laggingHead}; everything else by the node.
     */
    private static final class LaggingHead extends HttpService {
        final AtomicInteger lies;
        private final AtomicInteger headCalls = new AtomicInteger();
        private final long laggingHead;

        LaggingHead(String url, long laggingHead, int lies) {
            super(url);
            this.laggingHead = laggingHead;
            this.lies = new AtomicInteger(lies);
        }

        @Override
        public <T extends Response> T send(Request request, Class<T> type) throws IOException {
            if (request.getMethod().equals("eth_blockNumber") && headCalls.incrementAndGet() > 1
                    && lies.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                return type.cast(headAnswer(request, laggingHead));
            }
            return super.send(request, type);
        }
    }

    /** An {@code eth_blockNumber} answer to {@code request}: {@code head}. */
    private static EthBlockNumber headAnswer(Request<?, ?> request, long head) {
        EthBlockNumber answer = new EthBlockNumber();
        answer.setId(request.getId());
        answer.setJsonrpc("2.0");
        answer.setResult("0x" + Long.toHexString(head));
        return answer;
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(WAIT.toSeconds(), TimeUnit.SECONDS), "waited " + WAIT.toSeconds() + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static String transfer() {
        return TestChain.topic0("Transfer(address,address,uint256)");
    }

    private static long head() {
        return Long.decode(chain.node().rpc("eth_blockNumber").asText());
    }

    private static List<String> anvilLogs(String address, long from, long to) {
        return EthScanCommandTest.anvilLogs(chain, List.of(address), transfer(), from, to);
    }

    /** A call of {@code EventSource.fire}: Transfer, Approval or Note with fresh values. */
    private static Map<String, String> fire(String contract, int kind) {
        String data = FIRE + word(kind) + pad(TestChain.PARTIES.get(0)) + pad(TestChain.PARTIES.get(1))
                + TestChain.WORDS.get(0).substring(2) + TestChain.WORDS.get(1).substring(2) + word(++value);
        return Map.of("from", account, "to", contract, "gas", "0x4c4b40", "data", data);
    }

    /** One new block with these transactions (the chain does not automine). */
    private static void mine(List<Map<String, String>> transactions) {
        List<Object[]> sends = new ArrayList<>();
        for (Map<String, String> transaction : transactions) {
            sends.add(new Object[] {transaction});
        }
        chain.node().rpcBatch("eth_sendTransaction", sends);
        chain.node().rpc("evm_mine");
    }

    /** {@code anvil_reorg}: the last {@code depth} blocks replaced, the first one holding these transactions. */
    @SafeVarargs
    private static void reorganise(int depth, Map<String, String>... transactions) {
        List<Object> pairs = new ArrayList<>();
        for (int i = 0; i < transactions.length; i++) {
            pairs.add(List.of(transactions[i], Math.min(i, depth - 1)));
        }
        chain.node().rpc("anvil_reorg", depth, pairs);
    }

    /**
     * Ctrl-C: SIGINT, exit status 130. A child whose parent ignores SIGINT (a background job of a non-interactive
     * shell) inherits the ignore and the JVM then installs no handler for it; there SIGTERM (143) is sent, which runs
     * the same shutdown hooks. Returns the exit status the signal gives.
     */
    private static int interrupt(Process process) throws IOException, InterruptedException {
        Path status = Path.of("/proc", Long.toString(process.pid()), "status");
        if (Files.isReadable(status)) {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("SigIgn:") && (Long.parseUnsignedLong(line.substring(7).strip(), 16) & 2) == 0) {
                    Process kill = new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).start();
                    assertTrue(kill.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -INT");
                    return 130;
                }
            }
        }
        process.destroy();
        return 143;
    }

    private static String word(long n) {
        return String.format("%064x", n);
    }

    private static String pad(String address) {
        return "0".repeat(24) + address.substring(2);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void awaitCondition(Supplier<Boolean> condition, Supplier<String> failure) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.get()) {
            if (System.nanoTime() > deadline) {
                fail("waited " + WAIT.toSeconds() + " s: " + failure.get());
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }

    /** The command running in-process on its own thread, its output readable while it runs. */
    private static final class Background {
        private final StringWriter out = new StringWriter();
        private final StringWriter err = new StringWriter();
        private final CompletableFuture<Integer> status;

        private Background(String... args) {
            status = CompletableFuture.supplyAsync(
                    () -> ChainfilterCommand.execute(new PrintWriter(out), new PrintWriter(err), args));
        }

        static Background start(String... args) {
            return new Background(args);
        }

        /** Waits until a progress line says the command has scanned up to {@code block}, and not beyond it. */
        void awaitScannedUpTo(long block) {
            awaitCondition(() -> lastScanned() >= block || status.isDone(), this::toString);
            assertEquals(block, lastScanned(), this::toString);
        }

        private long lastScanned() {
            long last = -1;
            for (Matcher progress = PROGRESS.matcher(err()); progress.find(); ) {
                last = Math.max(last, Long.parseLong(progress.group(1)));
            }
            return last;
        }

        int status() {
            try {
                return status.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                return fail("still running after " + WAIT.toSeconds() + " s: " + this);
            } catch (InterruptedException | ExecutionException e) {
                throw new IllegalStateException(e);
            }
        }

        String out() {
            return out.toString();
        }

        String err() {
            return err.toString();
        }

        List<String> printed() {
            return EthScanCommandTest.printedLogs(out());
        }

        @Override
        public String toString() {
            return "stdout:\n" + out() + "\nstderr:\n" + err();
        }
    }
}
