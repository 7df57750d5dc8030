package org.chainfilter.ethbloom.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.web3j.protocol.ObjectMapperFactory;
import org.web3j.protocol.core.BatchRequest;
import org.web3j.protocol.core.Request;
import org.web3j.protocol.core.Response;
import org.web3j.protocol.core.methods.response.EthBlockNumber;
import org.web3j.protocol.core.methods.response.EthLog;
import org.web3j.protocol.http.HttpService;

/**
 * The promise of the decoding limit, end to end: in a JVM of 64 MiB, every hostile answer found so far, sent by a local
 * server through {@link BoundedHttp} with its default limits, is either decoded or refused, never an
 * {@link OutOfMemoryError}; and real logs of a megabyte still pass. Each answer is taken as a lone call and as a batch
 * answer (web3j's batch decoding, then {@link RpcSession}'s decoding of the call's type).
 */
@Timeout(300)
class SmallHeapAnswersTest {
    /** The hostile answers (found by reviews of the decoding limit), each for a lone call; a batch wraps it in [ ]. */
    static Map<String, Supplier<String>> answers() {
        Map<String, Supplier<String>> answers = new LinkedHashMap<>();
        answers.put("logs of empty objects, 3 MB", () -> "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":["
                + "{},".repeat(1_000_000) + "{}]}");
        answers.put("the same with unquoted names", () -> "{jsonrpc:\"2.0\",id:1,result:["
                + "{},".repeat(1_000_000) + "{}]}");
        answers.put("one string of 8 million characters", () -> "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\""
                + "a".repeat(8_000_000) + "\\u0100\"}");
        answers.put("an error's data of 3 million escapes", () -> "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":"
                + "{\"code\":-32000,\"message\":\"x\",\"data\":\"" + "\\\\".repeat(3_000_000) + "\\u0100\"}}");
        // Broken just after the hostile part: web3j has decoded it by the time it fails.
        answers.put("one string of 8 million characters, then garbage", () -> "{\"jsonrpc\":\"2.0\",\"id\":1,"
                + "\"result\":\"" + "a".repeat(8_000_000) + "\\u0100\" x}");
        answers.put("an error's data of 3 million escapes, then garbage", () -> "{\"jsonrpc\":\"2.0\",\"id\":1,"
                + "\"error\":{\"code\":-32000,\"message\":\"x\",\"data\":\"" + "\\\\".repeat(3_000_000)
                + "\\u0100\" x}}");
        answers.put("an error's data of 3 million escapes, unclosed", () -> "{\"jsonrpc\":\"2.0\",\"id\":1,"
                + "\"error\":{\"code\":-32000,\"message\":\"x\",\"data\":\"" + "\\\\".repeat(3_000_000)
                + "\\u0100\"");
        answers.put("arrays 20 deep, 3 MB", () -> "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":["
                + ("[".repeat(20) + "]".repeat(20) + ",").repeat(75_000) + "[]]}");
        answers.put("real logs, 1 MB", () -> {
            StringBuilder logs = new StringBuilder("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[");
            for (int i = 0; i < 1_700; i++) {
                logs.append(i == 0 ? "" : ",").append(JsonDecodeCostTest.realLog(i));
            }
            return logs.append("]}").toString();
        });
        return answers;
    }

    /** Runs in a JVM of 64 MiB: prints "name|lone outcome|batch outcome" for each answer. */
    public static final class Run {
        private static volatile byte[] body;

        public static void main(String[] args) throws IOException {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
            server.createContext("/", exchange -> {
                try (exchange) {
                    exchange.getRequestBody().readAllBytes();
                    byte[] answer = body;
                    exchange.getResponseHeaders().set("Content-Type", "application/json");
                    exchange.sendResponseHeaders(200, answer.length);
                    exchange.getResponseBody().write(answer);
                }
            });
            server.start();
            String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/";
            HttpService service = BoundedHttp.service(url, Duration.ofSeconds(60), BoundedHttp.DEFAULT_MAX_RESPONSE_BYTES);
            try {
                for (Map.Entry<String, Supplier<String>> answer : answers().entrySet()) {
                    String lone = answer.getValue().get();
                    body = lone.getBytes(StandardCharsets.UTF_8);
                    String loneOutcome = outcome(() -> {
                        Class<? extends Response<?>> type = lone.contains("\"result\":\"") ? EthBlockNumber.class
                                : EthLog.class;
                        return new Request<>("eth_call", List.of(), service, type).send();
                    });
                    body = ("[" + lone + "]").getBytes(StandardCharsets.UTF_8);
                    String batchOutcome = outcome(() -> batch(service));
                    body = null;
                    System.out.println(answer.getKey() + "|" + loneOutcome + "|" + batchOutcome);
                }
            } finally {
                server.stop(0);
            }
        }

        /** A batch of one call, decoded as web3j and then RpcSession decode it (the call's type from its answer). */
        private static Object batch(HttpService service) throws IOException {
            ObjectMapper json = ObjectMapperFactory.getObjectMapper();
            Request<?, RpcSession.RawAnswer> call = new Request<>("eth_getLogs", List.of(), service,
                    RpcSession.RawAnswer.class);
            RpcSession.RawAnswer raw = (RpcSession.RawAnswer) new BatchRequest(service).add(call).send()
                    .getResponses().get(0);
            if (raw.hasError()) {
                return raw.getError().getMessage();
            }
            com.fasterxml.jackson.databind.node.ObjectNode decoded = json.createObjectNode().put("jsonrpc", "2.0")
                    .put("id", 1);
            JsonNode result = raw.getResult();
            decoded.set("result", result);
            Class<? extends Response<?>> type = result != null && result.isTextual() ? EthBlockNumber.class
                    : EthLog.class;
            return json.treeToValue(decoded, type);
        }

        interface Call {
            Object run() throws IOException;
        }

        private static String outcome(Call call) {
            try {
                call.run();
                return "decoded";
            } catch (ResponseTooLargeException refused) {
                return "refused";
            } catch (OutOfMemoryError e) {
                return "OUT OF MEMORY";
            } catch (IOException | RuntimeException e) {
                return "failed: " + e.getClass().getSimpleName();
            }
        }
    }

    @Test
    void noAnswerRunsASmallHeapOutOfMemoryAndRealLogsPass() throws Exception {
        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC", "-Xmx64m", "-cp", System.getProperty("java.class.path"), Run.class.getName())
                .redirectErrorStream(true).start();
        String output;
        try (InputStream out = process.getInputStream()) {
            output = new String(out.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertTrue(process.waitFor(240, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), output);
        Map<String, String> outcomes = new LinkedHashMap<>();
        for (String line : output.split("\n")) {
            String[] parts = line.split("\\|");
            if (parts.length == 3) {
                outcomes.put(parts[0], parts[1] + " / " + parts[2]);
            }
        }
        System.out.println(output);
        assertEquals(answers().size(), outcomes.size(), output);
        outcomes.forEach((name, outcome) -> assertTrue(!outcome.contains("OUT OF MEMORY"), name + ": " + outcome
                + "\n" + output));
        assertEquals("decoded / decoded", outcomes.get("real logs, 1 MB"), output);
        assertEquals("refused / refused", outcomes.get("logs of empty objects, 3 MB"), output);
        assertEquals("refused / refused", outcomes.get("the same with unquoted names"), output);
    }
}
