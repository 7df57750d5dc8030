package org.chainfilter.btcwire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.chainfilter.common.Hex;
import org.chainfilter.testkit.bitcoin.BitcoinData;
import org.junit.jupiter.api.Test;

class ByteReaderTest {

    @Test
    void readsLittleEndianFieldsAndTracksRemaining() {
        ByteReader reader = new ByteReader(Hex.decode("ff0102fdfcfbfa0102030405060780aa"));
        assertEquals(0xff, reader.readUInt8("a"));
        assertEquals(0x0201, reader.readUInt16LE("b"));
        assertEquals(0xfafbfcfdL, reader.readUInt32LE("c"));
        assertEquals(0x8007060504030201L, reader.readInt64LE("d"));
        assertEquals(1, reader.remaining());
        assertArrayEquals(new byte[] {(byte) 0xaa}, reader.readBytes(1, "e"));
        assertEquals(0, reader.remaining());
        reader.requireEnd("thing");
    }

    @Test
    void signedInt32KeepsTheBits() {
        assertEquals(-2, new ByteReader(Hex.decode("feffffff")).readInt32LE("nVersion"));
    }

    @Test
    void underrunNamesWhatWantedAndLeft() {
        ByteReader reader = new ByteReader(Hex.decode("010203"));
        reader.readUInt8("first");
        WireFormatException e = assertThrows(WireFormatException.class, () -> reader.readUInt32LE("nTime"));
        assertEquals("reading nTime: wanted 4 bytes but 2 are left (at offset 1)", e.getMessage());
    }

    /**
     * An 8-byte field cut short is reported whole, at its own offset: it was read as two 4-byte halves, so the message
     * named 4 bytes at the middle of the field (found by a review).
     */
    @Test
    void underrunOfAnEightByteFieldNamesTheWholeField() {
        WireFormatException compactSize = assertThrows(WireFormatException.class,
                () -> new ByteReader(Hex.decode("ff00000000")).readCompactSize("count", CompactSize.MAX_SIZE));
        assertEquals("reading count: wanted 8 bytes but 4 are left (at offset 1)", compactSize.getMessage());
        String tx = "01000000" + "01" + "00".repeat(32) + "ffffffff" + "00" + "ffffffff" + "02"
                + "0000000000000000" + "0a" + "00".repeat(10) + "0000000000";
        WireFormatException value = assertThrows(WireFormatException.class, () -> Transaction.fromHex(tx));
        assertEquals("reading value of output 1: wanted 8 bytes but 5 are left (at offset 66)", value.getMessage());
        ByteReader reader = new ByteReader(Hex.decode("01020304050607"));
        assertThrows(WireFormatException.class, () -> reader.readInt64LE("nValue"));
        assertEquals(7, reader.remaining(), "nothing consumed");
    }

    /**
     * A length's label is made only on refusal, by putting "<what> length" where the message names {@code what}:
     * first, or after "reading" (a label inside "reading" such as "e" was garbled when its first occurrence was
     * replaced: found by a review).
     */
    @Test
    void aVarBytesLengthIsNamedAsTheLengthOfItsField() {
        for (String what : List.of("e", "reading", "a $1 \\ (x)+", "scriptSig of input 3")) {
            WireFormatException truncated = assertThrows(WireFormatException.class,
                    () -> new ByteReader(new byte[0]).readVarBytes(what, 10));
            assertEquals("reading " + what + " length: wanted 1 bytes but 0 are left (at offset 0)",
                    truncated.getMessage());
            WireFormatException tooLong = assertThrows(WireFormatException.class,
                    () -> new ByteReader(Hex.decode("0b")).readVarBytes(what, 10));
            assertEquals(what + " length is 11; at most 10 is allowed", tooLong.getMessage());
        }
    }

    @Test
    void countThatCannotFitIsRefusedBeforeAllocation() {
        ByteReader reader = new ByteReader(Hex.decode("fe00000001" + "00".repeat(10)));
        WireFormatException e = assertThrows(WireFormatException.class,
                () -> reader.readCount("input count", Integer.MAX_VALUE, 41));
        assertEquals("input count is 16777216 but at 41 bytes or more each they cannot fit in the 10 bytes left",
                e.getMessage());
    }

