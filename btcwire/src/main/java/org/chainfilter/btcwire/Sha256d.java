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
        MessageDigest digest = SHA256.get();
        digest.update(left.bytes());
        digest.update(right.bytes());
        byte[] out = new byte[Hash256.LENGTH];
        finish(digest, out);
        return Hash256.wrap(out);
    }

    /** dSHA256 of {@code data[offset, offset + length)} written into {@code out[0, 32)}. */
    public static void hashInto(byte[] data, int offset, int length, byte[] out) {
        MessageDigest digest = SHA256.get();
        digest.update(data, offset, length);
        finish(digest, out);
    }

    private static void finish(MessageDigest digest, byte[] out) {
        try {
            digest.digest(out, 0, Hash256.LENGTH);
            digest.update(out, 0, Hash256.LENGTH);
            digest.digest(out, 0, Hash256.LENGTH);
        } catch (DigestException e) {
            throw new IllegalStateException("a 32-byte buffer holds a SHA-256 digest", e);
        }
    }
}
