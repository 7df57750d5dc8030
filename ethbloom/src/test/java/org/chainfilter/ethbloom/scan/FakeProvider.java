package org.chainfilter.ethbloom.scan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.chainfilter.common.Hex;
import org.chainfilter.ethbloom.LogFilter;
import org.chainfilter.ethbloom.LogsBloom;

/**
 * A JSON-RPC provider on 127.0.0.1 serving a synthetic chain, with the misbehaviour of real providers on demand: a
 * block-range limit answered with a chosen error shape, scripted replies (HTTP status or raw body) for the next
 * requests, a batch-size limit answered with a single error object, batch answers in reverse order. Its
 * {@code eth_getLogs} ignores the filter and returns every log of the range, so the scanner's exact match is what
 * decides.
 */
final class FakeProvider implements AutoCloseable {
    /** A log of the synthetic chain. */
    record FakeLog(byte[] address, List<byte[]> topics) {
    }

    /** A block: its hash, the logsBloom text served (null: field absent), its logs. */
    static final class FakeBlock {
        String hash;
        String logsBloom;
        final List<FakeLog> logs;

        FakeBlock(String hash, String logsBloom, List<FakeLog> logs) {
            this.hash = hash;
            this.logsBloom = logsBloom;
            this.logs = logs;
        }
    }

    /** A reply sent instead of the normal answer: an HTTP status and body. */
    record Scripted(int status, String body) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    final List<FakeBlock> chain;
    final ConcurrentLinkedDeque<Scripted> script = new ConcurrentLinkedDeque<>();
    final List<long[]> logRangesAnswered = new CopyOnWriteArrayList<>();
    /** The block hashes of the EIP-234 {@code eth_getLogs} calls answered with logs. */
    final List<String> logHashesAnswered = new CopyOnWriteArrayList<>();
    final List<Integer> batchSizes = new CopyOnWriteArrayList<>();
    final AtomicInteger refusedRanges = new AtomicInteger();
    final AtomicInteger highestHeaderRequested = new AtomicInteger(-1);
    volatile long maxLogRange = Long.MAX_VALUE;
    volatile int rangeErrorCode;
    volatile String rangeErrorMessage;
    volatile int maxBatch = Integer.MAX_VALUE;
    /**
     * Refuse a batch above {@link #maxBatch} as geth does ({@code rpc/handler.go respondWithBatchTooLarge}): an array
     * holding one error, -32600 "batch too large", with the first call's id.
     */
    volatile boolean gethBatchRefusal;
    /**
     * Once the logs answered in one batch exceed this many, the batch's later calls are answered as geth answers the
     * calls after {@code --rpc.batch-response-max-size}: -32003 "response too large" ({@code rpc/handler.go}).
     */
    volatile int gethBatchResponseMaxLogs = Integer.MAX_VALUE;
    volatile boolean reverseBatches;
    /**
     * Once: in the first batch whose answer holds logs, the answer of the call after them (their witness header) is
     * replaced by a second answer to the logs call, with no logs, under the same id (as many answers as calls).
     */
    volatile boolean answerLogsTwiceOnce;
    /** Refuse a too-wide eth_getLogs (alone or in a batch) with HTTP 413 instead of a JSON-RPC error. */
    volatile boolean refuseRangesWithHttp413;
    volatile String wrongLogBlockHashAt;
    /** The logs of the block with this hash are answered with the next block's number (their own hash). */
    volatile String wrongLogBlockNumberAt;
    /** The logs of the block with this hash are answered with {@code "blockHash": null}. */
    volatile String nullLogBlockHashAt;
    /** The logs of the block with this hash are answered with {@code "removed": true}. */
    volatile String removedLogsAt;
    /** The logs of the block with this hash are answered without their {@code topics} field. */
    volatile String noTopicsAt;
    /** The logs of the block with this hash are answered with five topics (their own, then copies of the last). */
    volatile String fiveTopicsAt;
    /** An EIP-234 eth_getLogs for the block with this hash is answered -32000 "unknown block". */
    volatile String unknownBlockHashAt;
    /**
     * A backend that lacks the block with this hash, answering as Besu does: {@code []} to an EIP-234 eth_getLogs for
     * it, {@code null} to eth_getBlockByHash. Once: cleared after its first eth_getLogs, as the backend catches up.
     */
    volatile String lackingBlockHashAt;
    /** The header of this block is answered with {@link #parentHashThere} as its parentHash (null: no field). */
    volatile int otherParentHashAt = -1;
    volatile String parentHashThere;
    /** A block answered once with null, as a load-balanced backend that lags behind the head does. */
    volatile int nullOnceAt = -1;
    /** Run once, after the first batch of headers has been answered: a reorganisation between headers and logs. */
    volatile Runnable afterFirstHeaderBatch;
    /** Run once, after the first header asked for alone has been answered. */
    volatile Runnable afterFirstSingleHeader;
    private final HttpServer server;

