package org.chainfilter.bip37;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.chainfilter.btcwire.Block;
import org.chainfilter.btcwire.BlockHeader;
import org.chainfilter.btcwire.ByteReader;
import org.chainfilter.btcwire.ByteWriter;
import org.chainfilter.btcwire.Hash256;
import org.chainfilter.btcwire.Transaction;
import org.chainfilter.common.Hex;

/**
 * A BIP37 {@code merkleblock} message (Core {@code CMerkleBlock}): an 80-byte block header and a
 * {@link PartialMerkleTree}. Immutable.
 *
 * <p>Built by a serving node from a block and the peer's filter ({@link #fromBlockAndFilter}) or from a txid set
 * ({@link #fromBlockAndTxids}, Core's {@code gettxoutproof}); checked by a client with {@link #verify()}, which
 * extracts the matches as Core does and ties the root to the header. Checking the header itself (proof of work, place
 * in the chain) is the caller's job.
 */
public final class MerkleBlock {
    private final BlockHeader header;
    private final PartialMerkleTree tree;
    private final List<MatchedTransaction> builtMatches;

    /** A merkleblock of a header and a tree, unchecked until {@link #verify()}. */
    public MerkleBlock(BlockHeader header, PartialMerkleTree tree) {
        this(header, tree, List.of());
    }

    private MerkleBlock(BlockHeader header, PartialMerkleTree tree, List<MatchedTransaction> builtMatches) {
        this.header = Objects.requireNonNull(header, "header");
        this.tree = Objects.requireNonNull(tree, "tree");
        this.builtMatches = List.copyOf(builtMatches);
    }

    /**
     * Core's {@code CMerkleBlock(block, filter)}: runs {@link Bip37BloomFilter#isRelevantAndUpdate} over the
     * transactions in block order, so {@code filter} is updated exactly as the serving node updates it, and proves the
     * ones that match. {@link #builtMatches()} then holds Core's {@code vMatchedTxn}.
     */
    public static MerkleBlock fromBlockAndFilter(Block block, Bip37BloomFilter filter) {
        List<Transaction> transactions = block.transactions();
        boolean[] matches = new boolean[transactions.size()];
        List<MatchedTransaction> matched = new ArrayList<>();
        for (int i = 0; i < matches.length; i++) {
            Transaction tx = transactions.get(i);
            if (filter.isRelevantAndUpdate(tx)) {
                matches[i] = true;
                matched.add(new MatchedTransaction(i, tx.txid()));
            }
        }
        return new MerkleBlock(block.header(), PartialMerkleTree.build(block.txids(), matches), matched);
    }

    /**
     * Core's {@code CMerkleBlock(block, txids)}: proves the transactions whose txid is in the set. Core leaves
     * {@code vMatchedTxn} empty here; {@link #builtMatches()} holds the transactions found, with their positions.
     */
    public static MerkleBlock fromBlockAndTxids(Block block, Set<Hash256> txids) {
        List<Hash256> leaves = block.txids();
        boolean[] matches = new boolean[leaves.size()];
        List<MatchedTransaction> matched = new ArrayList<>();
        for (int i = 0; i < matches.length; i++) {
            if (txids.contains(leaves.get(i))) {
                matches[i] = true;
                matched.add(new MatchedTransaction(i, leaves.get(i)));
            }
        }
        return new MerkleBlock(block.header(), PartialMerkleTree.build(leaves, matches), matched);
    }

    /**
     * Parses a {@code merkleblock} payload: header, total_transactions, CompactSize + hashes, CompactSize + flag
     * bytes. Counts are checked against the bytes left before allocating; trailing bytes are refused (Core's
     * {@code verifytxoutproof} ignores them, but a client has no use for bytes that nothing authenticates).
     * Parsing does not validate the tree: call {@link #verify()}.
     */
    public static MerkleBlock parse(byte[] payload) {
        ByteReader reader = new ByteReader(payload);
        BlockHeader header = BlockHeader.read(reader);
        PartialMerkleTree tree = PartialMerkleTree.read(reader);
        reader.requireEnd("merkleblock");
        return new MerkleBlock(header, tree);
    }

    /** {@link #parse} of hex text ({@code 0x} allowed). */
    public static MerkleBlock fromHex(String hex) {
        return parse(Hex.decode(hex));
    }

    /** The payload bytes. */
    public byte[] serialize() {
        ByteWriter writer = new ByteWriter(BlockHeader.LENGTH + 16 + 32 * tree.hashes().size());
        header.writeTo(writer);
        tree.writeTo(writer);
        return writer.toByteArray();
    }

    /** {@link #serialize()} as lower-case hex. */
    public String toHex() {
        return Hex.encode(serialize());
    }

    /**
     * Extracts the matches ({@link PartialMerkleTree#extractMatches()}) and checks that the root is the header's
     * hashMerkleRoot.
     *
     * @return the matched transactions, in block order, with their positions
     * @throws InvalidMerkleBlockException naming the rule the tree breaks, or the two roots when they differ
     */
    public List<MatchedTransaction> verify() {
        PartialMerkleTree.Extraction extraction = tree.extractMatches();
        if (!extraction.root().equals(header.merkleRoot())) {
            throw new InvalidMerkleBlockException("partial Merkle tree root " + extraction.root()
                    + " is not the header's merkle root " + header.merkleRoot());
        }
        return extraction.matches();
    }

    public BlockHeader header() {
        return header;
    }

    public PartialMerkleTree tree() {
        return tree;
    }

    /**
     * The matches the builder found: Core's {@code vMatchedTxn} for {@link #fromBlockAndFilter}, the txids found for
     * {@link #fromBlockAndTxids} (where Core's stays empty); empty for a parsed merkle block, whose matches come from
     * {@link #verify()}.
     */
    public List<MatchedTransaction> builtMatches() {
        return builtMatches;
    }

    /** Equal when the wire forms are equal. */
    @Override
    public boolean equals(Object o) {
        return o instanceof MerkleBlock m && m.header.equals(header) && m.tree.equals(tree);
    }

    @Override
    public int hashCode() {
        return header.hashCode() * 31 + tree.hashCode();
    }

    @Override
    public String toString() {
        return "MerkleBlock{block " + header.hash() + ", " + tree + "}";
    }
}
