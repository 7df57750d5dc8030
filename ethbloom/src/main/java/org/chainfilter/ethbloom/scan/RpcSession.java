package org.chainfilter.ethbloom.scan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.LongFunction;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.chainfilter.common.Hex;
import org.chainfilter.ethbloom.LogFilter;
import org.chainfilter.ethbloom.scan.ProviderErrors.Kind;
import org.web3j.protocol.ObjectMapperFactory;
import org.web3j.protocol.Web3jService;
import org.web3j.protocol.core.BatchRequest;
import org.web3j.protocol.core.BatchResponse;
import org.web3j.protocol.core.DefaultBlockParameter;
import org.web3j.protocol.core.Request;
import org.web3j.protocol.core.Response;
import org.web3j.protocol.core.methods.response.EthBlock;
import org.web3j.protocol.core.methods.response.EthBlockNumber;
import org.web3j.protocol.core.methods.response.EthLog;
import org.web3j.protocol.core.methods.response.Log;

/**
 * The JSON-RPC side of one scan: batched calls, bounded retries with backoff, batches halved when a provider refuses a
 * batch or when this client's own timeout cuts a batch of headers off twice in a row, and {@code eth_getLogs} ranges
 * split in half when a provider refuses a range or when this client's own timeout cuts the range off twice. Not
 * thread-safe; one per scan, its counts that scan's, while what it learns about a provider's limits ({@link Limits})
 * lasts for every scan of the {@link BlockScanner.Session}. Once the scan is cancelled, no call is sent or retried.
 */
final class RpcSession {
    /** Waits between retries; tests replace it to run without sleeping. */
    @FunctionalInterface
    interface Sleeper {
        void sleep(Duration delay) throws InterruptedException;
    }

    /**
     * What one {@code eth_getLogs} call asks for: the closed block range {@code [first, last]}, or, when
     * {@code blockHash} is given, the one block {@code first} (= {@code last}) with that hash (EIP-234).
     */
    record BlockRange(long first, long last, String blockHash) {
        /** A range by numbers. */
        BlockRange(long first, long last) {
            this(first, last, null);
        }

        /** Block {@code number}, asked for by its hash. */
        static BlockRange byHash(long number, String blockHash) {
            return new BlockRange(number, number, blockHash);
        }

        long span() {
            return last - first + 1;
        }

        @Override
        public String toString() {
            return blockHash != null ? "block " + first + " by hash " + blockHash
                    : first == last ? "block " + first : "blocks " + first + ".." + last;
        }
    }

    /**
     * What became of one request: answered; refused as too large; failed transiently; failed for good; to be sent
     * again in a smaller batch (no attempt lost); sent alone and cut off by this client's timeout
     * ({@link ProviderErrors#isClientTimeout}); or in a batch that was cut off by it as a whole.
     */
    private enum Status { OK, TOO_LARGE, TRANSIENT, FATAL, RESEND, TIMED_OUT, BATCH_TIMED_OUT }

    /**
     * What is said of a call or range that timed out: cut off by this client's timeout ({@link #noAnswer}, where a
     * longer call timeout may help), or given up by the node itself (geth's -32002 "request timed out", sent when its
     * own write timeout passes: a longer client timeout does not change that).
     */
    private static String timedOut(Outcome outcome) {
        return outcome.response != null ? "the node gave up on it (" + outcome.problem + ")"
                : noAnswer(outcome.problem);
    }

    /** What is said of a call or batch that this client's timeout cut off ({@code problem}: the exception). */
    private static String noAnswer(String problem) {
        return BlockScanner.NO_ANSWER_WITHIN_THE_CALL_TIMEOUT + " (" + problem + ")";
    }

    /** Why one {@code unit} ("block", "header") cut off by the client's timeout is not asked for in a smaller piece. */
    private static String unsplittable(String unit) {
        return "one " + unit + " cannot be asked for in a smaller piece: " + BlockScanner.RAISE_THE_CALL_TIMEOUT;
    }

    private static final Pattern BLOCK_HASH = Pattern.compile("0x[0-9a-fA-F]{64}");

    /** How the problem of a call in a batch that failed as a whole begins: "batch of 16: " and the failure. */
    /** web3j's own mapper, with the deserialisers its response types need. */
    private static final ObjectMapper JSON = ObjectMapperFactory.getObjectMapper();
    private static final String BATCH_OF = "batch of ";
    private static final Pattern BATCH_OF_PREFIX = Pattern.compile("^" + BATCH_OF + "\\d+: ");

    /** What became of one request of a round. */
    private record Outcome(Status status, Response<?> response, String problem) {
    }

    /** The transport; requests are built directly (as web3j's JsonRpc2_0Web3j does) to avoid its executor. */
    private final Web3jService service;
    private final RetryPolicy retryPolicy;
    private final Sleeper sleeper;
    private final ScanListener listener;
    /** What this session has learned of the provider's limits, shared with the sessions before and after it. */
    private final Limits limits;
    /** Whether the scan was cancelled: no call is sent or retried once it is. */
    private final BooleanSupplier cancelled;
    /**
     * Whether the node has answered a call of this session with a result (an error it sent back does not count: a
     * provider that rate-limits every call with a JSON-RPC error is not answering).
     */
    private boolean answered;
    private long retries;
    private long rangeSplits;
    private long batchHalvings;

