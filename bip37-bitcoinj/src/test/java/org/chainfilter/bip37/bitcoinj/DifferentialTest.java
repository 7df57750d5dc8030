package org.chainfilter.bip37.bitcoinj;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.BloomFilter;
import org.bitcoinj.core.FilteredBlock;
import org.bitcoinj.core.PartialMerkleTree;
import org.chainfilter.bip37.Bip37BloomFilter;
import org.chainfilter.bip37.MatchedTransaction;
import org.chainfilter.bip37.MerkleBlock;
import org.chainfilter.btcwire.Block;
import org.chainfilter.btcwire.Hash256;
import org.chainfilter.btcwire.ScriptIterator;
import org.chainfilter.btcwire.Sha256d;
import org.chainfilter.btcwire.Transaction;
import org.chainfilter.btcwire.TxInput;
import org.chainfilter.btcwire.TxOutput;
import org.junit.jupiter.api.Test;

/**
 * chainfilter against bitcoinj 0.17.1 wherever bitcoinj follows Bitcoin Core; the places it does not are pinned in
 * {@link BitcoinjDeviationsTest}. Every run is seeded, so a disagreement is reproducible.
 */
class DifferentialTest {

    /** 3,000 random filters from raw parts, ~30,000 random items: the same bits and the same answers. */
    @Test
    void randomFiltersAndItemsAgreeBitForBit() {
        Random random = new Random(2024);
        int items = 0;
        for (int f = 0; f < 3000; f++) {
            int bytes = f % 50 == 0 ? 36000 : 1 + random.nextInt(f % 3 == 0 ? 2000 : 40);
            Bip37BloomFilter ours = Bip37BloomFilter.fromParts(new byte[bytes], 1 + random.nextInt(50),
                    random.nextInt(), random.nextInt(3));
            BloomFilter theirs = BitcoinjAdapters.toBitcoinj(ours);
            int inserts = random.nextInt(12);
            List<byte[]> inserted = new ArrayList<>();
            for (int i = 0; i < inserts; i++) {
                byte[] item = new byte[random.nextInt(80)];
                random.nextBytes(item);
                ours.insert(item);
                theirs.insert(item);
                inserted.add(item);
                items++;
            }
            assertArrayEquals(theirs.serialize(), ours.toFilterLoad(), "filter " + f);
            for (byte[] item : inserted) {
                assertTrue(ours.contains(item));
                assertTrue(theirs.contains(item));
            }
            for (int probe = 0; probe < 10; probe++) {
                byte[] item = new byte[1 + random.nextInt(40)];
                random.nextBytes(item);
                assertEquals(theirs.contains(item), ours.contains(item), "filter " + f + " probe " + probe);
                items++;
            }
        }
        assertTrue(items > 30_000);
    }

    /**
     * Sizing of (nElements, nFPRate): the byte count is the same whenever Core's is at least 1 (bitcoinj clamps to
     * 1); the hash count is bitcoinj's floating-point formula on the same byte count, which equals Core's integer one
     * in most cases and is one more in the rest.
     */
    @Test
    void sizingAgreesUpToBitcoinjsFloatingPointHashCount() {
        Random random = new Random(7);
        int sameHashCount = 0;
        int oneMore = 0;
        for (int i = 0; i < 5000; i++) {
            int n = 1 + random.nextInt(i % 2 == 0 ? 100 : 100_000);
            double p = Math.pow(10, -1 - 8 * random.nextDouble());
            Bip37BloomFilter ours = Bip37BloomFilter.fromElementsAndRate(n, p, 0, 1);
            Bip37BloomFilter theirs = BitcoinjAdapters.fromBitcoinj(
                    new BloomFilter(n, p, 0, BloomFilter.BloomUpdate.UPDATE_ALL));
            if (ours.byteLength() == 0) {
                assertEquals(1, theirs.byteLength());
                continue;
            }
            assertEquals(ours.byteLength(), theirs.byteLength(), "(" + n + ", " + p + ")");
            int floating = Math.max(1, Math.min((int) (ours.byteLength() * 8 / (double) n * Math.log(2)), 50));
            assertEquals(floating, theirs.hashFunctionCount(), "(" + n + ", " + p + ")");
            if (theirs.hashFunctionCount() == ours.hashFunctionCount()) {
                sameHashCount++;
            } else {
                assertEquals(ours.hashFunctionCount() + 1, theirs.hashFunctionCount());
                oneMore++;
            }
        }
        assertTrue(sameHashCount > 0 && oneMore > 0, sameHashCount + " same, " + oneMore + " one more");
    }

    /** Non-empty pushes of every script and every prevout of a block: the items a wallet would put in a filter. */
    private static List<byte[]> candidates(Block block) {
        List<byte[]> out = new ArrayList<>();
        ScriptIterator it = new ScriptIterator();
        for (Transaction tx : block.transactions()) {
            for (TxOutput output : tx.outputs()) {
                output.iterateScriptPubKey(it);
                while (it.next()) {
                    if (it.dataLength() > 0) {
                        out.add(it.data());
                    }
                }
            }
            for (TxInput input : tx.inputs()) {
                out.add(input.outPoint().toBytes());
                input.iterateScriptSig(it);
                while (it.next()) {
                    if (it.dataLength() > 0) {
                        out.add(it.data());
                    }
                }
            }
        }
        return out;
    }

