package org.chainfilter.ethbloom.scan;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.chainfilter.common.Hex;
import org.chainfilter.ethbloom.LogFilter;
import org.chainfilter.ethbloom.LogsBloom;
import org.chainfilter.ethbloom.index.BloomBitsMatcher;
import org.chainfilter.ethbloom.index.SectionIndex;
import org.chainfilter.ethbloom.web3j.Web3jLogs;
import org.chainfilter.ethbloom.scan.RpcSession.BlockRange;
import org.web3j.protocol.Web3jService;
import org.web3j.protocol.core.methods.response.EthBlock;
import org.web3j.protocol.core.methods.response.Log;

/**
 * Scans a block range for the logs that match a {@link LogFilter}, over JSON-RPC (web3j), reading only the logs of the
 * blocks whose header {@code logsBloom} could match.
 *
 * <p>Per header batch: {@code eth_getBlockByNumber(n, false)} for up to {@code headerBatchSize} blocks in one JSON-RPC
 * batch; {@link LogFilter#couldMatch} on each bloom (geth {@code eth/filters/filter.go: bloomFilter}); then
 * {@code eth_getLogs} with the filter for the candidate blocks: a run of at most {@code byHashMaxRun} consecutive
 * candidates block by block by the hash of the header just judged (EIP-234 {@code blockHash}), all such calls of the
 * batch in one JSON-RPC batch; a longer run as block ranges (at most {@code maxLogRangeBlocks} per call, fewer after a
 * provider refused a range, or this client's timeout cut a range off twice in a row: the node cannot answer that
 * span in the time the client waits); then the exact test {@link LogFilter#matches} (geth {@code filterLogs}; a
 * provider that ignores trailing wildcard positions, such as anvil or reth, returns extra logs that this test
 * removes), and every log's {@code blockHash} checked against the header read in the same batch. A missing, empty or
 * malformed {@code logsBloom} means "unknown": the block is fetched, never skipped.
 *
 * <p><b>Timeouts.</b> A call this client gives up on (the transport's call or read timeout, e.g.
 * {@link BoundedHttp}'s) is retried like any transient failure, with one exception: an {@code eth_getLogs} range of
 * more than one block cut off a second time is split in halves, as a refused range is. A JSON-RPC batch of log
 * queries cut off as a whole counts as the first timeout of each of its queries, and the scan sends each later
 * {@code eth_getLogs} in a request of its own, so that the next timeout is one query's own. A block asked for alone
 * or by hash is not split: when it keeps timing out the scan ends with a {@link ScanException} naming it. A node that
 * answers headers but no log query at all thus costs up to two timeouts per halving of the span plus the retries of
 * one block before the scan fails. A batch of {@code eth_getBlockByNumber} calls cut off twice in a row (no call of
 * it answered in between) is halved for every later batch of headers of the scan (log queries keep their batch size,
 * which only a provider's refusal halves; {@link ScanListener#onBatchHalved}), down to one header per request; one
 * header that keeps timing
 * out ends the scan with a {@link ScanException} naming the block and the timeout. The first timeout at each size
 * costs an attempt of the retry policy, the halving none. Under a policy of one attempt (no retry) the first timeout
 * already splits a range or halves a batch of headers, and a batch of log queries cut off sends them alone at once;
 * only one block or one header cut off ends the scan.
 *
 * <p><b>Why by hash, and a header beside each range.</b> Behind a load balancer the header of block N may come from a
 * backend that has N while an {@code eth_getLogs} range reaches one that does not have it yet, and that backend
 * answers with the logs up to its own head only: for the blocks beyond it, an answer indistinguishable from "no logs"
 * (go-ethereum issue #24078, where the maintainers advise querying block by block by hash; execution-apis issue #534).
 * A query by hash names the exact block judged: a backend without it mostly answers an error (geth and anvil -32000
 * "unknown block", erigon "block not found: …", Nethermind -32001 "… could not be found"), which is retried, but Besu
 * answers {@code []}, the same as "no logs"; so each query by hash goes in one request with
 * {@code eth_getBlockByHash} of its block, before it, and a {@code null} header sets the answer aside to be asked for
 * again. A run longer than {@code byHashMaxRun} (a match-all filter, saturated blooms) is asked for as ranges, and
 * each range goes in one request with {@code eth_getBlockByNumber} of its last block, before it: the node that answers
 * both (a node answers a batch's calls in order, and its chain only grows) shows that it had that block, with the hash
 * of the header judged, and so every block of the range on the same chain; a {@code null} or different header sets
 * the range's answer aside, to be asked for again like any transient failure. <b>Residual risk:</b> a load balancer
 * that sends the calls of one JSON-RPC batch to different backends, or a provider without batches (batch size 1, the
 * two calls then go one after the other), defeats the header beside a range; {@code byHashMaxRun} as high as
 * {@code headerBatchSize} avoids ranges at the cost of one call per candidate block. A single node is not affected.
 *
 * <p><b>Delivery contract.</b> Logs reach the consumer in chain order (block number, then log index). All logs of a
 * header batch are fetched before the first of them is emitted, so a failing or restarted node never leaves a block
 * half-emitted. After the consumer has returned for every log of a block, the checkpoint moves past that block (and
 * past every skipped block at the end of each batch). Hence:
 * <ul>
 *   <li>node failures (errors, timeouts, a killed or restarted node): a resumed scan emits every log exactly once;</li>
 *   <li>a crash of this process, or a consumer that throws, between the first log of a block and its checkpoint: on
 *   resume that block's logs are emitted again (at-least-once for that one block, exactly-once for all others). A
 *   consumer that needs exactly-once ignores a log whose (block number, log index) is not above the last it stored;
 *   logs arrive in that order, so one number pair is all it must keep.</li>
 * </ul>
 * Blocks newer than {@code head - confirmations} (head read once at the start) are not scanned; a reorganisation
 * deeper than that is detected and reported with a {@link ScanException}, not repaired: on resume (the checkpoint's
 * block hash no longer matches), and during a scan, where every header read must name the previous block's hash as
 * its parent (across batches too) and each batch's last block is read again after its logs and before any of them is
 * emitted, so a block skipped on a header of an abandoned fork is never passed over silently.
 *
 * <p>Instances are immutable and may be shared. A scan runs on the calling thread. Each {@code scan} call learns the
 * provider's limits (a refused batch size, a refused range span) afresh; a caller that scans again and again (a
 * follow that scans each new batch as it comes) uses one {@link Session}, which keeps what its scans learned and can
 * be cancelled from another thread.
 */