    FakeProvider(List<FakeBlock> chain) {
        this.chain = chain;
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", this::handle);
        server.start();
    }

    /**
     * The logs of blocks {@code from..to} of the chain as it is now that {@code filter} matches exactly, as
     * "block/log index": what a scan of that range must emit.
     */
    List<String> expectedLogs(LogFilter filter, long from, long to) {
        List<String> logs = new ArrayList<>();
        for (int n = (int) from; n <= to; n++) {
            List<FakeLog> blockLogs = chain.get(n).logs;
            for (int i = 0; i < blockLogs.size(); i++) {
                if (filter.matches(blockLogs.get(i).address(), blockLogs.get(i).topics())) {
                    logs.add(n + "/" + i);
                }
            }
        }
        return logs;
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Refuses {@code eth_getLogs} ranges wider than {@code blocks} with this error object. */
    void limitLogRange(long blocks, int code, String message) {
        maxLogRange = blocks;
        rangeErrorCode = code;
        rangeErrorMessage = message;
    }

    /**
     * A chain of {@code blocks} blocks; block i holds {@code i % 7 == 3 ? 0 : i % 4} logs drawn with a seeded random
     * from small pools of addresses and topics, and its exact bloom.
     */
    static List<FakeBlock> chain(int blocks, long seed) {
        Random random = new Random(seed);
        List<FakeBlock> chain = new ArrayList<>();
        for (int n = 0; n < blocks; n++) {
            List<FakeLog> logs = new ArrayList<>();
            int count = n % 7 == 3 ? 0 : n % 4;
            LogsBloom.Builder bloom = LogsBloom.builder();
            for (int i = 0; i < count; i++) {
                List<byte[]> topics = new ArrayList<>();
                int topicCount = random.nextInt(4);
                for (int t = 0; t < topicCount; t++) {
                    topics.add(topic(random.nextInt(6)));
                }
                FakeLog log = new FakeLog(address(random.nextInt(5)), topics);
                logs.add(log);
                bloom.addLog(log.address, log.topics);
            }
            chain.add(new FakeBlock(hash(n, 0), bloom.build().toHex(), logs));
        }
        return chain;
    }

    static byte[] address(int i) {
        byte[] address = new byte[20];
        address[19] = (byte) (0xa0 + i);
        return address;
    }

    static byte[] topic(int i) {
        byte[] topic = new byte[32];
        topic[0] = (byte) 0x70;
        topic[31] = (byte) i;
        return topic;
    }

    /**
     * Replaces blocks {@code from..} by a fork (hash version {@code version}) in which block {@code withLogAt} holds
     * one more log, {@code log}, and the bloom that goes with it.
     */
    void reorganise(int from, int version, int withLogAt, FakeLog log) {
        for (int n = from; n < chain.size(); n++) {
            chain.get(n).hash = hash(n, version);
        }
        FakeBlock block = chain.get(withLogAt);
        block.logs.add(log);
        LogsBloom.Builder bloom = LogsBloom.builder();
        block.logs.forEach(l -> bloom.addLog(l.address, l.topics));
        block.logsBloom = bloom.build().toHex();
    }

    static String hash(int block, int version) {
        return String.format("0x%056x%08x", block + 1, version);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            JsonNode request = JSON.readTree(exchange.getRequestBody());
            Scripted scripted = script.poll();
            if (scripted != null) {
                reply(exchange, scripted.status, scripted.body);
                return;
            }
            if (refuseRangesWithHttp413 && hasTooWideLogRange(request)) {
                refusedRanges.incrementAndGet();
                reply(exchange, 413, "Request Entity Too Large");
                return;
            }
            if (!request.isArray()) {
                reply(exchange, 200, JSON.writeValueAsString(answer(request)));
                catchUp(JSON.createArrayNode().add(request));
                Runnable after = afterFirstSingleHeader;
                if (after != null && request.get("method").asText().equals("eth_getBlockByNumber")) {
                    afterFirstSingleHeader = null;
                    after.run();
                }
                return;
            }
            batchSizes.add(request.size());
            if (request.size() > maxBatch && gethBatchRefusal) {
                reply(exchange, 200, "[{\"jsonrpc\":\"2.0\",\"id\":" + request.get(0).get("id")
                        + ",\"error\":{\"code\":-32600,\"message\":\"batch too large\"}}]");
                return;
            }
            if (request.size() > maxBatch) {
                reply(exchange, 200, "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,"
                        + "\"message\":\"batch size too large: at most " + maxBatch + " calls\"}}");
                return;
            }
            List<JsonNode> answers = new ArrayList<>();
            int logsAnswered = 0;
            ObjectNode secondAnswer = null;
            for (JsonNode call : request) {
                if (secondAnswer != null) {
                    answers.add(secondAnswer);
                    secondAnswer = null;
                    continue;
                }
                if (logsAnswered > gethBatchResponseMaxLogs) {
                    ObjectNode refusal = JSON.createObjectNode().put("jsonrpc", "2.0");
                    refusal.set("id", call.get("id"));
                    refusal.putObject("error").put("code", -32003).put("message", "response too large");
                    answers.add(refusal);
                    continue;
                }
                JsonNode answer = answer(call);
                logsAnswered += answer.path("result").isArray() ? answer.get("result").size() : 0;
                answers.add(answer);
                if (answerLogsTwiceOnce && answer.path("result").isArray() && answer.get("result").size() > 0) {
                    answerLogsTwiceOnce = false;
                    secondAnswer = answer.deepCopy();
                    secondAnswer.putArray("result");
                }
            }
            catchUp(request);
            if (reverseBatches) {
                Collections.reverse(answers);
            }
            ArrayNode array = JSON.createArrayNode();
            answers.forEach(array::add);
            reply(exchange, 200, JSON.writeValueAsString(array));
            Runnable after = afterFirstHeaderBatch;
            if (after != null && request.get(0).get("method").asText().equals("eth_getBlockByNumber")) {
                afterFirstHeaderBatch = null;
                after.run();
            }
        }
    }

