package org.chainfilter.ethbloom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.SplittableRandom;

import org.bouncycastle.crypto.digests.KeccakDigest;
import org.chainfilter.common.Hex;
import org.junit.jupiter.api.Test;

/** The hand-written Keccak-256 against Bouncy Castle, and the M3:2048 bit positions of published examples. */
class KeccakAndBitsTest {

    private static byte[] bouncyCastleKeccak256(byte[] data) {
        KeccakDigest digest = new KeccakDigest(256);
        digest.update(data, 0, data.length);
        byte[] out = new byte[32];
        digest.doFinal(out, 0);
        return out;
    }

    @Test
    void equalsBouncyCastleOnRandomInputsOfEveryLengthUpTo300() {
        SplittableRandom random = new SplittableRandom(20261121);
        Keccak256 keccak = new Keccak256();
        byte[] out = new byte[32];
        int compared = 0;
        for (int length = 0; length <= 300; length++) {
            for (int trial = 0; trial < 12; trial++) {
                byte[] data = new byte[length + 7];
                random.nextBytes(data);
                int offset = trial % 8;
                byte[] slice = java.util.Arrays.copyOfRange(data, offset, offset + length);
                keccak.digest(data, offset, length, out, 0);
                assertArrayEquals(bouncyCastleKeccak256(slice), out, "length " + length);
                assertEquals(readLongLE(out), keccak.firstEightBytes(data, offset, length));
                compared++;
            }
        }
        assertEquals(301 * 12, compared);
    }

    @Test
    void rateBoundaryLengthsHashCorrectly() {
        // 135 puts the 0x01 pad and the 0x80 end marker in the same byte; 136 needs a whole extra padding block.
        for (int length : new int[] {135, 136, 137, 271, 272, 273}) {
            byte[] data = new byte[length];
            java.util.Arrays.fill(data, (byte) 0xa5);
            assertArrayEquals(bouncyCastleKeccak256(data), Keccak256.digest(data), "length " + length);
        }
    }

    private static long readLongLE(byte[] b) {
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = v << 8 | (b[i] & 0xff);
        }
        return v;
    }

    @Test
    void keccakOfEmptyInputIsTheWellKnownValue() {
        // KEC("") = c5d246...a470, the empty code hash of every Ethereum account without code.
        assertEquals("c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470",
                Hex.encode(Keccak256.digest(new byte[0])));
    }

    @Test
    void isNotNistSha3() throws Exception {
        byte[] data = "ethereum yellow paper".getBytes(StandardCharsets.US_ASCII);
        byte[] nist = MessageDigest.getInstance("SHA3-256").digest(data);
        assertNotEquals(Hex.encode(nist), Hex.encode(Keccak256.digest(data)));
    }

    /**
     * Hash vectors with their published bit indexes, byte indexes and masks. Sources: hyperledger/besu
     * datatypes/src/main/java/org/hyperledger/besu/datatypes/LogsBloomFilter.java javadoc (snapshot 3fd224e2e4); the
     * blog post "Ethereum Block Header: logsBloom Field" (ERC-20 Transfer topic and a contract address).
     */
    @Test
    void publishedBitIndexes() {
        assertBits("0x0F572E5295C57F15886F9B263E2F6D2D6C7B5EC6",
                "bd2b01afcd27800b54d2179edc49e2bffde5078bb6d0b204694169b1643fb108",
                new int[] {1323, 431, 1319}, new int[] {90, 202, 91}, new int[] {0x08, 0x80, 0x80});
        assertBits("0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef",
                "ada389e1fc24a8587c776340efb91b36e675792ab631816100d55df0b5cf3cbc",
                new int[] {1443, 481, 1060}, new int[] {75, 195, 123}, new int[] {0x08, 0x02, 0x10});
        assertBits("0x72877813ddc9BcAacD9760B3e76D07732Af369F0",
                "65c646fc7094c5517d29435e58cd7f4c2aa9a6d3c86799a07ea37dc573ea138c",
                new int[] {1478, 1788, 148}, new int[] {71, 32, 237}, new int[] {0x40, 0x10, 0x10});
    }

    private static void assertBits(String input, String keccak, int[] bits, int[] byteIndexes, int[] masks) {
        byte[] value = Hex.decode(input);
        assertEquals(keccak, Hex.encode(Keccak256.digest(value)));
        LogsBloom bloom = LogsBloom.ofValue(value);
        assertEquals(bits.length, bloom.bitsSet());
        byte[] bytes = bloom.toBytes();
        for (int i = 0; i < bits.length; i++) {
            assertTrue(bloom.testBit(bits[i]), "bit " + bits[i]);
            assertEquals(masks[i], bytes[byteIndexes[i]] & masks[i], "byte " + byteIndexes[i]);
        }
    }

    /**
     * The ethereum.stackexchange answer on the m function pairs hex nibbles and publishes bits 443/817/393 for
     * "ethereum yellow paper"; its Keccak (7f110dc4c0a8...) is right, the bytes pairs 0x7f11, 0x0dc4, 0xc0a8 give
     * 1809, 1476, 168.
     */
    @Test
    void stackExchangeNibblePitfallGivesOtherBits() {
        byte[] value = "ethereum yellow paper".getBytes(StandardCharsets.US_ASCII);
        assertEquals("7f110dc4c0a897ea5187a67e2c3a7db3a43410df8d1754fbdf28351c7e58400f",
                Hex.encode(Keccak256.digest(value)));
        LogsBloom bloom = LogsBloom.ofValue(value);
        for (int bit : new int[] {1809, 1476, 168}) {
            assertTrue(bloom.testBit(bit));
        }
        for (int wrong : new int[] {443, 817, 393}) {
            assertFalse(bloom.testBit(wrong));
        }
    }

    @Test
    void digestRefusesAShortOutputBuffer() {
        Keccak256 keccak = new Keccak256();
        assertThrows(IndexOutOfBoundsException.class, () -> keccak.digest(new byte[1], 0, 1, new byte[31], 0));
        assertThrows(IndexOutOfBoundsException.class, () -> keccak.firstEightBytes(new byte[4], 2, 3));
    }
}
