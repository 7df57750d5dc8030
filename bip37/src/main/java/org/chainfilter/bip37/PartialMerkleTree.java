package org.chainfilter.bip37;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import org.chainfilter.btcwire.ByteReader;
import org.chainfilter.btcwire.ByteWriter;
import org.chainfilter.btcwire.CompactSize;
import org.chainfilter.btcwire.Hash256;
import org.chainfilter.btcwire.Sha256d;
import org.chainfilter.common.Hex;

/**
 * BIP37's partial Merkle tree, as Core's {@code CPartialMerkleTree} ({@code merkleblock.cpp}): the transaction
 * count, the hashes of a depth-first pre-order walk, and one flag bit per node visited, packed LSB-first into bytes.
 * Immutable.
 *
 * <p>The tree over n leaves has {@code width(h) = (n + 2^h - 1) >> h} nodes at height h; a node without a right
 * child is hashed with a copy of its left child (the Bitcoin Merkle-root rule). Building visits a node, emits
 * "some leaf below matches" as a bit, and stops (emitting the node hash) at a leaf or a subtree with no match.
 * {@link #extractMatches()} walks the same way and refuses every tree Core refuses.
 */
public final class PartialMerkleTree {
    /**
     * The most transactions a block can hold, Core's {@code MAX_BLOCK_WEIGHT / MIN_TRANSACTION_WEIGHT}
     * = 4,000,000 / 240 = 16666 (the pre-segwit bound {@code 1,000,000 / 60} is the same number).
     */
    public static final int MAX_TRANSACTIONS = 4_000_000 / 240;

    private final long transactionCount;
    private final List<Hash256> hashes;
    private final byte[] flagBytes;

    /**
     * A tree from its wire parts (not validated here: {@link #extractMatches()} does that, as in Core).
     *
     * @param transactionCount total_transactions, an unsigned 32-bit value
     */
    public PartialMerkleTree(long transactionCount, List<Hash256> hashes, byte[] flagBytes) {
        if (transactionCount < 0 || transactionCount > 0xffffffffL) {
            throw new IllegalArgumentException("total_transactions " + transactionCount + " is outside the uint32 range");
        }
        this.transactionCount = transactionCount;
        this.hashes = List.copyOf(hashes);
        this.flagBytes = flagBytes.clone();
    }

    /**
     * Builds the tree over {@code txids} (block order) proving the leaves whose {@code matches} bit is set (Core's
     * {@code CPartialMerkleTree(vTxid, vMatch)}).
     */
    public static PartialMerkleTree build(List<Hash256> txids, boolean[] matches) {
        if (txids.isEmpty()) {
            throw new IllegalArgumentException("a partial Merkle tree needs at least one transaction; got 0");
        }
        if (matches.length != txids.size()) {
            throw new IllegalArgumentException(matches.length + " match flags given for " + txids.size()
                    + " transactions");
        }
        Builder builder = new Builder(txids, matches);
        builder.traverse(height(txids.size()), 0);
        byte[] flags = new byte[(builder.bitCount + 7) / 8];
        for (int i = 0; i < builder.bitCount; i++) {
            if (builder.bits.get(i)) {
                flags[i >> 3] |= (byte) (1 << (i & 7));
            }
        }
        return new PartialMerkleTree(txids.size(), builder.hashes, flags);
    }

    private static int width(long transactionCount, int height) {
        return (int) ((transactionCount + (1L << height) - 1) >> height);
    }

    private static int height(long transactionCount) {
        int height = 0;
        while (width(transactionCount, height) > 1) {
            height++;
        }
        return height;
    }

    private static final class Builder {
        final List<Hash256> txids;
        final boolean[] matches;
        final List<Hash256> hashes = new ArrayList<>();
        final BitSet bits = new BitSet();
        int bitCount;

        Builder(List<Hash256> txids, boolean[] matches) {
            this.txids = txids;
            this.matches = matches;
        }

