package org.chainfilter.btcwire.hardening;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.chainfilter.btcwire.Block;
import org.chainfilter.btcwire.BlockHeader;
import org.chainfilter.btcwire.Hash256;
import org.chainfilter.btcwire.MerkleRoot;
import org.chainfilter.btcwire.OutPoint;
import org.chainfilter.btcwire.Transaction;
import org.chainfilter.btcwire.TxInput;
import org.chainfilter.btcwire.TxOutput;
import org.junit.jupiter.api.Test;

/**
 * CVE-2012-2459 on full blocks (regression for a hardening finding: {@link Block#merkleRootMatches()} accepted a block
 * that repeats its last transactions, whose root equals the real block's because Bitcoin's Merkle tree pairs an odd
 * last node with itself). Core's {@code ComputeMerkleRoot} flags such a tree as mutated and {@code CheckMerkleRoot}
 * refuses the block ("bad-txns-duplicate"); so does chainfilter now.
 */
class MutatedMerkleTreeTest {
    @Test
    void aBlockRepeatingItsLastTransactionHasTheSameRootButDoesNotMatch() {
        List<Transaction> real = transactions(9);
        Hash256 root = MerkleRoot.of(txids(real));
        List<Transaction> repeated = new ArrayList<>(real);
        repeated.add(real.get(8));
        assertEquals(root, MerkleRoot.of(txids(repeated)), "the collision CVE-2012-2459 describes");

        BlockHeader header = new BlockHeader(1, Hash256.ZERO, root, 1_231_006_505L, 0x1d00ffffL, 7);
        assertTrue(new Block(header, real).merkleRootMatches());
        assertFalse(new Block(header, repeated).merkleRootMatches());
        assertFalse(MerkleRoot.isMutated(txids(real)));
        assertTrue(MerkleRoot.isMutated(txids(repeated)));
        // Equal headers do not make equal blocks: a Block.equals on the header alone passed every test (found by a
        // mutation review), and took the mutated block for the real one.
        assertNotEquals(new Block(header, real), new Block(header, repeated));
        assertEquals(new Block(header, real), new Block(header, transactions(9)));
    }

    @Test
    void aRepeatedPairOneLevelUpIsAMutationToo() {
        List<Transaction> six = transactions(6);
        List<Transaction> eight = new ArrayList<>(six);
        eight.add(six.get(4));
        eight.add(six.get(5));
        assertEquals(MerkleRoot.of(txids(six)), MerkleRoot.of(txids(eight)));
        assertFalse(MerkleRoot.isMutated(txids(six)));
        assertTrue(MerkleRoot.isMutated(txids(eight)));
    }

    @Test
    void aSingleTransactionAndDistinctOddLevelsAreNotMutations() {
        assertFalse(MerkleRoot.isMutated(txids(transactions(1))));
        for (int count = 2; count <= 17; count++) {
            assertFalse(MerkleRoot.isMutated(txids(transactions(count))), count + " transactions");
        }
    }

    private static List<Transaction> transactions(int count) {
        List<Transaction> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] prevout = new byte[32];
            prevout[0] = (byte) (i + 1);
            out.add(new Transaction(1, List.of(new TxInput(new OutPoint(Hash256.fromInternalBytes(prevout), i),
                    new byte[] {(byte) i}, 0xffffffffL, List.of())), List.of(new TxOutput(50, new byte[] {0x51})), 0));
        }
        return out;
    }

    private static List<Hash256> txids(List<Transaction> transactions) {
        List<Hash256> out = new ArrayList<>();
        transactions.forEach(tx -> out.add(tx.txid()));
        return out;
    }
}
