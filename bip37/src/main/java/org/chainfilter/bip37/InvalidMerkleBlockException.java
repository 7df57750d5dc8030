package org.chainfilter.bip37;

/**
 * A partial Merkle tree or merkle block that Core's {@code CPartialMerkleTree::ExtractMatches} (or the root check
 * against the header) refuses. The message says which rule failed.
 */
public final class InvalidMerkleBlockException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public InvalidMerkleBlockException(String message) {
        super(message);
    }
}
