package org.chainfilter.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.chainfilter.ethbloom.LogFilter;
import org.chainfilter.ethbloom.scan.BlockScanner;
import org.chainfilter.ethbloom.scan.Checkpoint;
import org.chainfilter.ethbloom.scan.CheckpointAheadOfHeadException;
import org.chainfilter.ethbloom.scan.CheckpointStore;
import org.chainfilter.ethbloom.scan.RetriesExhaustedException;
import org.chainfilter.ethbloom.scan.ScanCancelledException;
import org.chainfilter.ethbloom.scan.ScanException;
import org.chainfilter.ethbloom.scan.ScanSummary;
import org.web3j.protocol.core.methods.response.Log;

/**
 * The follow mode of {@code chainfilter eth scan}: scan from {@code --from} up to the confirmed head, then poll the node
 * and scan each new block once it has {@code confirmations} confirmations, until a signal, {@code --until-block} or
 * {@code --max-new-blocks}.
 *
 * <p>Every pass is one {@link BlockScanner#scan} of at most one header batch, always called with the user's
 * {@code --from} and a checkpoint store (the user's file, or one in memory). The scanner therefore resumes each pass
 * from its own checkpoint and, before it does, compares the checkpointed block's hash with the node's: a reorganisation
 * deeper than the confirmations that reaches below the last scanned block ends the follow with the scanner's error,
 * exactly as a resumed {@code eth scan} would. Blocks within the confirmation depth are never read, so a shallower
 * reorganisation is never seen at all. A head reported below the checkpointed block (a load-balanced provider
 * answering from a node that lags) is not an error here: the pass is skipped and the head polled again. Keeping a
 * pass to one batch bounds what a pass prints between two checks of a stop request. The passes share one
 * {@link BlockScanner.Session}, so a limit the provider stated (a batch size, a range span) is learned once.
 *
 * <p>A node that stops answering after the follow has once scanned (retries exhausted on transient failures: the node
 * restarting, a network outage, a provider's 5xx) does not end it: the follow says so once, polls again every
 * interval, and says when the node answers again. Nothing was emitted of a failed pass, so nothing is lost or
 * repeated. A node that fails before the first pass has finished ends the follow, as a wrong {@code --rpc} would.
 *
 * <p>Output: each log is flushed as it is printed; once stdout is closed (its reader, e.g. {@code head -n1}, gone) the
 * follow ends with an error before the scanner checkpoints the block whose log was lost.
 *
 * <p>Stopping: a JVM shutdown hook (Ctrl-C, SIGTERM) asks the loop to stop, cancels the scanner's session (no call
 * is sent or retried after it, a wait before a retry ends) and the calls in flight, and waits, at most
 * {@link #STOP_GRACE}, for the loop to end: a batch whose logs are being printed is printed to its end and
 * checkpointed (it needs no call), a batch still waiting for the node is abandoned (nothing of it was printed). The
 * loop then prints the summary and the last scanned block, read from the checkpoint, so that {@code --from last+1}, or
 * the same {@code --checkpoint}, continues without a gap or a repeat. If the batch in progress failed instead (the node refused it), the error is printed and
 * the process exits with {@link ErrorHandler#FAILURE}, not with the signal's status.
 */
final class EthScanFollow {
    /** The shortest poll interval accepted: faster polling only loads the node. */
    static final Duration MIN_POLL_INTERVAL = Duration.ofMillis(10);
    /** The longest poll interval accepted. */
    static final Duration MAX_POLL_INTERVAL = Duration.ofHours(1);
    /** How long a shutdown hook waits for the batch in progress (its retries included) before the JVM exits anyway. */
    static final Duration STOP_GRACE = Duration.ofSeconds(60);

    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(ms|s)");

    private final BlockScanner scanner;
    private final CheckpointStore checkpoints;
    private final LogFilter filter;
    private final long fromBlock;
    private final Long initialRangeEnd;
    private final long untilBlock;
    private final Long maxNewBlocks;
    private final int batchBlocks;
    private final int confirmations;
    private final Duration pollInterval;
    private final PrintWriter out;
    private final PrintWriter err;
    private final UnaryOperator<String> scanFailureWording;
    private final BlockScanner.Session session;
    private final Hooks hooks;

    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile long lastScannedBlock;
    private volatile int exitStatus;
    private StopWait stopWait = (stop, interval) -> stop.await(interval.toMillis(), TimeUnit.MILLISECONDS);

