package org.chainfilter.btcwire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.chainfilter.common.Hex;
import org.chainfilter.testkit.bitcoin.BitcoinData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Real blocks from the published BIP37 and BIP158 vectors; each resource file cites its source. */
class BlockTest {

    @ParameterizedTest
    @ValueSource(strings = {"block_13b8a", "block_5a4ded", "block_dab013", "block_b731f2", "testnet_0",
        "testnet_926485", "testnet_1263442"})
    void realBlocksParseHashAndMatchTheirMerkleRoot(String name) {
        Map<String, String> v = BitcoinData.load(name);
        byte[] raw = Hex.decode(v.get("raw"));
        Block block = Block.parse(raw);
        assertEquals(v.get("hash"), block.hash().toDisplayHex());
        assertTrue(block.merkleRootMatches(), "merkle root of " + name);
        assertEquals(block.header().merkleRoot(), block.computeMerkleRoot());
        assertArrayEquals(raw, block.serialize(true));
        if (v.containsKey("tx_count")) {
            assertEquals(Integer.parseInt(v.get("tx_count")), block.transactions().size());
        }
        if (v.containsKey("txids")) {
            List<String> txids = new ArrayList<>();
            block.txids().forEach(h -> txids.add(h.toDisplayHex()));
            assertEquals(Arrays.asList(v.get("txids").split(",")), txids);
        }
        assertEquals(block, Block.parse(raw));
        assertEquals(block.hashCode(), Block.parse(raw).hashCode());
    }

    /** The witness block's Merkle root only matches when txids exclude the witness. */
    @Test
    void segwitBlockTxidsExcludeWitness() {
        Block block = Block.fromHex(raw("testnet_1263442"));
        long withWitness = block.transactions().stream().filter(Transaction::hasWitness).count();
        assertTrue(withWitness > 0);
        for (Transaction tx : block.transactions()) {
            assertEquals(Sha256d.hash(tx.serialize(false)), tx.txid());
            assertEquals(Sha256d.hash(tx.serialize(true)), tx.wtxid());
            assertEquals(tx.hasWitness(), !tx.txid().equals(tx.wtxid()));
        }
        assertTrue(block.merkleRootMatches());
        assertTrue(block.serialize(false).length < block.serialize(true).length);
    }

    @Test
    void headerFieldsOfBlock13b8a() {
        BlockHeader header = Block.fromHex(raw("block_13b8a")).header();
        assertEquals(1, header.version());
        assertEquals(0x1b04864cL, header.bits());
        assertEquals(header, BlockHeader.parse(header.serialize()));
        assertEquals("00000000000080b66c911bd5ba14a74260057311eaeb1982802f7010f1a9f090",
                header.previousBlockHash().toDisplayHex());
        assertEquals(1293625051L, header.time());
    }

