package org.chainfilter.bip158;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.chainfilter.btcwire.Block;
import org.chainfilter.btcwire.Hash256;
import org.chainfilter.btcwire.OutPoint;
import org.chainfilter.btcwire.Transaction;
import org.chainfilter.btcwire.TxInput;
import org.chainfilter.btcwire.TxOutput;
import org.chainfilter.common.Hex;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

class BasicFilterTest {

    static JsonNode publishedVectors() throws IOException {
        try (InputStream in = BasicFilterTest.class.getResourceAsStream("/bip158-basic.core.json")) {
            return new ObjectMapper().readTree(in);
        }
    }

    /** The 10 rows of bitcoin/bitcoin src/test/data/blockfilters.json @ c7efb652 (see the resource's source). */
    @TestFactory
    Stream<DynamicTest> publishedRowsGiveTheExactFilterAndHeader() throws IOException {
        JsonNode file = publishedVectors();
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode row : file.get("vectors")) {
            tests.add(DynamicTest.dynamicTest(row.get("name").asText(), () -> checkRow(row)));
        }
        assertEquals(10, tests.size());
        return tests.stream();
    }

    private static void checkRow(JsonNode row) {
        Block block = Block.fromHex(row.get("block").asText());
        Hash256 blockHash = Hash256.fromDisplayHex(row.get("blockHash").asText());
        assertEquals(blockHash, block.hash());
        List<byte[]> spent = new ArrayList<>();
        row.get("prevoutScripts").forEach(s -> spent.add(Hex.decode(s.asText())));
        BasicFilter filter = BasicFilter.build(block, spent);
        assertEquals(row.get("filter").asText(), Hex.encode(filter.encoded()));
        Hash256 previous = Hash256.fromDisplayHex(row.get("prevHeader").asText());
        assertEquals(row.get("header").asText(), filter.header(previous).toDisplayHex());
        BasicFilter served = BasicFilter.parse(blockHash, Hex.decode(row.get("filter").asText()));
        assertEquals(filter, served);
        for (byte[] element : BasicFilter.elements(block, spent)) {
            assertTrue(served.match(element), Hex.encode(element));
        }
        assertTrue(served.gcs().matchAll(BasicFilter.elements(block, spent)));
    }

    /** Row 926485: the witness-commitment output (6a24aa21a9ed...) is left out; a script paid and spent counts once. */
    @Test
    void opReturnOutputsAndEmptyScriptsAreLeftOut() throws IOException {
        for (JsonNode row : publishedVectors().get("vectors")) {
            Block block = Block.fromHex(row.get("block").asText());
            List<byte[]> spent = new ArrayList<>();
            row.get("prevoutScripts").forEach(s -> spent.add(Hex.decode(s.asText())));
            BasicFilter filter = BasicFilter.build(block, spent);
            for (Transaction tx : block.transactions()) {
                for (TxOutput output : tx.outputs()) {
                    byte[] script = output.scriptPubKey();
                    if (script.length > 0 && script[0] == 0x6a) {
                        assertFalse(BasicFilter.elements(block, spent).stream()
                                .anyMatch(e -> java.util.Arrays.equals(e, script)));
                    }
                }
            }
            long height = row.get("height").asLong();
            if (height == 926485) {
                assertEquals(9, filter.gcs().elementCount());
            } else if (height == 1414221) {
                assertEquals("00", Hex.encode(filter.encoded()));
                assertEquals("9a538906e6466ebd2617d321f71bc94e56056ce213d366773699e28158e00614",
                        filter.filterHash().toDisplayHex());
            } else if (height == 180480) {
                assertEquals(13, filter.gcs().elementCount());
            }
        }
    }

    /**
     * Core's blockfilter_basic_test shape: an OP_RETURN output followed by opcodes is excluded by its first byte, an
     * empty output and an empty spent script are excluded, a spent OP_RETURN script is included, duplicates merge.
     */
    @Test
    void elementRulesOnAHandBuiltBlock() throws IOException {
        byte[] p2pkh = Hex.decode("76a914" + "11".repeat(20) + "88ac");
        byte[] opReturnOps = Hex.decode("6a548b5887"); // OP_RETURN OP_4 OP_ADD OP_8 OP_EQUAL
        byte[] p2sh = Hex.decode("a914" + "22".repeat(20) + "87");
        byte[] spentOpReturn = Hex.decode("6a00");
        Transaction coinbase = new Transaction(1,
                List.of(new TxInput(new OutPoint(Hash256.ZERO, 0xffffffffL), new byte[] {0}, 0xffffffffL, List.of())),
                List.of(new TxOutput(50, p2pkh)), 0);
        Transaction spend = new Transaction(1,
                List.of(new TxInput(new OutPoint(coinbase.txid(), 0), new byte[0], 0xffffffffL, List.of()),
                        new TxInput(new OutPoint(coinbase.txid(), 1), new byte[0], 0xffffffffL, List.of())),
                List.of(new TxOutput(1, opReturnOps), new TxOutput(2, new byte[0]), new TxOutput(3, p2sh),
                        new TxOutput(4, p2pkh)),
                0);
        Block block = new Block(Block.fromHex(genesisRowBlock()).header(), List.of(coinbase, spend));
        List<byte[]> elements = BasicFilter.elements(block, List.of(new byte[0], spentOpReturn));
        assertEquals(List.of(Hex.encode(p2pkh), Hex.encode(p2sh), Hex.encode(p2pkh), Hex.encode(spentOpReturn)),
                elements.stream().map(Hex::encode).toList());
        BasicFilter filter = BasicFilter.build(block, List.of(new byte[0], spentOpReturn));
        assertEquals(3, filter.gcs().elementCount());
        assertTrue(filter.match(p2pkh));
        assertTrue(filter.match(spentOpReturn));
        assertTrue(filter.matchAny(List.of(p2sh)));
        assertFalse(filter.match(opReturnOps));
        assertFalse(filter.match(new byte[0]));
    }

    private static String genesisRowBlock() throws IOException {
        return publishedVectors().get("vectors").get(0).get("block").asText();
    }

    @Test
    void spentScriptCountMustMatchTheSpendingInputs() throws IOException {
        JsonNode row = publishedVectors().get("vectors").get(4);
        Block block = Block.fromHex(row.get("block").asText());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BasicFilter.build(block, List.of()));
        assertEquals("block " + block.hash() + " has " + row.get("prevoutScripts").size()
                + " inputs after its coinbase but 0 spent scripts were given", e.getMessage());
        // One script too many is refused as well, not taken as an extra filter element.
        List<byte[]> oneTooMany = new ArrayList<>();
        row.get("prevoutScripts").forEach(s -> oneTooMany.add(Hex.decode(s.asText())));
        oneTooMany.add(Hex.decode("51"));
        e = assertThrows(IllegalArgumentException.class, () -> BasicFilter.elements(block, oneTooMany));
        assertEquals("block " + block.hash() + " has " + row.get("prevoutScripts").size()
                + " inputs after its coinbase but " + oneTooMany.size() + " spent scripts were given", e.getMessage());
    }

    /** Row 49291 with its third spent script replaced by null: refused by index, not with a bare NullPointerException. */
    @Test
    void aNullBlockScriptListOrScriptIsRefusedByName() throws IOException {
        JsonNode row = publishedVectors().get("vectors").get(4);
        Block block = Block.fromHex(row.get("block").asText());
        List<byte[]> spent = new ArrayList<>();
        row.get("prevoutScripts").forEach(s -> spent.add(Hex.decode(s.asText())));
        spent.set(2, null);
        assertEquals("spent script 2 of block " + block.hash() + " is null (an empty script is an empty array)",
                assertThrows(IllegalArgumentException.class, () -> BasicFilter.build(block, spent)).getMessage());
        assertEquals("spent scripts are null; a block with only a coinbase spends an empty list",
                assertThrows(IllegalArgumentException.class, () -> BasicFilter.build(block, null)).getMessage());
        assertEquals("block is null",
                assertThrows(IllegalArgumentException.class, () -> BasicFilter.build(null, List.of())).getMessage());
        assertEquals("block is null",
                assertThrows(IllegalArgumentException.class, () -> BasicFilter.elements(null, List.of())).getMessage());
    }

    @Test
    void keyIsTheFirstSixteenInternalBytesOfTheBlockHash() {
        Hash256 genesis = Hash256.fromDisplayHex("000000000933ea01ad0ee984209779baaec3ced90fa3f408719526f8d77f4943");
        GcsParams params = BasicFilter.params(genesis);
        assertEquals("43497fd7f826957108f4a30fd9cec3ae", Hex.encode(params.key()));
        assertEquals(19, params.p());
        assertEquals(784931, params.m());
    }

    /**
     * A basic filter is the filter of one block: the same bytes for two blocks are two different filters, even when
     * the hashes share the 16 bytes that key the set (the filter's parameters are then equal). BasicFilter.equals
     * ignoring the block hash passed every test (found by a mutation review).
     */
    @Test
    void equalBytesForDifferentBlocksAreDifferentFilters() {
        Hash256 genesis = Hash256.fromDisplayHex("000000000933ea01ad0ee984209779baaec3ced90fa3f408719526f8d77f4943");
        byte[] internal = genesis.internalBytes();
        internal[31] ^= 1;
        Hash256 sameKey = Hash256.fromInternalBytes(internal);
        byte[] filter = Hex.decode("019dfca8");
        BasicFilter genesisFilter = BasicFilter.parse(genesis, filter);
        assertEquals(genesisFilter, BasicFilter.parse(genesis, filter.clone()));
        assertEquals(genesisFilter.gcs(), BasicFilter.parse(sameKey, filter).gcs());
        assertNotEquals(genesisFilter, BasicFilter.parse(sameKey, filter));
        assertNotEquals(genesisFilter, BasicFilter.parse(Hash256.ZERO, filter));
    }
}