        Hash256 nodeHash(int height, int pos) {
            if (height == 0) {
                return txids.get(pos);
            }
            Hash256 left = nodeHash(height - 1, pos * 2);
            Hash256 right = pos * 2 + 1 < width(txids.size(), height - 1) ? nodeHash(height - 1, pos * 2 + 1) : left;
            return Sha256d.hashPair(left, right);
        }

        void traverse(int height, int pos) {
            boolean parentOfMatch = false;
            long from = (long) pos << height;
            long to = Math.min((long) (pos + 1) << height, txids.size());
            for (long p = from; p < to && !parentOfMatch; p++) {
                parentOfMatch = matches[(int) p];
            }
            bits.set(bitCount++, parentOfMatch);
            if (height == 0 || !parentOfMatch) {
                hashes.add(nodeHash(height, pos));
            } else {
                traverse(height - 1, pos * 2);
                if (pos * 2 + 1 < width(txids.size(), height - 1)) {
                    traverse(height - 1, pos * 2 + 1);
                }
            }
        }
    }

    /** Reads total_transactions, the hash list and the flag bytes; lengths are checked before allocation. */
    public static PartialMerkleTree read(ByteReader reader) {
        long count = reader.readUInt32LE("merkleblock total_transactions");
        int hashCount = reader.readCount("merkleblock hash count", (int) CompactSize.MAX_SIZE, Hash256.LENGTH);
        List<Hash256> hashes = new ArrayList<>(hashCount);
        for (int i = 0; i < hashCount; i++) {
            hashes.add(Hash256.read(reader, "merkleblock hash " + i));
        }
        byte[] flags = reader.readVarBytes("merkleblock flag bytes", (int) CompactSize.MAX_SIZE);
        return new PartialMerkleTree(count, hashes, flags);
    }

    public void writeTo(ByteWriter writer) {
        writer.writeInt32LE(transactionCount);
        writer.writeCompactSize(hashes.size());
        for (Hash256 hash : hashes) {
            hash.writeTo(writer);
        }
        writer.writeVarBytes(flagBytes);
    }

    /**
     * Core's {@code ExtractMatches}: the root and the matched leaves with their positions, or an
     * {@link InvalidMerkleBlockException} naming the rule that failed: no transactions; more than
     * {@value #MAX_TRANSACTIONS}; more hashes than transactions; fewer flag bits than hashes; the walk running out of
     * bits or hashes; a node whose left and right children are equal (CVE-2012-2459); a whole unused flag byte; unused
     * hashes. Unused bits inside the last flag byte are allowed, as in Core.
     */
    public Extraction extractMatches() {
        if (transactionCount == 0) {
            throw new InvalidMerkleBlockException("partial Merkle tree has 0 transactions");
        }
        if (transactionCount > MAX_TRANSACTIONS) {
            throw new InvalidMerkleBlockException("partial Merkle tree claims " + transactionCount
                    + " transactions; a block holds at most " + MAX_TRANSACTIONS);
        }
        if (hashes.size() > transactionCount) {
            throw new InvalidMerkleBlockException("partial Merkle tree has " + hashes.size() + " hashes for "
                    + transactionCount + " transactions");
        }
        if ((long) flagBytes.length * 8 < hashes.size()) {
            throw new InvalidMerkleBlockException("partial Merkle tree has " + flagBytes.length * 8L
                    + " flag bits for " + hashes.size() + " hashes");
        }
        Extractor extractor = new Extractor();
        Hash256 root = extractor.traverse(height(transactionCount), 0);
        if (extractor.failure != null) {
            throw new InvalidMerkleBlockException(extractor.failure);
        }
        if ((extractor.bitsUsed + 7) / 8 != flagBytes.length) {
            throw new InvalidMerkleBlockException("partial Merkle tree used " + extractor.bitsUsed + " flag bits but "
                    + "carries " + flagBytes.length + " flag bytes");
        }
        if (extractor.hashesUsed != hashes.size()) {
            throw new InvalidMerkleBlockException("partial Merkle tree used " + extractor.hashesUsed + " of its "
                    + hashes.size() + " hashes");
        }
        return new Extraction(root, extractor.matches, extractor.bitsUsed);
    }

