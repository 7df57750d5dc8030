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
        if (leaves.isEmpty()) {
            throw new IllegalArgumentException("a Merkle root needs at least one leaf; got 0");
        }
        List<Hash256> level = new ArrayList<>(leaves);
        while (level.size() > 1) {
            List<Hash256> up = new ArrayList<>((level.size() + 1) / 2);
            for (int i = 0; i < level.size(); i += 2) {
                Hash256 left = level.get(i);
                up.add(Sha256d.hashPair(left, i + 1 < level.size() ? level.get(i + 1) : left));
            }
            level = up;
        }
        return level.get(0);
    }
}
