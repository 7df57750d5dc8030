package org.chainfilter.bip37.bitcoinj;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.bitcoinj.core.BloomFilter;
import org.bitcoinj.core.FilteredBlock;
import org.bitcoinj.core.ProtocolException;
import org.bitcoinj.core.TransactionOutPoint;
import org.bitcoinj.core.VerificationException;
import org.chainfilter.bip37.Bip37BloomFilter;
import org.chainfilter.bip37.InvalidMerkleBlockException;
import org.chainfilter.bip37.MerkleBlock;
import org.chainfilter.bip37.PartialMerkleTree;
import org.chainfilter.btcwire.Block;
import org.chainfilter.btcwire.Hash256;
import org.chainfilter.btcwire.OutPoint;
import org.chainfilter.btcwire.Transaction;
import org.chainfilter.btcwire.TxOutput;
import org.chainfilter.common.Hex;
import org.junit.jupiter.api.Test;

class BitcoinjAdaptersTest {

    /**
     * A transaction Core's deserializer reads but bitcoinj refuses (an output of -2 satoshis) is named in the refusal,
     * alone and inside a block: bitcoinj's bare "negative values not allowed" did not say which (found by a review).
     * bitcoinj's exception is the cause.
     */
    @Test
    void aTransactionBitcoinjRefusesIsNamed() {
        Transaction tx = new Transaction(1, List.of(new org.chainfilter.btcwire.TxInput(
                new OutPoint(Hash256.fromDisplayHex("11".repeat(32)), 0), new byte[] {0x51}, 0xffffffffL, List.of())),
                List.of(new TxOutput(-2, new byte[] {0x51})), 0);
        IllegalArgumentException alone = assertThrows(IllegalArgumentException.class,
                () -> BitcoinjAdapters.toBitcoinj(tx));
        assertEquals("bitcoinj refuses transaction " + tx.txid() + ": negative values not allowed", alone.getMessage());
        Block withIt = lastIn13b8a(tx);
        IllegalArgumentException inBlock = assertThrows(IllegalArgumentException.class,
                () -> BitcoinjAdapters.toBitcoinj(withIt));
        assertEquals(alone.getMessage(), inBlock.getMessage());
        // Two refused transactions: the first in block order is named.
        Transaction later = new Transaction(1, tx.inputs(), List.of(new TxOutput(-3, new byte[] {0x51})), 0);
        List<Transaction> both = new java.util.ArrayList<>(withIt.transactions());
        both.add(later);
        assertEquals(alone.getMessage(), assertThrows(IllegalArgumentException.class,
                () -> BitcoinjAdapters.toBitcoinj(new Block(withIt.header(), both))).getMessage());
        // bitcoinj's own exception stays attached, with its stack trace into bitcoinj's parser.
        for (IllegalArgumentException refusal : List.of(alone, inBlock)) {
            assertEquals("negative values not allowed", refusal.getCause().getMessage());
        }
    }

    /**
     * A segwit transaction bitcoinj refuses is named by its txid (the id the refusal of a legacy one gives), not by its
     * wtxid, alone and inside a block.
     */
    @Test
    void aRefusedSegwitTransactionIsNamedByItsTxid() {
        Transaction tx = new Transaction(2, segwitSpend().inputs(), List.of(new TxOutput(-2, new byte[] {0x51})), 0);
        assertNotEquals(tx.txid(), tx.wtxid());
        String expected = "bitcoinj refuses transaction " + tx.txid() + ": negative values not allowed";
        assertEquals(expected, assertThrows(IllegalArgumentException.class,
                () -> BitcoinjAdapters.toBitcoinj(tx)).getMessage());
        assertEquals(expected, assertThrows(IllegalArgumentException.class,
                () -> BitcoinjAdapters.toBitcoinj(lastIn13b8a(tx))).getMessage());
    }

    /** Block 13b8a of the BIP37 vectors with {@code tx} appended (the header's merkle root no longer fits). */
    private static Block lastIn13b8a(Transaction tx) {
        Block block = Block.fromHex(Blocks.raw("block_13b8a"));
        List<Transaction> txs = new java.util.ArrayList<>(block.transactions());
        txs.add(tx);
        return new Block(block.header(), txs);
    }