    RpcSession(Web3jService service, RetryPolicy retryPolicy, Sleeper sleeper, ScanListener listener, Limits limits,
               BooleanSupplier cancelled) {
        this.service = service;
        this.retryPolicy = retryPolicy;
        this.sleeper = sleeper;
        this.listener = listener;
        this.limits = limits;
        this.cancelled = cancelled;
    }

    /**
     * What a provider was found to accept, kept from one session to the next (the scans of one
     * {@link BlockScanner.Session}, the reads of one {@link HeaderReader}) so that a limit is learned once, not once per
     * scan. Used by one thread at a time.
     */
    static final class Limits {
        /** The most calls in one JSON-RPC batch: halved when the provider refuses a batch, for every later batch. */
        private int batchSize;
        /**
         * The most {@code eth_getBlockByNumber} calls in one batch, at most {@link #batchSize}: halved also when this
         * client's timeout cuts a batch of headers off, which says the headers are too slow for the node, not that
         * log queries should go in smaller batches (those have their own answer to timeouts, {@link #logCallsAlone}).
         */
        private int headerBatchSize;
        private long maxLogSpan;
        /** Set once a batch of {@code eth_getLogs} calls timed out: from then on each goes in a request of its own. */
        private boolean logCallsAlone;

        Limits(int batchSize, long maxLogSpan) {
            this.batchSize = batchSize;
            this.headerBatchSize = batchSize;
            this.maxLogSpan = maxLogSpan;
        }
    }

    long retries() {
        return retries;
    }

    long rangeSplits() {
        return rangeSplits;
    }

    long batchHalvings() {
        return batchHalvings;
    }

    /** {@code eth_blockNumber}. */
    long blockNumber() {
        Attempts attempts = new Attempts("eth_blockNumber");
        while (true) {
            Outcome outcome = round(List.of(new Request<>("eth_blockNumber", List.<String>of(), service, EthBlockNumber.class))).get(0);
            switch (outcome.status) {
                case OK:
                    return quantity(((EthBlockNumber) outcome.response).getResult(),
                            ((EthBlockNumber) outcome.response)::getBlockNumber, "the eth_blockNumber answer");
                case FATAL:
                case TOO_LARGE:
                    // Too large for a one-number answer: the same call would fail the same way.
                    throw new ScanException("eth_blockNumber failed: " + outcome.problem);
                case TIMED_OUT:
                    attempts.failed(timedOut(outcome));
                    break;
                default:
                    attempts.failed(outcome.problem);
            }
        }
    }

    /** The headers of blocks {@code first..last} (without transactions), in order, batched. */
    List<EthBlock.Block> blocks(long first, long last) {
        long[] numbers = new long[Math.toIntExact(last - first + 1)];
        for (int i = 0; i < numbers.length; i++) {
            numbers[i] = first + i;
        }
        return blocks(numbers);
    }

