package org.chainfilter.common.hash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.chainfilter.common.Hex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SipHash24Test {
    private static final byte[] KEY = Hex.decode("000102030405060708090a0b0c0d0e0f");

    /**
     * A sample of the 64 reference vectors (veorq/SipHash vectors.h, vectors_sip64; the same values as
     * siphash_4_2_testvec in Bitcoin Core src/test/hash_tests.cpp): key 00..0f, message 00 01 .. (length-1). All 64
     * run through the conformance suite in the testvectors module.
     */
    @ParameterizedTest
    @CsvSource({
        "0, 726fdb47dd0e0e31",
        "1, 74f839c593dc67fd",
        "7, ab0200f58b01d137",
        "8, 93f5f5799a932462",
        "9, 9e0082df0ba9e4b0",
        "15, a129ca6149be45e5",
        "63, 958a324ceb064572",
    })
    void referenceVectors(int length, String expected) {
        byte[] message = new byte[length];
        for (int i = 0; i < length; i++) {
            message[i] = (byte) i;
        }
        assertEquals(expected, String.format("%016x", SipHash24.hash(KEY, message)));
        assertEquals(expected, String.format("%016x",
                SipHash24.hash(0x0706050403020100L, 0x0f0e0d0c0b0a0908L, message)));
    }

    @Test
    void keyOfTheWrongLengthIsRefused() {
        var e = assertThrows(IllegalArgumentException.class, () -> SipHash24.hash(new byte[15], new byte[0]));
        assertEquals("SipHash key is 15 bytes; it must be exactly 16 bytes", e.getMessage());
    }
}