    /**
     * @param scanner         configured with {@code checkpoints} as its store
     * @param initialRangeEnd {@code --to}, or null: where {@code --max-new-blocks} starts counting (null: the
     *                        confirmed head when the follow starts)
     * @param untilBlock      the last block to scan, {@code Long.MAX_VALUE} for none
     * @param maxNewBlocks    blocks after the initial range to scan before stopping, or null for no limit
     * @param scanFailureWording applied to the scanner's message when it fails: the command names its options there
     *                           ({@link RpcTransport.Options#namingTheTimeout})
     * @param hooks           what the follow asks of the command: see {@link Hooks}
     */
    EthScanFollow(BlockScanner scanner, CheckpointStore checkpoints, LogFilter filter, long fromBlock,
                  Long initialRangeEnd, long untilBlock, Long maxNewBlocks, int batchBlocks, int confirmations,
                  Duration pollInterval, PrintWriter out, PrintWriter err, UnaryOperator<String> scanFailureWording,
                  Hooks hooks) {
        this.scanner = scanner;
        this.session = scanner.session();
        this.hooks = hooks;
        this.checkpoints = checkpoints;
        this.filter = filter;
        this.fromBlock = fromBlock;
        this.initialRangeEnd = initialRangeEnd;
        this.untilBlock = untilBlock;
        this.maxNewBlocks = maxNewBlocks;
        this.batchBlocks = batchBlocks;
        this.confirmations = confirmations;
        this.pollInterval = pollInterval;
        this.out = out;
        this.err = err;
        this.scanFailureWording = scanFailureWording;
    }

    /** Waits between polls through {@code wait} instead of the clock: for tests, before {@link #run}. */
    EthScanFollow waitingWith(StopWait wait) {
        this.stopWait = wait;
        return this;
    }

    /**
     * A poll interval: whole milliseconds ({@code 500ms}) or seconds ({@code 2s}), from {@link #MIN_POLL_INTERVAL} to
     * {@link #MAX_POLL_INTERVAL}.
     *
     * @throws IllegalArgumentException naming the value and what is accepted
     */
    static Duration parsePollInterval(String text) {
        Matcher matcher = DURATION.matcher(text.strip());
        if (!matcher.matches()) {
            throw new IllegalArgumentException("--poll-interval is '" + text + "'; write whole milliseconds or"
                    + " seconds with their unit, e.g. 500ms or 2s");
        }
        long amount = Long.parseLong(matcher.group(1));
        Duration interval = matcher.group(2).equals("ms") ? Duration.ofMillis(amount) : Duration.ofSeconds(amount);
        if (interval.compareTo(MIN_POLL_INTERVAL) < 0 || interval.compareTo(MAX_POLL_INTERVAL) > 0) {
            throw new IllegalArgumentException("--poll-interval is " + text.strip() + "; it must be from "
                    + MIN_POLL_INTERVAL.toMillis() + "ms to " + MAX_POLL_INTERVAL.toSeconds() + "s");
        }
        return interval;
    }