    @Test
    void blocksAndTransactionsRoundTripWithTheSameIds() {
        for (String name : Blocks.NAMES) {
            Block block = Block.fromHex(Blocks.raw(name));
            org.bitcoinj.core.Block theirs = BitcoinjAdapters.toBitcoinj(block);
            assertEquals(block.hash(), BitcoinjAdapters.fromBitcoinj(theirs.getHash()));
            assertEquals(block, BitcoinjAdapters.fromBitcoinj(theirs));
            for (int i = 0; i < block.transactions().size(); i++) {
                Transaction tx = block.transactions().get(i);
                org.bitcoinj.core.Transaction theirTx = theirs.getTransactions().get(i);
                assertEquals(tx.txid(), BitcoinjAdapters.fromBitcoinj(theirTx.getTxId()));
                assertEquals(tx, BitcoinjAdapters.fromBitcoinj(BitcoinjAdapters.toBitcoinj(tx)));
            }
        }
    }

    @Test
    void hashesAndOutpointsKeepTheirByteOrder() {
        Hash256 txid = Hash256.fromDisplayHex("b4749f017444b051c44dfd2720e88f314ff94f3dd6d56d40ef65854fcd7fff6b");
        assertEquals("b4749f017444b051c44dfd2720e88f314ff94f3dd6d56d40ef65854fcd7fff6b",
                BitcoinjAdapters.toBitcoinj(txid).toString());
        OutPoint outPoint = new OutPoint(txid, 3);
        assertArrayEquals(outPoint.toBytes(), BitcoinjAdapters.toBitcoinj(outPoint).serialize());
        assertEquals(outPoint, BitcoinjAdapters.fromBitcoinj(BitcoinjAdapters.toBitcoinj(outPoint)));
    }

    /**
     * An outpoint index is a uint32 (a coinbase input's is 0xffffffff): every bit of it crosses, both ways. The way
     * back starts from bitcoinj's own outpoint, so a truncation there is not hidden by one on the way out.
     */
    @Test
    void outpointIndicesKeepAll32Bits() {
        Hash256 txid = Hash256.fromDisplayHex("b4749f017444b051c44dfd2720e88f314ff94f3dd6d56d40ef65854fcd7fff6b");
        for (long index : new long[] {0x10000L, 0xffffffffL}) {
            OutPoint outPoint = new OutPoint(txid, index);
            assertEquals(index, BitcoinjAdapters.toBitcoinj(outPoint).index());
            assertArrayEquals(outPoint.toBytes(), BitcoinjAdapters.toBitcoinj(outPoint).serialize());
            TransactionOutPoint theirs = new TransactionOutPoint(index, BitcoinjAdapters.toBitcoinj(txid));
            assertEquals(outPoint, BitcoinjAdapters.fromBitcoinj(theirs));
        }
    }

    /** A segwit spend (one input with a two-item witness, a P2WPKH output). */
    private static Transaction segwitSpend() {
        return new Transaction(2, List.of(new org.chainfilter.btcwire.TxInput(
                new OutPoint(Hash256.fromDisplayHex("22".repeat(32)), 1), new byte[0], 0xfffffffdL,
                List.of(new byte[71], Hex.decode("02" + "33".repeat(32))))),
                List.of(new TxOutput(5000, Hex.decode("0014" + "44".repeat(20)))), 0);
    }

    /** The witness crosses with the transaction, alone and inside a block: bitcoinj has the same wtxid. */
    @Test
    void witnessesCrossAloneAndInABlock() {
        Transaction tx = segwitSpend();
        org.bitcoinj.core.Transaction theirs = BitcoinjAdapters.toBitcoinj(tx);
        assertEquals(tx.wtxid(), BitcoinjAdapters.fromBitcoinj(theirs.getWTxId()));
        assertEquals(tx, BitcoinjAdapters.fromBitcoinj(theirs));
        Block withIt = lastIn13b8a(tx);
        org.bitcoinj.core.Block theirBlock = BitcoinjAdapters.toBitcoinj(withIt);
        assertEquals(tx.wtxid(), BitcoinjAdapters.fromBitcoinj(theirBlock.getTransactions()
                .get(withIt.transactions().size() - 1).getWTxId()));
        assertEquals(withIt, BitcoinjAdapters.fromBitcoinj(theirBlock));
    }