    /**
     * The headers of the given blocks (without transactions), in the same order, batched.
     *
     * <p>A batch that this client's timeout cuts off as a whole costs an attempt and is sent again; cut off a second
     * time in a row (no answer to any of its calls in between), the batch size is halved for the rest of the session,
     * as for a batch the node refuses as too large, down to one header per request: the node answers a batch's calls
     * one after the other, so a smaller batch takes it less time. One header cut off by the timeout cannot be asked
     * for in a smaller piece: it is sent again until the retries run out, and the {@link ScanException} names the
     * block and the timeout.
     */
    List<EthBlock.Block> blocks(long[] wanted) {
        Map<Long, EthBlock.Block> found = new HashMap<>();
        ArrayDeque<Long> pending = new ArrayDeque<>();
        for (long n : wanted) {
            pending.add(n);
        }
        String call = wanted.length == 0 ? "eth_getBlockByNumber"
                : "eth_getBlockByNumber " + wanted[0] + ".." + wanted[wanted.length - 1];
        Attempts attempts = new Attempts(call);
        // Batches cut off as a whole since a batch was last answered or halved.
        int batchTimeouts = 0;
        while (!pending.isEmpty()) {
            List<Long> numbers = take(pending, Math.min(limits.batchSize, limits.headerBatchSize));
            List<Request<?, EthBlock>> requests = new ArrayList<>(numbers.size());
            for (long n : numbers) {
                requests.add(header(n));
            }
            List<Outcome> outcomes = round(requests);
            String problem = null;
            boolean progress = false;
            if (outcomes.get(0).status == Status.BATCH_TIMED_OUT) {
                String timedOut = "blocks " + numbers.get(0) + ".." + numbers.get(numbers.size() - 1) + ": "
                        + noAnswer(outcomes.get(0).problem);
                for (int i = numbers.size() - 1; i >= 0; i--) {
                    pending.addFirst(numbers.get(i));
                }
                if (++batchTimeouts >= timeoutsBeforeSmaller()) {
                    limits.headerBatchSize = Math.max(1, numbers.size() / 2);
                    batchHalved(numbers.size(), limits.headerBatchSize, asMadeSmaller(timedOut));
                    batchTimeouts = 0;
                    attempts.succeeded();
                } else {
                    attempts.failed(timedOut);
                }
                continue;
            }
            for (int i = numbers.size() - 1; i >= 0; i--) {
                long n = numbers.get(i);
                Outcome outcome = outcomes.get(i);
                EthBlock.Block block = outcome.status == Status.OK ? ((EthBlock) outcome.response).getBlock() : null;
                // A single header too large cannot be asked for in a smaller piece (a refused batch comes back as
                // RESEND, not TOO_LARGE).
                if (outcome.status == Status.FATAL || outcome.status == Status.TOO_LARGE) {
                    throw new ScanException("eth_getBlockByNumber(" + n + ") failed: " + outcome.problem);
                }
                if (block == null) {
                    pending.addFirst(n);
                    if (outcome.status == Status.OK) {
                        // A null block at or below the head: a load-balanced backend that has not caught up yet.
                        problem = "block " + n + " is not available (null)";
                    } else if (outcome.status == Status.TIMED_OUT) {
                        problem = "block " + n + ": " + timedOut(outcome)
                                + (outcome.response == null ? "; " + unsplittable("header") : "");
                    } else if (outcome.status != Status.RESEND) {
                        problem = outcome.problem;
                    }
                } else if (quantity(block.getNumberRaw(), block::getNumber, "the number of block " + n) != n) {
                    throw new ScanException("eth_getBlockByNumber(" + n + ") answered block " + excerpt(block.getNumberRaw()));
                } else if (block.getHash() == null || !BLOCK_HASH.matcher(block.getHash()).matches()) {
                    throw new ScanException("eth_getBlockByNumber(" + n + ") answered a malformed block hash '"
                            + excerpt(block.getHash()) + "'");
                } else if (block.getParentHash() == null || !BLOCK_HASH.matcher(block.getParentHash()).matches()) {
                    // Checked here, so that the chain check never calls a malformed answer a reorganisation.
                    throw new ScanException("eth_getBlockByNumber(" + n + ") answered a malformed parent hash '"
                            + excerpt(block.getParentHash()) + "'");
                } else {
                    found.put(n, block);
                    progress = true;
                }
            }
            if (outcomes.stream().anyMatch(outcome -> outcome.status == Status.OK)) {
                // Answered within the timeout (a null block too): the timeouts before were not this size's.
                batchTimeouts = 0;
            }
            settle(attempts, outcomes, problem, progress);
        }
        List<EthBlock.Block> blocks = new ArrayList<>(wanted.length);
        for (long n : wanted) {
            blocks.add(found.get(n));
        }
        return blocks;
    }