    @Test
    void varBytesLongerThanTheInputAreRefused() {
        WireFormatException e = assertThrows(WireFormatException.class,
                () -> new ByteReader(Hex.decode("05aabb")).readVarBytes("script", 10_000));
        assertEquals("script length is 5 but at 1 bytes or more each they cannot fit in the 2 bytes left",
                e.getMessage());
    }

    /**
     * A field that ends exactly at the end of the input is read, not refused: the count check is "cannot fit", so
     * {@code count * minBytes == remaining} passes (a {@code >=} there passed every test before). A block whose last
     * transaction is a minimal 10-byte one (Core reads empty vin, flags 0 as no inputs and no outputs) ends that way.
     */
    @Test
    void aFieldThatEndsExactlyAtTheEndIsRead() {
        ByteReader reader = new ByteReader(Hex.decode("03aabbcc"));
        assertArrayEquals(Hex.decode("aabbcc"), reader.readVarBytes("script", 100));
        assertEquals(0, reader.remaining());
        ByteReader counts = new ByteReader(Hex.decode("02" + "00".repeat(10)));
        assertEquals(2, counts.readCount("pair count", 10, 5));

        String header = BitcoinData.raw("block_13b8a").substring(0, 160);
        Block block = Block.fromHex(header + "01" + "01000000" + "00" + "00" + "00000000");
        assertEquals(1, block.transactions().size());
        assertEquals(0, block.transactions().get(0).inputs().size());
    }

    /**
     * A negative length is refused as a length the bytes left cannot hold, and the reader stays where it was: without
     * the check {@code skip(-1)} moved the reader back over a byte already read, and {@code readBytes(-1)} threw
     * NegativeArraySizeException (found by a mutation review).
     */
    @Test
    void aNegativeLengthIsRefusedAndTheReaderDoesNotMove() {
        ByteReader reader = new ByteReader(Hex.decode("010203"));
        reader.readUInt8("x");
        WireFormatException skip = assertThrows(WireFormatException.class, () -> reader.skip(-1, "padding"));
        assertEquals("reading padding: wanted -1 bytes but 2 are left (at offset 1)", skip.getMessage());
        WireFormatException bytes = assertThrows(WireFormatException.class, () -> reader.readBytes(-1, "data"));
        assertEquals("reading data: wanted -1 bytes but 2 are left (at offset 1)", bytes.getMessage());
        assertEquals(1, reader.position());
        assertEquals(0x0302, reader.readUInt16LE("y"));
    }

    /**
     * The writer copies a slice from its offset: writing bytes [1, 3) of aabbccdd writes bbcc. Copying from index 0
     * passed every test (found by a mutation review).
     */
    @Test
    void aWriterSliceIsWrittenFromItsOffset() {
        ByteWriter writer = new ByteWriter(1).writeBytes(Hex.decode("aabbccdd"), 1, 2).writeUInt8(0xee);
        assertEquals("bbccee", Hex.encode(writer.toByteArray()));
        assertEquals(3, writer.size());
    }

    @Test
    void trailingBytesAreRefused() {
        ByteReader reader = new ByteReader(Hex.decode("0102"));
        reader.readUInt8("x");
        WireFormatException e = assertThrows(WireFormatException.class, () -> reader.requireEnd("filterload"));
        assertEquals("filterload has 1 trailing bytes after its end (at offset 1)", e.getMessage());
    }

    /**
     * A slice that is not inside the array is refused when the reader is made: without the check a reader over
     * {@code [2, 7)} of 4 bytes was made, said 5 bytes were left and threw ArrayIndexOutOfBoundsException, not a
     * WireFormatException, at its first read past the array (found by a mutation review).
     */
    @Test
    void aSliceOutsideTheArrayIsRefused() {
        byte[] data = Hex.decode("00112233");
        assertThrows(IndexOutOfBoundsException.class, () -> new ByteReader(data, 2, 5));
        assertThrows(IndexOutOfBoundsException.class, () -> new ByteReader(data, -1, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> new ByteReader(data, 1, -1));
        assertEquals(0, new ByteReader(data, 4, 0).remaining());
    }

    @Test
    void sliceReaderStaysInsideItsSlice() {
        ByteReader reader = new ByteReader(Hex.decode("00112233"), 1, 2);
        assertEquals(2, reader.remaining());
        assertEquals(0x2211, reader.readUInt16LE("x"));
        assertThrows(WireFormatException.class, () -> reader.readUInt8("y"));
    }
}
