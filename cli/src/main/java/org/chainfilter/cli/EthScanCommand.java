package org.chainfilter.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.chainfilter.ethbloom.LogFilter;
import org.chainfilter.ethbloom.index.SectionIndex;
import org.chainfilter.ethbloom.scan.BlockScanner;
import org.chainfilter.ethbloom.scan.Checkpoint;
import org.chainfilter.ethbloom.scan.CheckpointReorganisedException;
import org.chainfilter.ethbloom.scan.CheckpointStore;
import org.chainfilter.ethbloom.scan.FileCheckpointStore;
import org.chainfilter.ethbloom.scan.ScanException;
import org.chainfilter.ethbloom.scan.ScanListener;
import org.chainfilter.ethbloom.scan.ScanSummary;
import org.web3j.protocol.core.methods.response.Log;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code chainfilter eth scan}: the logs of a block range that match a filter, from a JSON-RPC node, reading only the
 * blocks whose header bloom could match ({@link BlockScanner}). Logs go to stdout as JSON lines in the JSON-RPC log
 * shape, in chain order; progress, retries and the summary (with the bloom saturation verdict) go to stderr.
 */
@Command(name = "scan", mixinStandardHelpOptions = true,
        description = "Scan blocks FROM..TO of a JSON-RPC node for the logs matching a filter, skipping the blocks"
                + " whose logsBloom rules them out. Logs: JSON lines on stdout, in chain order. Progress and a summary"
                + " (blocks skipped, false positives, bloom saturation) on stderr. With --checkpoint, a rerun resumes"
                + " after the last block whose logs were printed. With --follow, keeps polling for new blocks; only"
                + " blocks with --confirmations confirmations are ever reported. Without --follow, a scan that"
                + " ends before --to (the later blocks not yet confirmed) exits with status 3.")
