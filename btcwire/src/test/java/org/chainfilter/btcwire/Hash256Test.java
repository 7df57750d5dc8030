package org.chainfilter.btcwire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.chainfilter.common.Hex;
import org.junit.jupiter.api.Test;

class Hash256Test {

    /** BIP37 vectors: uint256{"b4749f…ff6b"} inserts the bytes 6bff…9fb4 (Core bloom_tests.cpp bloom_match). */
    @Test
    void displayAndInternalOrderAreReverses() {
        Hash256 h = Hash256.fromDisplayHex("b4749f017444b051c44dfd2720e88f314ff94f3dd6d56d40ef65854fcd7fff6b");
        assertEquals("6bff7fcd4f8565ef406dd5d63d4ff94f318fe82027fd4dc451b04474019f74b4", h.toInternalHex());
        assertEquals("b4749f017444b051c44dfd2720e88f314ff94f3dd6d56d40ef65854fcd7fff6b", h.toString());
        assertEquals(h, Hash256.fromInternalHex(h.toInternalHex()));
        assertEquals(h, Hash256.fromInternalBytes(h.internalBytes()));
        assertEquals(Hex.encode(h.displayBytes()), h.toDisplayHex());
        assertNotEquals(h, Hash256.ZERO);
        assertTrue(Hash256.ZERO.isZero());
    }

    @Test
    void internalBytesAreACopy() {
        Hash256 h = Hash256.fromInternalHex("01".repeat(32));
        h.internalBytes()[0] = 9;
        assertEquals("01".repeat(32), h.toInternalHex());
    }

    @Test
    void wrongLengthsAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Hash256.fromDisplayHex("abcd"));
        assertEquals("display hash is 2 bytes; it must be exactly 32 bytes", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Hash256.fromInternalBytes(new byte[31]));
        assertEquals("a hash is 32 bytes; got 31", e.getMessage());
    }

    /**
     * Only the all-zero hash is zero, and a hash keeps its own copy of the bytes it was made from. An isZero that looked
     * at the first byte alone, and a fromInternalBytes that kept the caller's array, each passed every test (a txid
     * ending in a zero byte would be taken for the coinbase's null prevout: found by a mutation review).
     */
    @Test
    void onlyTheAllZeroHashIsZeroAndAHashCopiesItsBytes() {
        assertFalse(Hash256.fromInternalHex("00".repeat(31) + "01").isZero());
        assertFalse(Hash256.fromInternalHex("00" + "ff".repeat(31)).isZero());
        assertTrue(Hash256.fromInternalBytes(new byte[32]).isZero());
        byte[] bytes = Hex.decode("01".repeat(32));
        Hash256 h = Hash256.fromInternalBytes(bytes);
        bytes[0] = 9;
        assertEquals("01".repeat(32), h.toInternalHex());
    }

    /** A slice that runs past the array was zero-padded by Arrays.copyOfRange into a hash nobody sent. */
    @Test
    void aSliceOutsideTheArrayIsRefusedNotPadded() {
        byte[] bytes = Hex.decode("aa".repeat(40));
        assertEquals("aa".repeat(32), Hash256.fromInternalBytes(bytes, 8).toInternalHex());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Hash256.fromInternalBytes(bytes, 9));
        assertEquals("a hash at offset 9 needs 32 bytes but the array has 40", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Hash256.fromInternalBytes(new byte[10], 0));
        assertEquals("a hash at offset 0 needs 32 bytes but the array has 10", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Hash256.fromInternalBytes(bytes, -1));
        assertEquals("a hash at offset -1 needs 32 bytes but the array has 40", e.getMessage());
    }

    /**
     * A hash made from a slice takes the 32 bytes at its offset: bytes 00 01 .. 27 at offset 8 give 08 .. 27. Copying
     * from index 0 passed every test (the slices tried were all one repeated byte: found by a mutation review).
     */
    @Test
    void aSliceIsTakenFromItsOffset() {
        byte[] bytes = new byte[40];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) i;
        }
        assertEquals("08090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f2021222324252627",
                Hash256.fromInternalBytes(bytes, 8).toInternalHex());
    }

    /**
     * internalByte(i) is byte i of the internal (wire) order, the last byte of the display form for i = 0: reading the
     * display order there passed every test (found by a mutation review).
     */
    @Test
    void internalByteIndexesTheInternalOrder() {
        Hash256 h = Hash256.fromDisplayHex("b4749f017444b051c44dfd2720e88f314ff94f3dd6d56d40ef65854fcd7fff6b");
        assertEquals((byte) 0x6b, h.internalByte(0));
        assertEquals((byte) 0xff, h.internalByte(1));
        assertEquals((byte) 0xb4, h.internalByte(31));
    }

    /**
     * {@code compareTo} orders by the internal bytes, first byte first, each unsigned (0x80 above 0x7f): a signed
     * comparison passed every test before.
     */
    @Test
    void ordersByInternalBytesUnsigned() {
        Hash256 high = Hash256.fromInternalHex("80" + "00".repeat(31));
        Hash256 low = Hash256.fromInternalHex("7f" + "ff".repeat(31));
        assertTrue(high.compareTo(low) > 0);
        assertTrue(low.compareTo(high) < 0);
        assertTrue(Hash256.fromInternalHex("ff" + "00".repeat(31)).compareTo(Hash256.ZERO) > 0);
        // The first internal byte decides, which is the last byte of the display form.
        Hash256 lastDisplayByteSet = Hash256.fromDisplayHex("00".repeat(31) + "01");
        Hash256 firstDisplayByteSet = Hash256.fromDisplayHex("ff" + "00".repeat(31));
        assertTrue(lastDisplayByteSet.compareTo(firstDisplayByteSet) > 0);
        assertEquals(0, high.compareTo(Hash256.fromInternalHex("80" + "00".repeat(31))));
    }

    /** dSHA256("hello"): SHA256 is 2cf24dba…9824 and SHA256 of that is 9595c9df…d50 (well-known). */
    @Test
    void doubleSha256OfAKnownInput() {
        Hash256 h = Sha256d.hash("hello".getBytes(StandardCharsets.US_ASCII));
        assertEquals("9595c9df90075148eb06860365df33584b75bff782a510c6cd4883a419833d50", h.toInternalHex());
    }
}
