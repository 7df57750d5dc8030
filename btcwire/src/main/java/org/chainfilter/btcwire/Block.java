package org.chainfilter.btcwire;

import java.util.List;
import java.util.Objects;
import org.chainfilter.common.Hex;

/**
 * A full block (Core {@code CBlock}): header and transactions, immutable. Parsing checks the transaction count
 * against the bytes left before allocating (each transaction takes at least
 * {@value Transaction#MIN_SERIALIZED_LENGTH} bytes) and refuses trailing bytes. It does no consensus checks; call
 * {@link #merkleRootMatches()} to tie the transactions to the header.
 */
public final class Block {
    private final BlockHeader header;
    private final List<Transaction> transactions;
    private final List<Hash256> txids;

    public Block(BlockHeader header, List<Transaction> transactions) {
        this.header = Objects.requireNonNull(header, "header");
        this.transactions = List.copyOf(transactions);
        this.txids = Transaction.txids(this.transactions);
    }

    /** Parses one block that must fill all of {@code bytes}. */
    public static Block parse(byte[] bytes) {
        ByteReader reader = new ByteReader(bytes);
        BlockHeader header = BlockHeader.read(reader);
        int count = reader.readCount("block transaction count", (int) CompactSize.MAX_SIZE,
                Transaction.MIN_SERIALIZED_LENGTH);
        Transaction[] transactions = new Transaction[count];
        for (int i = 0; i < count; i++) {
            transactions[i] = Transaction.read(reader);
        }
        reader.requireEnd("block");
        return new Block(header, List.of(transactions));
    }

    /** {@link #parse} of hex text ({@code 0x} allowed), e.g. the result of Core's {@code getblock HASH 0}. */
    public static Block fromHex(String hex) {
        return parse(Hex.decode(hex));
    }

    /** The serialization, transactions with witness when {@code withWitness}. */
    public byte[] serialize(boolean withWitness) {
        ByteWriter writer = new ByteWriter(1024);
        header.writeTo(writer);
        writer.writeCompactSize(transactions.size());
        for (Transaction tx : transactions) {
            tx.writeTo(writer, withWitness);
        }
        return writer.toByteArray();
    }

    /** The 80-byte header. */
    public BlockHeader header() {
        return header;
    }

    /** The block hash (the header's). */
    public Hash256 hash() {
        return header.hash();
    }

    public List<Transaction> transactions() {
        return transactions;
    }

    /** The txids in block order: the Merkle tree's leaves. */
    public List<Hash256> txids() {
        return txids;
    }

    /** The Merkle root of the txids (see {@link MerkleRoot#of(List)}); refused for a block without transactions. */
    public Hash256 computeMerkleRoot() {
        return MerkleRoot.of(txids);
    }

    /**
     * Whether the header's hashMerkleRoot is the root of this block's txids and the txid list is not mutated
     * ({@link MerkleRoot#isMutated}): as Core's {@code CheckMerkleRoot}, a block that repeats transactions to reach
     * the same root (CVE-2012-2459) does not match, although its header is the real block's.
     */
    public boolean merkleRootMatches() {
        return !txids.isEmpty() && computeMerkleRoot().equals(header.merkleRoot()) && !MerkleRoot.isMutated(txids);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Block b && b.header.equals(header) && b.transactions.equals(transactions);
    }

    @Override
    public int hashCode() {
        return header.hashCode() * 31 + transactions.hashCode();
    }

    @Override
    public String toString() {
        return "Block{" + header.hash() + ", " + transactions.size() + " transactions}";
    }
}
