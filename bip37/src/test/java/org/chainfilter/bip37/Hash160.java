package org.chainfilter.bip37;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.bouncycastle.crypto.digests.RIPEMD160Digest;

/** RIPEMD160(SHA256(x)) for test fixtures (keys to the P2PKH hash a wallet inserts). */
final class Hash160 {
    private Hash160() {
    }

    static byte[] of(byte[] data) {
        try {
            byte[] sha = MessageDigest.getInstance("SHA-256").digest(data);
            RIPEMD160Digest ripemd = new RIPEMD160Digest();
            ripemd.update(sha, 0, sha.length);
            byte[] out = new byte[20];
            ripemd.doFinal(out, 0);
            return out;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