public final class BlockScanner {
    /**
     * The words of a {@link ScanListener#onIndexSectionNotUsed} reason that say the section's last block is beyond the
     * node's head, or beyond the head less the scan's confirmations (the head itself follows them); any other reason
     * is a section of another chain.
     */
    public static final String BEYOND_HEAD = "is beyond the node's head";
    /**
     * The words that end a {@link ScanException} for one block or one header that this client's call timeout keeps
     * cutting off ("…; one block cannot be asked for in a smaller piece: raise the call timeout"), for a caller that
     * sets the timeout under a name of its own (a command-line option) to add that name.
     */
    public static final String RAISE_THE_CALL_TIMEOUT = "raise the call timeout";
    /**
     * The words that say a call, or a batch, was cut off by this client's call timeout ("…: no answer within the
     * client's call timeout (InterruptedIOException: timeout)"), for a caller that names the timeout's setting.
     */
    public static final String NO_ANSWER_WITHIN_THE_CALL_TIMEOUT = "no answer within the client's call timeout";

    private static final long SECTION_SIZE = BloomBitsMatcher.SECTION_SIZE;

    private final Web3jService service;
    private final SectionIndex index;
    private final int headerBatchSize;
    private final long maxLogRangeBlocks;
    private final int byHashMaxRun;
    private final int confirmations;
    private final RetryPolicy retryPolicy;
    private final CheckpointStore checkpoints;
    private final ScanListener listener;
    private final RpcSession.Sleeper sleeper;

    private BlockScanner(Builder builder) {
        this.service = builder.service;
        this.headerBatchSize = builder.headerBatchSize;
        this.maxLogRangeBlocks = builder.maxLogRangeBlocks;
        this.byHashMaxRun = builder.byHashMaxRun;
        this.confirmations = builder.confirmations;
        this.retryPolicy = builder.retryPolicy;
        this.checkpoints = builder.checkpoints;
        this.listener = builder.listener;
        this.sleeper = builder.sleeper;
        this.index = builder.index;
    }

    /** A builder over a web3j service, e.g. {@code new HttpService("http://127.0.0.1:8545")}. */
    public static Builder builder(Web3jService service) {
        return new Builder(service);
    }

    /**
     * Scans blocks {@code fromBlock..toBlockInclusive}, or up to {@code head - confirmations} when that is lower (the
     * summary then says it stopped short). With a checkpoint for the same filter, starts after it.
     *
     * @throws ScanException            on a failure that retries and range splits cannot cure (the checkpoint holds
     *                                  everything emitted before it)
     * @throws IllegalArgumentException on a negative {@code fromBlock} or an end below it
     */
    public ScanSummary scan(LogFilter filter, long fromBlock, long toBlockInclusive, Consumer<? super Log> consumer) {
        return session().scan(filter, fromBlock, toBlockInclusive, consumer);
    }

    /** A new {@link Session}: scans that share what they learn of the provider, and a way to cancel them. */
    public Session session() {
        return new Session();
    }

