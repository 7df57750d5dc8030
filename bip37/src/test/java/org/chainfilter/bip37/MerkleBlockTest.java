package org.chainfilter.bip37;

import static org.chainfilter.bip37.Vectors.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.chainfilter.btcwire.Block;
import org.chainfilter.btcwire.ByteReader;
import org.chainfilter.btcwire.ByteWriter;
import org.chainfilter.btcwire.Hash256;
import org.chainfilter.btcwire.OutPoint;
import org.chainfilter.btcwire.WireFormatException;
import org.chainfilter.common.Hex;
import org.junit.jupiter.api.Test;

/**
 * Published merkle block vectors: bitcoin/bitcoin src/test/bloom_tests.cpp merkle_block_1..4 and variants,
 * src/test/merkleblock_tests.cpp, src/test/pmt_tests.cpp (all at e3f416dbf7633b2fb19c933e5508bd231cc7e9cf), btcd
 * wire/msgmerkleblock_test.go (2c67bc29ce). Filters are (10, 1e-6, 0, flags) as in Core's tests.
 */
class MerkleBlockTest {

    private static Bip37BloomFilter filter(int flags, String... displayHashes) {
        Bip37BloomFilter filter = Bip37BloomFilter.fromElementsAndRate(10, 0.000001, 0, flags);
        for (String h : displayHashes) {
            filter.insert(Vectors.uint256(h));
        }
        return filter;
    }

    private static List<MatchedTransaction> matches(Object... indexAndDisplayTxid) {
        List<MatchedTransaction> out = new ArrayList<>();
        for (int i = 0; i < indexAndDisplayTxid.length; i += 2) {
            out.add(new MatchedTransaction((Integer) indexAndDisplayTxid[i],
                    Vectors.uint256((String) indexAndDisplayTxid[i + 1])));
        }
        return out;
    }

    /** The built matches, the extracted matches after a wire round trip, and the root check agree. */
    private static void assertProves(Block block, MerkleBlock merkleBlock, List<MatchedTransaction> expected) {
        assertEquals(expected, merkleBlock.builtMatches());
        MerkleBlock reparsed = MerkleBlock.parse(merkleBlock.serialize());
        assertEquals(merkleBlock, reparsed);
        assertEquals(expected, reparsed.verify());
        assertEquals(block.header().merkleRoot(), reparsed.tree().extractMatches().root());
    }

    @Test
    void merkleBlock1() {
        Block block = Vectors.block("block_13b8a");
        Bip37BloomFilter filter = filter(1, "74d681e0e03bafa802c8aa084379aa98d9fcd632ddc2ed9782b586ec87451f20");
        assertProves(block, MerkleBlock.fromBlockAndFilter(block, filter),
                matches(8, "74d681e0e03bafa802c8aa084379aa98d9fcd632ddc2ed9782b586ec87451f20"));
        filter.insert(Vectors.uint256("dd1fd2a6fc16404faf339881a90adbde7f4f728691ac62e8f168809cdfae1053"));
        assertProves(block, MerkleBlock.fromBlockAndFilter(block, filter),
                matches(7, "dd1fd2a6fc16404faf339881a90adbde7f4f728691ac62e8f168809cdfae1053",
                        8, "74d681e0e03bafa802c8aa084379aa98d9fcd632ddc2ed9782b586ec87451f20"));
    }

    private static final String PUBKEY_TX1 = "044a656f065871a353f216ca26cef8dde2f03e8c16202d2e8ad769f02032cb86a5eb5e5684"
            + "2e92e19141d60a01928f8dd2c875a390f67c1f6c94cfc617c0ea45af";

    @Test
    void merkleBlock2UpdateAllAndNone() {
        Block block = Vectors.block("block_5a4ded");
        String tx0 = "e980fe9f792d014e73b95203dc1335c5f9ce19ac537a419e6df5b47aecb93b70";
        for (int flags : new int[] {1, 0}) {
            Bip37BloomFilter filter = filter(flags, tx0);
            assertProves(block, MerkleBlock.fromBlockAndFilter(block, filter), matches(0, tx0));
            filter.insert(hex(PUBKEY_TX1));
            List<MatchedTransaction> expected = flags == 1
                    ? matches(0, tx0, 1, "28204cad1d7fc1d199e8ef4fa22f182de6258a3eaafe1bbe56ebdcacd3069a5f",
                            2, "6b0f8a73a56c04b519f1883e8aafda643ba61a30bd1439969df21bea5f4e27e2",
                            3, "3c1d7e82342158e4109df2e0b6348b6e84e403d8b4046d7007663ace63cddb23")
                    : matches(0, tx0, 1, "28204cad1d7fc1d199e8ef4fa22f182de6258a3eaafe1bbe56ebdcacd3069a5f",
                            3, "3c1d7e82342158e4109df2e0b6348b6e84e403d8b4046d7007663ace63cddb23");
            assertProves(block, MerkleBlock.fromBlockAndFilter(block, filter), expected);
        }
    }

