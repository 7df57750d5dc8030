package org.chainfilter.ethbloom.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.chainfilter.common.Hex;
import org.chainfilter.ethbloom.LogFilter;
import org.chainfilter.ethbloom.scan.node.AnvilChainExtension;
import org.chainfilter.ethbloom.scan.node.AnvilNode;
import org.chainfilter.ethbloom.scan.node.LogText;
import org.chainfilter.ethbloom.scan.node.TestChain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.web3j.protocol.http.HttpService;

/**
 * A node killed in the middle of a scan (SIGKILL) and restarted from its dumped state on the same port: the scan that
 * resumes from the checkpoint file gives the same answer as an uninterrupted scan, no log lost or repeated.
 */
@ExtendWith(AnvilChainExtension.class)
class BlockScannerRestartTest {
    private static final RetryPolicy FAST_RETRIES = RetryPolicy.of(3, Duration.ofMillis(20), Duration.ofMillis(40));

    @Test
    void aScanResumedFromItsCheckpointAfterTheNodeWasKilledGivesTheSameAnswer(TestChain chain, @TempDir Path dir) {
        LogFilter filter = busyFilter(chain);
        List<String> expected = uninterrupted(chain, filter);
        long killAt = chain.head() / 2;
        FileCheckpointStore checkpoint = new FileCheckpointStore(dir.resolve("scan.checkpoint"));
        try (AnvilNode node = AnvilNode.start(chain.dumpState(dir.resolve("chain.json")))) {
            Path ownState = node.dumpState(dir.resolve("node.json"));
            List<String> emitted = new ArrayList<>();
            BlockScanner first = BlockScanner.builder(new HttpService(node.url())).headerBatchSize(16)
                    .checkpoints(checkpoint).retryPolicy(FAST_RETRIES).build();

            ScanException failure = assertThrows(ScanException.class, () -> first.scan(filter, 0, chain.head(), log -> {
                emitted.add(LogText.of(log));
                if (log.getBlockNumber().longValue() >= killAt && node.isAlive()) {
                    node.kill();
                }
            }));
            assertTrue(failure.getMessage().contains("failed 3 times in a row"), failure.getMessage());
            assertFalse(node.isAlive());
            long resumeAt = checkpoint.load().orElseThrow().nextBlock();
            assertTrue(resumeAt > killAt && resumeAt <= chain.head(), "checkpoint at " + resumeAt);
            int emittedBeforeKill = emitted.size();

            node.restart(ownState);
            ScanSummary resumed = BlockScanner.builder(new HttpService(node.url())).headerBatchSize(16)
                    .checkpoints(checkpoint).retryPolicy(FAST_RETRIES).build()
                    .scan(filter, 0, chain.head(), log -> emitted.add(LogText.of(log)));

            assertTrue(resumed.resumed());
            assertEquals(resumeAt, resumed.firstBlock());
            assertEquals(chain.head(), resumed.lastBlock());
            assertTrue(emittedBeforeKill > 0 && emittedBeforeKill < expected.size());
            assertEquals(expected, emitted);
            assertEquals(emitted.size(), new HashSet<>(emitted).size(), "no log repeated");
            assertEquals(chain.head() + 1, checkpoint.load().orElseThrow().nextBlock());
        }
    }

    @Test
    void aNodeRestartedWithinTheRetryWindowIsRidden(TestChain chain, @TempDir Path dir) {
        LogFilter filter = busyFilter(chain);
        List<String> expected = uninterrupted(chain, filter);
        try (AnvilNode node = AnvilNode.start(chain.dumpState(dir.resolve("chain.json")))) {
            Path ownState = node.dumpState(dir.resolve("node.json"));
            List<String> emitted = new ArrayList<>();
            List<Duration> waits = new ArrayList<>();
            ScanSummary summary = BlockScanner.builder(new HttpService(node.url())).headerBatchSize(16)
                    .retryPolicy(RetryPolicy.of(4, Duration.ofMillis(20), Duration.ofSeconds(1)))
                    .sleeper(delay -> {
                        waits.add(delay);
                        if (!node.isAlive()) {
                            node.restart(ownState);
                        }
                    }).build()
                    .scan(filter, 0, chain.head(), log -> {
                        emitted.add(LogText.of(log));
                        if (log.getBlockNumber().longValue() >= chain.head() / 3 && waits.isEmpty() && node.isAlive()) {
                            node.kill();
                        }
                    });
            assertEquals(expected, emitted);
            assertEquals(List.of(Duration.ofMillis(20)), waits);
            assertEquals(1, summary.retries());
        }
    }

    @Test
    void aCheckpointOfAnotherFilterIsRefused(TestChain chain, @TempDir Path dir) {
        FileCheckpointStore checkpoint = new FileCheckpointStore(dir.resolve("scan.checkpoint"));
        BlockScanner scanner = BlockScanner.builder(new HttpService(chain.node().url())).checkpoints(checkpoint).build();
        scanner.scan(busyFilter(chain), 0, 20, log -> { });
        ScanException refused = assertThrows(ScanException.class,
                () -> scanner.scan(LogFilter.matchAll(), 0, 40, log -> { }));
        assertTrue(refused.getMessage().startsWith("the checkpoint was written for another filter"),
                refused.getMessage());
        ScanException refusedStart = assertThrows(ScanException.class,
                () -> scanner.startBlock(LogFilter.matchAll(), 0));
        assertEquals(refused.getMessage(), refusedStart.getMessage());
    }

    /** startBlock: --from without a checkpoint, the checkpoint's next block when later, --from when that is later. */
    @Test
    void startBlockResumesFromTheCheckpointOfTheSameFilter(TestChain chain, @TempDir Path dir) {
        FileCheckpointStore checkpoint = new FileCheckpointStore(dir.resolve("scan.checkpoint"));
        BlockScanner scanner = BlockScanner.builder(new HttpService(chain.node().url())).checkpoints(checkpoint).build();
        LogFilter filter = busyFilter(chain);
        assertEquals(5, scanner.startBlock(filter, 5));
        ScanSummary summary = scanner.scan(filter, 0, 20, log -> { });
        assertEquals(summary.lastBlock() + 1, scanner.startBlock(filter, 0));
        assertEquals(summary.lastBlock() + 7, scanner.startBlock(filter, summary.lastBlock() + 7));
    }

    /** Logs of two of the three event sources: spread over the whole chain. */
    private static LogFilter busyFilter(TestChain chain) {
        return LogFilter.builder().address(Hex.decode(chain.eventSources().get(0)),
                Hex.decode(chain.eventSources().get(2))).build();
    }

    private static List<String> uninterrupted(TestChain chain, LogFilter filter) {
        List<String> logs = new ArrayList<>();
        BlockScanner.builder(new HttpService(chain.node().url())).build()
                .scan(filter, 0, chain.head(), log -> logs.add(LogText.of(log)));
        assertTrue(logs.size() > 100, "logs of the filter: " + logs.size());
        return logs;
    }
}