    /**
     * isRelevantAndUpdate against bitcoinj's applyAndUpdate(Transaction) over the published blocks, transaction by
     * transaction with the same mutating filter, for all three update modes: the same answer and the same filter
     * after each step. Txids are not inserted here: bitcoinj tests them in display order (a deviation).
     */
    @Test
    void transactionMatchingAgreesOnRealBlocks() {
        Random random = new Random(11);
        int matches = 0;
        int steps = 0;
        for (String name : Blocks.NAMES) {
            Block block = Block.fromHex(Blocks.raw(name));
            org.bitcoinj.core.Block theirBlock = BitcoinjAdapters.toBitcoinj(block);
            List<byte[]> candidates = candidates(block);
            for (int round = 0; round < 150; round++) {
                Bip37BloomFilter ours = Bip37BloomFilter.fromElementsAndRate(10 + random.nextInt(40), 0.0001,
                        random.nextInt(), round % 3);
                for (int i = random.nextInt(3); i > 0; i--) {
                    ours.insert(candidates.get(random.nextInt(candidates.size())));
                }
                BloomFilter theirs = BitcoinjAdapters.toBitcoinj(ours);
                for (int t = 0; t < block.transactions().size(); t++) {
                    boolean our = ours.isRelevantAndUpdate(block.transactions().get(t));
                    boolean their = theirs.applyAndUpdate(theirBlock.getTransactions().get(t));
                    assertEquals(their, our, name + " round " + round + " tx " + t);
                    assertArrayEquals(theirs.serialize(), ours.toFilterLoad(), name + " round " + round + " tx " + t);
                    matches += our ? 1 : 0;
                    steps++;
                }
            }
        }
        assertTrue(matches > 200 && matches < steps, matches + " matches in " + steps + " steps");
    }

    /** Merkle blocks built by both from the same block and filter are the same bytes, and both extract them alike. */
    @Test
    void merkleBlocksFromFiltersAreTheSameBytes() {
        Random random = new Random(13);
        for (String name : Blocks.NAMES) {
            Block block = Block.fromHex(Blocks.raw(name));
            List<byte[]> candidates = candidates(block);
            for (int round = 0; round < 60; round++) {
                Bip37BloomFilter ours = Bip37BloomFilter.fromElementsAndRate(20, 0.0001, random.nextInt(),
                        round % 3);
                for (int i = random.nextInt(4); i > 0; i--) {
                    ours.insert(candidates.get(random.nextInt(candidates.size())));
                }
                BloomFilter theirs = BitcoinjAdapters.toBitcoinj(ours);
                FilteredBlock theirBlock = theirs.applyAndUpdate(BitcoinjAdapters.toBitcoinj(block));
                MerkleBlock ourBlock = MerkleBlock.fromBlockAndFilter(block, ours);
                assertArrayEquals(theirBlock.serialize(), ourBlock.serialize(), name + " round " + round);
                List<Sha256Hash> theirMatches = theirBlock.getTransactionHashes();
                List<MatchedTransaction> ourMatches = ourBlock.verify();
                assertEquals(theirMatches.size(), ourMatches.size());
                for (int i = 0; i < ourMatches.size(); i++) {
                    assertEquals(theirMatches.get(i), BitcoinjAdapters.toBitcoinj(ourMatches.get(i).txid()));
                }
            }
        }
    }

    /** Random partial trees of 1..3000 leaves: bitcoinj's getTxnHashAndMerkleRoot and ours give the same root and matches. */
    @Test
    void randomPartialTreesExtractAlike() {
        Random random = new Random(17);
        for (int round = 0; round < 200; round++) {
            int count = 1 + random.nextInt(round % 10 == 0 ? 3000 : 60);
            List<Hash256> leaves = new ArrayList<>();
            List<Sha256Hash> theirLeaves = new ArrayList<>();
            byte[] seed = new byte[8];
            boolean[] match = new boolean[count];
            byte[] bits = new byte[(count + 7) / 8];
            for (int i = 0; i < count; i++) {
                random.nextBytes(seed);
                Hash256 leaf = Sha256d.hash(seed);
                leaves.add(leaf);
                theirLeaves.add(BitcoinjAdapters.toBitcoinj(leaf));
                match[i] = random.nextInt(5) == 0;
                if (match[i]) {
                    bits[i >> 3] |= (byte) (1 << (i & 7));
                }
            }
            org.chainfilter.bip37.PartialMerkleTree ours = org.chainfilter.bip37.PartialMerkleTree.build(leaves, match);
            PartialMerkleTree theirs = PartialMerkleTree.buildFromLeaves(bits, theirLeaves);
            byte[] ourBytes = serialize(ours);
            assertArrayEquals(theirs.serialize(), ourBytes, "round " + round);
            List<Sha256Hash> theirMatches = new ArrayList<>();
            Sha256Hash theirRoot = PartialMerkleTree.read(ByteBuffer.wrap(ourBytes)).getTxnHashAndMerkleRoot(
                    theirMatches);
            org.chainfilter.bip37.PartialMerkleTree.Extraction extraction = ours.extractMatches();
            assertEquals(theirRoot, BitcoinjAdapters.toBitcoinj(extraction.root()));
            List<Sha256Hash> ourMatches = new ArrayList<>();
            for (MatchedTransaction m : extraction.matches()) {
                ourMatches.add(BitcoinjAdapters.toBitcoinj(m.txid()));
                assertTrue(match[m.index()], "round " + round + ": position " + m.index() + " was not matched");
            }
            assertEquals(theirMatches, ourMatches, "round " + round);
        }
    }

    private static byte[] serialize(org.chainfilter.bip37.PartialMerkleTree tree) {
        org.chainfilter.btcwire.ByteWriter writer = new org.chainfilter.btcwire.ByteWriter();
        tree.writeTo(writer);
        return writer.toByteArray();
    }
}