    /**
     * {@code eth_getLogs} for each range (the filter's addresses and topics are sent along, so the provider returns a
     * superset of the exact answer, or the exact answer), split into spans the provider accepts; a block asked for by
     * hash is never split, and every log of its answer must carry that hash and number. The logs of all ranges, in no
     * particular order.
     *
     * <p>A node that does not have a block asked for by hash answers an error (geth, anvil: -32000 "unknown block";
     * erigon "block not found: …"; Nethermind -32001 "… could not be found"), which is transient here: the call is
     * sent again after the backoff, and the scan fails, naming the block, once the retries run out.
     *
     * <p><b>This client's timeout.</b> A call the client gives up on (no answer within its call or read timeout)
     * costs an attempt and is sent again: the node may only have been busy. A range of more than one block that is
     * cut off a second time is split as a refused range is (listener, {@code rangeSplits}, the narrower span kept for
     * the rest of the scan): the node cannot answer that much within the time this client waits, as geth says itself
     * with "query timeout exceeded". A block asked for alone or by hash cannot be split; it is sent again until the
     * retries run out, and the scan fails naming the block and the timeout. Other transient failures (HTTP 429, 503,
     * "unknown block") never split. A JSON-RPC batch is cut off as a whole, and its time is the sum of its calls'
     * (geth answers a batch's calls one after the other), so the one too heavy is not known: the batch costs one
     * attempt, counts as the first timeout of each of its calls, and from then on this session sends each
     * {@code eth_getLogs} call in a request of its own, so that a second timeout is the call's own and splits it.
     */
    List<Log> logs(LogFilter filter, List<BlockRange> ranges, LongFunction<String> headerHash) {
        List<Log> logs = new ArrayList<>();
        ArrayDeque<BlockRange> pending = new ArrayDeque<>();
        for (BlockRange range : ranges) {
            pending.addAll(cut(range));
        }
        Attempts attempts = new Attempts("eth_getLogs");
        // After a refusal, one range at a time until one passes: a batch of ranges at a span the provider refuses
        // would be refused as many times as it has ranges.
        boolean probing = false;
        Map<BlockRange, Integer> timeouts = new HashMap<>();
        while (!pending.isEmpty()) {
            List<BlockRange> batch = probing || limits.logCallsAlone ? List.of(pending.poll()) : takeQueries(pending);
            List<Request<?, ? extends Response<?>>> requests = new ArrayList<>(2 * batch.size());
            for (BlockRange range : batch) {
                requests.add(range.blockHash == null ? header(range.last) : headerByHash(range.blockHash));
                requests.add(new Request<>("eth_getLogs", List.of(logFilterParameter(filter, range)), service,
                        EthLog.class));
            }
            List<Outcome> outcomes = answersToQueries(batch, round(requests), headerHash);
            // What stops the scan is reported for the first block it concerns.
            for (int i = 0; i < batch.size(); i++) {
                BlockRange range = batch.get(i);
                Outcome outcome = outcomes.get(i);
                if (outcome.status == Status.FATAL) {
                    throw new ScanException("eth_getLogs for " + range + " failed: " + outcome.problem);
                }
                if (outcome.status == Status.TOO_LARGE && range.span() == 1) {
                    throw new ScanException("eth_getLogs for " + range + " alone is too large: " + outcome.problem);
                }
            }
            String problem = null;
            boolean refused = false;
            for (int i = batch.size() - 1; i >= 0; i--) {
                BlockRange range = batch.get(i);
                Outcome outcome = outcomes.get(i);
                switch (outcome.status) {
                    case OK:
                        List<EthLog.LogResult> results = ((EthLog) outcome.response).getLogs();
                        if (results == null) {
                            throw new ScanException("eth_getLogs " + range.first + ".." + range.last
                                    + " answered neither a result nor an error");
                        }
                        for (EthLog.LogResult<?> result : results) {
                            if (!(result instanceof EthLog.LogObject)) {
                                throw new ScanException("eth_getLogs " + range.first + ".." + range.last
                                        + " answered a log hash instead of a log object: "
                                        + excerpt(String.valueOf(result.get())));
                            }
                            checkOfBlockAskedFor(range, (EthLog.LogObject) result);
                            logs.add((EthLog.LogObject) result);
                        }
                        break;
                    case TOO_LARGE:
                        split(range, outcome.problem, pending);
                        refused = true;
                        break;
                    case TIMED_OUT:
                    case BATCH_TIMED_OUT:
                        boolean splittable = range.blockHash == null && range.span() > 1;
                        String timedOut = timedOut(outcome);
                        if (outcome.status == Status.TIMED_OUT && splittable
                                && timeouts.merge(range, 1, Integer::sum) >= timeoutsBeforeSmaller()) {
                            split(range, asMadeSmaller(timedOut), pending);
                            refused = true;
                        } else if (outcome.status == Status.BATCH_TIMED_OUT && timeoutsBeforeSmaller() == 1) {
                            // No retry allowed: the calls go alone at once, as a halving costs no attempt.
                            limits.logCallsAlone = true;
                            pending.addFirst(range);
                        } else {
                            if (outcome.status == Status.BATCH_TIMED_OUT) {
                                timeouts.merge(range, 1, Integer::sum);
                                limits.logCallsAlone = true;
                            }
                            problem = range + ": " + timedOut + (splittable || outcome.response != null ? ""
                                    : "; " + unsplittable("block"));
                            pending.addFirst(range);
                        }
                        break;
                    default:
                        problem = outcome.status == Status.TRANSIENT ? range + ": " + outcome.problem : problem;
                        pending.addFirst(range);
                }
            }
            if (refused) {
                List<BlockRange> recut = new ArrayList<>();
                for (BlockRange range : pending) {
                    recut.addAll(cut(range));
                }
                pending.clear();
                pending.addAll(recut);
            }
            probing = refused || probing && problem != null;
            settle(attempts, outcomes, problem, outcomes.stream().anyMatch(outcome -> outcome.status == Status.OK));
        }
        return logs;
    }

    /**
     * How many times in a row a range or a batch of headers is cut off by this client's timeout before it is asked
     * for in smaller pieces: twice (the first time the node may only have been busy), or at once under a policy of
     * one attempt, which would otherwise end the scan at the first timeout with no smaller piece tried.
     */
    private int timeoutsBeforeSmaller() {
        return Math.min(2, retryPolicy.maxAttempts());
    }

    /** What is said of a timeout that made a range or a batch smaller: ", twice" when it took two. */
    private String asMadeSmaller(String timedOut) {
        return timeoutsBeforeSmaller() == 2 ? timedOut + ", twice" : timedOut;
    }

    /** {@code eth_getBlockByNumber(number, false)}: the header, without transactions. */
    private Request<?, EthBlock> header(long number) {
        return new Request<>("eth_getBlockByNumber", List.of(DefaultBlockParameter.valueOf(BigInteger.valueOf(number))
                .getValue(), false), service, EthBlock.class);
    }

    private Request<?, EthBlock> headerByHash(String blockHash) {
        return new Request<>("eth_getBlockByHash", List.of(blockHash, false), service, EthBlock.class);
    }

    /** The witness call of a query, as the messages name it. */
    private static String witnessCall(BlockRange range) {
        return range.blockHash == null ? "eth_getBlockByNumber(" + range.last + ")"
                : "eth_getBlockByHash(" + range.blockHash + ")";
    }

