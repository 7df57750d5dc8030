package org.chainfilter.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.chainfilter.ethbloom.scan.node.AnvilNode;
import org.chainfilter.ethbloom.scan.node.Reorg;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code eth index build --rpc} on anvil, then a reorganisation below the index's end ({@code evm_snapshot} before,
 * {@code evm_revert} after, a new fork whose block 21 holds a matching log where the indexed fork had none): {@code eth
 * scan --index} says on stderr that the section is not used and why, and prints the new fork's log; {@code eth index
 * build} refuses to append the new fork to the old one.
 */
@Timeout(120)
class EthIndexReorgCommandTest {
    private static final String TOPIC = Reorg.TOPIC;
    private static final Pattern PROGRESS = Pattern.compile("scanned \\d+\\.\\.(\\d+): ");

    @Test
    void aScanWithAnIndexOfAnAbandonedForkFindsTheNewForksLogAndSaysWhy(@TempDir Path dir) throws Exception {
        try (AnvilNode node = AnvilNode.start()) {
            String index = dir.resolve("index").toString();
            String indexedHash30 = indexTheForkToAbandonThenRevert(node, index);
            node.rpc("anvil_mine", "0x13");
            assertEquals(40, Reorg.head(node));

            CliRun scan = CliRun.of("eth", "scan", "--rpc", node.url(), "--from", "0", "--to", "40", "--topic",
                    TOPIC, "--confirmations", "0", "--index", index, "--quiet");
            assertEquals(0, scan.status, scan::toString);
            assertEquals(1, scan.out.lines().count(), scan::toString);
            assertTrue(scan.out.contains("\"topics\":[\"" + TOPIC + "\"]")
                    && scan.out.contains("\"blockNumber\":\"0x15\""), scan.out);
            assertTrue(scan.err.startsWith("section 0 of the index is not used: block 30 has hash "
                    + Reorg.hash(node, 30)
                    + " on the node but " + indexedHash30 + " in the index: the chain was reorganised after the section"
                    + " was built; its blocks are decided by their headers (rebuild the index to use it again)"
                    + System.lineSeparator()), scan.err);

            CliRun append = CliRun.of("eth", "index", "build", "--index", index, "--rpc", node.url(),
                    "--confirmations", "0");
            assertEquals(1, append.status, append::toString);
            assertTrue(append.err.contains("chainfilter: block 31 has parent hash " + Reorg.hash(node, 30)
                    + " but block 30 was indexed with hash " + indexedHash30 + ": the chain was reorganised"),
                    append.err);
        }
    }

    /**
     * An index of blocks 0..30 built with no confirmations, then that fork abandoned (a new one from block 21, with the
     * matching log in block 21), scanned with {@code --confirmations 12}. At head 40 the section's last block has
     * fewer confirmations than the scan uses, so it is not used for that reason; at head 45 it has enough, and it is
     * not used because its hash is not the node's. Each time the log is found, as a scan without the index finds it,
     * and the scan ends with status 0.
     */
    @Test
    void aScanWithMoreConfirmationsThanTheIndexWasBuiltWithDecidesItsBlocksByHeaders(@TempDir Path dir)
            throws Exception {
        try (AnvilNode node = AnvilNode.start()) {
            String index = dir.resolve("index").toString();
            String indexedHash30 = indexTheForkToAbandonThenRevert(node, index);
            node.rpc("anvil_mine", "0x13");
            assertEquals(40, Reorg.head(node));
            CliRun unconfirmed = scanWithConfirmations12(node, index);
            assertEquals(0, unconfirmed.status, unconfirmed::toString);
            assertTrue(unconfirmed.err.startsWith("section 0 of the index is not used: its last block 30 is beyond"
                    + " the node's head 40 less the scan's 12 confirmations (block 28), so it cannot be checked against"
                    + " the node's confirmed chain; its blocks are decided by their headers" + System.lineSeparator()),
                    unconfirmed.err);
            CliRun withoutIndex = scanWithConfirmations12(node, null);
            assertEquals(withoutIndex.out, unconfirmed.out);
            assertTrue(unconfirmed.out.contains("\"blockNumber\":\"0x15\""), unconfirmed.out);

            node.rpc("anvil_mine", "0x5");
            CliRun reorganised = scanWithConfirmations12(node, index);
            assertEquals(0, reorganised.status, reorganised::toString);
            assertTrue(reorganised.err.startsWith("section 0 of the index is not used: block 30 has hash "
                    + Reorg.hash(node, 30) + " on the node but " + indexedHash30 + " in the index: the chain was"
                    + " reorganised after the section was built;"), reorganised.err);
            assertEquals(scanWithConfirmations12(node, null).out, reorganised.out);
            assertEquals(1, reorganised.out.lines().count(), reorganised.out);
        }
    }

