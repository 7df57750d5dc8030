package org.chainfilter.btcwire;

import java.util.ArrayList;
import java.util.List;

/**
 * Bitcoin's Merkle root (Core {@code ComputeMerkleRoot}): hash pairs of the level below with dSHA256, the last node
 * paired with itself when a level has an odd count, until one node is left. A single leaf is its own root.
 */
public final class MerkleRoot {
    private MerkleRoot() {
    }

    /**
     * The root over {@code leaves} (internal byte order, as txids are).
     *
     * @throws IllegalArgumentException for no leaves: a block has at least its coinbase
     */
    public static Hash256 of(List<Hash256> leaves) {
        return compute(leaves, new boolean[1]);
    }

    /**
     * Whether the tree over {@code leaves} is "mutated" as Core's {@code ComputeMerkleRoot} reports it: on some level
     * two nodes that are hashed together are equal. Such a list, for example a block whose last transactions are
     * repeated ({@code [a, b, c]} and {@code [a, b, c, c]}), has the same root as the list without the repetition
     * (CVE-2012-2459), so Core refuses the block ({@code bad-txns-duplicate}) without marking its hash invalid.
     */
    public static boolean isMutated(List<Hash256> leaves) {
        boolean[] mutated = new boolean[1];
        compute(leaves, mutated);
        return mutated[0];
    }

    private static Hash256 compute(List<Hash256> leaves, boolean[] mutated) {
        if (leaves.isEmpty()) {
            throw new IllegalArgumentException("a Merkle root needs at least one leaf; got 0");
        }
        List<Hash256> level = new ArrayList<>(leaves);
        while (level.size() > 1) {
            List<Hash256> up = new ArrayList<>((level.size() + 1) / 2);
            for (int i = 0; i < level.size(); i += 2) {
                Hash256 left = level.get(i);
                mutated[0] |= i + 1 < level.size() && left.equals(level.get(i + 1));
                up.add(Sha256d.hashPair(left, i + 1 < level.size() ? level.get(i + 1) : left));
            }
            level = up;
        }
        return level.get(0);
    }
}