    private final class Extractor {
        int bitsUsed;
        int hashesUsed;
        String failure;
        final List<MatchedTransaction> matches = new ArrayList<>();

        Hash256 traverse(int height, int pos) {
            if (failure != null) {
                return Hash256.ZERO;
            }
            if (bitsUsed >= flagBytes.length * 8) {
                failure = "partial Merkle tree ran out of flag bits after " + bitsUsed;
                return Hash256.ZERO;
            }
            boolean parentOfMatch = (flagBytes[bitsUsed >> 3] >> (bitsUsed & 7) & 1) != 0;
            bitsUsed++;
            if (height == 0 || !parentOfMatch) {
                if (hashesUsed >= hashes.size()) {
                    failure = "partial Merkle tree ran out of hashes after " + hashesUsed;
                    return Hash256.ZERO;
                }
                Hash256 hash = hashes.get(hashesUsed++);
                if (height == 0 && parentOfMatch) {
                    matches.add(new MatchedTransaction(pos, hash));
                }
                return hash;
            }
            Hash256 left = traverse(height - 1, pos * 2);
            Hash256 right = left;
            if (pos * 2 + 1 < width(transactionCount, height - 1)) {
                right = traverse(height - 1, pos * 2 + 1);
                if (right.equals(left) && failure == null) {
                    failure = "partial Merkle tree has identical left and right children at height " + (height - 1)
                            + ", positions " + pos * 2 + " and " + (pos * 2 + 1) + " (CVE-2012-2459)";
                }
            }
            return Sha256d.hashPair(left, right);
        }
    }

    /** What a valid tree proves: its root and the matched leaves in block order. Immutable. */
    public static final class Extraction {
        private final Hash256 root;
        private final List<MatchedTransaction> matches;
        private final int flagBitsUsed;

        Extraction(Hash256 root, List<MatchedTransaction> matches, int flagBitsUsed) {
            this.root = root;
            this.matches = List.copyOf(matches);
            this.flagBitsUsed = flagBitsUsed;
        }

        /**
         * How many flag bits the walk read. The bits after them in the last flag byte are padding that Core neither
         * reads nor requires to be zero, so they are the one part of a merkle block that can change without changing
         * what it proves.
         */
        public int flagBitsUsed() {
            return flagBitsUsed;
        }

        public Hash256 root() {
            return root;
        }

        /** The matched transactions in block order, with their positions. */
        public List<MatchedTransaction> matches() {
            return matches;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Extraction e && e.root.equals(root) && e.matches.equals(matches)
                    && e.flagBitsUsed == flagBitsUsed;
        }

        @Override
        public int hashCode() {
            return root.hashCode() * 31 + matches.hashCode();
        }

        @Override
        public String toString() {
            return "Extraction{root " + root + ", matches " + matches + "}";
        }
    }

    /** total_transactions as on the wire, 0..2^32-1. */
    public long transactionCount() {
        return transactionCount;
    }

    public List<Hash256> hashes() {
        return hashes;
    }

    /** A copy of the flag bytes. */
    public byte[] flagBytes() {
        return flagBytes.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PartialMerkleTree t && t.transactionCount == transactionCount && t.hashes.equals(hashes)
                && Arrays.equals(t.flagBytes, flagBytes);
    }

    @Override
    public int hashCode() {
        return Objects.hash(transactionCount, hashes, Arrays.hashCode(flagBytes));
    }

    @Override
    public String toString() {
        return "PartialMerkleTree{" + transactionCount + " transactions, " + hashes.size() + " hashes, flags "
                + Hex.encode(flagBytes) + "}";
    }
}
