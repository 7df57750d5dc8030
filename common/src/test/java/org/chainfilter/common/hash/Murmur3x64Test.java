package org.chainfilter.common.hash;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.common.hash.Hashing;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.chainfilter.common.Hex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class Murmur3x64Test {

    /**
     * Known values from Guava, repository google/guava, guava-tests/test/com/google/common/hash/Murmur3Hash128Test.java
     * (commit 0c5eab22a7165f89ce52dc1da692983cd2521f88), testKnownValues: (seed, h1, h2, ASCII input). The same
     * triples appear in Elasticsearch's MurmurHash3Tests.
     */
    @ParameterizedTest
    @CsvSource({
        "0, 629942693e10f867, 92db0b82baeb5347, hell",
        "1, a78ddff5adae8d10, 128900ef20900135, hello",
        "2, 8a486b23f422e826, f962a2c58947765f, 'hello '",
        "3, 2ea59f466f6bed8c, c610990acc428a17, hello w",
        "4, 79f6305a386c572c, 46305aed3483b94e, hello wo",
        "5, c2219d213ec1f1b5, a1d8e2e0a52785bd, hello wor",
        "0, e34bbc7bbc071b6c, 7a433ca9c49a9347, The quick brown fox jumps over the lazy dog",
        "0, 658ca970ff85269a, 43fee3eaa68e5c3e, The quick brown fox jumps over the lazy cog",
    })
    void publishedKnownValues(int seed, String h1, String h2, String input) {
        long[] hash = Murmur3.x64_128(seed, input.getBytes(StandardCharsets.US_ASCII));
        assertEquals(h1, String.format("%016x", hash[0]));
        assertEquals(h2, String.format("%016x", hash[1]));
    }

    /**
     * SMHasher's VerificationTest (Austin Appleby, smhasher, src/KeysetTest.cpp; expected values in src/main.cpp's
     * hash table: 0x6384BA69 for MurmurHash3_x64_128 "Murmur3F", 0xB0F57EE3 for MurmurHash3_x86_32 "Murmur3A"): key i
     * is the bytes 0, 1, ..., i-1, hashed with seed 256 - i; the 256 outputs are concatenated and hashed with seed 0;
     * the first four output bytes, little-endian, are the verification value. It covers every tail length and both
     * block loops with negative bytes (128..255).
     */
    @Test
    void smhasherVerificationValue() {
        byte[] key = new byte[256];
        ByteBuffer hashes = ByteBuffer.allocate(256 * 16).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer hashes32 = ByteBuffer.allocate(256 * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 256; i++) {
            key[i] = (byte) i;
            long[] h = Murmur3.x64_128(256 - i, Arrays.copyOf(key, i));
            hashes.putLong(h[0]).putLong(h[1]);
            hashes32.putInt(Murmur3.x86_32(256 - i, key, 0, i));
        }
        assertEquals(0x6384BA69, (int) Murmur3.x64_128(0, hashes.array())[0]);
        assertEquals(0xB0F57EE3, Murmur3.x86_32(0, hashes32.array()));
    }

    /** Differential: Guava's murmur3_128 on random lengths 0..100 of random (often negative) bytes, seeds below 2^31. */
    @Test
    void agreesWithGuavaOnRandomInputs() {
        SplittableRandom random = new SplittableRandom(42);
        for (int trial = 0; trial < 2000; trial++) {
            byte[] data = new byte[random.nextInt(101)];
            random.nextBytes(data);
            int seed = random.nextInt(Integer.MAX_VALUE);
            byte[] guava = Hashing.murmur3_128(seed).hashBytes(data).asBytes();
            long[] ours = Murmur3.x64_128(seed, data);
            assertArrayEquals(guava, ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN)
                    .putLong(ours[0]).putLong(ours[1]).array(), "length " + data.length + ", seed " + seed);
        }
    }

    /**
     * Seeds of 2^31 and above with negative bytes in block and tail: values from the mmh3 5.3.0 Python package (a C
     * binding of the SMHasher reference, {@code mmh3.hash64(data, seed, x64arch=True, signed=False)}), which takes the
     * seed as an unsigned 32-bit value, as the reference does.
     */
    @ParameterizedTest
    @CsvSource({
        "fba4c795, 800102, 250d776bb855932e, 087db0657de278a8",
        "fba4c795, 808182838485868788898a8b8c8d8e8f90, 134e83765e63bdd6, d5ae2cf7e7244fa3",
        "ffffffff, 800102, e2f3d119b13b038c, 2b1ede47025c6923",
        "ffffffff, 808182838485868788898a8b8c8d8e8f90, 23626340ce90785e, f424ed7a3e2a7880",
        "80000000, 800102, 44cc76d84c7b4ed1, 151a7bd74072d303",
        "80000000, 808182838485868788898a8b8c8d8e8f90, cbead4d785e8e86d, 36f4e23fd67fa079",
    })
    void seedsAbove2To31MatchTheReference(String seed, String data, String h1, String h2) {
        long[] hash = Murmur3.x64_128(Integer.parseUnsignedInt(seed, 16), Hex.decode(data));
        assertEquals(h1, String.format("%016x", hash[0]));
        assertEquals(h2, String.format("%016x", hash[1]));
    }

    /**
     * The reference zero-extends its uint32 seed into both 64-bit lanes; Guava's {@code murmur3_128(int)} sign-extends
     * a negative int, so for seeds of 2^31 and above Guava deviates from the reference (and from us).
     */
    @Test
    void guavaDeviatesFromTheReferenceForSeedsAbove2To31() {
        byte[] data = Hex.decode("800102");
        int seed = 0xFBA4C795;
        byte[] guava = Hashing.murmur3_128(seed).hashBytes(data).asBytes();
        long[] ours = Murmur3.x64_128(seed, data);
        assertNotEquals(ours[0], ByteBuffer.wrap(guava).order(ByteOrder.LITTLE_ENDIAN).getLong(0));
    }

    @ParameterizedTest
    @CsvSource({"0, 3", "1, 2", "5, 0", "0, 17", "3, 30"})
    void rangeHashesTheSameBytesAsACopy(int offset, int trailing) {
        byte[] whole = new byte[40];
        new SplittableRandom(7).nextBytes(whole);
        int length = whole.length - offset - trailing;
        long[] expected = Murmur3.x64_128(99, Arrays.copyOfRange(whole, offset, offset + length));
        Murmur3.x64_128(99, whole, offset, length, (h1, h2) -> {
            assertEquals(expected[0], h1);
            assertEquals(expected[1], h2);
            return true;
        });
    }

    @Test
    void longHashesItsLittleEndianBytes() {
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 200; i++) {
            long value = i < 2 ? (i == 0 ? 0 : -1) : random.nextLong();
            int seed = random.nextInt();
            long[] expected = Murmur3.x64_128(seed,
                    ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array());
            Murmur3.x64_128OfLong(seed, value, (h1, h2) -> {
                assertEquals(expected[0], h1);
                assertEquals(expected[1], h2);
                return true;
            });
        }
    }

    @Test
    void charsHashTheirUtf16LittleEndianCodeUnits() {
        SplittableRandom random = new SplittableRandom(5);
        for (int length = 0; length < 40; length++) {
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < length; i++) {
                text.append((char) random.nextInt(0x10000));
            }
            long[] expected = Murmur3.x64_128(length, utf16le(text));
            Murmur3.x64_128OfChars(length, text, (h1, h2) -> {
                assertEquals(expected[0], h1);
                assertEquals(expected[1], h2);
                return true;
            });
            // Guava's unencoded-chars hash is the same function.
            if (length % 7 == 0) {
                long[] ours = Murmur3.x64_128(0, utf16le(text));
                assertEquals(ours[0], Hashing.murmur3_128().hashUnencodedChars(text).asLong());
            }
        }
    }

    /**
     * Text under seeds of 2^31 and above: the chars overload must zero-extend the seed as the byte overload does (its
     * seed was sign-extended and every test still passed, as the chars test used seeds 0 to 39). Values from the mmh3
     * 5.3.0 Python package, {@code mmh3.hash64(s.encode("utf-16-le", "surrogatepass"), seed, x64arch=True,
     * signed=False)}; the texts (given as UTF-16 code units) hold unpaired surrogates and fill one 16-byte block plus a
     * tail of one char and of six.
     */
    @ParameterizedTest
    @CsvSource({
        "fba4c795, 00e9 20ac d800 0041 007a 0100 ffff 0080 1234, a95bc64e47f29410, f936ef071fc9ca00",
        "ffffffff, 00e9 20ac d800 0041 007a 0100 ffff 0080 1234, f6db3f34391f4291, ab1d4acaecf286a8",
        "80000000, 00e9 20ac d800 0041 007a 0100 ffff 0080 1234, e0a619ae72a717f3, 9ab2bcea8f8c871b",
        "fba4c795, 0000 ffff dc00 00ff 7fff 8000 0061 0062 0063 0064 0065 0066 0067 0068, 850386e80cd4eafe, "
                + "5ed2d7e28092680f",
    })
    void charsUnderSeedsAbove2To31MatchTheReference(String seed, String units, String h1, String h2) {
        StringBuilder text = new StringBuilder();
        for (String unit : units.split(" ")) {
            text.append((char) Integer.parseInt(unit, 16));
        }
        Murmur3.x64_128OfChars(Integer.parseUnsignedInt(seed, 16), text, (a, b) -> {
            assertEquals(h1, String.format("%016x", a));
            assertEquals(h2, String.format("%016x", b));
            return true;
        });
    }

    @Test
    void rangeOutsideTheArrayIsRefused() {
        IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
                () -> Murmur3.x64_128(0, new byte[4], 2, 3, (h1, h2) -> true));
        assertEquals("Range [2, 2 + 3) out of bounds for length 4", e.getMessage());
    }

    private static byte[] utf16le(CharSequence text) {
        byte[] bytes = new byte[2 * text.length()];
        for (int i = 0; i < text.length(); i++) {
            bytes[2 * i] = (byte) text.charAt(i);
            bytes[2 * i + 1] = (byte) (text.charAt(i) >>> 8);
        }
        return bytes;
    }
}