    /**
     * nTime, nBits and nNonce are uint32: 0xffffffff is taken in each and read back from its bytes, 2^32 is refused.
     * Refusing 0xffffffff passed every test (found by a mutation review).
     */
    @Test
    void headerFieldsTakeTheLargestUint32() {
        BlockHeader header = new BlockHeader(-1, Hash256.ZERO, Hash256.ZERO, 0xffffffffL, 0xffffffffL, 0xffffffffL);
        assertEquals("ffffffff" + "00".repeat(64) + "ff".repeat(12), Hex.encode(header.serialize()));
        BlockHeader parsed = BlockHeader.parse(header.serialize());
        assertEquals(0xffffffffL, parsed.time());
        assertEquals(0xffffffffL, parsed.bits());
        assertEquals(0xffffffffL, parsed.nonce());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new BlockHeader(1, Hash256.ZERO, Hash256.ZERO, 0, 0, 1L << 32));
        assertEquals("nNonce 4294967296 is outside the uint32 range", e.getMessage());
    }

    /**
     * A header's uint32 fields refuse -1 as they refuse 2^32: checking only the top of the range passed every test, and
     * nTime -1 was taken and written as 0xffffffff (found by a mutation review).
     */
    @Test
    void negativeHeaderFieldsAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new BlockHeader(1, Hash256.ZERO, Hash256.ZERO, -1, 0, 0));
        assertEquals("nTime -1 is outside the uint32 range", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new BlockHeader(1, Hash256.ZERO, Hash256.ZERO, 0, -1, 0));
        assertEquals("nBits -1 is outside the uint32 range", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new BlockHeader(1, Hash256.ZERO, Hash256.ZERO, 0, 0, Long.MIN_VALUE));
        assertEquals("nNonce " + Long.MIN_VALUE + " is outside the uint32 range", e.getMessage());
    }

    /**
     * A block of no transactions (Core's parser reads it; consensus refuses it) matches no header: merkleRootMatches
     * is false, not the refusal of computeMerkleRoot. Without the empty check it threw, and that passed every test
     * (found by a mutation review).
     */
    @Test
    void aBlockWithoutTransactionsMatchesNoMerkleRoot() {
        Block block = Block.fromHex(raw("block_13b8a").substring(0, 160) + "00");
        assertEquals(0, block.transactions().size());
        assertFalse(block.merkleRootMatches());
        assertEquals("a Merkle root needs at least one leaf; got 0",
                assertThrows(IllegalArgumentException.class, block::computeMerkleRoot).getMessage());
    }

    @Test
    void aChangedHeaderNoLongerMatchesTheTransactions() {
        byte[] raw = Hex.decode(raw("block_5a4ded"));
        raw[40] ^= 1;
        Block block = Block.parse(raw);
        assertFalse(block.merkleRootMatches());
        assertNotEquals(BitcoinData.field("block_5a4ded", "hash"), block.hash().toDisplayHex());
    }

    @Test
    void transactionCountBeyondTheBytesLeftIsRefused() {
        byte[] header = Arrays.copyOf(Hex.decode(raw("block_dab013")), 80);
        byte[] raw = Arrays.copyOf(header, 85);
        System.arraycopy(Hex.decode("fe00000100"), 0, raw, 80, 5);
        WireFormatException e = assertThrows(WireFormatException.class, () -> Block.parse(raw));
        assertEquals("block transaction count is 65536 but at 10 bytes or more each they cannot fit in the 0 bytes"
                + " left", e.getMessage());
    }

    @Test
    void shortHeaderAndTrailingBytesAreRefused() {
        WireFormatException e = assertThrows(WireFormatException.class, () -> Block.parse(new byte[79]));
        assertEquals("block header needs 80 bytes but 79 are left", e.getMessage());
        e = assertThrows(WireFormatException.class, () -> BlockHeader.parse(new byte[81]));
        assertEquals("block header is 81 bytes; it must be exactly 80", e.getMessage());
        byte[] raw = Hex.decode(raw("block_dab013") + "00");
        e = assertThrows(WireFormatException.class, () -> Block.parse(raw));
        assertEquals("block has 1 trailing bytes after its end (at offset " + (raw.length - 1) + ")", e.getMessage());
    }

    @Test
    void merkleRootOfNothingIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MerkleRoot.of(List.of()));
        assertEquals("a Merkle root needs at least one leaf; got 0", e.getMessage());
    }

    /** Core's ComputeMerkleRoot pairs an odd last node with itself: three leaves hash (a,b) and (c,c). */
    @Test
    void oddLevelsDuplicateTheirLastNode() {
        Hash256 a = Sha256d.hash(new byte[] {1});
        Hash256 b = Sha256d.hash(new byte[] {2});
        Hash256 c = Sha256d.hash(new byte[] {3});
        Hash256 expected = Sha256d.hashPair(Sha256d.hashPair(a, b), Sha256d.hashPair(c, c));
        assertEquals(expected, MerkleRoot.of(List.of(a, b, c)));
        assertEquals(a, MerkleRoot.of(List.of(a)));
    }

    /**
     * Headers that differ in any one field are not equal, nor are blocks that differ only in their header. A header
     * equals that compared the Merkle roots alone, and a block equals that compared the transactions alone, each passed
     * every test (found by a mutation review).
     */
    @Test
    void blocksAndHeadersThatDifferInOneFieldAreNotEqual() {
        Block block = Block.fromHex(raw("block_13b8a"));
        BlockHeader h = block.header();
        Hash256 other = Hash256.fromInternalHex("01".repeat(32));
        assertEquals(h, new BlockHeader(h.version(), h.previousBlockHash(), h.merkleRoot(), h.time(), h.bits(),
                h.nonce()));
        for (BlockHeader changed : List.of(
                new BlockHeader(2, h.previousBlockHash(), h.merkleRoot(), h.time(), h.bits(), h.nonce()),
                new BlockHeader(h.version(), other, h.merkleRoot(), h.time(), h.bits(), h.nonce()),
                new BlockHeader(h.version(), h.previousBlockHash(), other, h.time(), h.bits(), h.nonce()),
                new BlockHeader(h.version(), h.previousBlockHash(), h.merkleRoot(), h.time() + 1, h.bits(), h.nonce()),
                new BlockHeader(h.version(), h.previousBlockHash(), h.merkleRoot(), h.time(), h.bits() + 1, h.nonce()),
                new BlockHeader(h.version(), h.previousBlockHash(), h.merkleRoot(), h.time(), h.bits(), h.nonce() + 1))) {
            assertNotEquals(h, changed);
            assertNotEquals(block, new Block(changed, block.transactions()));
        }
    }

    /**
     * A block keeps its own list of transactions, and neither it nor the txids it hands out can be changed: keeping a
     * read-only view of the caller's list, and handing out a modifiable txid list, each passed every test (a caller
     * could then make the block's transactions or the leaves of merkleRootMatches differ from what was checked: found
     * by a mutation review).
     */
    @Test
    void aBlockKeepsItsOwnTransactionsAndItsTxidsCannotBeChanged() {
        Block parsed = Block.fromHex(raw("block_13b8a"));
        List<Transaction> transactions = new ArrayList<>(parsed.transactions());
        Block block = new Block(parsed.header(), transactions);
        transactions.remove(0);
        assertEquals(parsed.transactions(), block.transactions());
        assertThrows(UnsupportedOperationException.class, () -> block.transactions().remove(0));
        assertThrows(UnsupportedOperationException.class, () -> block.txids().remove(0));
        assertEquals(parsed.txids(), block.txids());
        assertTrue(block.merkleRootMatches());
    }

    private static String raw(String name) {
        return BitcoinData.raw(name);
    }
}
