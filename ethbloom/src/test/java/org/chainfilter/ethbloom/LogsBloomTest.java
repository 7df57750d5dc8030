package org.chainfilter.ethbloom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.chainfilter.common.Hex;
import org.junit.jupiter.api.Test;

class LogsBloomTest {

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** go-ethereum core/types/bloom9_test.go TestBloom (snapshot 02b73d4ea7); the full bloom is a derived value. */
    @Test
    void gethTestBloom() {
        LogsBloom.Builder builder = LogsBloom.builder();
        for (String s : List.of("testtest", "test", "hallo", "other")) {
            builder.addValue(utf8(s));
        }
        LogsBloom bloom = builder.build();
        for (String s : List.of("testtest", "test", "hallo", "other")) {
            assertTrue(bloom.mightContain(utf8(s)), s);
        }
        for (String s : List.of("tes", "lo")) {
            assertFalse(bloom.mightContain(utf8(s)), s);
        }
        assertEquals("0x0000000000000000000000000000000000000000800000000000000000000000000000000000000000400000000000"
                + "000000000000000000000400000000000020000000000000000000000000000000000000000000000000000000008000"
                + "000000000000000000000000000000000000000000000000000000000400000000000000000000000000000000000000"
                + "000000080000000000000000400000000000000000000000000000000000000000000000000000000000000000000000"
                + "000001000000000000000000000000000000000000000000000000000800000000000000000000000000000100000000"
                + "0000000000000000400000000000000000", bloom.toHex());
    }

    /**
     * go-ethereum core/types/bloom9_test.go TestBloomExtensively: 100 values "xxxxxxxxxx data %d yyyyyyyyyyyyyy",
     * Keccak-256 of the 256 bloom bytes must be c8d3ca65...b263 (published).
     */
    @Test
    void gethTestBloomExtensively() {
        LogsBloom.Builder builder = LogsBloom.builder();
        for (int i = 0; i < 100; i++) {
            builder.addValue(utf8(String.format("xxxxxxxxxx data %d yyyyyyyyyyyyyy", i)));
        }
        LogsBloom bloom = builder.build();
        assertEquals("c8d3ca65cdb4874300a9e39475508f23ed6da09fdbc487f89a2dcf50b09eb263",
                Hex.encode(Keccak256.digest(bloom.toBytes())));
        LogsBloom again = LogsBloom.builder().addBloom(bloom).build();
        assertEquals(bloom, again);
    }

    @Test
    void hexRoundTripAndAccessors() {
        LogsBloom bloom = LogsBloom.ofValue(utf8("abc"));
        assertEquals(bloom, LogsBloom.fromHex(bloom.toHex()));
        assertEquals(bloom, LogsBloom.fromHex(bloom.toHex().substring(2).toUpperCase()));
        assertEquals(bloom, LogsBloom.fromBytes(bloom.toBytes()));
        assertEquals(bloom.hashCode(), LogsBloom.fromHex(bloom.toHex()).hashCode());
        assertEquals(514, bloom.toHex().length());
        assertTrue(bloom.toString().contains(bloom.toHex()));
        assertEquals(0, LogsBloom.EMPTY.bitsSet());
        assertEquals(0.0, LogsBloom.EMPTY.saturation());
        byte[] ones = new byte[256];
        java.util.Arrays.fill(ones, (byte) 0xff);
        LogsBloom full = LogsBloom.fromBytes(ones);
        assertEquals(2048, full.bitsSet());
        assertEquals(1.0, full.saturation());
        assertTrue(full.containsAll(bloom));
        assertTrue(full.mightContain(utf8("anything at all")));
    }

    @Test
    void bitZeroIsTheLowBitOfTheLastByteAndBit2047TheHighBitOfTheFirst() {
        byte[] bytes = new byte[256];
        bytes[255] = 0x01;
        bytes[0] = (byte) 0x80;
        LogsBloom bloom = LogsBloom.fromBytes(bytes);
        assertTrue(bloom.testBit(0));
        assertTrue(bloom.testBit(2047));
        assertEquals(2, bloom.bitsSet());
        assertArrayEquals(bytes, bloom.toBytes());
    }