    /** The backend lacking a block has it once it has answered an eth_getLogs for its hash. */
    private void catchUp(JsonNode calls) {
        String lacking = lackingBlockHashAt;
        for (JsonNode call : calls) {
            if (lacking != null && call.get("method").asText().equals("eth_getLogs")
                    && lacking.equalsIgnoreCase(call.get("params").get(0).path("blockHash").asText())) {
                lackingBlockHashAt = null;
            }
        }
    }

    private boolean hasTooWideLogRange(JsonNode request) {
        for (JsonNode call : request.isArray() ? request : JSON.createArrayNode().add(request)) {
            if (call.get("method").asText().equals("eth_getLogs") && !call.get("params").get(0).has("blockHash")) {
                JsonNode filter = call.get("params").get(0);
                if (Long.decode(filter.get("toBlock").asText()) - Long.decode(filter.get("fromBlock").asText()) + 1
                        > maxLogRange) {
                    return true;
                }
            }
        }
        return false;
    }

    private JsonNode answer(JsonNode call) {
        ObjectNode answer = JSON.createObjectNode().put("jsonrpc", "2.0");
        answer.set("id", call.get("id"));
        JsonNode params = call.get("params");
        switch (call.get("method").asText()) {
            case "eth_blockNumber":
                return answer.put("result", "0x" + Integer.toHexString(chain.size() - 1));
            case "eth_getBlockByNumber": {
                int n = Integer.decode(params.get(0).asText());
                highestHeaderRequested.accumulateAndGet(n, Math::max);
                if (n == nullOnceAt) {
                    nullOnceAt = -1;
                    return answer.putNull("result");
                }
                if (n >= chain.size()) {
                    return answer.putNull("result");
                }
                return header(answer, n);
            }
            case "eth_getBlockByHash": {
                String blockHash = params.get(0).asText();
                for (int n = 0; n < chain.size(); n++) {
                    if (chain.get(n).hash.equalsIgnoreCase(blockHash) && !blockHash.equalsIgnoreCase(unknownBlockHashAt)
                            && !blockHash.equalsIgnoreCase(lackingBlockHashAt)) {
                        return header(answer, n);
                    }
                }
                return answer.putNull("result");
            }
            case "eth_getLogs": {
                if (params.get(0).has("blockHash")) {
                    return logsByHash(answer, params.get(0).get("blockHash").asText());
                }
                long from = Long.decode(params.get(0).get("fromBlock").asText());
                long to = Long.decode(params.get(0).get("toBlock").asText());
                if (to - from + 1 > maxLogRange) {
                    refusedRanges.incrementAndGet();
                    answer.putObject("error").put("code", rangeErrorCode).put("message", rangeErrorMessage);
                    return answer;
                }
                logRangesAnswered.add(new long[] {from, to});
                ArrayNode logs = answer.putArray("result");
                for (int n = (int) from; n <= to && n < chain.size(); n++) {
                    addLogs(logs, n);
                }
                return answer;
            }
            default:
                answer.putObject("error").put("code", -32601)
                        .put("message", "the method " + call.get("method").asText() + " does not exist/is not available");
                return answer;
        }
    }