    /**
     * What became of each query of a round, from the answers to its calls: its witness header
     * ({@code eth_getBlockByNumber(last)} for a range, {@code eth_getBlockByHash} for a query by hash) and its
     * {@code eth_getLogs}, sent in that order in one request. A query by hash needs its witness too: a backend that
     * lacks the block may answer it with {@code []} rather than an error (Besu's {@code matchingLogs} by hash does).
     *
     * <p><b>The witness.</b> A node behind a load balancer that lacks the newest blocks answers a range reaching them
     * with the logs up to its own head, indistinguishable from "no logs" for the rest (go-ethereum issue #24078). The
     * witness, answered by the same node just before the range (a node answers a batch's calls in order, and its
     * chain only grows), shows whether that node had the range's last block, and with the hash of the header the
     * scanner judged: if so it had every block of the range, on the same chain (a header names its parent), and the
     * range's answer is complete. If the witness is {@code null} or another block, the logs are not used and the range
     * is asked for again, as for any transient failure (after the retries the scan fails, naming the block). A range
     * whose own call failed is handled by that failure (split, retried, fatal), whatever the witness said; a batch of
     * one range cut off by this client's timeout counts as that range's own timeout, so that it is split as a range
     * sent alone would be.
     */
    private static List<Outcome> answersToQueries(List<BlockRange> batch, List<Outcome> answers,
                                                  LongFunction<String> headerHash) {
        List<Outcome> outcomes = new ArrayList<>(batch.size());
        int at = 0;
        for (BlockRange range : batch) {
            Outcome witness = answers.get(at++);
            Outcome log = answers.get(at++);
            if (log.status == Status.BATCH_TIMED_OUT && batch.size() == 1) {
                // The request was the range and its witness: to the user, one range that was not answered.
                outcomes.add(new Outcome(Status.TIMED_OUT, null,
                        BATCH_OF_PREFIX.matcher(log.problem).replaceFirst("")));
            } else if (log.status != Status.OK) {
                outcomes.add(log);
            } else if (witness.status == Status.FATAL || witness.status == Status.TOO_LARGE) {
                outcomes.add(new Outcome(Status.FATAL, null, witnessCall(range) + ", asked for with the "
                        + (range.blockHash == null ? "range" : "query") + ", failed: " + witness.problem));
            } else if (witness.status != Status.OK) {
                outcomes.add(new Outcome(witness.status == Status.RESEND ? Status.RESEND : Status.TRANSIENT, null,
                        witnessCall(range) + ", asked for with the " + (range.blockHash == null ? "range" : "query")
                                + " to show the node had that block: " + witness.problem));
            } else {
                EthBlock.Block block = ((EthBlock) witness.response).getBlock();
                String expected = headerHash.apply(range.last);
                if (block == null) {
                    // By hash too: a backend without the block may answer eth_getLogs with [] (Besu does), not an
                    // error, so only the header it has shows that its answer is the block's.
                    outcomes.add(new Outcome(Status.TRANSIENT, null, "the node that answered does not have block "
                            + range.last + " yet (null header beside the " + (range.blockHash == null ? "range"
                            : "query by hash") + "): its answer may lack that block's logs"));
                } else if (block.getHash() == null || !block.getHash().equalsIgnoreCase(expected)) {
                    outcomes.add(new Outcome(Status.TRANSIENT, null, "the node that answered has block "
                            + range.last + " with hash " + block.getHash() + ", not the " + expected
                            + " read in this scan: its answer may be of another chain"));
                } else {
                    outcomes.add(log);
                }
            }
        }
        return outcomes;
    }

    /**
     * The next queries of {@link #logs} for one round: as many as fit in the batch size, counting two calls for each
     * (its witness header and itself), and at least one.
     */
    private List<BlockRange> takeQueries(ArrayDeque<BlockRange> pending) {
        List<BlockRange> taken = new ArrayList<>();
        int calls = 0;
        while (!pending.isEmpty()) {
            if (!taken.isEmpty() && calls + 2 > limits.batchSize) {
                break;
            }
            taken.add(pending.poll());
            calls += 2;
        }
        return taken;
    }

    /**
     * Halves the span for the rest of the session (a narrower one may pass where {@code range} did not), tells the
     * listener, and puts {@code range} back in front of {@code pending}, to be cut to the new span.
     */
    private void split(BlockRange range, String problem, ArrayDeque<BlockRange> pending) {
        limits.maxLogSpan = Math.min(limits.maxLogSpan, range.span() / 2);
        rangeSplits++;
        listener.onRangeSplit(range.first, range.last, problem);
        pending.addFirst(range);
    }

    /** {@code range} in pieces of at most the span the provider accepts; a block asked for by hash as it is. */
    private List<BlockRange> cut(BlockRange range) {
        if (range.blockHash != null || range.span() <= limits.maxLogSpan) {
            return List.of(range);
        }
        List<BlockRange> pieces = new ArrayList<>();
        for (long first = range.first; first <= range.last; first += limits.maxLogSpan) {
            pieces.add(new BlockRange(first, Math.min(range.last, first + limits.maxLogSpan - 1)));
        }
        return pieces;
    }

