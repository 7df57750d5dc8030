package org.chainfilter.ethbloom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.chainfilter.common.Hex;
import org.chainfilter.ethbloom.index.SectionIndex;
import org.chainfilter.ethbloom.index.SectionIndexWriter;
import org.chainfilter.ethbloom.index.SyntheticChain;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every published logsBloom case: client unit vectors (go-ethereum, Besu, parity-ethbloom, Nethermind, web3j), real
 * mainnet receipts and blocks (ethers.js, viem, ethereum/portal-spec-tests), a membership case (shovel), and the
 * ethereum/execution-apis test chain. The values live in {@code published-cases.json} next to this class; each case
 * names its repository and path there, and {@code sourceSnapshots} names the commit of every repository.
 */
class PublishedCasesTest {
    private static JsonNode cases;

    @BeforeAll
    static void load() throws IOException {
        try (InputStream in = PublishedCasesTest.class.getResourceAsStream("published-cases.json")) {
            cases = new ObjectMapper().readTree(in);
        }
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static LogsBloom bloomOfLogs(JsonNode logs) {
        LogsBloom.Builder builder = LogsBloom.builder();
        for (JsonNode log : logs) {
            builder.addLog(Hex.decode(log.get("address").asText()), topics(log));
        }
        return builder.build();
    }

    static List<byte[]> topics(JsonNode log) {
        List<byte[]> topics = new ArrayList<>();
        log.get("topics").forEach(t -> topics.add(Hex.decode(t.asText())));
        return topics;
    }

    @TestFactory
    Stream<DynamicTest> clientUnitVectors() {
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode c : cases.get("unitCases")) {
            tests.add(dynamicTest(c.get("id").asText(), () -> checkUnitCase(c)));
        }
        assertEquals(10, tests.size());
        return tests.stream();
    }

    private static void checkUnitCase(JsonNode c) {
        LogsBloom.Builder builder = LogsBloom.builder();
        if (c.has("addUtf8")) {
            c.get("addUtf8").forEach(v -> builder.addValue(utf8(v.asText())));
        }
        if (c.has("addUtf8Pattern")) {
            for (int i = 0; i < 100; i++) {
                builder.addValue(utf8(String.format("xxxxxxxxxx data %d yyyyyyyyyyyyyy", i)));
            }
        }
        if (c.has("logs")) {
            builder.addBloom(bloomOfLogs(c.get("logs")));
        }
        LogsBloom bloom = builder.build();
        if (c.has("bloom")) {
            assertEquals(c.get("bloom").asText(), bloom.toHex());
        }
        if (c.has("derivedBloom")) {
            assertEquals(c.get("derivedBloom").asText(), bloom.toHex());
        }
        if (c.has("keccakOfBloom")) {
            assertEquals(c.get("keccakOfBloom").asText(), Hex.encode(Keccak256.digest(bloom.toBytes())));
        }
        c.path("mightContain").forEach(v -> assertTrue(bloom.mightContain(utf8(v.asText())), v.asText()));
        c.path("mightNotContain").forEach(v -> assertFalse(bloom.mightContain(utf8(v.asText())), v.asText()));
        c.path("mightNotContainAfterAdding").forEach(v -> assertFalse(bloom.mightContain(utf8(v.asText()))));
        c.path("notInEmptyBloom").forEach(v -> assertFalse(LogsBloom.EMPTY.mightContain(utf8(v.asText()))));
        if (c.has("addUtf8") && c.has("mightNotContainAfterAdding")) {
            c.get("addUtf8").forEach(v -> assertTrue(bloom.mightContain(utf8(v.asText()))));
        }
        if (c.has("membershipAfterAddressOnly")) {
            JsonNode log = c.get("logs").get(0);
            LogsBloom addressOnly = LogsBloom.builder().addAddress(Hex.decode(log.get("address").asText())).build();
            assertTrue(addressOnly.mightContain(Hex.decode(log.get("address").asText())));
            assertFalse(addressOnly.mightContain(Hex.decode(log.get("topics").get(0).asText())));
        }
    }

    /** go-ethereum BenchmarkCreateBloom: rLarge (100 copies of rSmall) merges to the same block bloom. */
    @Test
    void duplicatesAreIdempotent() {
        JsonNode c = cases.get("unitCases").get(2);
        assertEquals("geth-BenchmarkCreateBloom", c.get("id").asText());
        LogsBloom small = bloomOfLogs(c.get("logs"));
        LogsBloom.Builder large = LogsBloom.builder();
        for (int i = 0; i < 100; i++) {
            large.addBloom(bloomOfLogs(c.get("logs")));
        }
        assertEquals(small, large.build());
    }

