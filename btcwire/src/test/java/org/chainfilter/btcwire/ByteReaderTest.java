package org.chainfilter.btcwire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.chainfilter.common.Hex;
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

    @Test
    void trailingBytesAreRefused() {
        ByteReader reader = new ByteReader(Hex.decode("0102"));
        reader.readUInt8("x");
        WireFormatException e = assertThrows(WireFormatException.class, () -> reader.requireEnd("filterload"));
        assertEquals("filterload has 1 trailing bytes after its end (at offset 1)", e.getMessage());
    }

    @Test
    void sliceReaderStaysInsideItsSlice() {
        ByteReader reader = new ByteReader(Hex.decode("00112233"), 1, 2);
        assertEquals(2, reader.remaining());
        assertEquals(0x2211, reader.readUInt16LE("x"));
        assertThrows(WireFormatException.class, () -> reader.readUInt8("y"));
    }
}