    /**
     * A log answered for a block asked for by hash must be of that block: the hash is what ties the answer to the
     * header the scanner judged, so a log without it, or of another block, is a broken answer, not a reorganisation.
     */
    private static void checkOfBlockAskedFor(BlockRange range, Log log) {
        if (range.blockHash == null || log.getBlockHash() == null) {
            // A log without a blockHash at all is refused by the scanner, for either kind of query.
            return;
        }
        if (!range.blockHash.equalsIgnoreCase(log.getBlockHash())) {
            throw new ScanException("eth_getLogs for " + range + " answered a log (log index "
                    + excerpt(log.getLogIndexRaw()) + ") with block hash " + excerpt(log.getBlockHash()));
        }
        if (quantity(log.getBlockNumberRaw(), log::getBlockNumber, "the block number of a log of " + range)
                != range.first) {
            throw new ScanException("eth_getLogs for " + range + " answered a log (log index "
                    + excerpt(log.getLogIndexRaw()) + ") of block " + excerpt(log.getBlockNumberRaw()));
        }
    }

    /** The longest quantity text read: {@code 0x} and 64 hex digits, a 256-bit value (leading zeros tolerated). */
    static final int MAX_QUANTITY_CHARS = 66;

    /**
     * A JSON-RPC quantity as a long, or a {@link ScanException} naming {@code what} when the provider sent something
     * that is not one (web3j throws its own unchecked exceptions on such text); {@code raw} is its text, checked for
     * length first.
     */
    static long quantity(String raw, Supplier<BigInteger> value, String what) {
        if (raw != null && raw.length() > MAX_QUANTITY_CHARS) {
            // Checked before web3j decodes it: BigInteger's parse takes time quadratic in the digits (a megabyte of
            // them took 21 s), and the answer was read in full before.
            throw new ScanException(what + " is " + raw.length() + " characters long ('" + raw.substring(0, 20)
                    + "…'); a quantity has at most " + MAX_QUANTITY_CHARS + " (0x and 64 hex digits)");
        }
        try {
            BigInteger number = value.get();
            if (number == null) {
                throw new ScanException(what + " is missing");
            }
            return number.longValueExact();
        } catch (ScanException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new ScanException(what + " is not a block-sized quantity: " + e.getMessage(), e);
        }
    }

    /**
     * The filter object of {@code eth_getLogs}: {@code blockHash} (EIP-234) or {@code fromBlock}/{@code toBlock}, never
     * both (geth refuses that: "can't specify fromBlock/toBlock with blockHash"); {@code address} as a list, left out
     * when any address matches; {@code topics} with null for a wildcard position, a hash, or a list of alternatives.
     */
    private static Map<String, Object> logFilterParameter(LogFilter filter, BlockRange range) {
        Map<String, Object> parameter = new LinkedHashMap<>();
        if (range.blockHash != null) {
            parameter.put("blockHash", range.blockHash);
        } else {
            parameter.put("fromBlock", DefaultBlockParameter.valueOf(BigInteger.valueOf(range.first)).getValue());
            parameter.put("toBlock", DefaultBlockParameter.valueOf(BigInteger.valueOf(range.last)).getValue());
        }
        if (!filter.addresses().isEmpty()) {
            List<String> addresses = new ArrayList<>();
            for (byte[] address : filter.addresses()) {
                addresses.add("0x" + Hex.encode(address));
            }
            parameter.put("address", addresses);
        }
        if (!filter.topics().isEmpty()) {
            List<Object> topics = new ArrayList<>();
            for (List<byte[]> position : filter.topics()) {
                if (position == null) {
                    topics.add(null);
                } else if (position.size() == 1) {
                    topics.add("0x" + Hex.encode(position.get(0)));
                } else {
                    List<String> alternatives = new ArrayList<>();
                    for (byte[] topic : position) {
                        alternatives.add("0x" + Hex.encode(topic));
                    }
                    topics.add(alternatives);
                }
            }
            parameter.put("topics", topics);
        }
        return parameter;
    }

    private static <T> List<T> take(ArrayDeque<T> pending, int limit) {
        List<T> taken = new ArrayList<>(Math.min(limit, pending.size()));
        while (taken.size() < limit && !pending.isEmpty()) {
            taken.add(pending.poll());
        }
        return taken;
    }

    /**
     * After a round: a transient failure costs an attempt (and a backoff); a round with none resets the count, and so
     * does a round with {@code progress}, one that settled some call for good (a header read, a log query answered).
     * The count is of rounds without progress: when a few calls each miss once (headers a lagging backend does not
     * have yet, in batches made small by the provider or by timeouts) each round answers one call and misses the
     * next, and counted as failures in a row such rounds ended the scan while every call was answered at its second
     * try. The rounds stay bounded: a round with progress settles a call for good, and the calls are finite (a null
     * header is no progress, so a block that never comes still ends the scan).
     */
    private void settle(Attempts attempts, List<Outcome> outcomes, String transientProblem, boolean progress) {
        boolean anyTransient = false;
        for (Outcome outcome : outcomes) {
            anyTransient |= outcome.status == Status.TRANSIENT;
        }
        if (progress) {
            attempts.succeeded();
        }
        if (anyTransient || transientProblem != null) {
            attempts.failed(transientProblem != null ? transientProblem : "transient failure");
        } else {
            attempts.succeeded();
        }
    }

