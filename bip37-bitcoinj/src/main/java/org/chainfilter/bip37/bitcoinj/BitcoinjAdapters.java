package org.chainfilter.bip37.bitcoinj;

import java.nio.ByteBuffer;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.BloomFilter;
import org.bitcoinj.core.FilteredBlock;
import org.bitcoinj.core.TransactionOutPoint;
import org.chainfilter.bip37.Bip37BloomFilter;
import org.chainfilter.bip37.MerkleBlock;
import org.chainfilter.btcwire.Block;
import org.chainfilter.btcwire.Hash256;
import org.chainfilter.btcwire.OutPoint;
import org.chainfilter.btcwire.Transaction;

/**
 * Conversions between chainfilter's BIP37 and wire types and bitcoinj 0.17's, through the one form both sides agree
 * on: the wire serialization. A conversion therefore preserves every byte (witnesses, the whole nFlags byte, the
 * partial Merkle tree as sent), and refuses what either side's parser refuses.
 *
 * <p>A transaction with outputs but no inputs has no unambiguous serialization: its empty input count is BIP144's
 * marker byte, so both parsers read the output count after it as the segwit flags and the outputs as inputs (Core's
 * {@code UnserializeTransaction} does the same). Such a transaction, alone or in a block, is refused in both
 * directions rather than converted into a different one.
 *
 * <p>Hashes: {@link Sha256Hash#getBytes()} is display (big-endian) order, {@link Hash256#internalBytes()} is wire
 * order; {@link #toBitcoinj(Hash256)} and {@link #fromBitcoinj(Sha256Hash)} reverse the bytes accordingly.
 */
public final class BitcoinjAdapters {
    private BitcoinjAdapters() {
    }

    public static Sha256Hash toBitcoinj(Hash256 hash) {
        return Sha256Hash.wrap(hash.displayBytes());
    }

    public static Hash256 fromBitcoinj(Sha256Hash hash) {
        return Hash256.fromDisplayHex(hash.toString());
    }

    public static TransactionOutPoint toBitcoinj(OutPoint outPoint) {
        return new TransactionOutPoint(outPoint.index(), toBitcoinj(outPoint.txid()));
    }

    public static OutPoint fromBitcoinj(TransactionOutPoint outPoint) {
        return new OutPoint(fromBitcoinj(outPoint.hash()), outPoint.index());
    }

    /** A bitcoinj transaction with the same serialization (with witness when there is one). */
    public static org.bitcoinj.core.Transaction toBitcoinj(Transaction tx) {
        checkSerializable(tx.inputs().size(), tx.outputs().size(), tx.txid().toString());
        try {
            return org.bitcoinj.core.Transaction.read(ByteBuffer.wrap(tx.serialize(true)));
        } catch (RuntimeException e) {
            throw refusedByBitcoinj(tx, e);
        }
    }

    /**
     * bitcoinj's refusal of a transaction that Core's deserializer reads (a negative output value, for one), with the
     * transaction named: bitcoinj's own message ("negative values not allowed") does not say which.
     */
    private static IllegalArgumentException refusedByBitcoinj(Transaction tx, RuntimeException e) {
        return new IllegalArgumentException("bitcoinj refuses transaction " + tx.txid() + ": " + e.getMessage(), e);
    }

    public static Transaction fromBitcoinj(org.bitcoinj.core.Transaction tx) {
        checkSerializable(tx.getInputs().size(), tx.getOutputs().size(), tx.getTxId().toString());
        return Transaction.parse(tx.serialize());
    }

    /** A bitcoinj block with the same serialization. */
    public static org.bitcoinj.core.Block toBitcoinj(Block block) {
        for (Transaction tx : block.transactions()) {
            checkSerializable(tx.inputs().size(), tx.outputs().size(), tx.txid().toString());
        }
        try {
            return org.bitcoinj.core.Block.read(ByteBuffer.wrap(block.serialize(true)));
        } catch (RuntimeException e) {
            // Named by the first transaction bitcoinj refuses on its own, when one is the cause.
            for (Transaction tx : block.transactions()) {
                try {
                    org.bitcoinj.core.Transaction.read(ByteBuffer.wrap(tx.serialize(true)));
                } catch (RuntimeException refused) {
                    throw refusedByBitcoinj(tx, refused);
                }
            }
            throw new IllegalArgumentException("bitcoinj refuses block " + block.hash() + ": " + e.getMessage(), e);
        }
    }

    /** Our block from a bitcoinj block that has its transactions (not a header-only clone). */
    public static Block fromBitcoinj(org.bitcoinj.core.Block block) {
        if (block.getTransactions() == null) {
            throw new IllegalArgumentException("bitcoinj block " + block.getHash() + " is a header without transactions");
        }
        for (org.bitcoinj.core.Transaction tx : block.getTransactions()) {
            checkSerializable(tx.getInputs().size(), tx.getOutputs().size(), tx.getTxId().toString());
        }
        return Block.parse(block.serialize());
    }

    private static void checkSerializable(int inputCount, int outputCount, String txid) {
        if (inputCount == 0 && outputCount > 0) {
            throw new IllegalArgumentException("transaction " + txid + " has no inputs but " + outputCount
                    + " outputs; its serialization would be read back as a segwit transaction (BIP144 marker), so it"
                    + " cannot be converted");
        }
    }

    /** bitcoinj's filter read from our {@code filterload} payload (bitcoinj applies the same 36000/50 limits). */
    public static BloomFilter toBitcoinj(Bip37BloomFilter filter) {
        return BloomFilter.read(ByteBuffer.wrap(filter.toFilterLoad()));
    }

    public static Bip37BloomFilter fromBitcoinj(BloomFilter filter) {
        return Bip37BloomFilter.parseFilterLoad(filter.serialize());
    }

    /** bitcoinj's {@code FilteredBlock} with the same header and partial Merkle tree. */
    public static FilteredBlock toBitcoinj(MerkleBlock merkleBlock) {
        return FilteredBlock.read(ByteBuffer.wrap(merkleBlock.serialize()));
    }

    public static MerkleBlock fromBitcoinj(FilteredBlock filteredBlock) {
        return MerkleBlock.parse(filteredBlock.serialize());
    }
}