    @TestFactory
    Stream<DynamicTest> mainnetReceipts() {
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode r : cases.get("receipts")) {
            tests.add(dynamicTest(r.get("id").asText(), () -> {
                LogsBloom bloom = bloomOfLogs(r.get("logs"));
                assertEquals(r.get("bloom").asText(), bloom.toHex());
                assertEquals(LogsBloom.fromHex(r.get("bloom").asText()), bloom);
            }));
        }
        assertEquals(10, tests.size());
        return tests.stream();
    }

    /** Header bloom == OR of the receipt blooms == bloom of all the block's logs; each receipt bloom == its logs. */
    @TestFactory
    Stream<DynamicTest> mainnetBlocks() {
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode b : cases.get("blocks")) {
            tests.add(dynamicTest(b.get("id").asText(), () -> {
                LogsBloom header = LogsBloom.fromHex(b.get("headerBloom").asText());
                assertEquals(b.get("derivedBitsSet").asInt(), header.bitsSet());
                if (!b.has("receipts")) {
                    // viem 22263622: header only; its receipt tx0 (in receipts) must be contained.
                    JsonNode receipt = findReceipt("viem-22263622-tx0");
                    assertTrue(header.containsAll(LogsBloom.fromHex(receipt.get("bloom").asText())));
                    return;
                }
                LogsBloom.Builder orOfReceipts = LogsBloom.builder();
                LogsBloom.Builder allLogs = LogsBloom.builder();
                int logCount = 0;
                for (JsonNode receipt : b.get("receipts")) {
                    LogsBloom receiptBloom = bloomOfLogs(receipt.get("logs"));
                    if (!receipt.get("bloom").isNull()) {
                        assertEquals(receipt.get("bloom").asText(), receiptBloom.toHex(), "receipt " + receipt.get("index"));
                    }
                    orOfReceipts.addBloom(receiptBloom);
                    for (JsonNode log : receipt.get("logs")) {
                        allLogs.addLog(Hex.decode(log.get("address").asText()), topics(log));
                        logCount++;
                    }
                }
                assertEquals(header, orOfReceipts.build());
                assertEquals(header, allLogs.build());
                assertEquals(b.get("logCount").asInt(), logCount);
            }));
        }
        assertEquals(4, tests.size());
        return tests.stream();
    }

    private static JsonNode findReceipt(String id) {
        for (JsonNode r : cases.get("receipts")) {
            if (r.get("id").asText().equals(id)) {
                return r;
            }
        }
        throw new AssertionError("no receipt " + id);
    }

    /**
     * shovel bloom_test.go TestExistsWithEvent: mainnet block 16329283. Hashed as a topic (the correct M3:2048 test)
     * the value's three bits are set; treated as a pre-computed hash, as shovel does, bit 1290 is clear.
     */
    @Test
    void shovelMembershipCase() {
        JsonNode m = cases.get("membership").get(0);
        LogsBloom header = LogsBloom.fromHex(m.get("headerBloom").asText());
        assertEquals(m.get("derivedBitsSet").asInt(), header.bitsSet());
        byte[] value = Hex.decode(m.get("value").asText());
        assertTrue(header.mightContain(value));
        assertTrue(LogFilter.builder().topic(0, value).build().couldMatch(header));
        LogsBloom probe = LogsBloom.ofValue(value);
        m.get("derivedBits").forEach(bit -> assertTrue(probe.testBit(bit.asInt())));
        assertTrue(header.containsAll(probe));
        assertFalse(header.testBit(1290), "as a pre-hash the value would be absent");
    }

    /**
     * The ethereum/execution-apis hive test chain: block 54's header bloom == OR of its four receipts' blooms, and
     * the eth_getLogs fixtures: the bloom candidates (couldMatch over the header blooms of the range) contain every
     * block of the expected result and equal the derived candidates; the exact matcher on block 54's logs agrees.
     */
    @Test
    void executionApisBlock54() {
        JsonNode b54 = cases.get("testChain").get("block54");
        LogsBloom.Builder or = LogsBloom.builder();
        for (JsonNode receipt : b54.get("receipts")) {
            LogsBloom bloom = bloomOfLogs(receipt.get("logs"));
            assertEquals(receipt.get("bloom").asText(), bloom.toHex());
            or.addBloom(bloom);
        }
        assertEquals(b54.get("headerBloom").asText(), or.build().toHex());
        assertEquals(b54.get("headerBloom").asText(), cases.get("testChain").get("headerBlooms").get("54").asText());
    }

    @TestFactory
    Stream<DynamicTest> executionApisGetLogsQueries() {
        JsonNode chain = cases.get("testChain");
        Map<Long, LogsBloom> headers = new java.util.TreeMap<>();
        Iterator<Map.Entry<String, JsonNode>> fields = chain.get("headerBlooms").fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> e = fields.next();
            headers.put(Long.parseLong(e.getKey()), LogsBloom.fromHex(e.getValue().asText()));
        }
        assertEquals(54, headers.size());
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode q : chain.get("queries")) {
            JsonNode params = q.get("params");
            if (!q.has("derivedCandidates")) {
                continue;
            }
            tests.add(dynamicTest(q.get("file").asText(), () -> {
                LogFilter filter = filterOf(params);
                long from = Long.decode(params.get("fromBlock").asText());
                long to = Long.decode(params.get("toBlock").asText());
                List<Long> candidates = new ArrayList<>();
                for (long n = from; n <= to; n++) {
                    if (filter.couldMatch(headers.get(n))) {
                        candidates.add(n);
                    }
                }
                List<Long> derived = new ArrayList<>();
                q.get("derivedCandidates").forEach(n -> derived.add(n.asLong()));
                assertEquals(derived, candidates);
                for (JsonNode log : q.get("expected")) {
                    assertTrue(candidates.contains(log.get("blockNumber").asLong()));
                    assertTrue(filter.matches(Hex.decode(log.get("address").asText()), topics(log)));
                }
            }));
        }
        assertEquals(4, tests.size());
        return tests.stream();
    }

    /** The blockHash fixtures: the filter's bloom test passes block 4's header and the exact test keeps the log. */
    @Test
    void executionApisBlockHashQueries() {
        JsonNode chain = cases.get("testChain");
        LogsBloom block4 = LogsBloom.fromHex(chain.get("headerBlooms").get("4").asText());
        int checked = 0;
        for (JsonNode q : chain.get("queries")) {
            if (q.get("params").has("blockHash") && q.has("expected")) {
                LogFilter filter = filterOf(q.get("params"));
                assertTrue(filter.couldMatch(block4));
                for (JsonNode log : q.get("expected")) {
                    assertEquals(4, log.get("blockNumber").asLong());
                    assertTrue(filter.matches(Hex.decode(log.get("address").asText()), topics(log)));
                }
                checked++;
            }
        }
        assertEquals(2, checked);
    }

    static LogFilter filterOf(JsonNode params) {
        List<byte[]> addresses = new ArrayList<>();
        params.path("address").forEach(a -> addresses.add(Hex.decode(a.asText())));
        List<List<byte[]>> topics = new ArrayList<>();
        for (JsonNode position : params.path("topics")) {
            if (position.isNull()) {
                topics.add(null);
            } else {
                List<byte[]> alternatives = new ArrayList<>();
                position.forEach(t -> alternatives.add(t.isNull() ? null : Hex.decode(t.asText())));
                topics.add(alternatives);
            }
        }
        return LogFilter.of(addresses, topics);
    }

    /** The same eth_getLogs candidates through a section index built from the test chain's header blooms. */
    @Test
    void executionApisQueriesThroughASectionIndex(@TempDir Path dir) {
        JsonNode chain = cases.get("testChain");
        try (SectionIndexWriter writer = SectionIndexWriter.open(dir, 1)) {
            for (int n = 1; n <= 54; n++) {
                // The vectors hold the blooms, not the hashes: the index is built on a synthetic chain of hashes.
                SyntheticChain.append(writer, n,
                        LogsBloom.fromHex(chain.get("headerBlooms").get(Integer.toString(n)).asText()));
            }
        }
        SectionIndex index = SectionIndex.open(dir);
        assertEquals(54, index.indexedBlockCount());
        int checked = 0;
        for (JsonNode q : chain.get("queries")) {
            if (q.has("derivedCandidates")) {
                JsonNode params = q.get("params");
                long[] found = index.candidates(filterOf(params), Long.decode(params.get("fromBlock").asText()),
                        Long.decode(params.get("toBlock").asText()));
                long[] derived = new long[q.get("derivedCandidates").size()];
                for (int i = 0; i < derived.length; i++) {
                    derived[i] = q.get("derivedCandidates").get(i).asLong();
                }
                assertArrayEquals(derived, found, q.get("file").asText());
                checked++;
            }
        }
        assertEquals(4, checked);
    }

    @Test
    void everyTestChainHeaderBloomParses() {
        JsonNode blooms = cases.get("testChain").get("headerBlooms");
        for (int n = 1; n <= 54; n++) {
            LogsBloom bloom = LogsBloom.fromHex(blooms.get(Integer.toString(n)).asText());
            assertArrayEquals(Hex.decode(blooms.get(Integer.toString(n)).asText()), bloom.toBytes());
        }
    }
}