    /** bitcoinj's header-only block (cloneAsHeader) has no transactions to convert: refused, naming the block. */
    @Test
    void aHeaderOnlyBitcoinjBlockIsRefused() {
        org.bitcoinj.core.Block header = BitcoinjAdapters.toBitcoinj(Block.fromHex(Blocks.raw("block_dab013")))
                .cloneAsHeader();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BitcoinjAdapters.fromBitcoinj(header));
        assertEquals("bitcoinj block " + header.getHash() + " is a header without transactions", e.getMessage());
    }

    @Test
    void filtersKeepEveryByteIncludingTheFlags() {
        Bip37BloomFilter filter = Bip37BloomFilter.fromElementsAndRate(20, 0.001, 0x80000001, 2);
        filter.insert(new byte[] {1, 2, 3});
        BloomFilter theirs = BitcoinjAdapters.toBitcoinj(filter);
        assertArrayEquals(filter.toFilterLoad(), theirs.serialize());
        assertEquals(filter, BitcoinjAdapters.fromBitcoinj(theirs));
        assertEquals(BloomFilter.BloomUpdate.UPDATE_P2PUBKEY_ONLY, theirs.getUpdateFlag());
        // The reserved bits of nFlags travel too, both ways (a mask would drop them).
        Bip37BloomFilter reserved = Bip37BloomFilter.fromElementsAndRate(20, 0.001, 7, 0xfe);
        BloomFilter theirsReserved = BitcoinjAdapters.toBitcoinj(reserved);
        assertArrayEquals(reserved.toFilterLoad(), theirsReserved.serialize());
        assertEquals(0xfe, BitcoinjAdapters.fromBitcoinj(theirsReserved).flags());
    }

    /**
     * Core's 0-byte match-all filter crosses as 0 bytes, both ways, with its hash count, negative nTweak and flags
     * (bitcoinj's constructor would clamp it to 1 byte); bitcoinj then divides by zero on it, a pinned deviation.
     */
    @Test
    void aZeroByteFilterCrossesAsZeroBytes() {
        Bip37BloomFilter empty = Bip37BloomFilter.fromParts(new byte[0], 3, -5, 1);
        BloomFilter theirs = BitcoinjAdapters.toBitcoinj(empty);
        assertArrayEquals(Hex.decode("0003000000fbffffff01"), theirs.serialize());
        assertThrows(ArithmeticException.class, () -> theirs.contains(new byte[] {1}));
        Bip37BloomFilter back = BitcoinjAdapters.fromBitcoinj(theirs);
        assertEquals(empty, back);
        assertTrue(back.matchesAll());
    }

    @Test
    void merkleBlocksRoundTripAndBitcoinjAgreesOnTheMatches() {
        Block block = Block.fromHex(Blocks.raw("block_13b8a"));
        MerkleBlock ours = MerkleBlock.fromBlockAndTxids(block, Set.of(block.txids().get(1), block.txids().get(8)));
        FilteredBlock theirs = BitcoinjAdapters.toBitcoinj(ours);
        assertEquals(List.of(BitcoinjAdapters.toBitcoinj(block.txids().get(1)),
                BitcoinjAdapters.toBitcoinj(block.txids().get(8))), theirs.getTransactionHashes());
        assertEquals(ours, BitcoinjAdapters.fromBitcoinj(theirs));
    }

    /**
     * A merkle block whose tree does not prove its header's root (block dab013's header on a proof from 13b8a) crosses
     * unchanged both ways: refusing it is for the receiver's verify() or getTransactionHashes(), not the conversion.
     */
    @Test
    void aMerkleBlockThatDoesNotVerifyCrossesUnchanged() {
        Block block = Block.fromHex(Blocks.raw("block_13b8a"));
        MerkleBlock proof = MerkleBlock.fromBlockAndTxids(block, Set.of(block.txids().get(1)));
        MerkleBlock misplaced = new MerkleBlock(Block.fromHex(Blocks.raw("block_dab013")).header(), proof.tree());
        FilteredBlock theirs = BitcoinjAdapters.toBitcoinj(misplaced);
        assertArrayEquals(misplaced.serialize(), theirs.serialize());
        assertEquals(misplaced, BitcoinjAdapters.fromBitcoinj(theirs));
        assertThrows(VerificationException.class, theirs::getTransactionHashes);
        assertThrows(InvalidMerkleBlockException.class, misplaced::verify);
    }

    /**
     * The padding bits after the last flag bit a tree uses are not checked by Core (only the byte count is) nor by
     * bitcoinj: set, they still verify on both sides, and cross as sent.
     */
    @Test
    void aMerkleBlocksUnusedFlagBitsCrossAsSent() {
        Block block = Block.fromHex(Blocks.raw("block_13b8a"));
        MerkleBlock proof = MerkleBlock.fromBlockAndTxids(block, Set.of(block.txids().get(1), block.txids().get(8)));
        PartialMerkleTree tree = proof.tree();
        int used = tree.extractMatches().flagBitsUsed();
        assertNotEquals(0, used % 8, "the last flag byte has padding bits");
        byte[] flags = tree.flagBytes();
        flags[flags.length - 1] |= (byte) (0xff << (used % 8));
        MerkleBlock padded = new MerkleBlock(proof.header(), new PartialMerkleTree(tree.transactionCount(),
                tree.hashes(), flags));
        FilteredBlock theirs = BitcoinjAdapters.toBitcoinj(padded);
        assertArrayEquals(padded.serialize(), theirs.serialize());
        assertEquals(padded, BitcoinjAdapters.fromBitcoinj(theirs));
        assertEquals(List.of(BitcoinjAdapters.toBitcoinj(block.txids().get(1)),
                BitcoinjAdapters.toBitcoinj(block.txids().get(8))), theirs.getTransactionHashes());
        assertEquals(proof.verify(), padded.verify());
    }

    /**
     * A bitcoinj transaction with an output and no inputs: its serialization starts {@code 00 01}, which our parser
     * (like Core's and bitcoinj's own) reads as the BIP144 marker and flags. With this 46-byte script the bytes parse
     * as a different, valid segwit transaction (one input, one witness item), which the adapter returned silently.
     */
    @Test
    void transactionsWithOutputsButNoInputsAreRefusedNotMisread() {
        String script = "00".repeat(28) + "00" + "ffffffff" + "01" + "e803000000000000" + "00" + "0101aa";
        org.bitcoinj.core.Transaction theirs = new org.bitcoinj.core.Transaction();
        theirs.addOutput(new org.bitcoinj.core.TransactionOutput(theirs, org.bitcoinj.base.Coin.valueOf(1),
                Hex.decode(script)));
        String expected = "transaction " + theirs.getTxId() + " has no inputs but 1 outputs; its serialization would"
                + " be read back as a segwit transaction (BIP144 marker), so it cannot be converted";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BitcoinjAdapters.fromBitcoinj(theirs));
        assertEquals(expected, e.getMessage());
        Transaction ours = new Transaction(1, List.of(), List.of(new TxOutput(1, Hex.decode(script))), 0);
        String expectedOurs = expected.replace(theirs.getTxId().toString(), ours.txid().toString());
        e = assertThrows(IllegalArgumentException.class, () -> BitcoinjAdapters.toBitcoinj(ours));
        assertEquals(expectedOurs, e.getMessage());
        // Last in a block, bitcoinj's block parser would read the same different transaction, silently.
        e = assertThrows(IllegalArgumentException.class, () -> BitcoinjAdapters.toBitcoinj(lastIn13b8a(ours)));
        assertEquals(expectedOurs, e.getMessage(), "inside our block too");
        org.bitcoinj.core.Block theirBlock = BitcoinjAdapters.toBitcoinj(Block.fromHex(Blocks.raw("block_dab013")));
        theirBlock.addTransaction(theirs);
        e = assertThrows(IllegalArgumentException.class, () -> BitcoinjAdapters.fromBitcoinj(theirBlock));
        assertEquals(expected, e.getMessage(), "inside a bitcoinj block too");
        Transaction empty = new Transaction(1, List.of(), List.of(), 0);
        assertEquals(empty, BitcoinjAdapters.fromBitcoinj(BitcoinjAdapters.toBitcoinj(empty)),
                "no inputs and no outputs is unambiguous (flags 0) and converts");
    }

    /** bitcoinj refuses an oversized filter on read, as Core does after reading. */
    @Test
    void bitcoinjRefusesWhatCoreRefuses() {
        byte[] payload = new byte[3 + 36001 + 9];
        payload[0] = (byte) 0xfd;
        payload[1] = (byte) 0xa1;
        payload[2] = (byte) 0x8c;
        assertThrows(ProtocolException.class, () -> BloomFilter.read(java.nio.ByteBuffer.wrap(payload)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Bip37BloomFilter.parseFilterLoad(payload));
        assertEquals("filter is 36001 bytes; BIP37 allows at most 36000", e.getMessage());
    }
}