final class EthScanCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Spec
    private CommandSpec spec;

    @Option(names = "--rpc", paramLabel = "URL", required = true,
            description = "The node's JSON-RPC HTTP endpoint, e.g. http://127.0.0.1:8545.")
    private String rpcUrl;

    @Option(names = "--from", paramLabel = "N", required = true, description = "The first block.")
    private long fromBlock;

    @Option(names = "--to", paramLabel = "N",
            description = "The last block (default: the head minus --confirmations). With --follow: the end of the"
                    + " initial range, from which --max-new-blocks counts (refused without --max-new-blocks).")
    private Long toBlock;

    @Option(names = "--follow",
            description = {"After the range, keep polling the node for new heads and scan each new block once it"
                    + " has --confirmations confirmations. Only blocks with that many confirmations are reported: a"
                    + " reorganisation shallower than that is never seen; a deeper one that replaces the last"
                    + " scanned block stops the follow with an error.",
                "A node that stops answering after the first pass is waited for (a new pass every"
                    + " --poll-interval).",
                "Ctrl-C stops at once (no call is sent or retried after it; logs being printed are finished) and"
                    + " prints the last scanned block (resume with --from that+1, or the same --checkpoint)."})
    private boolean follow;

    @Option(names = "--poll-interval", paramLabel = "DURATION",
            description = "With --follow: the wait between polls of the head once caught up, e.g. 500ms or 2s,"
                    + " 10ms..3600s (default 2s).")
    private String pollInterval;

    @Option(names = "--until-block", paramLabel = "N",
            description = "With --follow: stop once block N has been scanned.")
    private Long untilBlock;

    @Option(names = "--max-new-blocks", paramLabel = "N",
            description = "With --follow: stop after N blocks beyond the initial range (--to, or else the head minus"
                    + " --confirmations when the follow starts) have been scanned.")
    private Long maxNewBlocks;

    @Mixin
    private EthFilterOptions filterOptions;

    @Option(names = "--checkpoint", paramLabel = "FILE",
            description = "Keep progress in FILE (written atomically after each block with logs) and resume from it.")
    private Path checkpointFile;

    @Option(names = "--confirmations", paramLabel = "N", defaultValue = "12",
            description = "Stay N blocks behind the head, out of reach of reorganisations (default ${DEFAULT-VALUE};"
                    + " 0 scans up to the head).")
    private int confirmations;

    @Option(names = "--batch", paramLabel = "N", defaultValue = "100",
            description = "Headers per JSON-RPC batch, 1..1000 (default ${DEFAULT-VALUE}).")
    private int batch;

    @Option(names = "--max-log-range", paramLabel = "BLOCKS", defaultValue = "2000",
            description = "The widest eth_getLogs range sent (default ${DEFAULT-VALUE}); narrowed when refused.")
    private long maxLogRange;

    @Option(names = "--by-hash-max-run", paramLabel = "BLOCKS",
            defaultValue = "" + BlockScanner.Builder.DEFAULT_BY_HASH_MAX_RUN,
            description = "Ask for the logs of a run of up to BLOCKS consecutive candidate blocks block by block, by"
                    + " the hash of the header judged (EIP-234), in one JSON-RPC batch; longer runs go as eth_getLogs"
                    + " ranges. 0..1000 (default ${DEFAULT-VALUE}); 0 = ranges only. Behind a load balancer, a"
                    + " backend that lags answers a range with no logs for the blocks it lacks, and by hash with an"
                    + " error that is retried; a range goes with its last block's header in one batch, which shows"
                    + " such an answer, unless the balancer splits batches among backends: raise it (up to --batch)"
                    + " to send no range at all.")
    private int byHashMaxRun;

    @Mixin
    private RpcTransport.Options rpcOptions;

    @Option(names = "--index", paramLabel = "DIR",
            description = "A section index of the same chain (chainfilter eth index build): blocks it covers are"
                    + " decided by it. Each section is first checked against the node by the hash of its last block;"
                    + " a section built on blocks since reorganised away, or whose last block has fewer than"
                    + " --confirmations confirmations (an index built with fewer), is not used (said on stderr) and"
                    + " its blocks are decided by their headers.")
    private Path indexDirectory;

    @Option(names = "--quiet", description = "No progress lines on stderr, only the summary.")
    private boolean quiet;

    @Override
    public Integer call() {
        checkCombination();
        checkOptions();
        LogFilter filter = filterOptions.filter();
        if (checkpointFile != null) {
            checkCheckpointFilter(checkpointFile, filter);
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        RpcTransport.Service service = rpcOptions.http(rpcUrl);
        BlockScanner.Builder builder = BlockScanner.builder(service)
                .headerBatchSize(batch)
                .maxLogRangeBlocks(maxLogRange).byHashMaxRun(byHashMaxRun).confirmations(confirmations)
                .retryPolicy(rpcOptions.retryPolicy())
                .listener(progress(err));
        if (checkpointFile != null) {
            builder.checkpoints(new FileCheckpointStore(checkpointFile));
        }
        if (indexDirectory != null) {
            builder.sectionIndex(SectionIndex.open(indexDirectory));
        }
        if (follow) {
            return follow(builder, service, filter, out, err);
        }
        ScanSummary summary;
        try {
            summary = builder.build().scan(filter, fromBlock, toBlock == null ? Long.MAX_VALUE : toBlock,
                    printer(out, checkpointFile != null));
        } catch (ScanException e) {
            out.flush();
            // Resuming from the checkpoint fails the same way when the chain reorganised below it.
            boolean resumable = checkpointFile != null && !(e instanceof CheckpointReorganisedException);
            throw new IllegalStateException(rpcOptions.namingTheTimeout(e.getMessage())
                    + (resumable ? "; rerun with the same --checkpoint to resume" : ""), e);
        }
        out.flush();
        err.println(summary.report());
        err.flush();
        // Short of --to (later blocks not yet confirmed, or none scanned at all): a status of its own, so that a
        // script can tell a partial run from a complete one. The summary above says where it stopped.
        return toBlock != null && summary.lastBlock() < toBlock ? EXIT_STOPPED_SHORT : 0;
    }

    /** The exit status of a scan that ended before {@code --to}: the blocks after it are not yet confirmed. */
    static final int EXIT_STOPPED_SHORT = 3;

    /**
     * Refuses, as a malformed command line (status 2), options that do not go together: checked before any value is,
     * so that a refused value (status 1) never hides them, as a command with two inputs checks both first.
     */
    private void checkCombination() {
        if (!follow) {
            refuseWithoutFollow("--poll-interval", pollInterval);
            refuseWithoutFollow("--until-block", untilBlock);
            refuseWithoutFollow("--max-new-blocks", maxNewBlocks);
        } else if (toBlock != null && maxNewBlocks == null) {
            // A follow goes on past --to anyway; alone, --to would change nothing.
            throw new UsageException("--to " + toBlock + " with --follow only sets where --max-new-blocks"
                    + " starts counting; give --max-new-blocks too, or --until-block " + toBlock
                    + " to stop at that block");
        }
    }

    /**
     * Refuses, before the node is asked anything, the options the scanner would refuse in its own words (its
     * messages name its parameters: "fromBlock is -1", "header batch size is 0"), and the files and URL that would
     * only fail later: a malformed {@code --rpc} after the retries, a {@code --checkpoint} directory at the first
     * save, after logs were printed.
     */
    private void checkOptions() {
        RpcTransport.checkUrl(rpcUrl);
        if (fromBlock < 0) {
            throw new IllegalArgumentException("--from is " + fromBlock + "; block numbers start at 0");
        }
        if (toBlock != null && toBlock < fromBlock) {
            throw new IllegalArgumentException("--to " + toBlock + " is below --from " + fromBlock);
        }
        int maxBatch = BlockScanner.Builder.MAX_HEADER_BATCH_SIZE;
        if (batch < 1 || batch > maxBatch) {
            throw new IllegalArgumentException("--batch is " + batch + "; it must be 1.." + maxBatch);
        }
        if (maxLogRange < 1) {
            throw new IllegalArgumentException("--max-log-range is " + maxLogRange + "; it must be at least 1");
        }
        if (byHashMaxRun < 0 || byHashMaxRun > maxBatch) {
            throw new IllegalArgumentException("--by-hash-max-run is " + byHashMaxRun + "; it must be 0.." + maxBatch);
        }
        if (confirmations < 0) {
            throw new IllegalArgumentException("--confirmations is " + confirmations + "; it must not be negative");
        }
        if (checkpointFile != null) {
            checkCheckpointFile(checkpointFile);
        }
        if (indexDirectory != null) {
            EthIndexCommand.existingDirectory(indexDirectory, "--index");
        }
    }

    /**
     * A checkpoint is written to a sibling file, then moved over FILE: FILE's directory must exist. A FILE that exists
     * is read now, so that one this command cannot resume from is refused before the node is asked anything.
     */
    private static void checkCheckpointFile(Path file) {
        CliInputs.regularFile(file, "--checkpoint");
        Path directory = file.toAbsolutePath().getParent();
        if (directory != null && !Files.isDirectory(directory)) {
            throw new IllegalArgumentException("--checkpoint " + file + ": the directory " + directory
                    + " does not exist");
        }
        try {
            new FileCheckpointStore(file).load();
        } catch (ScanException e) {
            // The store's messages begin "checkpoint FILE ...": the option the user typed.
            throw new IllegalArgumentException("--" + e.getMessage(), e);
        }
    }

    /**
     * A checkpoint written for another filter is refused here, before the node is asked anything, in words that do
     * not end with the advice to rerun with the same --checkpoint (the scanner's own refusal came back with it).
     */
    private static void checkCheckpointFilter(Path file, LogFilter filter) {
        Optional<Checkpoint> saved = new FileCheckpointStore(file).load();
        if (saved.isPresent() && !saved.get().filterFingerprint().equals(Checkpoint.fingerprint(filter))) {
            throw new IllegalArgumentException("--checkpoint " + file + " was written for another filter (fingerprint "
                    + saved.get().filterFingerprint() + ", this one " + Checkpoint.fingerprint(filter)
                    + "); give a new --checkpoint file for a new filter");
        }
    }

    /** {@code --follow}: validates the follow options, then hands over to {@link EthScanFollow}. */
    private int follow(BlockScanner.Builder builder, RpcTransport.Service service, LogFilter filter, PrintWriter out,
                       PrintWriter err) {
        Duration interval = EthScanFollow.parsePollInterval(pollInterval == null ? "2s" : pollInterval);
        if (untilBlock != null && untilBlock < fromBlock) {
            throw new IllegalArgumentException("--until-block " + untilBlock + " is below --from " + fromBlock);
        }
        if (untilBlock != null && toBlock != null && untilBlock < toBlock) {
            throw new IllegalArgumentException("--until-block " + untilBlock + " is below --to " + toBlock
                    + "; the follow would stop before the end of the initial range");
        }
        if (maxNewBlocks != null && maxNewBlocks < 0) {
            throw new IllegalArgumentException("--max-new-blocks is " + maxNewBlocks + "; it must not be negative");
        }
        CheckpointStore checkpoints = checkpointFile == null ? new EthScanFollow.MemoryCheckpointStore()
                : new FileCheckpointStore(checkpointFile);
        BlockScanner scanner = builder.checkpoints(checkpoints).build();
        return new EthScanFollow(scanner, checkpoints, filter, fromBlock, toBlock,
                untilBlock == null ? Long.MAX_VALUE : untilBlock, maxNewBlocks, batch, confirmations, interval, out,
                err, rpcOptions::namingTheTimeout, new EthScanFollow.Hooks(service::cancelCalls,
                        Runtime.getRuntime()::halt, away -> retriesMuted = away)).run();
    }

    private static void refuseWithoutFollow(String option, Object value) {
        if (value != null) {
            throw new UsageException(option + " " + value + " is given without --follow; it only"
                    + " applies when following new blocks");
        }
    }

    /** Set while a follow waits for a node that does not answer; written by the follow, read by the listener. */
    private volatile boolean retriesMuted;

    private ScanListener progress(PrintWriter err) {
        return new ScanListener() {
            @Override
            public void onProgress(ScanSummary soFar) {
                if (!quiet) {
                    err.printf(Locale.ROOT, "scanned %d..%d: %d logs, %d of %d blocks skipped by bloom%n",
                            soFar.firstBlock(), soFar.lastBlock(), soFar.logsEmitted(), soFar.blocksSkippedByBloom(),
                            soFar.blocksScanned());
                    err.flush();
                }
            }

            @Override
            public void onRetry(String call, int failure, Duration delay, String problem) {
                if (retriesMuted) {
                    // A follow said the node does not answer: each failed pass would repeat the same retries.
                    return;
                }
                err.printf(Locale.ROOT, "retrying %s in %d ms (failure %d: %s)%n", call, delay.toMillis(), failure,
                        problem);
                err.flush();
            }

            /** Per section, the cause last said (see {@link #cause}); a follow checks the sections on every pass. */
            private final Map<Long, String> saidFor = new HashMap<>();

            @Override
            public void onIndexSectionNotUsed(long section, String reason) {
                // Printed even with --quiet (the index should be rebuilt, and the scan reads more headers than
                // expected), but once per section and cause: each pass of --follow is a new scan that checks the
                // section again, and would otherwise repeat the line every poll interval.
                if (!cause(reason).equals(saidFor.put(section, cause(reason)))) {
                    err.printf(Locale.ROOT, "section %d of the index is not used: %s%n", section, reason);
                    err.flush();
                }
            }

            /**
             * What makes a reason new: a section beyond the head is beyond it whatever the head (which grows every
             * pass); a section of another chain is new when the node's hash of its last block is.
             */
            private String cause(String reason) {
                return reason.contains(BlockScanner.BEYOND_HEAD) ? BlockScanner.BEYOND_HEAD : reason;
            }

            @Override
            public void onRangeSplit(long fromBlockOfRange, long toBlockOfRange, String problem) {
                if (!quiet) {
                    // Refused by the node, or cut off twice by --rpc-timeout: the problem says which.
                    err.printf(Locale.ROOT, "splitting eth_getLogs %d..%d in halves (%s)%n", fromBlockOfRange,
                            toBlockOfRange, problem);
                }
            }

            @Override
            public void onBatchHalved(int fromCalls, int toCalls, String problem) {
                if (!quiet) {
                    // Refused by the node, or a batch of headers cut off twice by --rpc-timeout.
                    err.printf(Locale.ROOT, "halving JSON-RPC batches from %d to %d calls (%s)%n", fromCalls, toCalls,
                            problem);
                }
            }
        };
    }

    /**
     * Prints each log as a JSON line and flushes it. A {@link PrintWriter} swallows write errors (EPIPE once the reader
     * of a pipe, e.g. {@code head -n1}, has gone), so the consumer asks {@link PrintWriter#checkError()} after every
     * log and throws when the log did not get out. The scanner saves a block's checkpoint only after the consumer has
     * returned for every log of that block, so the checkpoint stays before the block whose log was lost and a rerun
     * with it prints that block again.
     *
     * @throws UncheckedIOException from the consumer, naming the block whose log was lost and how to resume
     */
    static Consumer<Log> printer(PrintWriter out, boolean checkpointed) {
        return log -> {
            out.println(json(log));
            out.flush();
            if (out.checkError()) {
                BigInteger block = log.getBlockNumber();
                throw new UncheckedIOException(new IOException("standard output is closed: a log of block " + block
                        + " was not delivered (the logs of the blocks before it were); resume with --from " + block
                        + (checkpointed ? " or the same --checkpoint" : "")));
            }
        };
    }

    /** The log in the JSON-RPC shape, hex quantities as the node sent them. */
    static String json(Log log) {
        ObjectNode json = JSON.createObjectNode().put("address", log.getAddress());
        json.putArray("topics").addAll(log.getTopics().stream().map(JSON.getNodeFactory()::textNode).toList());
        json.put("data", log.getData()).put("blockNumber", log.getBlockNumberRaw())
                .put("blockHash", log.getBlockHash()).put("transactionHash", log.getTransactionHash())
                .put("transactionIndex", log.getTransactionIndexRaw()).put("logIndex", log.getLogIndexRaw())
                .put("removed", log.isRemoved());
        try {
            return JSON.writeValueAsString(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree of strings always serialises", e);
        }
    }
}
