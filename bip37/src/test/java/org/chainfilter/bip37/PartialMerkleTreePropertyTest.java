package org.chainfilter.bip37;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.chainfilter.btcwire.Block;
import org.chainfilter.btcwire.ByteWriter;
import org.chainfilter.btcwire.Hash256;
import org.chainfilter.btcwire.MerkleRoot;
import org.chainfilter.btcwire.Sha256d;
import org.junit.jupiter.api.Test;

/**
 * Properties of Core's pmt_tests.cpp pmt_test1 (e3f416dbf7), over seeded random trees: every proof extracts to the
 * same root and matches it was built from, its size stays within Core's bound, and corrupting any byte makes it invalid
 * or changes what it proves.
 */
class PartialMerkleTreePropertyTest {

    private static List<Hash256> leaves(Random random, int count) {
        List<Hash256> out = new ArrayList<>(count);
        byte[] seed = new byte[8];
        for (int i = 0; i < count; i++) {
            random.nextBytes(seed);
            out.add(Sha256d.hash(seed));
        }
        return out;
    }

    @Test
    void randomTreesExtractToTheirRootAndMatches() {
        Random random = new Random(37);
        int[] counts = {1, 2, 3, 4, 5, 7, 17, 56, 100, 127, 256, 312, 513, 1000, 4095, 5000};
        for (int count : counts) {
            List<Hash256> txids = leaves(random, count);
            Hash256 root = MerkleRoot.of(txids);
            int height = 0;
            while (((count + (1L << height) - 1) >> height) > 1) {
                height++;
            }
            for (int attempt = 1; attempt < 15; attempt++) {
                boolean[] match = new boolean[count];
                List<MatchedTransaction> expected = new ArrayList<>();
                double probability = Math.pow(2, -attempt / 2.0);
                for (int i = 0; i < count; i++) {
                    match[i] = random.nextDouble() < probability;
                    if (match[i]) {
                        expected.add(new MatchedTransaction(i, txids.get(i)));
                    }
                }
                PartialMerkleTree tree = PartialMerkleTree.build(txids, match);
                PartialMerkleTree.Extraction extraction = tree.extractMatches();
                assertEquals(root, extraction.root());
                assertEquals(expected, extraction.matches());
                long nodes = Math.min(count, 1 + (long) expected.size() * (height + 1));
                ByteWriter serialized = new ByteWriter();
                tree.writeTo(serialized);
                int size = serialized.size();
                assertTrue(size <= 10 + (258 * nodes + 7) / 8, "size " + size + " for " + count);
            }
        }
    }

    /**
     * Flip each bit of serialized merkle blocks: the result is unparseable, invalid, or proves something else; the
     * only exception, as in Core, is the padding after the last used flag bit.
     */
    @Test
    void everyByteFlipInvalidatesOrChangesTheProof() {
        Random random = new Random(99);
        for (String name : new String[] {"block_13b8a", "block_b731f2", "block_5a4ded"}) {
            Block block = Vectors.block(name);
            for (int round = 0; round < 4; round++) {
                boolean[] match = new boolean[block.transactions().size()];
                for (int i = 0; i < match.length; i++) {
                    match[i] = random.nextInt(3) == 0;
                }
                MerkleBlock original = new MerkleBlock(block.header(), PartialMerkleTree.build(block.txids(), match));
                List<MatchedTransaction> proven = original.verify();
                byte[] bytes = original.serialize();
                int bitsUsed = original.tree().extractMatches().flagBitsUsed();
                int firstFlagByte = bytes.length - original.tree().flagBytes().length;
                Outcome before = new Outcome(original.header().hash(), original.tree().transactionCount(), proven);
                for (int i = 0; i < bytes.length; i++) {
                    for (int bit = 0; bit < 8; bit++) {
                        byte[] flipped = bytes.clone();
                        flipped[i] ^= (byte) (1 << bit);
                        boolean padding = i >= firstFlagByte && (i - firstFlagByte) * 8 + bit >= bitsUsed;
                        if (padding) {
                            assertEquals(before, outcome(flipped), "Core ignores padding bits");
                        } else {
                            assertNotEquals(before, outcome(flipped), name + " byte " + i + " bit " + bit);
                        }
                    }
                }
            }
        }
    }

    /**
     * What a client would accept: the block, the claimed transaction count and the matches; null when it refuses the
     * bytes. The count is part of it because it is not committed to by the root: see
     * {@link #transactionCountIsNotCommittedToByTheRoot()}.
     */
    private record Outcome(Hash256 block, long transactionCount, List<MatchedTransaction> matches) {
    }

    private static Outcome outcome(byte[] bytes) {
        try {
            MerkleBlock merkleBlock = MerkleBlock.parse(bytes);
            return new Outcome(merkleBlock.header().hash(), merkleBlock.tree().transactionCount(),
                    merkleBlock.verify());
        } catch (IllegalArgumentException refused) {
            return null;
        }
    }

    /**
     * Core's walk only visits what the flag bits ask for, so a different total_transactions with the same tree shape
     * along the walk verifies with the same root and matches (Core's ExtractMatches accepts it as well): block 13b8a
     * has 9 transactions; claiming 11 proves the same matches when only leaves 2..4 are matched. A client must not
     * trust total_transactions from a merkle block alone.
     */
    @Test
    void transactionCountIsNotCommittedToByTheRoot() {
        Block block = Vectors.block("block_13b8a");
        boolean[] match = new boolean[9];
        match[2] = true;
        match[4] = true;
        PartialMerkleTree honest = PartialMerkleTree.build(block.txids(), match);
        PartialMerkleTree inflated = new PartialMerkleTree(11, honest.hashes(), honest.flagBytes());
        assertEquals(honest.extractMatches().matches(), inflated.extractMatches().matches());
        assertEquals(block.header().merkleRoot(), inflated.extractMatches().root());
    }

    @Test
    void randomHashFlipChangesTheRoot() {
        Random random = new Random(5);
        List<Hash256> txids = leaves(random, 300);
        boolean[] match = new boolean[300];
        match[7] = true;
        match[250] = true;
        PartialMerkleTree tree = PartialMerkleTree.build(txids, match);
        List<Hash256> hashes = new ArrayList<>(tree.hashes());
        for (int i = 0; i < hashes.size(); i++) {
            byte[] h = hashes.get(i).internalBytes();
            h[random.nextInt(32)] ^= (byte) (1 << random.nextInt(8));
            List<Hash256> changed = new ArrayList<>(hashes);
            changed.set(i, Hash256.fromInternalBytes(h));
            PartialMerkleTree corrupted = new PartialMerkleTree(300, changed, tree.flagBytes());
            assertNotEquals(MerkleRoot.of(txids), corrupted.extractMatches().root());
        }
    }
}