    @Test
    void fromBytesCopiesAndToBytesCopies() {
        byte[] bytes = new byte[256];
        LogsBloom bloom = LogsBloom.fromBytes(bytes);
        bytes[3] = 1;
        assertEquals(LogsBloom.EMPTY, bloom);
        bloom.toBytes()[3] = 1;
        assertEquals(LogsBloom.EMPTY, bloom);
    }

    @Test
    void orAndContainsAll() {
        LogsBloom a = LogsBloom.ofValue(utf8("a"));
        LogsBloom b = LogsBloom.ofValue(utf8("b"));
        LogsBloom ab = a.or(b);
        assertTrue(ab.containsAll(a));
        assertTrue(ab.containsAll(b));
        assertTrue(ab.containsAll(LogsBloom.EMPTY));
        assertFalse(a.containsAll(ab));
        assertEquals(ab, LogsBloom.builder().addValue(utf8("b")).addValue(utf8("a")).build());
        assertNotEquals(a, b);
        assertSame(LogsBloom.EMPTY, LogsBloom.EMPTY);
    }

    @Test
    void builderIsReusableAndAddsSlices() {
        LogsBloom.Builder builder = LogsBloom.builder();
        byte[] framed = utf8("..abc..");
        LogsBloom fromSlice = builder.addValue(framed, 2, 3).build();
        assertEquals(LogsBloom.ofValue(utf8("abc")), fromSlice);
        byte[] buffer = new byte[260];
        builder.writeTo(buffer, 3);
        assertArrayEquals(fromSlice.toBytes(), java.util.Arrays.copyOfRange(buffer, 3, 259));
        assertThrows(IndexOutOfBoundsException.class, () -> builder.writeTo(buffer, 5));
        assertEquals(LogsBloom.EMPTY, builder.reset().build());
    }

    /**
     * A {@code LogsBloom} is immutable and the builder may be reused after {@code build()}: a bloom already built keeps
     * its bits when the builder goes on adding values, ORs in another bloom, or is reset for the next receipt.
     */
    @Test
    void aBuiltBloomDoesNotChangeWhenItsBuilderIsReused() {
        LogsBloom.Builder builder = LogsBloom.builder().addValue(utf8("first receipt"));
        LogsBloom first = builder.build();
        String firstHex = first.toHex();
        builder.addValue(utf8("second value"));
        assertEquals(firstHex, first.toHex());
        LogsBloom second = builder.build();
        assertNotEquals(first, second);
        builder.addBloom(LogsBloom.ofValue(utf8("third value")));
        assertEquals(firstHex, first.toHex());
        builder.reset();
        assertEquals(LogsBloom.ofValue(utf8("first receipt")), first);
        assertTrue(second.mightContain(utf8("second value")));
        assertEquals(LogsBloom.EMPTY, builder.build());
    }

