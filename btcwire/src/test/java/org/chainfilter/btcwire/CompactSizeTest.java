package org.chainfilter.btcwire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.chainfilter.common.Hex;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CompactSizeTest {

    /** Boundaries of each width; the encodings follow Core serialize.h WriteCompactSize. */
    @ParameterizedTest
    @CsvSource({
        "0, 00", "252, fc", "253, fdfd00", "65535, fdffff", "65536, fe00000100", "4294967295, feffffffff",
        "4294967296, ff0000000001000000", "-1, ffffffffffffffffff"
    })
    void roundTripsEveryWidth(long value, String hex) {
        ByteWriter writer = new ByteWriter();
        CompactSize.write(writer, value);
        assertEquals(hex, Hex.encode(writer.toByteArray()));
        assertEquals(hex.length() / 2, CompactSize.encodedLength(value));
        ByteReader reader = new ByteReader(Hex.decode(hex));
        assertEquals(value, CompactSize.read(reader, "n", -1L));
        assertEquals(0, reader.remaining());
    }

    @ParameterizedTest
    @CsvSource({
        "fdfc00, 252, fd", "fd0000, 0, fd", "feffff0000, 65535, fe", "ff ffffffff00000000, 4294967295, ff"
    })
    void nonCanonicalEncodingsAreRefusedAsCoreDoes(String hex, long value, String prefix) {
        WireFormatException e = assertThrows(WireFormatException.class,
                () -> CompactSize.read(new ByteReader(Hex.decode(hex.replace(" ", ""))), "filter length", -1L));
        assertEquals("filter length: non-canonical CompactSize (value " + value + " encoded with prefix 0x" + prefix
                + ")", e.getMessage());
    }

    @ParameterizedTest
    @CsvSource({"fe01000002, 33554433", "ff0000000000000080, 9223372036854775808"})
    void valuesAboveTheLimitAreRefused(String hex, String value) {
        WireFormatException e = assertThrows(WireFormatException.class,
                () -> CompactSize.read(new ByteReader(Hex.decode(hex)), "size", CompactSize.MAX_SIZE));
        assertEquals("size is " + value + "; at most 33554432 is allowed", e.getMessage());
    }

    @ParameterizedTest
    @CsvSource({"'', 1, 0", "fd01, 2, 1", "fe010203, 4, 3", "ff01, 8, 1", "ff01020304050607, 8, 7"})
    void truncatedEncodingsAreRefused(String hex, int wanted, int left) {
        WireFormatException e = assertThrows(WireFormatException.class,
                () -> CompactSize.read(new ByteReader(Hex.decode(hex)), "count", -1L));
        assertEquals("reading count: wanted " + wanted + " bytes but " + left + " are left (at offset "
                + (hex.isEmpty() ? 0 : 1) + ")", e.getMessage());
    }
}