    /**
     * Sends the requests, one by one when the batch size is 1 (also for providers without batch support), else as one
     * JSON-RPC batch whose answers are matched to requests by id and only then decoded as their request's type (web3j
     * keeps the provider's order, which JSON-RPC 2.0 does not fix, and would decode by position). A batch the provider refuses as a whole (or inside its answer, as geth does:
     * {@link ProviderErrors#refusesBatch}), or answers with something other than an array, halves the batch size and
     * asks for the requests to be sent again. A request or batch cut off by this client's timeout is told apart from
     * other transient failures ({@link Status#TIMED_OUT}, {@link Status#BATCH_TIMED_OUT}), for {@link #logs} to split.
     */
    private List<Outcome> round(List<? extends Request<?, ? extends Response<?>>> requests) {
        List<Outcome> outcomes = send(requests);
        for (Outcome outcome : outcomes) {
            answered |= outcome.status == Status.OK;
        }
        return outcomes;
    }

    /** Refuses to send {@code method} once the scan is cancelled. */
    private void checkNotCancelled(String method) {
        if (cancelled.getAsBoolean()) {
            throw new ScanCancelledException("the scan was cancelled before " + method + " was sent");
        }
    }

    /** {@link #round}'s sending, its outcomes not yet counted. */
    private List<Outcome> send(List<? extends Request<?, ? extends Response<?>>> requests) {
        List<Outcome> outcomes = new ArrayList<>(requests.size());
        if (limits.batchSize == 1 || requests.size() == 1) {
            for (Request<?, ? extends Response<?>> request : requests) {
                checkNotCancelled(request.getMethod());
                try {
                    outcomes.add(outcomeOf(request.send()));
                } catch (IOException | RuntimeException e) {
                    Kind kind = ProviderErrors.classify(e);
                    outcomes.add(new Outcome(kind == Kind.TRANSIENT && ProviderErrors.isClientTimeout(e)
                            ? Status.TIMED_OUT : status(kind), null, describe(e)));
                }
            }
            return outcomes;
        }
        // Sent as requests whose answers web3j keeps as JSON: it decodes a batch's i-th answer with the i-th request's
        // type, so a provider answering a batch of block and log calls in another order (as JSON-RPC 2.0 allows)
        // would have a log list read as a block. Each answer is decoded once matched to its request by id.
        BatchRequest batch = new BatchRequest(service);
        List<Request<?, RawAnswer>> sent = new ArrayList<>(requests.size());
        for (Request<?, ? extends Response<?>> request : requests) {
            Request<?, RawAnswer> raw = new Request<>(request.getMethod(), request.getParams(), service,
                    RawAnswer.class);
            sent.add(raw);
            batch.add(raw);
        }
        checkNotCancelled(requests.get(0).getMethod());
        BatchResponse answer;
        try {
            answer = batch.send();
        } catch (IOException | RuntimeException e) {
            Kind kind = ProviderErrors.classify(e);
            if (kind == Kind.TOO_LARGE && logCalls(requests) == 1) {
                // HTTP 413 or an answer over the size limit for a batch of one log query and its witness: the query
                // is what is too large (split it), not the batch, whose size is left alone.
                for (Request<?, ? extends Response<?>> request : requests) {
                    outcomes.add(new Outcome("eth_getLogs".equals(request.getMethod()) ? Status.TOO_LARGE
                            : Status.RESEND, null, describe(e)));
                }
                return outcomes;
            }
            Status status = kind != Kind.TRANSIENT ? Status.RESEND
                    : ProviderErrors.isClientTimeout(e) ? Status.BATCH_TIMED_OUT : Status.TRANSIENT;
            if (status == Status.RESEND) {
                halveBatch(requests.size(), "batch of " + requests.size() + " refused: " + describe(e));
            }
            for (int i = 0; i < requests.size(); i++) {
                outcomes.add(new Outcome(status, null, BATCH_OF + requests.size() + ": " + describe(e)));
            }
            return outcomes;
        }
        Map<Long, Response<?>> byId = new HashMap<>();
        java.util.Set<Long> answeredTwice = new java.util.HashSet<>();
        String refusal = null;
        for (Response<?> response : answer.getResponses()) {
            if (byId.put(response.getId(), response) != null) {
                // Which of two answers is the call's cannot be told (the last one won, which could be an empty
                // list of logs): a broken answer, asked again.
                answeredTwice.add(response.getId());
            }
            if (response.hasError() && ProviderErrors.refusesBatch(response.getError().getCode(),
                    response.getError().getMessage())) {
                refusal = "error " + response.getError().getCode() + ": " + excerpt(response.getError().getMessage());
            }
        }
        boolean batchRefused = refusal != null;
        if (batchRefused) {
            // The batch, not a call, was refused (its other calls unanswered or refused too): smaller batches, no
            // retry; the calls answered are kept.
            halveBatch(requests.size(), "batch of " + requests.size() + " refused: " + refusal);
        }
        for (int i = 0; i < requests.size(); i++) {
            long id = sent.get(i).getId();
            Response<?> raw = byId.get(id);
            if (batchRefused && (raw == null || raw.hasError())) {
                outcomes.add(new Outcome(Status.RESEND, null, "batch of " + requests.size() + " refused"));
            } else if (raw == null) {
                outcomes.add(new Outcome(Status.TRANSIENT, null, "no answer for request id " + id + " in the batch"));
            } else if (answeredTwice.contains(id)) {
                outcomes.add(new Outcome(Status.TRANSIENT, null, "two answers for request id " + id + " in the batch"));
            } else {
                outcomes.add(decoded((RawAnswer) raw, requests.get(i).getResponseType()));
            }
        }
        return outcomes;
    }