    /**
     * Scans by this scanner, one after the other on one thread, that share what they learn of the provider's limits:
     * a batch size the provider refused, a range span it refused or could not answer in time, that log queries go
     * alone. A follow that scans each new batch of blocks as it comes learns a limit once, not on every pass.
     *
     * <p>{@link #cancel} may be called from any thread: from then on no JSON-RPC call is sent or retried, and a wait
     * before a retry ends at once; the scan in progress (or the next) throws {@link ScanCancelledException}. A call
     * already in flight ends as the transport ends it (its call timeout, or a cancellation of the transport's own).
     * The logs of a batch are emitted only after all its calls were answered, so a cancelled scan has emitted and
     * checkpointed whole blocks only, and a new scan with the same checkpoint resumes without a gap or a repeat.
     */
    public final class Session {
        private final RpcSession.Limits limits = new RpcSession.Limits(headerBatchSize, maxLogRangeBlocks);
        private final CountDownLatch cancelled = new CountDownLatch(1);
        private final java.util.concurrent.atomic.AtomicLong retries = new java.util.concurrent.atomic.AtomicLong();

        private Session() {
        }

        /**
         * {@link BlockScanner#scan}, with the limits this session's earlier scans learned.
         *
         * @throws ScanCancelledException if the session was cancelled before the scan, or while the scan still had a
         *                                call to send or retry (a cancel while the last batch's logs are emitted lets
         *                                the scan finish: its calls are done)
         */
        public ScanSummary scan(LogFilter filter, long fromBlock, long toBlockInclusive,
                                Consumer<? super Log> consumer) {
            RpcSession rpc = new RpcSession(service, retryPolicy, this::sleep, listener, limits, this::isCancelled);
            try {
                return BlockScanner.this.scan(rpc, filter, fromBlock, toBlockInclusive, consumer);
            } finally {
                retries.addAndGet(rpc.retries());
            }
        }

        /**
         * Calls sent again after a transient failure by all of this session's scans, the failed ones too (a scan that
         * fails before its first batch, on eth_blockNumber say, carries no summary of its own).
         */
        public long retries() {
            return retries.get();
        }

        /** Stops this session's scans: no call is sent or retried from now on. Idempotent; any thread. */
        public void cancel() {
            cancelled.countDown();
        }

        public boolean isCancelled() {
            return cancelled.getCount() == 0;
        }

        /** The wait before a retry: the builder's sleeper (tests), else a wait that {@link #cancel} ends. */
        private void sleep(Duration delay) throws InterruptedException {
            if (sleeper != null) {
                sleeper.sleep(delay);
            } else {
                cancelled.await(delay.toMillis(), TimeUnit.MILLISECONDS);
            }
        }
    }

    private ScanSummary scan(RpcSession rpc, LogFilter filter, long fromBlock, long toBlockInclusive,
                             Consumer<? super Log> consumer) {
        Objects.requireNonNull(filter, "filter");
        Objects.requireNonNull(consumer, "consumer");
        if (fromBlock < 0) {
            throw new IllegalArgumentException("fromBlock is " + fromBlock + "; block numbers start at 0");
        }
        if (toBlockInclusive < fromBlock) {
            throw new IllegalArgumentException(
                    "toBlock " + toBlockInclusive + " is below fromBlock " + fromBlock);
        }
        long head = rpc.blockNumber();
        long end = Math.min(toBlockInclusive, head - confirmations);
        String fingerprint = Checkpoint.fingerprint(filter);
        long start = fromBlock;
        // The hash of block start - 1 as this scan knows it (null: unknown); each batch's first header must name it
        // as its parent, so that batches read at different times are known to lie on one chain.
        String hashBeforeBatch = null;
        Optional<Checkpoint> saved = savedCheckpoint(fingerprint);
        boolean resumed = false;
        if (saved.isPresent()) {
            Checkpoint checkpoint = saved.get();
            // From at or below the checkpoint's next block (startBlock's answer is that block itself): go on from the
            // checkpoint, once its last block is known to be unchanged. From above it leaves a gap the checkpoint
            // cannot vouch for, so it is not used.
            if (checkpoint.nextBlock() >= fromBlock) {
                start = checkpoint.nextBlock();
                verifyUnchanged(rpc, checkpoint, head);
                hashBeforeBatch = checkpoint.lastBlockHash();
                resumed = true;
            }
        }
        Counters counters = new Counters(start, toBlockInclusive, head, confirmations, resumed,
                filter.isMatchAll());
        try {
            scanBatches(rpc, filter, fingerprint, start, end, head, hashBeforeBatch, consumer, counters);
        } catch (ScanException e) {
            throw e.withSummarySoFar(counters.summary(rpc));
        }
        return counters.summary(rpc);
    }

