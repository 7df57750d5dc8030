package org.chainfilter.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.chainfilter.common.Hex;
import org.chainfilter.ethbloom.LogFilter;
import org.chainfilter.ethbloom.LogsBloom;
import org.chainfilter.ethbloom.scan.node.TestChain;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code chainfilter eth index build --rpc} against a real node (anvil with several hundred blocks of logs, ethbloom's
 * test fixture): the index's candidates equal the blocks whose header bloom, read from the node, passes the filter,
 * and contain every block of anvil's own {@code eth_getLogs} answer.
 */
class EthIndexRpcCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static TestChain chain;

    @BeforeAll
    static void startNode() {
        chain = TestChain.build(11);
    }

    @AfterAll
    static void stopNode() {
        chain.close();
    }

    /**
     * A node that refuses batches of more than 10 calls as geth does above {@code --rpc.batch-request-limit} (an array
     * of one -32600 error under the first call's id): the build sends smaller batches and indexes every block, as the
     * scanner does; it used to stop with "the node refused eth_getBlockByNumber".
     */
    @Test
    void aNodeThatRefusesLargeBatchesIsReadInSmallerOnes(@TempDir Path dir) throws IOException {
        HttpClient client = HttpClient.newHttpClient();
        HttpServer proxy = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        proxy.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            JsonNode request = JSON.readTree(body);
            byte[] answer;
            if (request.isArray() && request.size() > 10) {
                answer = ("[{\"jsonrpc\":\"2.0\",\"id\":" + request.get(0).get("id") + ",\"error\":{\"code\":-32600,"
                        + "\"message\":\"batch too large\"}}]").getBytes(StandardCharsets.UTF_8);
            } else {
                try {
                    answer = client.send(HttpRequest.newBuilder(URI.create(chain.node().url()))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                            HttpResponse.BodyHandlers.ofByteArray()).body();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException(e);
                }
            }
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        proxy.start();
        try {
            long head = chain.head();
            CliRun run = CliRun.of("eth", "index", "build", "--index", dir.resolve("index").toString(), "--rpc",
                    "http://127.0.0.1:" + proxy.getAddress().getPort(), "--batch", "37");
            assertEquals(0, run.status, run::toString);
            assertEquals("appended " + (head - 11) + " blocks; SectionIndex[blocks 0.." + (head - 12)
                    + ", 1 sections]" + System.lineSeparator(), run.out);
        } finally {
            proxy.stop(0);
        }
    }

    @Test
    void buildsFromTheNodeInBatchesAndResumes(@TempDir Path dir) {
        Path index = dir.resolve("index");
        long head = chain.head();
        long middle = head / 2;
        CliRun first = CliRun.of("eth", "index", "build", "--index", index.toString(), "--rpc", chain.node().url(),
                "--to", Long.toString(middle), "--batch", "37");
        assertEquals(0, first.status, first::toString);
        assertTrue(first.out.startsWith("appended " + (middle + 1) + " blocks; "), first::toString);
        CliRun rest = CliRun.of("eth", "index", "build", "--index", index.toString(), "--rpc", chain.node().url(),
                "--confirmations", "0");
        assertEquals(0, rest.status, rest::toString);
        assertEquals("appended " + (head - middle) + " blocks; SectionIndex[blocks 0.." + head + ", 1 sections]"
                + System.lineSeparator(), rest.out);

        String source = chain.eventSources().get(0);
        String transfer = TestChain.topic0("Transfer(address,address,uint256)");
        LogFilter filter = LogFilter.builder().address(Hex.decode(source)).topic(0, Hex.decode(transfer)).build();
        List<Long> expected = new ArrayList<>();
        for (long n = 0; n <= head; n++) {
            JsonNode block = chain.node().rpc("eth_getBlockByNumber", "0x" + Long.toHexString(n), false);
            if (filter.couldMatch(LogsBloom.fromHex(block.get("logsBloom").asText()))) {
                expected.add(n);
            }
        }
        CliRun query = CliRun.of("eth", "index", "query", "--index", index.toString(), "--address", source,
                "--topic", transfer);
        assertEquals(0, query.status, query::toString);
        List<Long> candidates = new ArrayList<>();
        query.out.lines().forEach(line -> candidates.add(Long.parseLong(line)));
        assertEquals(expected, candidates);

        TreeSet<Long> withLogs = new TreeSet<>();
        chain.node().rpc("eth_getLogs", Map.of("fromBlock", "0x0", "toBlock", "0x" + Long.toHexString(head),
                "address", List.of(source), "topics", List.of(transfer)))
                .forEach(log -> withLogs.add(Long.decode(log.get("blockNumber").asText())));
        assertTrue(withLogs.size() > 5, "blocks with Transfer logs: " + withLogs.size());
        assertTrue(candidates.containsAll(withLogs));
    }

    @Test
    void indexesOnlyBlocksWithTheConfirmationsEvenWhenToIsBeyond(@TempDir Path dir) {
        // An index is never rewritten: a block indexed before a reorganisation would keep the abandoned fork's bloom
        // and eth scan --index would skip it, so a build stays --confirmations (default 12, as eth scan) behind.
        Path index = dir.resolve("index");
        long head = chain.head();
        CliRun byDefault = CliRun.of("eth", "index", "build", "--index", index.toString(), "--rpc", chain.node().url());
        assertEquals(0, byDefault.status, byDefault::toString);
        assertEquals("appended " + (head - 11) + " blocks; SectionIndex[blocks 0.." + (head - 12) + ", 1 sections]"
                + System.lineSeparator(), byDefault.out);

        Path other = dir.resolve("other");
        long beyond = head + 5;
        CliRun past = CliRun.of("eth", "index", "build", "--index", other.toString(), "--rpc", chain.node().url(),
                "--to", Long.toString(beyond), "--confirmations", "3", "--batch", "1000");
        assertEquals(0, past.status, past::toString);
        assertTrue(past.err.startsWith("indexing up to block " + (head - 3) + ", not " + beyond + ": the head is "
                + head + " and later blocks have fewer than 3 confirmations" + System.lineSeparator()), past.err);
        assertEquals("appended " + (head - 2) + " blocks; SectionIndex[blocks 0.." + (head - 3) + ", 1 sections]"
                + System.lineSeparator(), past.out);

        // Nothing to append is said, with why: the index holds the confirmed blocks already, or none has enough.
        CliRun again = CliRun.of("eth", "index", "build", "--index", other.toString(), "--rpc", chain.node().url(),
                "--confirmations", "3");
        assertEquals(0, again.status, again::toString);
        assertEquals("nothing to index: the next block is " + (head - 2) + ", and the last block with 3 confirmations is "
                + (head - 3) + " (the head is " + head + ")" + System.lineSeparator(), again.err);
        // A --to at the last confirmed block is not "beyond" it: no "indexing up to block N, not N" line (printing
        // it for a --to equal to the confirmed block passed every test: from a mutation review).
        CliRun atTheEdge = CliRun.of("eth", "index", "build", "--index", other.toString(), "--rpc", chain.node().url(),
                "--confirmations", "3", "--to", Long.toString(head - 3));
        assertEquals(0, atTheEdge.status, atTheEdge::toString);
        assertEquals(again.err, atTheEdge.err);
        CliRun deep = CliRun.of("eth", "index", "build", "--index", dir.resolve("deep").toString(), "--rpc",
                chain.node().url(), "--confirmations", "99999999");
        assertEquals("nothing to index: the next block is 0, and no block has 99999999 confirmations yet (the head is "
                + head + ")" + System.lineSeparator(), deep.err);
    }

    @Test
    void refusesBadCombinations(@TempDir Path dir) {
        Path index = dir.resolve("index");
        CliRun both = CliRun.of("eth", "index", "build", "--index", index.toString(), "--rpc", chain.node().url(),
                "--blooms", "x");
        assertEquals("chainfilter: give exactly one of --blooms and --rpc" + System.lineSeparator(), both.err);
        assertEquals(2, both.status, both::toString);
        CliRun batch = CliRun.of("eth", "index", "build", "--index", index.toString(), "--rpc", chain.node().url(),
                "--batch", "0");
        assertEquals("chainfilter: --batch is 0; it must be 1..1000" + System.lineSeparator(), batch.err);
        CliRun negative = CliRun.of("eth", "index", "build", "--index", index.toString(), "--rpc",
                chain.node().url(), "--confirmations", "-1");
        assertEquals("chainfilter: --confirmations is -1; it must not be negative" + System.lineSeparator(),
                negative.err);
        CliRun file = CliRun.of("eth", "index", "build", "--index", index.toString(), "--blooms", "x",
                "--confirmations", "3");
        assertEquals("chainfilter: --confirmations goes with --rpc; a file is read to its end"
                + System.lineSeparator(), file.err);
        assertEquals(2, file.status, file::toString);
    }
}