    /** A batch answer as web3j leaves it: its result as JSON, decoded by {@link #decoded} once its request is known. */
    public static final class RawAnswer extends Response<JsonNode> {
    }

    /**
     * The answer {@code raw} decoded as {@code type}, as a request of that type sent alone would have it; a result
     * that does not decode is the failure the same answer to a lone request would be.
     */
    private static Outcome decoded(RawAnswer raw, Class<? extends Response<?>> type) {
        ObjectNode json = JSON.createObjectNode().put("jsonrpc", raw.getJsonrpc()).put("id", raw.getId());
        if (raw.hasError()) {
            // Code and message, all an outcome reads: the error's data, kept by web3j as JSON text, would be written
            // out and read back here, twice its size again (a review ran a 64 MiB heap out of memory with it).
            json.putObject("error").put("code", raw.getError().getCode()).put("message", raw.getError().getMessage());
        } else {
            json.set("result", raw.getResult() == null ? NullNode.getInstance() : raw.getResult());
        }
        try {
            return outcomeOf(JSON.treeToValue(json, type));
        } catch (IOException | RuntimeException e) {
            return new Outcome(status(ProviderErrors.classify(e)), null, describe(e));
        }
    }

    private static long logCalls(List<? extends Request<?, ? extends Response<?>>> requests) {
        return requests.stream().filter(request -> "eth_getLogs".equals(request.getMethod())).count();
    }

    /**
     * Halves the batch size for the rest of the session (the provider refused a batch of {@code calls}) and says so.
     */
    private void halveBatch(int calls, String problem) {
        limits.batchSize = Math.max(1, calls / 2);
        batchHalved(calls, limits.batchSize, problem);
    }

    /** Counts a halving, of any batch size, and tells the listener. */
    private void batchHalved(int fromCalls, int toCalls, String problem) {
        batchHalvings++;
        listener.onBatchHalved(fromCalls, toCalls, problem);
    }

    private static Outcome outcomeOf(Response<?> response) {
        if (!response.hasError()) {
            return new Outcome(Status.OK, response, null);
        }
        Response.Error error = response.getError();
        String problem = "error " + error.getCode() + ": " + excerpt(error.getMessage());
        if (ProviderErrors.isServerTimeout(error.getCode(), error.getMessage())) {
            return new Outcome(Status.TIMED_OUT, response, problem);
        }
        return new Outcome(status(ProviderErrors.classify(error.getCode(), error.getMessage())), response, problem);
    }

    private static Status status(Kind kind) {
        switch (kind) {
            case TOO_LARGE:
                return Status.TOO_LARGE;
            case TRANSIENT:
                return Status.TRANSIENT;
            default:
                return Status.FATAL;
        }
    }

    private static String describe(Throwable e) {
        return e.getClass().getSimpleName() + ": " + excerpt(e.getMessage());
    }

    /** The longest excerpt of a provider's text that a message quotes. */
    static final int EXCERPT_CHARS = 300;

    /**
     * A provider's text as a message quotes it: on one line (each run of white space one space), and at most
     * {@value #EXCERPT_CHARS} characters of it, saying how long it was when cut: an HTTP error page of a proxy can be
     * hundreds of kilobytes (web3j puts the whole body in its exception's message), and a message repeated in every
     * retry line would flood the terminal.
     */
    static String excerpt(String text) {
        if (text == null) {
            return "null";
        }
        String line = WHITE_SPACE.matcher(text).replaceAll(" ").strip();
        if (line.length() <= EXCERPT_CHARS) {
            return line;
        }
        return line.substring(0, EXCERPT_CHARS) + "… (" + line.length() + " characters in all)";
    }

    private static final Pattern WHITE_SPACE = Pattern.compile("\\s+");

    /** Consecutive failed rounds of one call, with backoff between them. */
    private final class Attempts {
        private final String call;
        private int failures;

        Attempts(String call) {
            this.call = call;
        }

        void failed(String problem) {
            failures++;
            // Cancelled first: the failure may be the cancellation's own (a call in flight ended by it), and even a
            // last attempt's failure is then a stop, not the scan's error.
            if (cancelled.getAsBoolean()) {
                throw new ScanCancelledException(call + " was not retried: the scan was cancelled; last error: "
                        + problem);
            }
            if (failures >= retryPolicy.maxAttempts()) {
                throw new RetriesExhaustedException(call + (failures == 1 ? " failed once" : " failed " + failures
                        + " times in a row") + " (retry limit "
                        + retryPolicy.maxAttempts() + "); last error: " + problem, answered);
            }
            retries++;
            Duration delay = retryPolicy.backoffBeforeRetry(failures);
            listener.onRetry(call, failures, delay, problem);
            try {
                sleeper.sleep(delay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ScanException(call + " interrupted while waiting to retry", e);
            }
        }

        void succeeded() {
            failures = 0;
        }
    }
}