    private ObjectNode header(ObjectNode answer, int n) {
        ObjectNode block = answer.putObject("result").put("number", "0x" + Integer.toHexString(n))
                .put("hash", chain.get(n).hash);
        if (n != otherParentHashAt) {
            block.put("parentHash", n == 0 ? hash(0, 99) : chain.get(n - 1).hash);
        } else if (parentHashThere != null) {
            block.put("parentHash", parentHashThere);
        }
        if (chain.get(n).logsBloom != null) {
            block.put("logsBloom", chain.get(n).logsBloom);
        }
        block.putArray("transactions");
        return answer;
    }

    /** EIP-234: the logs of the block with this hash, or geth's error for a hash it does not know. */
    private JsonNode logsByHash(ObjectNode answer, String blockHash) {
        if (maxLogRange < 1) {
            refusedRanges.incrementAndGet();
            answer.putObject("error").put("code", rangeErrorCode).put("message", rangeErrorMessage);
            return answer;
        }
        if (blockHash.equalsIgnoreCase(lackingBlockHashAt)) {
            // Besu: a block hash it does not have yields no logs, not an error.
            answer.putArray("result");
            return answer;
        }
        for (int n = 0; n < chain.size(); n++) {
            if (chain.get(n).hash.equalsIgnoreCase(blockHash) && !blockHash.equalsIgnoreCase(unknownBlockHashAt)) {
                logHashesAnswered.add(blockHash);
                addLogs(answer.putArray("result"), n);
                return answer;
            }
        }
        answer.putObject("error").put("code", -32000).put("message", "unknown block");
        return answer;
    }

    private void addLogs(ArrayNode logs, int n) {
        int index = 0;
        for (FakeLog log : chain.get(n).logs) {
            ObjectNode json = logs.addObject().put("removed", chain.get(n).hash.equals(removedLogsAt))
                    .put("logIndex", "0x" + Integer.toHexString(index))
                    .put("transactionIndex", "0x" + Integer.toHexString(index))
                    .put("transactionHash", String.format("0x%060x%04x", n, index))
                    .put("blockHash", chain.get(n).hash.equals(nullLogBlockHashAt)
                            ? null : chain.get(n).hash.equals(wrongLogBlockHashAt)
                            ? hash(n, 7) : chain.get(n).hash)
                    .put("blockNumber", "0x" + Integer.toHexString(chain.get(n).hash.equals(wrongLogBlockNumberAt)
                            ? n + 1 : n))
                    .put("address", "0x" + Hex.encode(log.address)).put("data", "0x");
            if (!chain.get(n).hash.equals(noTopicsAt)) {
                ArrayNode topics = json.putArray("topics");
                log.topics.forEach(t -> topics.add("0x" + Hex.encode(t)));
                while (chain.get(n).hash.equals(fiveTopicsAt) && topics.size() < 5) {
                    topics.add("0x" + Hex.encode(topic(topics.size())));
                }
            }
            index++;
        }
    }

    private static void reply(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
