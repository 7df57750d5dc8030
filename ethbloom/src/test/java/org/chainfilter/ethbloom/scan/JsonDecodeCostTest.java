package org.chainfilter.ethbloom.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.web3j.protocol.ObjectMapperFactory;
import org.web3j.protocol.core.methods.response.EthBlock;
import org.web3j.protocol.core.methods.response.EthLog;

/**
 * {@link JsonDecodeCost} against the heap that decoding really holds. The measurement runs in a fresh JVM with the
 * serial collector ({@link Measure}), whose full collection leaves exactly the live objects, so nothing else running in
 * the test JVM moves the figures.
 */
@Timeout(300)
class JsonDecodeCostTest {
    /**
     * Answer shapes: the result's JSON for element i of {@code count}, how elements are joined, and the type web3j
     * decodes. The answer is a batch answer of one call, as the scanner's calls come.
     */
    private record Shape(String name, Class<?> type, int count, String open, IntFunction<String> element,
            String close) {
        String answer() {
            StringBuilder json = new StringBuilder("[{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":").append(open);
            for (int i = 0; i < count; i++) {
                json.append(i == 0 ? "" : ",").append(element.apply(i));
            }
            return json.append(close).append("}]").toString();
        }
    }

    private static final String HASH = "0x8243343df08b9751f5ca0c5f8c9c0460d8a9b6351066fae0acbd4d3e776de8bb";

    /** A log as mainnet nodes give it: a USDC Transfer, three topics, 32 bytes of data. */
    static String realLog(int i) {
        return "{\"address\":\"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48\",\"topics\":["
                + "\"0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef\","
                + "\"0x000000000000000000000000" + String.format("%040x", i) + "\","
                + "\"0x0000000000000000000000003cd751e6b0078be393132286c442345e5dc49699\"],"
                + "\"data\":\"0x" + String.format("%064x", 1000L * i) + "\",\"blockNumber\":\"0x1312d00\","
                + "\"transactionHash\":\"0x" + String.format("%064x", i) + "\",\"transactionIndex\":\"0x1f\","
                + "\"blockHash\":\"" + HASH + "\",\"logIndex\":\"0x" + Integer.toHexString(i) + "\",\"removed\":false}";
    }

    private static final int N = 150_000;

    static final List<Shape> SHAPES = List.of(
            new Shape("real logs", EthLog.class, N, "[", JsonDecodeCostTest::realLog, "]"),
            new Shape("logs of empty objects", EthLog.class, N, "[", i -> "{}", "]"),
            new Shape("a block of empty transaction objects", EthBlock.class, N, "{\"transactions\":[", i -> "{}",
                    "]}"),
            new Shape("a block of transactions with short fields", EthBlock.class, N, "{\"transactions\":[",
                    i -> "{\"hash\":\"a\",\"from\":\"b\",\"to\":\"c\",\"input\":\"d\"}", "]}"),
            new Shape("logs of one-letter strings", EthLog.class, N, "[", i -> "\"a\"", "]"),
            new Shape("a block of one-letter uncles", EthBlock.class, N, "{\"uncles\":[", i -> "\"a\"", "]}"),
            new Shape("logs of ASCII strings ending in a character beyond Latin-1", EthLog.class, N / 10, "[",
                    i -> "\"" + "a".repeat(200) + "\\u0100\"", "]"),
            new Shape("logs of empty arrays", EthLog.class, N, "[", i -> "[]", "]"),
            new Shape("logs of arrays in arrays", EthLog.class, N, "[", i -> "[[]]", "]"),
            new Shape("logs of arrays 20 deep", EthLog.class, N / 10, "[", i -> "[".repeat(20) + "]".repeat(20), "]"),
            new Shape("a block of fields holding empty arrays", EthBlock.class, N, "{", i -> "\"f" + i + "\":[]", "}"),
            new Shape("logs of nested objects", EthLog.class, N, "[", i -> "{\"a\":{}}", "]"),
            new Shape("logs of objects 20 deep", EthLog.class, N / 10, "[",
                    i -> "{\"a\":".repeat(19) + "{}" + "}".repeat(19), "]"),
            new Shape("logs of objects with long distinct names", EthLog.class, N, "[",
                    i -> "{\"" + "n".repeat(40) + i + "\":0}", "]"),
            new Shape("logs of literals", EthLog.class, N, "[", i -> i % 2 == 0 ? "true" : "null", "]"),
            new Shape("logs of numbers", EthLog.class, N, "[", i -> String.valueOf(1_000_000 + i), "]"));

    /** Runs in its own JVM: prints "name|bytes|estimate|live" per shape. */
    public static final class Measure {
        public static void main(String[] args) throws IOException {
            for (Shape shape : SHAPES) {
                // The first decoding of a shape also fills caches (classes, Jackson's and web3j's lookups) and lets go
                // of the previous shape's: the second is the one reported.
                measure(shape);
                System.out.println(measure(shape));
            }
        }

        /**
         * One shape, in a frame of its own (the previous shape's objects are unreachable once it returns), decoded as
         * a batch answer is: web3j's {@code Service.sendBatch} reads the answer as a tree and each answer from it as
         * a {@link RpcSession.RawAnswer} (a second tree), then {@link RpcSession} decodes the call's type from that
         * answer's result; all of it held at once.
         */
        private static String measure(Shape shape) throws IOException {
            ObjectMapper json = ObjectMapperFactory.getObjectMapper();
            byte[] answer = shape.answer().getBytes(StandardCharsets.UTF_8);
            long estimate = JsonDecodeCost.estimate(new ByteArrayInputStream(answer), answer.length, Long.MAX_VALUE);
            long before = live();
            JsonNode tree = json.readTree(answer);
            RpcSession.RawAnswer raw = json.treeToValue(tree.get(0), RpcSession.RawAnswer.class);
            com.fasterxml.jackson.databind.node.ObjectNode call = json.createObjectNode()
                    .put("jsonrpc", raw.getJsonrpc()).put("id", raw.getId());
            call.set("result", raw.getResult());
            Object decoded;
            try {
                decoded = json.treeToValue(call, shape.type());
            } catch (IOException | RuntimeException refused) {
                decoded = refused; // the trees were built all the same
            }
            long held = live() - before;
            java.lang.ref.Reference.reachabilityFence(tree);
            java.lang.ref.Reference.reachabilityFence(raw);
            java.lang.ref.Reference.reachabilityFence(call);
            java.lang.ref.Reference.reachabilityFence(decoded);
            return shape.name() + "|" + answer.length + "|" + estimate + "|" + held + "|"
                    + (decoded instanceof Exception ? "refused" : "decoded");
        }

        private static long live() {
            for (int i = 0; i < 3; i++) {
                System.gc();
            }
            Runtime runtime = Runtime.getRuntime();
            return runtime.totalMemory() - runtime.freeMemory();
        }
    }

    @Test
    void theEstimateIsAboveTheHeapThatDecodingHoldsForEveryShape() throws Exception {
        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC", "-Xms1g", "-Xmx1g", "-cp", System.getProperty("java.class.path"),
                Measure.class.getName()).redirectErrorStream(true).start();
        String output;
        try (InputStream out = process.getInputStream()) {
            output = new String(out.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertTrue(process.waitFor(240, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), output);
        Map<String, long[]> figures = new LinkedHashMap<>();
        for (String line : output.strip().split("\n")) {
            String[] parts = line.split("\\|");
            if (parts.length == 5) {
                figures.put(parts[0], new long[] {Long.parseLong(parts[1]), Long.parseLong(parts[2]),
                        Long.parseLong(parts[3]), parts[4].equals("decoded") ? 1 : 0});
            }
        }
        assertEquals(SHAPES.size(), figures.size(), output);
        List<String> report = new ArrayList<>();
        figures.forEach((name, f) -> report.add(String.format("%s: %d bytes, estimate %.1fx, held %.1fx%s", name,
                f[0], (double) f[1] / f[0], (double) f[2] / f[0], f[3] == 0 ? " (web3j refused it)" : "")));
        System.out.println(String.join("\n", report));
        for (Map.Entry<String, long[]> entry : figures.entrySet()) {
            long[] f = entry.getValue();
            // The costly shapes held enough to measure well (the collector's own noise is well under a megabyte).
            assertTrue(f[1] < 20_000_000 || f[2] > 5_000_000, entry.getKey() + " held only " + f[2] + ": " + report);
            assertTrue(f[2] <= f[1], entry.getKey() + " held more than the estimate: " + report);
        }
        // Real answers are not refused for nothing: their estimate stays within a few times what they hold.
        long[] real = figures.get("real logs");
        assertTrue(real[1] <= 4 * real[2], "real logs: " + report);
    }

    @Test
    void eachTokenIsChargedItsCost() throws IOException {
        String json = "{\"ab\":[7,\"xyz\",true,false,null,{},[]]}";
        // A string is charged by the bytes from its opening quote to the next token: "xyz", is 6 bytes.
        // The answer's own bytes twice, and the longest string's decoding buffers, four bytes a character.
        long expected = 2 * json.length() + JsonDecodeCost.OBJECT + JsonDecodeCost.FIELD + 3 * 2 + JsonDecodeCost.ARRAY
                + JsonDecodeCost.SCALAR + 2 + JsonDecodeCost.SCALAR + 2 * 6 + 3 * JsonDecodeCost.LITERAL
                + JsonDecodeCost.OBJECT + JsonDecodeCost.ARRAY + 4 * 6;
        assertEquals(expected, estimate(json, Long.MAX_VALUE));
        // web3j's mapper reads unquoted field names, so the estimate does too (it stopped at the first one).
        String quoted = "{\"a\":[{},{},{}]}";
        String unquoted = "{a:[{},{},{}]}";
        assertEquals(estimate(quoted, Long.MAX_VALUE) - 2 * quoted.length(),
                estimate(unquoted, Long.MAX_VALUE) - 2 * unquoted.length(), "unquoted names");
    }

    /**
     * A transaction's v, which web3j converts as it decodes in time quadratic in its length (a million digits took
     * 21 s, and the call timeout does not cover decoding), is refused when longer than a quantity can be.
     */
    @Test
    void aTransactionsVLongerThanAQuantityIsRefused() throws IOException {
        String normal = "{\"result\":{\"transactions\":[{\"v\":\"0x" + "f".repeat(64) + "\",\"r\":\"0x1\"}]}}";
        assertTrue(estimate(normal, Long.MAX_VALUE) > 0);
        String hostile = "{\"result\":{\"transactions\":[{\"v\":\"0x" + "9".repeat(1_000) + "\"}]}}";
        ResponseTooLargeException e = assertThrows(ResponseTooLargeException.class,
                () -> estimate(hostile, Long.MAX_VALUE));
        assertTrue(e.getMessage().startsWith("the JSON-RPC answer holds a transaction's v of about 10"), e.getMessage());
    }

    /** A string is never decoded to be estimated: ten million characters cost the estimate no buffer of their size. */
    @Test
    void aLongStringIsChargedByItsBytesWithoutBeingDecoded() throws IOException {
        byte[] json = ("[\"" + "a".repeat(10_000_000) + "\"]").getBytes(StandardCharsets.US_ASCII);
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        estimate(new String(json, 0, 100, StandardCharsets.US_ASCII) + "\"]", Long.MAX_VALUE); // classes loaded
        long before = threads.getCurrentThreadAllocatedBytes();
        long estimate = JsonDecodeCost.estimate(new ByteArrayInputStream(json), json.length, Long.MAX_VALUE);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(estimate >= 2L * 10_000_000, "estimate " + estimate);
        assertTrue(allocated < 1_000_000, "allocated " + allocated + " bytes");
    }

    @Test
    void noTokenCostsMoreThanTheBoundPerByte() throws IOException {
        for (String json : List.of("{}", "[]", "0", "\"\"", "true", "null", "{\"\":0}", "[{},{}]", "[0,0,0]",
                "{\"error\":{\"data\":{}}}", "{\"error\":{\"data\":\"\\\\\\\\\"}}")) {
            long bytes = json.length();
            assertTrue(estimate(json, Long.MAX_VALUE) <= bytes * JsonDecodeCost.MAX_PER_BYTE, json);
        }
        assertTrue(estimate("{\"error\":{\"data\":[{},{}]}}", Long.MAX_VALUE) <= 29L * JsonDecodeCost.MAX_PER_BYTE);
    }

    @Test
    void readingStopsOnceTheEstimatePassesTheLimit() throws IOException {
        // An endless array of empty objects: the estimate passes a 10 kB limit within a few kilobytes read.
        long[] read = {0};
        InputStream endless = new InputStream() {
            @Override
            public int read() {
                read[0]++;
                return read[0] == 1 ? '[' : read[0] % 3 == 1 ? ',' : read[0] % 3 == 2 ? '{' : '}';
            }

            @Override
            public int read(byte[] b, int off, int len) {
                for (int i = 0; i < len; i++) {
                    b[off + i] = (byte) read();
                }
                return len;
            }
        };
        long estimate = JsonDecodeCost.estimate(endless, Long.MAX_VALUE, 10_000);
        assertTrue(estimate > 10_000 && estimate <= 10_000 + JsonDecodeCost.OBJECT, "estimate " + estimate);
        assertTrue(read[0] < 100_000, read[0] + " bytes read");
    }

    /**
     * An answer this parser cannot read is charged its unread bytes at the most any byte costs: a decoder more lenient
     * than this parser would read on (until a review found it, an answer with unquoted names stopped the estimate at
     * its first name, and web3j, which reads them, decoded it whole).
     */
    @Test
    void anAnswerThatDoesNotParseIsChargedItsUnreadBytesAtTheMost() throws IOException {
        long broken = estimate("[{},{},]", Long.MAX_VALUE);
        long counted = 2 * 8 + 2L * JsonDecodeCost.OBJECT + JsonDecodeCost.ARRAY;
        assertTrue(broken >= counted && broken <= counted + 2L * JsonDecodeCost.MAX_PER_BYTE, "estimate " + broken);
        // Broken at its fourth character, with a thousand more after it: those are charged.
        assertTrue(estimate("[1,}" + " ".repeat(1000), Long.MAX_VALUE) >= 990L * JsonDecodeCost.MAX_PER_BYTE);
        assertEquals(0, estimate("", Long.MAX_VALUE));
    }

    private static long estimate(String json, long stopAbove) throws IOException {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        return JsonDecodeCost.estimate(new ByteArrayInputStream(bytes), bytes.length, stopAbove);
    }
}