    /**
     * Follows until stopped; returns the exit status: 0, or {@link ErrorHandler#FAILURE} after printing the one-line
     * error. Installs, and on return removes, the shutdown hook.
     */
    int run() {
        Thread hook = new Thread(this::shutdownHook, "chainfilter-eth-scan-follow-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            follow();
            return 0;
        } catch (RuntimeException e) {
            // Printed here, before the latch below is released: during Ctrl-C the shutdown hook returns as soon as it
            // is, and the JVM may then halt before picocli's handler prints.
            ErrorHandler.report(e, err);
            exitStatus = ErrorHandler.FAILURE;
            return ErrorHandler.FAILURE;
        } finally {
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shutdownInProgress) {
                // The hook is running: it returns now that the loop has finished.
            }
        }
    }

    private void follow() {
        lastScannedBlock = fromBlock - 1;
        long next;
        try {
            next = scanner.startBlock(filter, fromBlock);
        } catch (ScanException e) {
            throw failed(e);
        }
        long until = untilBlock;
        boolean untilSettled = maxNewBlocks == null || initialRangeEnd != null;
        if (maxNewBlocks != null && initialRangeEnd != null) {
            until = Math.min(until, saturatedSum(initialRangeEnd, maxNewBlocks));
        }
        lastScannedBlock = next - 1;
        err.printf(Locale.ROOT, "following from block %d: %d confirmations, polling every %s%s%n", next, confirmations,
                describe(pollInterval), until == Long.MAX_VALUE ? "" : ", until block " + until);
        err.flush();
        ScanSummary total = null;
        String reason;
        Consumer<Log> printer = EthScanCommand.printer(out, !(checkpoints instanceof MemoryCheckpointStore));
        boolean waitingForHead = false;
        Outage outage = new Outage();
        try {
            while (true) {
                if (stopRequested.getCount() == 0) {
                    reason = "stopped by a signal";
                    break;
                }
                if (next > until) {
                    reason = "block " + until + " reached";
                    break;
                }
                long end = Math.min(until, saturatedSum(next, batchBlocks - 1L));
                ScanSummary pass;
                try {
                    pass = session.scan(filter, fromBlock, end, printer);
                } catch (ScanCancelledException cancelled) {
                    total = withPartialPass(total, cancelled);
                    next = catchUpWithCheckpoint();
                    reason = "stopped by a signal";
                    break;
                } catch (RetriesExhaustedException failure) {
                    String said = outage.failed(failure);
                    total = withPartialPass(total, failure);
                    // A pass of a batch emits nothing until the node has answered all of it, but a pass across
                    // index sections may have emitted its first sections.
                    next = catchUpWithCheckpoint();
                    if (said != null) {
                        err.printf(Locale.ROOT, "%s (%s); still following, %s; next pass in %s%n", said,
                                scanFailureWording.apply(failure.getMessage()), lastScanned(), describe(pollInterval));
                        err.flush();
                        if (said.equals(Outage.AWAY)) {
                            hooks.outage().accept(true);
                        }
                    }
                    if (awaitStop(pollInterval)) {
                        reason = "stopped by a signal";
                        break;
                    }
                    continue;
                } catch (CheckpointAheadOfHeadException behind) {
                    // Behind a load balancer eth_blockNumber may come from a node a few blocks behind the one that
                    // served the checkpointed block: not caught up yet. Nothing was printed, the checkpoint is as it
                    // was, and a changed block hash is still caught (a plain ScanException) once the head is back.
                    // The node answered: an outage, if one was said, is over (a node back on a fresh chain says
                    // this next, and its changed hashes end the follow once its head has passed the checkpoint).
                    sayAnswersAgain(outage.answered());
                    if (!waitingForHead) {
                        err.printf(Locale.ROOT, "the node's head %d is below the last scanned block %d; waiting for"
                                + " it to catch up%n", behind.headBlock(), behind.checkpointBlock());
                        err.flush();
                        waitingForHead = true;
                    }
                    if (awaitStop(pollInterval)) {
                        reason = "stopped by a signal";
                        break;
                    }
                    continue;
                }
                waitingForHead = false;
                sayAnswersAgain(outage.passed());
                total = combined(total == null ? nothingBefore(pass) : total, pass);
                lastScannedBlock = pass.lastBlock();
                next = pass.lastBlock() + 1;
                if (!untilSettled) {
                    long confirmedHeadAtStart = Math.max(fromBlock - 1, pass.headBlock() - confirmations);
                    until = Math.min(until, saturatedSum(confirmedHeadAtStart, maxNewBlocks));
                    untilSettled = true;
                }
                if (pass.lastBlock() < end && next <= until && awaitStop(pollInterval)) {
                    reason = "stopped by a signal";
                    break;
                }
            }
        } catch (ScanException e) {
            out.flush();
            catchUpWithCheckpoint();
            throw failed(e);
        }
        out.flush();
        if (total != null) {
            // The retries of every pass, the failed ones too (a pass's partial summary may be missing or empty).
            err.println(total.withRetries(session.retries()).report());
        }
        err.println("follow " + reason + "; " + resumeAdvice());
        err.flush();
    }

    /**
     * The scanner's error with the last scanned block. No resume advice: after a reorganisation below the checkpoint,
     * or with a checkpoint of another filter, resuming after it would be wrong.
     */
    private IllegalStateException failed(ScanException e) {
        return new IllegalStateException(scanFailureWording.apply(e.getMessage()) + " (follow: " + lastScanned() + ")",
                e);
    }

    /** Says that the node answers again after {@code failedPasses} failed passes, if any. */
    private void sayAnswersAgain(long failedPasses) {
        if (failedPasses > 0) {
            hooks.outage().accept(false);
            err.printf(Locale.ROOT, "the node answers again, after %d failed %s%n", failedPasses,
                    failedPasses == 1 ? "pass" : "passes");
            err.flush();
        }
    }

    /**
     * After a pass that ended early: the last scanned block is the checkpoint's, which a pass across index sections
     * moves on section by section, and a pass ended by a log that did not get out leaves before that log's block.
     * Returns the next block.
     */
    private long catchUpWithCheckpoint() {
        try {
            checkpoints.load().ifPresent(saved -> lastScannedBlock = Math.max(lastScannedBlock, saved.nextBlock() - 1));
        } catch (ScanException unreadable) {
            // The pass's own failure says more; the last block known stands.
        }
        return lastScannedBlock + 1;
    }

    private String resumeAdvice() {
        // Without --checkpoint the follow's checkpoint lives in memory: there is no file to name.
        return lastScanned() + "; resume with --from " + (lastScannedBlock + 1)
                + (checkpoints instanceof MemoryCheckpointStore ? "" : " or the same --checkpoint");
    }

    private String lastScanned() {
        long last = lastScannedBlock;
        return last < fromBlock ? "no block scanned" : "last scanned block " + last;
    }

    /** Whether a stop was requested within {@code interval}. */
    private boolean awaitStop(Duration interval) {
        try {
            return stopWait.await(stopRequested, interval);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    /**
     * The shutdown hook: {@link #stopFromShutdownHook}, then, if the loop failed, the process ends with its status
     * ({@code halt}): the JVM would otherwise exit with the signal's (130, 143) and hide the failure.
     */
    void shutdownHook() {
        int status = stopFromShutdownHook();
        if (status != 0) {
            out.flush();
            err.flush();
            hooks.halt().accept(status);
        }
    }

    /**
     * The shutdown hook's work: asks the loop to stop, cancels the session and the calls in flight, then waits for
     * {@link #run} to finish (or the grace). Returns the loop's exit status, 0 when it did not finish in time.
     */
    private int stopFromShutdownHook() {
        stopRequested.countDown();
        session.cancel();
        hooks.cancelCalls().run();
        try {
            if (!finished.await(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                err.println("chainfilter: the batch in progress did not finish within " + STOP_GRACE.toSeconds()
                        + " s; " + resumeAdvice() + " (blocks after it may print again)");
                err.flush();
                return 0;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
        return exitStatus;
    }

    /**
     * {@code total} with what a pass that ended early had scanned (blocks of a pass across index sections, emitted
     * before a later section failed), so that the report reaches the last scanned block it names.
     */
    private static ScanSummary withPartialPass(ScanSummary total, ScanException ended) {
        Optional<ScanSummary> part = ended.summarySoFar();
        if (part.isEmpty() || part.get().blocksScanned() == 0) {
            return total;
        }
        return combined(total == null ? nothingBefore(part.get()) : total, part.get());
    }

    /** The totals of two consecutive passes, as one scan from the first's start to the second's end. */
    static ScanSummary combined(ScanSummary first, ScanSummary second) {
        return new ScanSummary(first.firstBlock(), second.lastBlock(), Long.MAX_VALUE, second.headBlock(),
                second.confirmations(), first.resumed(), first.matchAllFilter(),
                first.blocksScanned() + second.blocksScanned(),
                first.blocksSkippedByBloom() + second.blocksSkippedByBloom(),
                first.blocksSkippedByIndex() + second.blocksSkippedByIndex(),
                first.candidateBlocks() + second.candidateBlocks(),
                first.falsePositiveBlocks() + second.falsePositiveBlocks(),
                first.unknownBloomBlocks() + second.unknownBloomBlocks(),
                first.logsEmitted() + second.logsEmitted(), first.bloomsSeen() + second.bloomsSeen(),
                first.bloomBitsSet() + second.bloomBitsSet(), first.saturatedBlocks() + second.saturatedBlocks(),
                first.retries() + second.retries(), first.rangeSplits() + second.rangeSplits(),
                first.batchHalvings() + second.batchHalvings());
    }

    /** A summary of no blocks that ends where {@code pass} starts, so a single pass also reports an open end. */
    private static ScanSummary nothingBefore(ScanSummary pass) {
        return new ScanSummary(pass.firstBlock(), pass.firstBlock() - 1, Long.MAX_VALUE, pass.headBlock(),
                pass.confirmations(), pass.resumed(), pass.matchAllFilter(), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    private static long saturatedSum(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }

    private static String describe(Duration interval) {
        return interval.toMillis() % 1000 == 0 ? interval.toSeconds() + "s" : interval.toMillis() + "ms";
    }

    /** How the loop waits for a stop request, at most {@code interval}; returns whether one came. */
    interface StopWait {
        boolean await(CountDownLatch stopRequested, Duration interval) throws InterruptedException;
    }

    /**
     * What the follow asks of the command around it.
     *
     * @param cancelCalls run by the shutdown hook: ends the transport's calls in flight (the session's own cancellation
     *                    stops only new calls and retries)
     * @param halt        run by the shutdown hook with the loop's exit status when that is a failure
     *                    ({@link Runtime#halt} in the command: the signal's status would hide the failure)
     * @param outage      told {@code true} when the follow has said that the node does not answer, {@code false} when
     *                    it answers again: the command stops printing each retry of the failed passes in between
     */
    record Hooks(Runnable cancelCalls, IntConsumer halt, Consumer<Boolean> outage) {
    }

    /**
     * Which passes that ran out of retries the follow waits out. Before a pass has finished, none: the node or the
     * options are wrong. After: a pass in which the node answered no call with a result (it is away: restarting,
     * unreachable, refusing every call with an error such as a rate limit), for as long as it lasts; a pass in which
     * it answered other calls but one failed by itself (a block it cannot serve within the call timeout) only once
     * until a pass finishes, as the node may have gone away during the pass, which the next pass shows.
     */
    static final class Outage {
        static final String AWAY = "the node does not answer";
        static final String CALL_FAILED = "a call failed";

        private boolean answeredOnce;
        private boolean callFailedAlone;
        private boolean saidAway;
        private long failedPasses;

        /**
         * A pass failed: returns what to say ("the node does not answer", once per outage; "a call failed"), or null.
         *
         * @throws RetriesExhaustedException {@code failure}, when it ends the follow
         */
        String failed(RetriesExhaustedException failure) {
            if (!answeredOnce || (failure.nodeAnswered() && callFailedAlone)) {
                throw failure;
            }
            failedPasses++;
            if (failure.nodeAnswered()) {
                // Kept through the passes the node is away, so that alternating failures still end the follow.
                callFailedAlone = true;
                return CALL_FAILED;
            }
            if (saidAway) {
                return null;
            }
            saidAway = true;
            return AWAY;
        }

        /** A pass finished; returns how many failed before it, since the last that finished. */
        long passed() {
            answeredOnce = true;
            callFailedAlone = false;
            return answered();
        }

        /**
         * The node answered the head (its head is below the last scanned block, so the pass did not run): the outage,
         * if any, is over. Returns how many passes failed before, since the node last answered.
         */
        long answered() {
            long failed = failedPasses;
            saidAway = false;
            failedPasses = 0;
            return failed;
        }
    }

    /** Keeps the follow's checkpoint when the user gave no {@code --checkpoint} file; used by one thread. */
    static final class MemoryCheckpointStore implements CheckpointStore {
        private Checkpoint saved;

        @Override
        public Optional<Checkpoint> load() {
            return Optional.ofNullable(saved);
        }

        @Override
        public void save(Checkpoint checkpoint) {
            saved = checkpoint;
        }
    }
}
