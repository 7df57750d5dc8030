package org.chainfilter.ethbloom.scan.fault;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A JSON-RPC reverse proxy on 127.0.0.1 (never another address) between a client and a node, which injects the faults
 * real providers and networks produce. Per HTTP request a {@link Script} decides one transport fault (an HTTP status,
 * a garbage or truncated body, a delay, a batch answered out of order or with an answer missing, the node killed or
 * restarted first); per JSON-RPC call inside it, whether the "provider" refuses it with an error object (range
 * limits, rate limits) instead of forwarding it. Whatever is forwarded goes to the node unchanged; when the node does
 * not answer (killed) the proxy answers 502 as a load balancer would. Public for the cli module's tests.
 */
public final class FaultProxy implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    static {
        // The JDK server writes a response's headers and body apart; with Nagle's algorithm the body then waits for
        // the client's delayed ACK, about 40 ms a request on Linux. Read once, when the first server starts (the
        // ethbloom pom sets it for the whole test run).
        System.setProperty("sun.net.httpserver.nodelay", "true");
    }

    /**
     * What happens to one HTTP request. {@link #BATCH_TOO_LARGE} answers a JSON-RPC batch of more than one call as geth
     * does above {@code --rpc.batch-request-limit} ({@code rpc/handler.go respondWithBatchTooLarge}): an array of one
     * error, -32600 "batch too large", under the first call's id; a single call passes.
     */
    public enum Transport {
        PASS, HTTP_429, HTTP_503, GARBAGE_BODY, TRUNCATED_BODY, DELAYED, REORDERED_BATCH, DROPPED_ANSWER, BATCH_TOO_LARGE
    }

    /** The fault plan: consulted for every HTTP request and every JSON-RPC call. */
    public interface Script {
        /**
         * The transport fault for HTTP request number {@code number} (1-based) carrying {@code body}; none unless
         * overridden.
         */
        default Transport transport(int number, JsonNode body) {
            return Transport.PASS;
        }

        /** An error object to answer {@code call} with instead of forwarding it, or null to forward it. */
        default ObjectNode refusal(JsonNode call) {
            return null;
        }

        /**
         * A result to answer {@code call} with instead of forwarding it (as a backend that lags behind the node
         * answers), or null to forward it. Consulted after {@link #refusal}.
         */
        default JsonNode result(JsonNode call) {
            return null;
        }

        /**
         * As {@link #result(JsonNode)}, knowing the whole HTTP request the call came in ({@code body}: the call, or the
         * batch holding it), e.g. to answer every call of a request as one backend behind a load balancer would.
         */
        default JsonNode result(JsonNode call, JsonNode body) {
            return result(call);
        }

        /** Runs before request {@code number} is forwarded: e.g. kills or restarts the node. */
        default void beforeForwarding(int number) {
        }

        /** A script of transport faults only: every JSON-RPC call inside a request is forwarded. */
        static Script transports(java.util.function.BiFunction<Integer, JsonNode, Transport> plan) {
            return new Script() {
                @Override
                public Transport transport(int number, JsonNode body) {
                    return plan.apply(number, body);
                }
            };
        }

        /** A script that passes everything and runs {@code action} with each request's number before forwarding. */
        static Script beforeEachForward(java.util.function.IntConsumer action) {
            return new Script() {
                @Override
                public void beforeForwarding(int number) {
                    action.accept(number);
                }
            };
        }
    }

    private final HttpServer server;
    /**
     * Enough threads that requests held for the delay (the client has given up on them and sent the next) do not
     * queue the requests after them.
     */
    private final ExecutorService executor = Executors.newFixedThreadPool(16);
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final URI node;
    private final Script script;
    private final Duration delay;
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicInteger faults = new AtomicInteger();
    private final AtomicInteger refusals = new AtomicInteger();
    private final AtomicInteger substitutes = new AtomicInteger();

    public FaultProxy(String nodeUrl, Script script, Duration delay) throws IOException {
        this.node = URI.create(nodeUrl);
        this.script = script;
        this.delay = delay;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public int requests() {
        return requests.get();
    }

    /** Transport faults injected (not counting refusals). */
    public int faults() {
        return faults.get();
    }

    /** JSON-RPC calls answered with an error object instead of being forwarded. */
    public int refusals() {
        return refusals.get();
    }

    /** JSON-RPC calls answered with a result made here ({@link Script#result}) instead of being forwarded. */
    public int substitutes() {
        return substitutes.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            int number = requests.incrementAndGet();
            JsonNode body = JSON.readTree(exchange.getRequestBody().readAllBytes());
            Transport transport = script.transport(number, body);
            if (transport == Transport.BATCH_TOO_LARGE && !(body.isArray() && body.size() > 1)) {
                transport = Transport.PASS;
            }
            if (transport != Transport.PASS) {
                faults.incrementAndGet();
            }
            switch (transport) {
                case HTTP_429:
                    respond(exchange, 429, "Too Many Requests");
                    return;
                case HTTP_503:
                    respond(exchange, 503, "<html><body>503 Service Temporarily Unavailable</body></html>");
                    return;
                case GARBAGE_BODY:
                    respond(exchange, 200, "<html><body>upstream connect error or disconnect/reset before headers"
                            + "</body></html>");
                    return;
                case DELAYED:
                    sleep(delay);
                    break;
                case BATCH_TOO_LARGE:
                    ArrayNode refused = JSON.createArrayNode();
                    ObjectNode item = refused.addObject().put("jsonrpc", "2.0");
                    item.set("id", body.get(0).get("id"));
                    item.set("error", error(-32600, "batch too large"));
                    respond(exchange, 200, JSON.writeValueAsString(refused));
                    return;
                default:
                    break;
            }
            script.beforeForwarding(number);
            JsonNode answer = answer(body);
            if (answer == null) {
                respond(exchange, 502, "Bad Gateway");
                return;
            }
            if (answer.isArray() && answer.size() > 1 && transport == Transport.REORDERED_BATCH) {
                List<JsonNode> items = new ArrayList<>();
                answer.forEach(items::add);
                ArrayNode reversed = JSON.createArrayNode();
                for (int i = items.size() - 1; i >= 0; i--) {
                    reversed.add(items.get(i));
                }
                answer = reversed;
            } else if (answer.isArray() && answer.size() > 1 && transport == Transport.DROPPED_ANSWER) {
                ((ArrayNode) answer).remove(answer.size() - 1);
            }
            String text = JSON.writeValueAsString(answer);
            respond(exchange, 200, transport == Transport.TRUNCATED_BODY ? text.substring(0, text.length() / 2) : text);
        }
    }

    /** The answer to a call or batch: refusals made here, the rest from the node; null when the node is down. */
    private JsonNode answer(JsonNode body) {
        List<JsonNode> calls = calls(body);
        JsonNode[] answers = new JsonNode[calls.size()];
        ArrayNode forwarded = JSON.createArrayNode();
        List<Integer> forwardedAt = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            ObjectNode error = script.refusal(calls.get(i));
            JsonNode result = error == null ? script.result(calls.get(i), body) : null;
            if (error != null) {
                refusals.incrementAndGet();
                answers[i] = JSON.createObjectNode().put("jsonrpc", "2.0").set("id", calls.get(i).get("id"));
                ((ObjectNode) answers[i]).set("error", error);
            } else if (result != null) {
                substitutes.incrementAndGet();
                answers[i] = JSON.createObjectNode().put("jsonrpc", "2.0").set("id", calls.get(i).get("id"));
                ((ObjectNode) answers[i]).set("result", result);
            } else {
                forwarded.add(calls.get(i));
                forwardedAt.add(i);
            }
        }
        if (!forwardedAt.isEmpty()) {
            JsonNode fromNode = forward(forwarded);
            if (fromNode == null) {
                return null;
            }
            for (JsonNode item : fromNode) {
                for (int j = 0; j < forwardedAt.size(); j++) {
                    if (item.get("id").equals(forwarded.get(j).get("id"))) {
                        answers[forwardedAt.get(j)] = item;
                    }
                }
            }
        }
        if (!body.isArray()) {
            return answers[0];
        }
        ArrayNode batch = JSON.createArrayNode();
        for (JsonNode item : answers) {
            batch.add(item);
        }
        return batch;
    }

    private JsonNode forward(ArrayNode batch) {
        try {
            HttpRequest request = HttpRequest.newBuilder(node).timeout(Duration.ofSeconds(10))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(batch))).build();
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? JSON.readTree(response.body()) : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** The JSON-RPC calls of a request body: the items of a batch, or the one call. */
    public static List<JsonNode> calls(JsonNode body) {
        List<JsonNode> calls = new ArrayList<>();
        if (body.isArray()) {
            body.forEach(calls::add);
        } else {
            calls.add(body);
        }
        return calls;
    }

    /** The block span of an {@code eth_getLogs} call (1 for one by block hash), 0 for any other call. */
    public static long logRangeSpan(JsonNode call) {
        if (!"eth_getLogs".equals(call.path("method").asText())) {
            return 0;
        }
        JsonNode filter = call.path("params").path(0);
        if (filter.has("blockHash")) {
            return 1;
        }
        return Long.decode(filter.path("toBlock").asText()) - Long.decode(filter.path("fromBlock").asText()) + 1;
    }

    /** A JSON-RPC error object. */
    public static ObjectNode error(int code, String message) {
        return JSON.createObjectNode().put("code", code).put("message", message);
    }

    private static void respond(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", status == 200 ? "application/json" : "text/html");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