    @Test
    void merkleBlock3AndItsPublishedSerialization() {
        Block block = Vectors.block("block_dab013");
        String tx = "63194f18be0af63f2c6bc9dc0f777cbefed3d9415c4af83f3ee3a3d669c00cb5";
        MerkleBlock merkleBlock = MerkleBlock.fromBlockAndFilter(block, filter(1, tx));
        assertProves(block, merkleBlock, matches(0, tx));
        assertEquals("0100000079cda856b143d9db2c1caff01d1aecc8630d30625d10e8b4b8b0000000000000b50cc069d6a3e33e3ff84a5c41"
                + "d9d3febe7c770fdcc96b2c3ff60abe184f196367291b4d4c86041b8fa45d630100000001b50cc069d6a3e33e3ff84a5c41d9d3"
                + "febe7c770fdcc96b2c3ff60abe184f19630101", merkleBlock.toHex());
        assertEquals("000000000000dab0130bbcc991d3d7ae6b81aa6f50a798888dfe62337458dc45",
                merkleBlock.header().hash().toDisplayHex());
    }

    @Test
    void merkleBlock4() {
        Block block = Vectors.block("block_b731f2");
        String tx6 = "0a2a92f0bda4727d0a13eaddf4dd9ac6b5c61a1429e6b2b818f19b15df0ac154";
        String tx3 = "02981fa052f0481dbc5868f4fc2166035a10f27a03cfd2de67326471df5bc041";
        Bip37BloomFilter filter = filter(1, tx6);
        assertProves(block, MerkleBlock.fromBlockAndFilter(block, filter), matches(6, tx6));
        filter.insert(Vectors.uint256(tx3));
        assertProves(block, MerkleBlock.fromBlockAndFilter(block, filter), matches(3, tx3, 6, tx6));
    }

    private static final String COINBASE_PUBKEY = "04eaafc2314def4ca98ac970241bcab022b9c1e1f4ea423a20f134c876f2c01ec0f0dd5"
            + "b2e86e7168cefe0d81113c3807420ce13ad1357231a2252247d97a46a91";

    /** merkle_block_4_test_p2pubkey_only and merkle_block_4_test_update_none. */
    @Test
    void merkleBlock4P2PubKeyOnlyAndUpdateNone() {
        Block block = Vectors.block("block_b731f2");
        OutPoint coinbaseOut = new OutPoint(
                Vectors.uint256("147caa76786596590baa4e98f5d9f48b86c7765e489f7a6ff3360fe5c674360b"), 0);
        OutPoint p2pkhOut = new OutPoint(
                Vectors.uint256("02981fa052f0481dbc5868f4fc2166035a10f27a03cfd2de67326471df5bc041"), 0);
        assertEquals("0b3674c6e50f36f36f7a9f485e76c7868bf4d9f5984eaa0b5996657876aa7c1400000000",
                Hex.encode(coinbaseOut.toBytes()));
        for (int flags : new int[] {2, 0}) {
            Bip37BloomFilter filter = filter(flags);
            filter.insert(hex(COINBASE_PUBKEY));
            filter.insert(hex("b6efd80d99179f4f4ff6f4dd0a007d018c385d21"));
            MerkleBlock.fromBlockAndFilter(block, filter);
            assertEquals(flags == 2, filter.containsOutPoint(coinbaseOut));
            assertFalse(filter.containsOutPoint(p2pkhOut));
        }
    }

