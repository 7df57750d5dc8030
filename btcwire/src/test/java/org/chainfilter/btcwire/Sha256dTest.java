package org.chainfilter.btcwire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import org.chainfilter.common.Hex;
import org.junit.jupiter.api.Test;

class Sha256dTest {
    private static String reference(byte[] data) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        return Hex.encode(sha.digest(sha.digest(data)));
    }

    /** The well-known dSHA256 of "hello" (9595c9df…), in the bytes SHA-256 outputs. */
    @Test
    void hashesTwiceWithSha256() throws Exception {
        byte[] hello = "hello".getBytes(StandardCharsets.US_ASCII);
        assertEquals("9595c9df90075148eb06860365df33584b75bff782a510c6cd4883a419833d50",
                Hex.encode(Sha256d.hash(hello).bytes()));
        assertEquals(reference(hello), Hex.encode(Sha256d.hash(hello).bytes()));
    }

    /**
     * A slice is hashed from its offset: {@code hash(data, offset, length)} and {@code hashInto} equal the hash of the
     * slice copied out. Hashing from index 0 passed every test (found by a mutation review).
     */
    @Test
    void aSliceIsHashedFromItsOffset() throws Exception {
        byte[] framed = "xxhelloyy".getBytes(StandardCharsets.US_ASCII);
        String expected = reference("hello".getBytes(StandardCharsets.US_ASCII));
        assertEquals(expected, Hex.encode(Sha256d.hash(framed, 2, 5).bytes()));
        byte[] out = new byte[32];
        Sha256d.hashInto(framed, 2, 5, out);
        assertEquals(expected, Hex.encode(out));
    }

    /**
     * A refused call leaves nothing in the thread's digest: a null right child, a short output buffer or a bad range
     * used to leave the bytes fed before the failure, and the next hash on the thread covered them too (a wrong merkle
     * root or filter header, silently; found by a review).
     */
    @Test
    void aRefusedCallDoesNotChangeTheNextHashOnTheThread() throws Exception {
        byte[] hello = "hello".getBytes(StandardCharsets.US_ASCII);
        String expected = reference(hello);
        Hash256 left = Sha256d.hash(new byte[] {1});
        assertThrows(NullPointerException.class, () -> Sha256d.hashPair(left, null));
        assertEquals(expected, Hex.encode(Sha256d.hash(hello).bytes()));
        assertThrows(IndexOutOfBoundsException.class, () -> Sha256d.hashInto(hello, 0, 5, new byte[16]));
        assertEquals(expected, Hex.encode(Sha256d.hash(hello).bytes()));
        assertThrows(IndexOutOfBoundsException.class, () -> Sha256d.hashInto(hello, 3, 5, new byte[32]));
        assertEquals(expected, Hex.encode(Sha256d.hash(hello).bytes()));
    }
}