    /** The batches of blocks {@code start..end}; see {@link #scan}. */
    private void scanBatches(RpcSession rpc, LogFilter filter, String fingerprint, long start, long end, long head,
                             String hashBeforeFirst, Consumer<? super Log> consumer, Counters counters) {
        String hashBeforeBatch = hashBeforeFirst;
        // Sections of the index this scan has checked against the node: true = same chain, false = not used.
        Map<Long, Boolean> sectionChecked = new HashMap<>();
        for (long first = start; first <= end; first = counters.lastBlock + 1) {
            long last;
            long[] indexCandidates = null;
            long checkBlock = -1;
            String checkHash = null;
            long section = index != null && first >= index.firstBlock() && first < index.endBlockExclusive()
                    ? index.sectionOf(first) : -1;
            if (section >= 0 && sectionChecked.computeIfAbsent(section, s -> sameChain(rpc, s, head))) {
                // Up to the end of the section (or of the index): one query, headers only for its candidates.
                long sectionEnd = first - Math.floorMod(first - index.firstBlock(), SECTION_SIZE) + SECTION_SIZE - 1;
                last = Math.min(end, Math.min(sectionEnd, index.endBlockExclusive() - 1));
                indexCandidates = index.candidates(filter, first, last);
                checkBlock = index.lastBlockOf(section);
                checkHash = hex(index.lastBlockHash(section));
            } else if (section >= 0) {
                // A section not used: its blocks are decided by their headers, in batches that stay within it.
                long sectionEnd = first - Math.floorMod(first - index.firstBlock(), SECTION_SIZE) + SECTION_SIZE - 1;
                last = Math.min(Math.min(end, sectionEnd), first + headerBatchSize - 1L);
            } else {
                last = first + Math.min(end - first, headerBatchSize - 1L);
                if (index != null && first < index.firstBlock()) {
                    last = Math.min(last, index.firstBlock() - 1);
                }
            }
            hashBeforeBatch = scanBatch(rpc, filter, fingerprint, first, last, indexCandidates, checkBlock, checkHash,
                    hashBeforeBatch, consumer, counters);
            listener.onProgress(counters.summary(rpc));
        }
    }

    /** {@link #scan} up to the safe head ({@code head - confirmations}). */
    public ScanSummary scanToSafeHead(LogFilter filter, long fromBlock, Consumer<? super Log> consumer) {
        return scan(filter, fromBlock, Long.MAX_VALUE, consumer);
    }

    /**
     * The block a {@link #scan} from {@code fromBlock} with {@code filter} starts at: {@code fromBlock}, or the next block
     * of this scanner's checkpoint when that is later. Reads only the checkpoint store, not the node.
     *
     * @throws ScanException if the checkpoint was written for another filter
     */
    public long startBlock(LogFilter filter, long fromBlock) {
        return savedCheckpoint(Checkpoint.fingerprint(filter)).map(c -> Math.max(fromBlock, c.nextBlock()))
                .orElse(fromBlock);
    }

    /** The stored checkpoint, refused if it was written for a filter with another fingerprint. */
    private Optional<Checkpoint> savedCheckpoint(String fingerprint) {
        Optional<Checkpoint> saved = checkpoints.load();
        if (saved.isPresent() && !saved.get().filterFingerprint().equals(fingerprint)) {
            throw new ScanException("the checkpoint was written for another filter (fingerprint "
                    + saved.get().filterFingerprint() + ", this filter " + fingerprint
                    + "); use a new checkpoint for a new filter");
        }
        return saved;
    }

    /**
     * Whether section {@code section} of the index was built from the chain the node has now: the node's block
     * {@link SectionIndex#lastBlockOf} has the hash the section stored (a block's hash covers all its ancestors). If
     * not, or if that block is beyond the safe head ({@code head - confirmations}), the listener is told and the
     * section is not used: its blocks are decided by their headers' blooms, so a block that a reorganisation replaced
     * after the index was built is judged on its new bloom.
     *
     * <p>Why the safe head, not the head: the section's last block is read again after its candidates' logs, and a
     * change fails the scan, since the index stores no other hash to tell how deep the change went. A last block
     * with fewer confirmations than the scan's (an index built with fewer) may change in a reorganisation the
     * confirmations are there to absorb, one that leaves every block the scan covers as it was; checked by it, the
     * scan would fail for nothing. Only the newest sections of an index are affected, and only until the head has
     * moved on by the confirmations.
     */
    private boolean sameChain(RpcSession rpc, long section, long head) {
        long block = index.lastBlockOf(section);
        String indexed = hex(index.lastBlockHash(section));
        long safeHead = head - confirmations;
        if (block > safeHead) {
            listener.onIndexSectionNotUsed(section, "its last block " + block + " " + BEYOND_HEAD + " " + head
                    + (confirmations == 0 ? ", so it cannot be checked against the node's chain"
                            : " less the scan's " + confirmations + " confirmations (block " + safeHead + "), so it"
                                    + " cannot be checked against the node's confirmed chain")
                    + "; its blocks are decided by their headers");
            return false;
        }
        String now = rpc.blocks(block, block).get(0).getHash();
        if (!indexed.equalsIgnoreCase(now)) {
            listener.onIndexSectionNotUsed(section, "block " + block + " has hash " + now + " on the node but "
                    + indexed + " in the index: the chain was reorganised after the section was built; its blocks"
                    + " are decided by their headers (rebuild the index to use it again)");
            return false;
        }
        return true;
    }

    private static String hex(byte[] hash) {
        return "0x" + Hex.encode(hash);
    }

