package org.chainfilter.btcwire;

import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Bitcoin's double SHA-256, {@code SHA256(SHA256(x))} (Core {@code Hash()} / {@code CHash256}): txids, block hashes
 * and Merkle nodes.
 */
public final class Sha256d {
    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform provides SHA-256", e);
        }
    });

    private Sha256d() {
    }

    /** dSHA256 of all of {@code data}. */
    public static Hash256 hash(byte[] data) {
        return hash(data, 0, data.length);
    }

    /** dSHA256 of {@code data[offset, offset + length)}. */
    public static Hash256 hash(byte[] data, int offset, int length) {
        byte[] out = new byte[Hash256.LENGTH];
        hashInto(data, offset, length, out);
        return Hash256.wrap(out);
    }

    /** dSHA256 of {@code left || right}: an inner Merkle node from its two children. */
    public static Hash256 hashPair(Hash256 left, Hash256 right) {
        // Both read before the digest is fed: the thread's digest must never keep a refused call's input.
        byte[] leftBytes = left.bytes();
        byte[] rightBytes = right.bytes();
        MessageDigest digest = SHA256.get();
        digest.update(leftBytes);
        digest.update(rightBytes);
        byte[] out = new byte[Hash256.LENGTH];
        finish(digest, out);
        return Hash256.wrap(out);
    }

    /**
     * dSHA256 of {@code data[offset, offset + length)} written into {@code out[0, 32)}.
     *
     * @throws IndexOutOfBoundsException if the range is outside {@code data} or {@code out} holds fewer than 32 bytes;
     *     the thread's digest is then as before (a later hash on the thread is not affected)
     */
    public static void hashInto(byte[] data, int offset, int length, byte[] out) {
        java.util.Objects.checkFromIndexSize(offset, length, data.length);
        java.util.Objects.checkFromIndexSize(0, Hash256.LENGTH, out.length);
        MessageDigest digest = SHA256.get();
        digest.update(data, offset, length);
        finish(digest, out);
    }

    private static void finish(MessageDigest digest, byte[] out) {
        try {
            digest.digest(out, 0, Hash256.LENGTH);
            digest.update(out, 0, Hash256.LENGTH);
            digest.digest(out, 0, Hash256.LENGTH);
        } catch (DigestException | RuntimeException e) {
            // The next hash on this thread starts from an empty digest (digest() resets it when it succeeds).
            digest.reset();
            throw e instanceof RuntimeException ? (RuntimeException) e
                    : new IllegalStateException("a 32-byte buffer holds a SHA-256 digest", e);
        }
    }
}