    /**
     * The builder's memo of recent values must never change a bloom: values that repeat, share prefixes, differ only
     * in length (0..40 bytes, around the 32-byte memo limit), sit at offsets in larger arrays, across resets.
     */
    @Test
    void memoOfRecentValuesNeverChangesTheBloom() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(99);
        byte[][] pool = new byte[24][];
        for (int i = 0; i < pool.length; i++) {
            pool[i] = new byte[random.nextInt(41)];
            random.nextBytes(pool[i]);
        }
        pool[1] = java.util.Arrays.copyOf(pool[0], Math.max(0, pool[0].length - 1));
        LogsBloom.Builder reused = LogsBloom.builder();
        for (int round = 0; round < 300; round++) {
            reused.reset();
            LogsBloom expected = LogsBloom.EMPTY;
            int values = random.nextInt(30);
            for (int v = 0; v < values; v++) {
                byte[] value = pool[random.nextInt(pool.length)];
                int offset = random.nextInt(4);
                byte[] framed = new byte[value.length + offset + 3];
                System.arraycopy(value, 0, framed, offset, value.length);
                framed[offset + value.length] = (byte) random.nextInt();
                reused.addValue(framed, offset, value.length);
                expected = expected.or(LogsBloom.ofValue(value));
                byte[] mutated = value.clone();
                if (mutated.length > 0 && random.nextBoolean()) {
                    // The memo keeps a copy: changing the caller's array afterwards cannot leak into later hashes.
                    mutated[0] ^= 1;
                    reused.addValue(mutated);
                    expected = expected.or(LogsBloom.ofValue(mutated));
                }
            }
            assertEquals(expected, reused.build(), "round " + round);
        }
    }

    @Test
    void fromHexRefusesWrongLengthsNamingThem() {
        IllegalArgumentException shortHex = assertThrows(IllegalArgumentException.class,
                () -> LogsBloom.fromHex("0x" + "00".repeat(255)));
        assertEquals("logsBloom is 255 bytes; it must be exactly 256 bytes", shortHex.getMessage());
        IllegalArgumentException longHex = assertThrows(IllegalArgumentException.class,
                () -> LogsBloom.fromHex("00".repeat(257)));
        assertEquals("logsBloom is 257 bytes; it must be exactly 256 bytes", longHex.getMessage());
        IllegalArgumentException empty = assertThrows(IllegalArgumentException.class, () -> LogsBloom.fromHex("0x"));
        assertEquals("logsBloom is 0 bytes; it must be exactly 256 bytes", empty.getMessage());
        IllegalArgumentException odd = assertThrows(IllegalArgumentException.class,
                () -> LogsBloom.fromHex("0" + "00".repeat(256)));
        assertEquals("logsBloom: hex string has an odd number of digits (513)", odd.getMessage());
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> LogsBloom.fromHex("zz" + "00".repeat(255)));
        assertEquals("logsBloom: not a hex digit: 'z' at position 0", bad.getMessage());
        assertEquals("logsBloom hex is null",
                assertThrows(IllegalArgumentException.class, () -> LogsBloom.fromHex(null)).getMessage());
        assertEquals("logsBloom is 32 bytes; it must be exactly 256 bytes",
                assertThrows(IllegalArgumentException.class, () -> LogsBloom.fromBytes(new byte[32])).getMessage());
        assertEquals("logsBloom bytes are null",
                assertThrows(IllegalArgumentException.class, () -> LogsBloom.fromBytes(null)).getMessage());
    }

    @Test
    void builderRefusesBadAddressesTopicsAndLogs() {
        LogsBloom.Builder builder = LogsBloom.builder();
        assertEquals("address is 32 bytes; it must be exactly 20 bytes",
                assertThrows(IllegalArgumentException.class, () -> builder.addAddress(new byte[32])).getMessage());
        assertEquals("topic is 20 bytes; it must be exactly 32 bytes",
                assertThrows(IllegalArgumentException.class, () -> builder.addTopic(new byte[20])).getMessage());
        assertEquals("address is null",
                assertThrows(IllegalArgumentException.class, () -> builder.addAddress(null)).getMessage());
        assertEquals("topic is 31 bytes; it must be exactly 32 bytes",
                assertThrows(IllegalArgumentException.class,
                        () -> builder.addLog(new byte[20], List.of(new byte[31]))).getMessage());
        // A refused log adds nothing, not even its address.
        assertEquals(LogsBloom.EMPTY, builder.build());
        assertThrows(IndexOutOfBoundsException.class, () -> LogsBloom.EMPTY.testBit(2048));
        assertThrows(IndexOutOfBoundsException.class, () -> LogsBloom.EMPTY.testBit(-1));
    }

    @Test
    void zeroAddressAndZeroTopicAreOrdinaryValues() {
        LogsBloom bloom = LogsBloom.builder().addLog(new byte[20], List.of(new byte[32])).build();
        assertTrue(bloom.bitsSet() >= 1 && bloom.bitsSet() <= 6);
        assertTrue(bloom.mightContain(new byte[20]));
        assertTrue(bloom.mightContain(new byte[32]));
        // A 20-byte address and the same address left-padded to a 32-byte topic are different items.
        byte[] address = Hex.decode("0x0F572E5295C57F15886F9B263E2F6D2D6C7B5EC6");
        byte[] padded = new byte[32];
        System.arraycopy(address, 0, padded, 12, 20);
        assertNotEquals(LogsBloom.ofValue(address), LogsBloom.ofValue(padded));
    }

    /**
     * {@code containsAll} is Besu's {@code couldContain} / parity's {@code contains_bloom}: {@code (B & Q) == Q} over
     * all 256 bytes, every bit of the probe. Two probes that share a 64-bit word with a set bit of the bloom, and a
     * probe bit in bytes 0..7 (bits 1984..2047, the last word), must be refused.
     */
    @Test
    void containsAllNeedsEveryProbeBitInEveryWord() {
        byte[] bit0 = new byte[256];
        bit0[255] = 0x01; // bit 0
        byte[] bits0and1 = new byte[256];
        bits0and1[255] = 0x03; // bits 0 and 1, same byte, same word
        byte[] bits0and63 = new byte[256];
        bits0and63[255] = 0x01;
        bits0and63[248] = (byte) 0x80; // bit 63: still word 0
        LogsBloom block = LogsBloom.fromBytes(bit0);
        assertTrue(block.containsAll(LogsBloom.fromBytes(bit0)));
        assertFalse(block.containsAll(LogsBloom.fromBytes(bits0and1)));
        assertFalse(block.containsAll(LogsBloom.fromBytes(bits0and63)));

        byte[] bit2047 = new byte[256];
        bit2047[0] = (byte) 0x80; // bit 2047, the most significant bit of byte 0
        byte[] bit1984 = new byte[256];
        bit1984[7] = 0x01; // bit 1984, the lowest bit of the last word
        byte[] ones = new byte[256];
        java.util.Arrays.fill(ones, (byte) 0xff);
        assertFalse(LogsBloom.EMPTY.containsAll(LogsBloom.fromBytes(bit2047)));
        assertFalse(LogsBloom.EMPTY.containsAll(LogsBloom.fromBytes(bit1984)));
        assertFalse(block.containsAll(LogsBloom.fromBytes(bit2047)));
        assertTrue(LogsBloom.fromBytes(ones).containsAll(LogsBloom.fromBytes(bit2047)));

        // With real values: the ERC-20 Transfer topic sets bits 1443, 481, 1060 (KeccakAndBitsTest); a bloom holding
        // only two of them does not contain the topic's bloom.
        byte[] transfer = Hex.decode("0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef");
        byte[] twoOfThree = new byte[256];
        twoOfThree[255 - 1443 / 8] |= (byte) (1 << (1443 % 8));
        twoOfThree[255 - 481 / 8] |= (byte) (1 << (481 % 8));
        assertFalse(LogsBloom.fromBytes(twoOfThree).containsAll(LogsBloom.ofValue(transfer)));
        twoOfThree[255 - 1060 / 8] |= (byte) (1 << (1060 % 8));
        assertTrue(LogsBloom.fromBytes(twoOfThree).containsAll(LogsBloom.ofValue(transfer)));
        assertEquals(LogsBloom.fromBytes(twoOfThree), LogsBloom.ofValue(transfer));
    }

    /** A logsBloom is exactly 256 bytes: one byte more is refused naming its length, as one byte less is. */
    @Test
    void fromBytesRefusesALongerArrayNamingItsLength() {
        assertEquals("logsBloom is 257 bytes; it must be exactly 256 bytes",
                assertThrows(IllegalArgumentException.class, () -> LogsBloom.fromBytes(new byte[257])).getMessage());
        assertEquals("logsBloom is 255 bytes; it must be exactly 256 bytes",
                assertThrows(IllegalArgumentException.class, () -> LogsBloom.fromBytes(new byte[255])).getMessage());
    }

    /** A bit outside 0..2047 is refused naming the bit and the bloom's 2048 bits, not a word index of 32 words. */
    @Test
    void testBitOutsideTheBloomNamesTheBit() {
        assertEquals("Index 2048 out of bounds for length 2048", assertThrows(IndexOutOfBoundsException.class,
                () -> LogsBloom.EMPTY.testBit(2048)).getMessage());
        assertEquals("Index -1 out of bounds for length 2048", assertThrows(IndexOutOfBoundsException.class,
                () -> LogsBloom.EMPTY.testBit(-1)).getMessage());
    }

    /**
     * {@code writeTo} checks the whole range before writing: at offset -1 it refuses and leaves the buffer untouched,
     * not half written (the bloom's last bytes land first, from the end of the range down).
     */
    @Test
    void writeToARangeOutsideTheBufferWritesNothing() {
        LogsBloom.Builder builder = LogsBloom.builder();
        byte[] ones = new byte[256];
        java.util.Arrays.fill(ones, (byte) 0xff);
        builder.addBloom(LogsBloom.fromBytes(ones));
        byte[] buffer = new byte[260];
        assertThrows(IndexOutOfBoundsException.class, () -> builder.writeTo(buffer, -1));
        assertArrayEquals(new byte[260], buffer);
    }
}