    /** merkleblock_tests.cpp: from a txid set; Core's vMatchedTxn stays empty there, we report the positions. */
    @Test
    void fromTxidsFoundAndNotFound() {
        Block block = Vectors.block("block_13b8a");
        Hash256 a = Vectors.uint256("74d681e0e03bafa802c8aa084379aa98d9fcd632ddc2ed9782b586ec87451f20");
        Hash256 b = Vectors.uint256("f9fc751cb7dc372406a9f8d738d5e6f8f63bab71986a39cf36ee70ee17036d07");
        MerkleBlock found = MerkleBlock.fromBlockAndTxids(block, Set.of(a, b));
        assertEquals(List.of(new MatchedTransaction(1, b), new MatchedTransaction(8, a)), found.verify());
        MerkleBlock none = MerkleBlock.fromBlockAndTxids(block,
                Set.of(Vectors.uint256("c0ffee00003bafa802c8aa084379aa98d9fcd632ddc2ed9782b586ec87451f20")));
        assertEquals(List.of(), none.verify());
        assertEquals(block.header().merkleRoot(), none.tree().extractMatches().root());
    }

    /** btcd merkleBlockOne: a wire round trip; flag 0x80 has bit 0 clear, so it proves the root and no match. */
    @Test
    void btcdMerkleBlockOneRoundTrips() {
        String hex = "010000006fe28c0ab6f1b372c1a6a246ae63f74f931e8365e15a089c68d6190000000000982051fd1e4ba744bbbe680e1fee"
                + "14677ba1a3c3540bf7b1cdb606e857233e0e61bc6649ffff001d01e362990100000001982051fd1e4ba744bbbe680e1fee1467"
                + "7ba1a3c3540bf7b1cdb606e857233e0e0180";
        MerkleBlock merkleBlock = MerkleBlock.fromHex(hex);
        assertEquals(hex, merkleBlock.toHex());
        assertEquals(List.of(), merkleBlock.verify());
    }

    /** pmt_tests.cpp pmt_malleability: leaves 1..10, 9, 10 with 9 and 10 matched must fail (CVE-2012-2459). */
    @Test
    void malleatedTreeIsRefused() {
        List<Hash256> leaves = new ArrayList<>();
        for (int n : new int[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 9, 10}) {
            byte[] bytes = new byte[32];
            bytes[0] = (byte) n;
            leaves.add(Hash256.fromInternalBytes(bytes));
        }
        boolean[] match = new boolean[12];
        match[9] = true;
        match[10] = true;
        PartialMerkleTree tree = PartialMerkleTree.build(leaves, match);
        InvalidMerkleBlockException e = assertThrows(InvalidMerkleBlockException.class, tree::extractMatches);
        assertTrue(e.getMessage().startsWith("partial Merkle tree has identical left and right children"),
                e.getMessage());
        assertTrue(e.getMessage().endsWith("(CVE-2012-2459)"), e.getMessage());
    }

    private static final Hash256 H = Vectors.uint256("63194f18be0af63f2c6bc9dc0f777cbefed3d9415c4af83f3ee3a3d669c00cb5");

    private static void assertInvalid(PartialMerkleTree tree, String message) {
        InvalidMerkleBlockException e = assertThrows(InvalidMerkleBlockException.class, tree::extractMatches);
        assertEquals(message, e.getMessage());
    }

    /** Every refusal of Core's ExtractMatches (spec §4.4). */
    @Test
    void everyMalformedTreeCoreRefuses() {
        assertInvalid(new PartialMerkleTree(0, List.of(), new byte[0]), "partial Merkle tree has 0 transactions");
        assertInvalid(new PartialMerkleTree(16667, List.of(H), new byte[] {1}),
                "partial Merkle tree claims 16667 transactions; a block holds at most 16666");
        assertInvalid(new PartialMerkleTree(1, List.of(H, H), new byte[] {1}),
                "partial Merkle tree has 2 hashes for 1 transactions");
        assertInvalid(new PartialMerkleTree(9, List.of(H, H, H, H, H, H, H, H, H), new byte[] {1}),
                "partial Merkle tree has 8 flag bits for 9 hashes");
        assertInvalid(new PartialMerkleTree(2, List.of(H), new byte[] {1}),
                "partial Merkle tree ran out of hashes after 1");
        assertInvalid(new PartialMerkleTree(1, List.of(), new byte[0]),
                "partial Merkle tree ran out of flag bits after 0");
        assertInvalid(new PartialMerkleTree(1, List.of(H), new byte[] {1, 0}),
                "partial Merkle tree used 1 flag bits but carries 2 flag bytes");
        assertInvalid(new PartialMerkleTree(2, List.of(H, H), new byte[] {0}),
                "partial Merkle tree used 1 of its 2 hashes");
        new PartialMerkleTree(1, List.of(H), new byte[] {(byte) 0xff}).extractMatches();
    }

