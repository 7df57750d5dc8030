package org.chainfilter.common.hash;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.chainfilter.common.Hex;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class Murmur3Test {

    /**
     * A sample of the published MurmurHash3 x86_32 triples: Bitcoin Core src/test/hash_tests.cpp (murmurhash3) and btcd
     * TestMurmurHash3. The full set of 14 runs through the conformance suite in the testvectors module.
     */
    @ParameterizedTest
    @CsvSource({
        "00000000, 00000000, ''",
        "6a396f08, fba4c795, ''",
        "81f16f39, ffffffff, ''",
        "514e28b7, 00000000, 00",
        "ea3f0b17, fba4c795, 00",
        "fd6cf10d, 00000000, ff",
        "16c6b7ab, 00000000, 0011",
        "8eb51c3d, 00000000, 001122",
        "b4471bf8, 00000000, 00112233",
        "e2301fa8, 00000000, 0011223344",
        "fc2e4a15, 00000000, 001122334455",
        "b074502c, 00000000, 00112233445566",
        "8034d2a0, 00000000, 0011223344556677",
        "b4698def, 00000000, 001122334455667788",
    })
    void publishedTriples(String expected, String seed, String data) {
        int hash = Murmur3.x86_32(Integer.parseUnsignedInt(seed, 16), Hex.decode(data));
        assertEquals(expected, String.format("%08x", hash));
    }

    @ParameterizedTest
    @CsvSource({"0, 3", "1, 2", "2, 1", "3, 0"})
    void offsetAndLengthHashTheSameBytesAsACopy(int offset, int trailing) {
        byte[] whole = Hex.decode("80ff7f01fe8081c3d4e5f6a7");
        int length = whole.length - offset - trailing;
        byte[] copy = java.util.Arrays.copyOfRange(whole, offset, offset + length);
        assertEquals(Murmur3.x86_32(0xFBA4C795, copy), Murmur3.x86_32(0xFBA4C795, whole, offset, length));
    }
}