    private void verifyUnchanged(RpcSession rpc, Checkpoint checkpoint, long head) {
        long block = checkpoint.nextBlock() - 1;
        if (block > head) {
            throw new CheckpointAheadOfHeadException(block, head);
        }
        String hash = rpc.blocks(block, block).get(0).getHash();
        if (!checkpoint.lastBlockHash().equalsIgnoreCase(hash)) {
            // Not "deeper than this scan's confirmations": the checkpoint may have been written with fewer.
            throw new CheckpointReorganisedException(block, hash, checkpoint.lastBlockHash());
        }
    }

    /**
     * Blocks {@code first..last}: decide the candidates (from the header blooms, or from the section index when
     * {@code indexCandidates} is given, reading only the candidates' headers and the last block's), fetch and match
     * their logs, check that the last block's hash has not changed since its header was read (and that block
     * {@code checkBlock} still has the hash {@code checkHash} the index section was checked with, when given), emit
     * the logs block by block, checkpoint. Consecutive headers read must chain by parent hash, the first to
     * {@code hashBefore} (the hash of block {@code first - 1}, null when unknown).
     *
     * @return the hash of block {@code last}
     */
    private String scanBatch(RpcSession rpc, LogFilter filter, String fingerprint, long first, long last,
                             long[] indexCandidates, long checkBlock, String checkHash, String hashBefore,
                             Consumer<? super Log> consumer, Counters counters) {
        int count = Math.toIntExact(last - first + 1);
        boolean[] candidate = new boolean[count];
        boolean[] bloomKnown = new boolean[count];
        EthBlock.Block[] headers = new EthBlock.Block[count];
        // With the index, only the candidates' headers are needed, and the last block's; and the first block's when
        // the block before it was read: its header must name that block as its parent, or a reorganisation between
        // the batches would go unseen (the section's own check vouches for the index on the chain of now).
        long[] wanted = indexCandidates == null ? null
                : withFirstAndLast(indexCandidates, hashBefore != null ? first : -1, last);
        List<EthBlock.Block> read = wanted == null ? rpc.blocks(first, last) : rpc.blocks(wanted);
        for (EthBlock.Block header : read) {
            headers[(int) (RpcSession.quantity(header.getNumberRaw(), header::getNumber, "a block number") - first)]
                    = header;
        }
        checkChained(headers, first, hashBefore);
        if (indexCandidates != null) {
            for (long n : indexCandidates) {
                candidate[(int) (n - first)] = true;
            }
            counters.blocksSkippedByIndex += count - indexCandidates.length;
        }
        List<BlockRange> runs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            if (indexCandidates == null || candidate[i]) {
                LogsBloom bloom = parseBloom(headers[i].getLogsBloom());
                bloomKnown[i] = bloom != null;
                if (bloom == null) {
                    counters.unknownBloomBlocks++;
                } else {
                    counters.bloomsSeen++;
                    counters.bloomBitsSet += bloom.bitsSet();
                    counters.saturatedBlocks += bloom.saturation() >= ScanSummary.SATURATED_FRACTION ? 1 : 0;
                }
                candidate[i] = bloom == null || filter.couldMatch(bloom);
            }
            if (candidate[i]) {
                counters.candidateBlocks++;
                if (i > 0 && candidate[i - 1]) {
                    runs.set(runs.size() - 1, new BlockRange(runs.get(runs.size() - 1).first(), first + i));
                } else {
                    runs.add(new BlockRange(first + i, first + i));
                }
            } else {
                counters.blocksSkippedByBloom++;
            }
        }
        List<List<Log>> matched = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            matched.add(candidate[i] ? new ArrayList<>() : List.of());
        }
        for (Log log : runs.isEmpty() ? List.<Log>of() : logsOf(rpc, filter, queries(runs, headers, first), headers,
                first, last)) {
            int i = indexInBatch(log, first, last, candidate);
            String headerHash = headers[i].getHash();
            if (log.getBlockHash() == null) {
                // A malformed answer, not a reorganisation: more confirmations would not help.
                throw new ScanException("the provider returned a log of block " + (first + i) + " (log index "
                        + RpcSession.excerpt(log.getLogIndexRaw()) + ") without a blockHash");
            }
            if (!log.getBlockHash().equalsIgnoreCase(headerHash)) {
                throw new ScanException("a log of block " + (first + i) + " has block hash "
                        + RpcSession.excerpt(log.getBlockHash())
                        + " but the header read in this scan has " + headerHash
                        + ": the chain reorganised during the scan; use more confirmations");
            }
            if (log.isRemoved()) {
                // eth_getLogs answers from the chain as it is (geth never sets the flag there; only a subscription
                // reports removed logs): a removed log of the block just read is a broken answer, not one to drop.
                throw new ScanException("the provider returned a log of block " + (first + i) + " (log index "
                        + RpcSession.excerpt(log.getLogIndexRaw()) + ") marked removed, which eth_getLogs never returns");
            }
            if (matchesExactly(filter, log)) {
                matched.get(i).add(log);
            }
        }
        // A block skipped by its bloom was judged on the header read above; had the chain reorganised since, the
        // block now there could hold a matching log. The last block's hash is unchanged only if no block before it
        // (all chained to it) changed.
        String lastHash = headers[count - 1].getHash();
        List<EthBlock.Block> now = rpc.blocks(checkHash == null || checkBlock == last ? new long[] {last}
                : new long[] {last, checkBlock});
        String lastHashNow = now.get(0).getHash();
        if (!lastHashNow.equalsIgnoreCase(lastHash)) {
            throw reorganisedSinceRead(last, lastHashNow, lastHash, "", null);
        }
        // The index section was checked against the node before its candidates were read; the chain the headers and
        // logs came from is the indexed one only if the section's last block still has the indexed hash.
        String checkHashNow = now.get(now.size() - 1).getHash();
        if (checkHash != null && !checkHash.equalsIgnoreCase(checkHashNow)) {
            throw new ScanException("block " + checkBlock + " now has hash " + checkHashNow + " but had the index's "
                    + checkHash + " when this scan began its section: the chain reorganised during the scan; use more"
                    + " confirmations");
        }
        long checkpointed = first - 1;
        for (int i = 0; i < count; i++) {
            List<Log> logs = matched.get(i);
            counters.blocksScanned++;
            counters.lastBlock = first + i;
            if (logs.isEmpty()) {
                counters.falsePositiveBlocks += candidate[i] && bloomKnown[i] ? 1 : 0;
                continue;
            }
            for (Log log : logs) {
                RpcSession.quantity(log.getLogIndexRaw(), log::getLogIndex, "the log index of a log of block "
                        + (first + i));
            }
            logs.sort(Comparator.comparing(Log::getLogIndex));
            for (int j = 1; j < logs.size(); j++) {
                if (logs.get(j).getLogIndex().equals(logs.get(j - 1).getLogIndex())) {
                    throw new ScanException("the provider returned log index " + logs.get(j).getLogIndex()
                            + " of block " + (first + i) + " twice");
                }
            }
            for (Log log : logs) {
                consumer.accept(log);
                counters.logsEmitted++;
            }
            checkpoints.save(new Checkpoint(first + i + 1, headers[i].getHash().toLowerCase(Locale.ROOT), fingerprint));
            checkpointed = first + i;
        }
        if (checkpointed != last) {
            checkpoints.save(new Checkpoint(last + 1, lastHash.toLowerCase(Locale.ROOT), fingerprint));
        }
        return lastHash;
    }

    /**
     * The {@code eth_getLogs} queries for runs of candidates: a run of at most {@link #byHashMaxRun} blocks block by
     * block by the hash of its header, a longer one as a range.
     */
    private List<BlockRange> queries(List<BlockRange> runs, EthBlock.Block[] headers, long first) {
        List<BlockRange> queries = new ArrayList<>();
        for (BlockRange run : runs) {
            if (run.span() > byHashMaxRun) {
                queries.add(run);
                continue;
            }
            for (long n = run.first(); n <= run.last(); n++) {
                queries.add(BlockRange.byHash(n, headers[(int) (n - first)].getHash()));
            }
        }
        return queries;
    }

    /**
     * Each header read whose predecessor was read too (or is {@code hashBefore}, for the first) must name that
     * predecessor's hash as its parent: headers answered by different forks (a reorganisation between two batches, a
     * load-balanced provider whose backends disagree) would otherwise be mixed, and a block judged on a header of
     * the abandoned fork could hide a log of the chain the rest of the scan reads.
     */
    private static void checkChained(EthBlock.Block[] headers, long first, String hashBefore) {
        String expectedParent = hashBefore;
        for (int i = 0; i < headers.length; i++) {
            EthBlock.Block header = headers[i];
            if (header == null) {
                expectedParent = null;
                continue;
            }
            if (expectedParent != null && !expectedParent.equalsIgnoreCase(header.getParentHash())) {
                throw new ScanException("block " + (first + i) + " has parent hash " + header.getParentHash()
                        + " but block " + (first + i - 1) + " was read with hash " + expectedParent
                        + ": the chain reorganised during the scan; use more confirmations");
            }
            expectedParent = header.getHash();
        }
    }

    /**
     * The logs of the candidate runs. Queries that keep failing on a node that answers may be of blocks a
     * reorganisation replaced: a block asked for by its hash is unknown to the node, a range's witness header has
     * another hash. Then the last block is read again, and a new hash is reported as the reorganisation it is, not as
     * exhausted retries, which would read as a lagging node.
     */
    private static List<Log> logsOf(RpcSession rpc, LogFilter filter, List<BlockRange> queries,
                                    EthBlock.Block[] headers, long first, long last) {
        try {
            return rpc.logs(filter, queries, n -> headers[(int) (n - first)].getHash());
        } catch (RetriesExhaustedException failure) {
            if (!failure.nodeAnswered()) {
                throw failure;
            }
            String hashNow;
            try {
                hashNow = rpc.blocks(last, last).get(0).getHash();
            } catch (ScanException unreadable) {
                throw failure;
            }
            String lastHash = headers[(int) (last - first)].getHash();
            if (hashNow.equalsIgnoreCase(lastHash)) {
                throw failure;
            }
            throw reorganisedSinceRead(last, hashNow, lastHash, " (its log queries failed: " + failure.getMessage() + ")",
                    failure);
        }
    }

    /** Block {@code block} read with {@code hashRead} has {@code hashNow} on the node: a reorganisation mid-scan. */
    private static ScanException reorganisedSinceRead(long block, String hashNow, String hashRead, String detail,
                                                      Throwable cause) {
        return new ScanException("block " + block + " now has hash " + hashNow + " but its header was read with "
                + hashRead + ": the chain reorganised during the scan" + detail + "; use more confirmations", cause);
    }

    /**
     * The ascending {@code candidates} (blocks of {@code first..last}), with {@code last} added, and {@code first}
     * too when it is not -1.
     */
    static long[] withFirstAndLast(long[] candidates, long first, long last) {
        boolean addFirst = first >= 0 && (candidates.length == 0 || candidates[0] != first) && first != last;
        boolean addLast = candidates.length == 0 || candidates[candidates.length - 1] != last;
        long[] wanted = new long[candidates.length + (addFirst ? 1 : 0) + (addLast ? 1 : 0)];
        int at = 0;
        if (addFirst) {
            wanted[at++] = first;
        }
        System.arraycopy(candidates, 0, wanted, at, candidates.length);
        if (addLast) {
            wanted[wanted.length - 1] = last;
        }
        return wanted;
    }

    private static int indexInBatch(Log log, long first, long last, boolean[] candidate) {
        long number = RpcSession.quantity(log.getBlockNumberRaw(), log::getBlockNumber, "the block number of a log");
        if (number < first || number > last || !candidate[(int) (number - first)]) {
            throw new ScanException("the provider returned a log of block " + number
                    + ", which is not among the requested candidate blocks of " + first + ".." + last);
        }
        return (int) (number - first);
    }

    /** A header's bloom, or null when it is missing, empty or not 256 bytes of hex: unknown, so never skipped. */
    static LogsBloom parseBloom(String logsBloomHex) {
        if (logsBloomHex == null || logsBloomHex.isBlank()) {
            return null;
        }
        try {
            return LogsBloom.fromHex(logsBloomHex);
        } catch (IllegalArgumentException malformed) {
            return null;
        }
    }

    /**
     * The exact match of a log as the provider sent it. A log without a {@code topics} list is malformed, not a log
     * without topics (a LOG0 log has {@code []}): read as no topics it would silently fail every topic filter.
     */
    private static boolean matchesExactly(LogFilter filter, Log log) {
        try {
            if (log.getTopics() == null) {
                throw new IllegalArgumentException("log has no topics list");
            }
            if (log.getTopics().size() > LogFilter.MAX_TOPICS) {
                // LOG0..LOG4: no log has more, and a filter of fewer positions would have passed it on.
                throw new IllegalArgumentException("log has " + log.getTopics().size() + " topics; a log has at most "
                        + LogFilter.MAX_TOPICS + " (LOG0 to LOG4)");
            }
            return Web3jLogs.matches(filter, log);
        } catch (IllegalArgumentException e) {
            throw new ScanException("the provider returned a malformed log of block "
                    + RpcSession.excerpt(log.getBlockNumberRaw()) + " (log index "
                    + RpcSession.excerpt(log.getLogIndexRaw()) + "): " + RpcSession.excerpt(e.getMessage()), e);
        }
    }

    /** The running totals of one scan. */
    private static final class Counters {
        final long firstBlock;
        final long requestedTo;
        final long head;
        final int confirmations;
        final boolean resumed;
        final boolean matchAll;
        long lastBlock;
        long blocksScanned;
        long blocksSkippedByBloom;
        long candidateBlocks;
        long falsePositiveBlocks;
        long unknownBloomBlocks;
        long logsEmitted;
        long bloomsSeen;
        long bloomBitsSet;
        long saturatedBlocks;
        long blocksSkippedByIndex;

        Counters(long firstBlock, long requestedTo, long head, int confirmations, boolean resumed, boolean matchAll) {
            this.firstBlock = firstBlock;
            this.requestedTo = requestedTo;
            this.head = head;
            this.confirmations = confirmations;
            this.resumed = resumed;
            this.matchAll = matchAll;
            this.lastBlock = firstBlock - 1;
        }

        ScanSummary summary(RpcSession rpc) {
            return new ScanSummary(firstBlock, lastBlock, requestedTo, head, confirmations, resumed, matchAll, blocksScanned,
                    blocksSkippedByBloom, blocksSkippedByIndex, candidateBlocks, falsePositiveBlocks,
                    unknownBloomBlocks, logsEmitted, bloomsSeen, bloomBitsSet, saturatedBlocks, rpc.retries(),
                    rpc.rangeSplits(), rpc.batchHalvings());
        }
    }

    /** Configures a {@link BlockScanner}. */
    public static final class Builder {
        /** Headers per JSON-RPC batch at most; providers commonly cap batches at 100 to 1000 calls. */
        public static final int MAX_HEADER_BATCH_SIZE = 1000;
        /**
         * The default {@link #byHashMaxRun}, 16. If the bloom passes a block with probability p, independently, a run
         * of candidates reaches 16 blocks with probability p^15 after its first: 0.2 at p = 0.9, 0.005 at p = 0.7.
         * Runs that long come from filters the blooms hardly narrow (saturated blooms, match-all, a very common
         * event), where one call per block would multiply the calls by up to the run's length; for every other filter
         * nearly every candidate is asked for by hash, at most 16 calls where a range would send one, all in one
         * JSON-RPC batch.
         */
        public static final int DEFAULT_BY_HASH_MAX_RUN = 16;

        private final Web3jService service;
        private int headerBatchSize = 100;
        private long maxLogRangeBlocks = 2000;
        private int byHashMaxRun = DEFAULT_BY_HASH_MAX_RUN;
        private int confirmations;
        private RetryPolicy retryPolicy = RetryPolicy.DEFAULT;
        private CheckpointStore checkpoints = CheckpointStore.none();
        private ScanListener listener = ScanListener.NONE;
        /** Null: a session waits on its own, a wait that {@link Session#cancel} ends. */
        private RpcSession.Sleeper sleeper;
        private SectionIndex index;

        private Builder(Web3jService service) {
            this.service = Objects.requireNonNull(service, "service");
        }

        /**
         * Headers requested per JSON-RPC batch, 1..1000 (default 100); halved for the scan if a provider refuses a
         * batch, or if the client's timeout cuts a batch of headers off twice in a row.
         */
        public Builder headerBatchSize(int headers) {
            if (headers < 1 || headers > MAX_HEADER_BATCH_SIZE) {
                throw new IllegalArgumentException("header batch size is " + headers + "; it must be 1.."
                        + MAX_HEADER_BATCH_SIZE);
            }
            this.headerBatchSize = headers;
            return this;
        }

        /** The widest {@code eth_getLogs} range sent, in blocks (default 2000); narrowed when a provider refuses. */
        public Builder maxLogRangeBlocks(long blocks) {
            if (blocks < 1) {
                throw new IllegalArgumentException("max log range is " + blocks + " blocks; it must be at least 1");
            }
            this.maxLogRangeBlocks = blocks;
            return this;
        }

        /**
         * The longest run of consecutive candidate blocks whose logs are asked for block by block, by the hash of
         * the header judged (EIP-234), 0 to {@value #MAX_HEADER_BATCH_SIZE} (default
         * {@value #DEFAULT_BY_HASH_MAX_RUN}); longer runs are asked for as block ranges. 0 sends ranges only. See the
         * class comment for the risk of ranges behind a load balancer.
         */
        public Builder byHashMaxRun(int blocks) {
            if (blocks < 0 || blocks > MAX_HEADER_BATCH_SIZE) {
                throw new IllegalArgumentException("by-hash max run is " + blocks + " blocks; it must be 0.."
                        + MAX_HEADER_BATCH_SIZE);
            }
            this.byHashMaxRun = blocks;
            return this;
        }

        /** How many blocks to stay behind the head (default 0); 0 scans up to the head itself. */
        public Builder confirmations(int blocks) {
            if (blocks < 0) {
                throw new IllegalArgumentException("confirmations is " + blocks + "; it must not be negative");
            }
            this.confirmations = blocks;
            return this;
        }

        public Builder retryPolicy(RetryPolicy policy) {
            this.retryPolicy = Objects.requireNonNull(policy, "retryPolicy");
            return this;
        }

        /** Where to keep the checkpoint (default: nowhere, every scan starts at its first block). */
        public Builder checkpoints(CheckpointStore store) {
            this.checkpoints = Objects.requireNonNull(store, "checkpoints");
            return this;
        }

        public Builder listener(ScanListener scanListener) {
            this.listener = Objects.requireNonNull(scanListener, "listener");
            return this;
        }

        /**
         * A bloombits section index of the same chain: blocks it covers are decided by its candidates, and only the
         * candidates' headers are read (plus each section's last, for the checkpoint). Each section is checked against
         * the node first, by the hash of its last block: a section built from blocks that a reorganisation replaced
         * since (or whose last block is beyond the head less the confirmations, as in an index built with fewer
         * confirmations than the scan uses) is not used, the listener is told
         * ({@link ScanListener#onIndexSectionNotUsed}), and its blocks are decided by their headers. Blocks outside
         * the index are decided header by header.
         */
        public Builder sectionIndex(SectionIndex sectionIndex) {
            this.index = Objects.requireNonNull(sectionIndex, "sectionIndex");
            return this;
        }

        Builder sleeper(RpcSession.Sleeper waiting) {
            this.sleeper = Objects.requireNonNull(waiting, "sleeper");
            return this;
        }

        public BlockScanner build() {
            return new BlockScanner(this);
        }
    }
}
