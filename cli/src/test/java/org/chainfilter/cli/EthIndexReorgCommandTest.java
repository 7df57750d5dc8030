package org.chainfilter.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
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

    @Test
    void aScanWithAnIndexOfAnAbandonedForkFindsTheNewForksLogAndSaysWhy(@TempDir Path dir) throws Exception {
        try (AnvilNode node = AnvilNode.start()) {
            String snapshot = Reorg.mineForkToAbandon(node);
            String index = dir.resolve("index").toString();
            CliRun build = CliRun.of("eth", "index", "build", "--index", index, "--rpc", node.url(), "--to", "30",
                    "--confirmations", "0");
            assertEquals(0, build.status, build::toString);
            String indexedHash30 = Reorg.hash(node, 30);

            Reorg.revertWithLogInBlock21(node, snapshot);
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
}