    /**
     * Core's ExtractMatches refuses nTransactions > MAX_BLOCK_WEIGHT / MIN_TRANSACTION_WEIGHT, so a tree of exactly
     * 16666 transactions is valid (spec §4.4, rule 2); everyMalformedTreeCoreRefuses covers 16667.
     */
    @Test
    void theLargestTransactionCountIsAccepted() {
        List<Hash256> leaves = new ArrayList<>();
        for (int i = 0; i < PartialMerkleTree.MAX_TRANSACTIONS; i++) {
            byte[] bytes = new byte[32];
            bytes[0] = (byte) i;
            bytes[1] = (byte) (i >> 8);
            leaves.add(Hash256.fromInternalBytes(bytes));
        }
        boolean[] match = new boolean[leaves.size()];
        match[16665] = true;
        PartialMerkleTree tree = PartialMerkleTree.build(leaves, match);
        assertEquals(16666, tree.transactionCount());
        assertEquals(List.of(new MatchedTransaction(16665, leaves.get(16665))), tree.extractMatches().matches());
    }

    /** total_transactions is Core's uint32 nTransactions: 2^32 - 1 is kept whole on the wire, 2^32 is refused. */
    @Test
    void totalTransactionsIsAnUnsigned32BitValue() {
        PartialMerkleTree largest = new PartialMerkleTree(0xffffffffL, List.of(H), new byte[] {1});
        ByteWriter writer = new ByteWriter(64);
        largest.writeTo(writer);
        assertEquals(largest, PartialMerkleTree.read(new ByteReader(writer.toByteArray())));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new PartialMerkleTree(1L << 32, List.of(H), new byte[] {1}));
        assertEquals("total_transactions 4294967296 is outside the uint32 range", e.getMessage());
    }

    /** Core's CMerkleBlock(block, txids) finds the listed txids at their positions; builtMatches reports them. */
    @Test
    void fromTxidsReportsThePositionsItFound() {
        Block block = Vectors.block("block_13b8a");
        Hash256 a = Vectors.uint256("74d681e0e03bafa802c8aa084379aa98d9fcd632ddc2ed9782b586ec87451f20");
        Hash256 b = Vectors.uint256("f9fc751cb7dc372406a9f8d738d5e6f8f63bab71986a39cf36ee70ee17036d07");
        assertEquals(List.of(new MatchedTransaction(1, b), new MatchedTransaction(8, a)),
                MerkleBlock.fromBlockAndTxids(block, Set.of(a, b)).builtMatches());
        assertEquals(List.of(), MerkleBlock.fromBlockAndTxids(block, Set.of(H)).builtMatches());
    }

    /** Merkle blocks are equal when their wire forms are: the same header proving different leaves is another one. */
    @Test
    void merkleBlocksOfOneHeaderWithDifferentTreesAreNotEqual() {
        Block block = Vectors.block("block_13b8a");
        MerkleBlock first = MerkleBlock.fromBlockAndTxids(block, Set.of(block.txids().get(0)));
        MerkleBlock second = MerkleBlock.fromBlockAndTxids(block, Set.of(block.txids().get(1)));
        assertEquals(first.header(), second.header());
        assertNotEquals(first, second);
        assertEquals(first, MerkleBlock.parse(first.serialize()));
    }

    /**
     * PartialMerkleTree is immutable: it keeps its own copy of the flag bytes it is given and hands out copies, so
     * neither the caller's array nor one it was handed can change what the tree proves.
     */
    @Test
    void aTreeKeepsItsOwnCopyOfTheFlagBytes() {
        Hash256 txid = Vectors.uint256("b4749f017444b051c44dfd2720e88f314ff94f3dd6d56d40ef65854fcd7fff6b");
        byte[] flags = {0x01};
        PartialMerkleTree tree = new PartialMerkleTree(1, List.of(txid), flags);
        flags[0] = 0;
        tree.flagBytes()[0] = 0;
        assertEquals("01", Hex.encode(tree.flagBytes()));
        assertEquals(List.of(new MatchedTransaction(0, txid)), tree.extractMatches().matches());
    }

    /**
     * A match is Core's (vnIndex, txid) pair: the position is part of it, from 0 (the coinbase) up, so the same txid
     * at two positions is two different matches, and no position is negative.
     */
    @Test
    void aMatchIsItsPositionAndItsTxid() {
        Hash256 txid = Vectors.uint256("b4749f017444b051c44dfd2720e88f314ff94f3dd6d56d40ef65854fcd7fff6b");
        assertEquals(new MatchedTransaction(0, txid), new MatchedTransaction(0, txid));
        assertNotEquals(new MatchedTransaction(0, txid), new MatchedTransaction(1, txid));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new MatchedTransaction(-1, txid));
        assertEquals("transaction index -1 is negative", e.getMessage());
    }

    /**
     * Core's ExtractMatches does not require a set parent bit to lead to a match: a 2-leaf tree whose root is expanded
     * into two unmatched leaves proves the same root and no match as the builder's one-hash form (no rule of spec §4.4
     * refuses it), but reads 3 flag bits instead of 1, and the two extractions are not equal.
     */
    @Test
    void anExpandedTreeWithoutMatchesReadsMoreFlagBits() {
        Hash256 left = Vectors.uint256("11".repeat(32));
        Hash256 right = Vectors.uint256("22".repeat(32));
        PartialMerkleTree.Extraction built = PartialMerkleTree.build(List.of(left, right), new boolean[2])
                .extractMatches();
        PartialMerkleTree.Extraction expanded = new PartialMerkleTree(2, List.of(left, right), new byte[] {1})
                .extractMatches();
        assertEquals(built.root(), expanded.root());
        assertEquals(List.of(), expanded.matches());
        assertEquals(1, built.flagBitsUsed());
        assertEquals(3, expanded.flagBitsUsed());
        assertNotEquals(built, expanded);
    }

    @Test
    void rootThatIsNotTheHeadersIsRefused() {
        Block block = Vectors.block("block_dab013");
        Block other = Vectors.block("block_5a4ded");
        MerkleBlock forged = new MerkleBlock(other.header(),
                MerkleBlock.fromBlockAndTxids(block, Set.of(block.txids().get(0))).tree());
        InvalidMerkleBlockException e = assertThrows(InvalidMerkleBlockException.class, forged::verify);
        assertEquals("partial Merkle tree root " + block.header().merkleRoot() + " is not the header's merkle root "
                + other.header().merkleRoot(), e.getMessage());
    }

    /** bitcoinj parseHugeDeclaredSizePartialMerkleTree: a hash count of 2^31-1 must not allocate. */
    @Test
    void hugeDeclaredHashCountIsRefusedBeforeAllocation() {
        String header = Vectors.raw("block_dab013").substring(0, 160);
        String body = "03000000" + "feffffff7f" + "01" + "00".repeat(31) + "02" + "00".repeat(31) + "03"
                + "00".repeat(31) + "013f";
        WireFormatException e = assertThrows(WireFormatException.class, () -> MerkleBlock.fromHex(header + body));
        assertEquals("merkleblock hash count is 2147483647; at most 33554432 is allowed", e.getMessage());
        String fits = "03000000" + "fe00000001" + "00".repeat(98);
        e = assertThrows(WireFormatException.class, () -> MerkleBlock.fromHex(header + fits));
        assertEquals("merkleblock hash count is 16777216 but at 32 bytes or more each they cannot fit in the 98 bytes"
                + " left", e.getMessage());
    }

    @Test
    void trailingBytesAndShortHeadersAreRefused() {
        String hex = MerkleBlock.fromBlockAndTxids(Vectors.block("block_dab013"), Set.of()).toHex();
        WireFormatException e = assertThrows(WireFormatException.class, () -> MerkleBlock.fromHex(hex + "00"));
        assertEquals("merkleblock has 1 trailing bytes after its end (at offset " + hex.length() / 2 + ")",
                e.getMessage());
        e = assertThrows(WireFormatException.class, () -> MerkleBlock.fromHex(hex.substring(0, 100)));
        assertEquals("block header needs 80 bytes but 50 are left", e.getMessage());
    }

    @Test
    void buildingNeedsTransactionsAndOneFlagEach() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PartialMerkleTree.build(List.of(), new boolean[0]));
        assertEquals("a partial Merkle tree needs at least one transaction; got 0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> PartialMerkleTree.build(List.of(H), new boolean[2]));
        assertEquals("2 match flags given for 1 transactions", e.getMessage());
    }
}
