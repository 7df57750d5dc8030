package org.chainfilter.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.chainfilter.common.Hex;
import org.chainfilter.ethbloom.LogFilter;
import org.chainfilter.ethbloom.scan.Checkpoint;
import org.chainfilter.ethbloom.scan.FileCheckpointStore;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The eth commands refuse a bad {@code --rpc} URL, option value, checkpoint file or index directory before they ask a
 * node anything, naming the option the user typed (not the library's parameter, "fromBlock" or "header batch size").
 * The node here is a closed port: a command that called it would print "retrying eth_blockNumber ..." and fail
 * with "connection refused" after its retries, not with the one line expected.
 */
class EthOptionCheckTest {
    private static final String NL = System.lineSeparator();
    private static String url;

    @BeforeAll
    static void closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            url = "http://127.0.0.1:" + socket.getLocalPort();
        }
    }

    @Test
    void aMalformedRpcUrlIsRefusedUpFrontByEveryCommand(@TempDir Path dir) {
        String rule = " is not an http:// or https:// URL with a host (and a port up to 65535, if any), e.g."
                + " http://127.0.0.1:8545";
        for (String bad : List.of("notaurl", "", "ftp://node:8545", "http://", "127.0.0.1:8545",
                "http://127.0.0.1:99999")) {
            assertRefused("--rpc '" + bad + "'" + rule, "eth", "scan", "--rpc", bad, "--from", "0");
            assertRefused("--rpc '" + bad + "'" + rule, "eth", "scan", "--rpc", bad, "--from", "0", "--follow");
            Path index = dir.resolve("index");
            assertRefused("--rpc '" + bad + "'" + rule, "eth", "index", "build", "--index", index.toString(),
                    "--rpc", bad);
            assertFalse(Files.exists(index), "the index directory was created for a URL that cannot work");
        }
    }

    @Test
    void scanOptionsAreNamedAsTyped() {
        Map<List<String>, String> refused = new LinkedHashMap<>();
        refused.put(List.of("--from", "-1"), "--from is -1; block numbers start at 0");
        refused.put(List.of("--from", "5", "--to", "4"), "--to 4 is below --from 5");
        refused.put(List.of("--from", "0", "--batch", "0"), "--batch is 0; it must be 1..1000");
        refused.put(List.of("--from", "0", "--batch", "1001"), "--batch is 1001; it must be 1..1000");
        refused.put(List.of("--from", "0", "--max-log-range", "0"), "--max-log-range is 0; it must be at least 1");
        refused.put(List.of("--from", "0", "--by-hash-max-run", "1001"),
                "--by-hash-max-run is 1001; it must be 0..1000");
        refused.put(List.of("--from", "0", "--confirmations", "-1"), "--confirmations is -1; it must not be negative");
        refused.put(List.of("--from", "0", "--retries", "0"), "--retries is 0; it must be at least 1");
        for (Map.Entry<List<String>, String> c : refused.entrySet()) {
            List<String> args = new ArrayList<>(List.of("eth", "scan", "--rpc", url));
            args.addAll(c.getKey());
            assertRefused(c.getValue(), args.toArray(String[]::new));
        }
    }

    /**
     * Options that do not go together are a malformed command line (status 2) also when a value is refused too: a
     * refused --address, --from or --rpc-timeout (status 1) hid them, the scan checking the combinations last.
     */
    @Test
    void optionsThatDoNotGoTogetherAreNamedBeforeARefusedValue() {
        String withoutFollow = "--until-block 9 is given without --follow; it only applies when following new blocks";
        String toAlone = "--to 9 with --follow only sets where --max-new-blocks starts counting; give"
                + " --max-new-blocks too, or --until-block 9 to stop at that block";
        Map<List<String>, String> refused = new LinkedHashMap<>();
        refused.put(List.of("--from", "0", "--until-block", "9", "--address", "zz"), withoutFollow);
        refused.put(List.of("--from", "-1", "--until-block", "9"), withoutFollow);
        refused.put(List.of("--from", "0", "--until-block", "9", "--rpc-timeout", "0"), withoutFollow);
        refused.put(List.of("--from", "0", "--follow", "--to", "9", "--address", "zz"), toAlone);
        refused.put(List.of("--from", "0", "--follow", "--to", "9", "--poll-interval", "5"), toAlone);
        for (Map.Entry<List<String>, String> c : refused.entrySet()) {
            List<String> args = new ArrayList<>(List.of("eth", "scan", "--rpc", url));
            args.addAll(c.getKey());
            CliRun run = CliRun.of(args.toArray(String[]::new));
            assertEquals(2, run.status, run::toString);
            assertEquals("chainfilter: " + c.getValue() + NL, run.err, run::toString);
            assertEquals("", run.out, run::toString);
        }
    }

    /**
     * The closed ends of the documented ranges are accepted: the command gets as far as the node (the closed port,
     * one attempt) instead of refusing the value. Refusing --batch 1000, --until-block equal to --from or --to,
     * --max-new-blocks 0 or --poll-interval 3600s passed every test, and a follow without --poll-interval could poll
     * at another pace than the documented 2 s (from a mutation review).
     */
    @Test
    void theEndsOfEveryRangeAreAcceptedAndTheFollowPollsEveryTwoSecondsByDefault(@TempDir Path dir) {
        String unreachable = "chainfilter: eth_blockNumber failed once (retry limit 1); last error: ConnectException";
        List<List<String>> accepted = List.of(
                List.of("eth", "scan", "--from", "4", "--to", "4"),
                List.of("eth", "scan", "--from", "0", "--batch", "1000", "--by-hash-max-run", "0"),
                List.of("eth", "scan", "--from", "5", "--follow", "--until-block", "5"),
                List.of("eth", "scan", "--from", "5", "--follow", "--to", "9", "--until-block", "9",
                        "--max-new-blocks", "0"),
                List.of("eth", "scan", "--from", "5", "--follow", "--poll-interval", "3600s", "--confirmations", "0"),
                List.of("eth", "index", "build", "--index", dir.resolve("index").toString(), "--batch", "1000",
                        "--confirmations", "0"));
        for (List<String> command : accepted) {
            List<String> args = new ArrayList<>(command);
            args.addAll(List.of("--rpc", url, "--retries", "1"));
            CliRun run = CliRun.of(args.toArray(String[]::new));
            assertEquals(1, run.status, run::toString);
            assertTrue(run.err.contains(unreachable), run::toString);
        }
        CliRun byDefault = CliRun.of("eth", "scan", "--rpc", url, "--from", "5", "--follow", "--retries", "1");
        assertTrue(byDefault.err.startsWith("following from block 5: 12 confirmations, polling every 2s" + NL),
                byDefault::toString);
    }

    @Test
    void aCheckpointThatCannotBeWrittenIsRefusedBeforeTheScan(@TempDir Path dir) {
        assertRefused("--checkpoint " + dir + " is a directory, not a file",
                "eth", "scan", "--rpc", url, "--from", "0", "--checkpoint", dir.toString());
        assertRefused("--checkpoint " + dir + " is a directory, not a file",
                "eth", "scan", "--rpc", url, "--from", "0", "--follow", "--checkpoint", dir.toString());
        Path orphan = dir.resolve("missing").resolve("scan.checkpoint");
        assertRefused("--checkpoint " + orphan + ": the directory " + orphan.getParent() + " does not exist",
                "eth", "scan", "--rpc", url, "--from", "0", "--checkpoint", orphan.toString());
    }

    /** A checkpoint file this command cannot resume from is refused before the node is asked (the port is closed). */
    @Test
    void aCheckpointThatCannotBeReadIsRefusedBeforeTheScan(@TempDir Path dir) throws IOException {
        Path other = Files.writeString(dir.resolve("other.checkpoint"), "some=thing\n");
        assertRefused("--checkpoint " + other + " is not a version-1 chainfilter eth scan checkpoint"
                + " (it has no line chainfilter-eth-scan-checkpoint=1)",
                "eth", "scan", "--rpc", url, "--from", "0", "--checkpoint", other.toString());
        Path broken = Files.writeString(dir.resolve("broken.checkpoint"),
                "chainfilter-eth-scan-checkpoint=1\nnextBlock=x\n");
        assertRefused("--checkpoint " + broken + " is malformed: nextBlock is 'x', not a decimal block number",
                "eth", "scan", "--rpc", url, "--from", "0", "--follow", "--checkpoint", broken.toString());
    }

    @Test
    void anIndexDirectoryThatDoesNotExistIsSaidSo(@TempDir Path dir) throws IOException {
        Path missing = dir.resolve("missing");
        assertRefused("--index " + missing + ": no such directory",
                "eth", "index", "query", "--index", missing.toString());
        assertRefused("--index " + missing + ": no such directory",
                "eth", "scan", "--rpc", url, "--from", "0", "--index", missing.toString());
        Path file = Files.writeString(dir.resolve("file"), "not an index");
        assertRefused("--index " + file + " is a file, not a directory",
                "eth", "index", "query", "--index", file.toString());
        assertRefused("--index " + file + " is a file, not a directory",
                "eth", "index", "build", "--index", file.toString(), "--rpc", url);
        assertRefused("--first-block is -1; block numbers start at 0",
                "eth", "index", "build", "--index", dir.resolve("new").toString(), "--rpc", url, "--first-block", "-1");
        assertRefused("--to is -1; block numbers start at 0",
                "eth", "index", "build", "--index", dir.resolve("new").toString(), "--rpc", url, "--to", "-1");
        assertFalse(Files.exists(dir.resolve("new")));
    }

    /**
     * The transport options are checked before the index directory is created, and an index a failed first run
     * created with no block in it is removed: a rerun may still choose its --first-block (a leftover index once
     * refused it, "the index starts at block 0, not 5"). A node that cannot be reached fails the same way.
     */
    @Test
    void aBuildThatAppendsNothingLeavesNoIndexBehind(@TempDir Path dir) throws IOException {
        Path index = dir.resolve("index");
        assertRefused("--retries is 0; it must be at least 1",
                "eth", "index", "build", "--index", index.toString(), "--rpc", url, "--retries", "0");
        assertFalse(Files.exists(index), "the index directory was created before --retries was checked");
        assertRefused("--rpc-timeout is 0 seconds; it must be 1..3600",
                "eth", "index", "build", "--index", index.toString(), "--rpc", url, "--rpc-timeout", "0");
        assertFalse(Files.exists(index), "the index directory was created before --rpc-timeout was checked");
        CliRun unreachable = CliRun.of("eth", "index", "build", "--index", index.toString(), "--rpc", url,
                "--retries", "1", "--first-block", "5");
        assertEquals(1, unreachable.status, unreachable::toString);
        assertFalse(Files.exists(index), "an index with no block was left behind by a node that cannot be reached");
        Path bad = dir.resolve("bad.txt");
        Files.writeString(bad, "5 0x12 0x34 0x56\n");
        assertRefused("line 1, HASH '0x12': hash is 1 bytes; it must be exactly 32 bytes",
                "eth", "index", "build", "--index", index.toString(), "--blooms", bad.toString(), "--first-block", "5");
        assertFalse(Files.exists(index), "an index with no block was left behind");
        // Into a directory the user made beforehand: the directory stays, the index's metadata does not.
        Files.createDirectory(index);
        assertRefused("line 1, HASH '0x12': hash is 1 bytes; it must be exactly 32 bytes",
                "eth", "index", "build", "--index", index.toString(), "--blooms", bad.toString(), "--first-block", "5");
        assertTrue(Files.isDirectory(index));
        assertFalse(Files.exists(index.resolve("index.meta")), "an index with no block was left behind");
        Files.delete(index);
        Files.write(bad, new byte[] {(byte) 0xff, (byte) 0xfe, ' ', '1', '\n'});
        assertRefused("--blooms " + bad + " is not UTF-8 text",
                "eth", "index", "build", "--index", index.toString(), "--blooms", bad.toString());
        assertFalse(Files.exists(index), "an index with no block was left behind");
    }

    /**
     * A checkpoint of another filter is refused before the node is asked anything (the URL here has no node), and
     * without the advice to rerun with the same --checkpoint, which could not help.
     */
    @Test
    void aCheckpointOfAnotherFilterIsRefusedUpFront(@TempDir Path dir) {
        Path file = dir.resolve("scan.checkpoint");
        new FileCheckpointStore(file).save(new Checkpoint(5, "0x" + "ab".repeat(32),
                Checkpoint.fingerprint(LogFilter.matchAll())));
        String topic = "0x" + "22".repeat(32);
        String fingerprint = Checkpoint.fingerprint(LogFilter.builder().topic(0, Hex.decode(topic)).build());
        assertRefused("--checkpoint " + file + " was written for another filter (fingerprint "
                + Checkpoint.fingerprint(LogFilter.matchAll()) + ", this one " + fingerprint
                + "); give a new --checkpoint file for a new filter",
                "eth", "scan", "--rpc", url, "--from", "0", "--topic", topic, "--checkpoint", file.toString());
    }

    @Test
    void missingInputFilesAreNamedByTheirOption(@TempDir Path dir) {
        Path missing = dir.resolve("missing.txt");
        Path index = dir.resolve("index");
        assertRefused("--blooms " + missing + ": no such file",
                "eth", "index", "build", "--index", index.toString(), "--blooms", missing.toString());
        assertFalse(Files.exists(index), "the index directory was created for a file that does not exist");
        assertRefused("FILE " + missing + ": no such file", "eth", "bloom", missing.toString());
    }

    @Test
    void indexQueryRangesAreNamedAsTyped(@TempDir Path dir) throws IOException {
        StringBuilder blooms = new StringBuilder();
        for (int n = 1; n <= 4; n++) {
            blooms.append(n).append(' ').append(String.format("0x%064x 0x%064x 0x", n, n - 1))
                    .append("00".repeat(256)).append('\n');
        }
        Path file = Files.writeString(dir.resolve("blooms.txt"), blooms);
        String index = dir.resolve("index").toString();
        CliRun build = CliRun.of("eth", "index", "build", "--index", index, "--blooms", file.toString(),
                "--first-block", "1");
        assertEquals(0, build.status, build::toString);
        assertRefused("--to 3 is below --from 4", "eth", "index", "query", "--index", index, "--from", "4", "--to", "3");
        assertRefused("--from 9 is outside the index, which covers blocks 1..4", "eth", "index", "query", "--index",
                index, "--from", "9");
        assertRefused("--to 0 is below the index's first block 1", "eth", "index", "query", "--index", index,
                "--to", "0");
        assertRefused("--from is -1; block numbers start at 0", "eth", "index", "query", "--index", index,
                "--from", "-1");
        // One past the index's last block is refused by the command, naming --to (from a mutation review).
        assertRefused("--to 5 is past the index's last block 4 (it covers blocks 1..4)", "eth", "index", "query",
                "--index", index, "--to", "5");
        // A range of one block (--to equal to --from) is a query, and a filter without an address or topic is said to
        // match every block; refusing the one-block range and leaving out the note passed every test (from a mutation
        // review).
        CliRun one = CliRun.of("eth", "index", "query", "--index", index, "--from", "4", "--to", "4");
        assertEquals(0, one.status, one::toString);
        assertEquals("4" + NL, one.out);
        assertEquals("1 candidate block of 1 (the filter matches every block)" + NL, one.err);
        // A resumed build names the one line it skipped as one (from a mutation review).
        Path resume = Files.writeString(dir.resolve("resume.txt"), blooms.substring(blooms.indexOf("\n4 ") + 1)
                + String.format("5 0x%064x 0x%064x 0x", 5, 4) + "00".repeat(256) + "\n");
        CliRun resumed = CliRun.of("eth", "index", "build", "--index", index, "--blooms", resume.toString());
        assertEquals(0, resumed.status, resumed::toString);
        assertEquals("skipped 1 line of blocks the index already holds (it resumed at block 5)" + NL, resumed.err);
        // A negative block number is not one (the writer's refusal of it passed every test: from a mutation review).
        Path negative = Files.writeString(dir.resolve("negative.txt"), String.format("-1 0x%064x 0x%064x 0x", 1, 0)
                + "00".repeat(256) + "\n");
        assertRefused("line 1: '-1' is not a block number", "eth", "index", "build", "--index",
                dir.resolve("new").toString(), "--blooms", negative.toString());
    }

    /** One line naming the problem on stderr, nothing on stdout, status 1: no stack trace, no call to the node. */
    private static void assertRefused(String message, String... args) {
        CliRun run = CliRun.of(args);
        assertEquals(1, run.status, run::toString);
        assertEquals("chainfilter: " + message + NL, run.err, run::toString);
        assertEquals("", run.out, run::toString);
    }
}