    /** {@code eth scan} of the topic from block 0 to the safe head with 12 confirmations, with the index if given. */
    private static CliRun scanWithConfirmations12(AnvilNode node, String index) {
        List<String> args = new ArrayList<>(List.of("eth", "scan", "--rpc", node.url(), "--from", "0", "--topic",
                TOPIC, "--confirmations", "12", "--quiet"));
        if (index != null) {
            args.addAll(List.of("--index", index));
        }
        return CliRun.of(args.toArray(new String[0]));
    }

    /**
     * {@code --follow} scans one batch per pass, and each pass checks the index's sections again: the section whose
     * last block is beyond the head (head 21, then growing one block at a time to 29, the reason naming each head),
     * then reorganised away (head 30 on), is said once per cause, not once per pass.
     */
    @Test
    void aFollowSaysThatASectionIsNotUsedOncePerCauseNotOncePerPass(@TempDir Path dir) throws Exception {
        try (AnvilNode node = AnvilNode.start()) {
            String index = dir.resolve("index").toString();
            indexTheForkToAbandonThenRevert(node, index);

            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            CompletableFuture<Integer> follow = CompletableFuture.supplyAsync(() -> ChainfilterCommand.execute(
                    new PrintWriter(out), new PrintWriter(err), "eth", "scan", "--rpc", node.url(), "--from", "0",
                    "--follow", "--until-block", "34", "--confirmations", "0", "--batch", "2", "--poll-interval",
                    "10ms", "--topic", TOPIC, "--index", index));
            awaitScanned(err, 21);
            for (long head = 22; head <= 34; head++) {
                node.rpc("evm_mine");
                awaitScanned(err, head);
            }
            assertEquals(0, follow.get(60, TimeUnit.SECONDS), err::toString);
            String said = err.toString();
            assertEquals(2, said.split("of the index is not used", -1).length - 1, said);
            assertTrue(said.contains("section 0 of the index is not used: its last block 30 is beyond the node's head"
                    + " 21, so it cannot be checked"), said);
            assertTrue(said.contains("section 0 of the index is not used: block 30 has hash " + Reorg.hash(node, 30)
                    + " on the node but "), said);
            assertTrue(said.indexOf("beyond the node's head") < said.indexOf("block 30 has hash"), said);
            assertEquals(1, out.toString().lines().count(), out::toString);
        }
    }

    /**
     * {@link Reorg#mineForkToAbandon}, {@code eth index build} of blocks 0..30 into {@code index}, then
     * {@link Reorg#revertWithLogInBlock21} (head 21); returns the indexed hash of block 30.
     */
    private static String indexTheForkToAbandonThenRevert(AnvilNode node, String index) throws InterruptedException {
        String snapshot = Reorg.mineForkToAbandon(node);
        CliRun build = CliRun.of("eth", "index", "build", "--index", index, "--rpc", node.url(), "--to", "30",
                "--confirmations", "0");
        assertEquals(0, build.status, build::toString);
        String indexedHash30 = Reorg.hash(node, 30);
        Reorg.revertWithLogInBlock21(node, snapshot);
        return indexedHash30;
    }

    /** Waits until a progress line says the follow has scanned up to {@code block}. */
    private static void awaitScanned(StringWriter err, long block) throws InterruptedException {
        for (int wait = 0; wait < 3000; wait++) {
            long last = -1;
            for (Matcher progress = PROGRESS.matcher(err.toString()); progress.find(); ) {
                last = Math.max(last, Long.parseLong(progress.group(1)));
            }
            if (last >= block) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the follow did not scan block " + block + ": " + err);
    }
}
