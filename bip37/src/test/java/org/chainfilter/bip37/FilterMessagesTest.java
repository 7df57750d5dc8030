package org.chainfilter.bip37;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.chainfilter.btcwire.WireFormatException;
import org.chainfilter.common.Hex;
import org.junit.jupiter.api.Test;

/**
 * Core's limits on a peer's filter messages: bitcoin/bitcoin test/functional/p2p_filter.py test_size_limits
 * (e3f416dbf7) and btcd wire/msgfilterload_test.go, msgfilteradd_test.go (2c67bc29ce).
 */
class FilterMessagesTest {

    private static String filterLoad(String data, int hashFunctions) {
        String length = data.length() / 2 < 0xfd ? String.format("%02x", data.length() / 2)
                : String.format("fd%02x%02x", (data.length() / 2) & 0xff, (data.length() / 2) >> 8);
        return length + data + String.format("%02x000000", hashFunctions) + "00000000" + "00";
    }

    @Test
    void filterOf36000BytesIsAcceptedAnd36001Refused() {
        Bip37BloomFilter ok = Bip37BloomFilter.parseFilterLoadHex(filterLoad("bb".repeat(36000), 0));
        assertEquals(36000, ok.byteLength());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Bip37BloomFilter.parseFilterLoadHex(filterLoad("bb".repeat(36001), 0)));
        assertEquals("filter is 36001 bytes; BIP37 allows at most 36000", e.getMessage());
    }

    @Test
    void fiftyHashFunctionsAreAcceptedAndFiftyOneRefused() {
        assertEquals(50, Bip37BloomFilter.parseFilterLoadHex(filterLoad("aa", 50)).hashFunctionCount());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Bip37BloomFilter.parseFilterLoadHex(filterLoad("aa", 51)));
        assertEquals("filter has 51 hash functions; BIP37 allows at most 50", e.getMessage());
    }

    /** nHashFuncs is Core's uint32: 0x80000000 and 0xffffffff are counts far above 50, not negative numbers. */
    @Test
    void hashFunctionCountsWithTheTopBitSetAreUnsigned() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Bip37BloomFilter.parseFilterLoadHex("01aa" + "ffffffff" + "00000000" + "00"));
        assertEquals("filter has 4294967295 hash functions; BIP37 allows at most 50", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Bip37BloomFilter.parseFilterLoadHex("01aa" + "00000080" + "00000000" + "00"));
        assertEquals("filter has 2147483648 hash functions; BIP37 allows at most 50", e.getMessage());
    }

    /** btcd TestFilterLoadMaxHashFuncsSize: 10 bytes of 0xff, 61 hash functions. */
    @Test
    void btcdTooManyHashFunctionsPayload() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Bip37BloomFilter.parseFilterLoadHex("0affffffffffffffffffff3d0000000000000000"));
        assertEquals("filter has 61 hash functions; BIP37 allows at most 50", e.getMessage());
    }

    @Test
    void hugeDeclaredLengthIsRefusedBeforeAllocation() {
        IllegalArgumentException e = assertThrows(WireFormatException.class,
                () -> Bip37BloomFilter.parseFilterLoadHex("fe00000002" + "00"));
        assertEquals("reading filterload vData: wanted 33554432 bytes but 1 are left (at offset 5)", e.getMessage());
        e = assertThrows(WireFormatException.class, () -> Bip37BloomFilter.parseFilterLoadHex("fe01000002"));
        assertEquals("filterload vData length is 33554433; at most 33554432 is allowed", e.getMessage());
    }

    /**
     * Core deserializes the whole filterload ({@code vRecv >> filter}) before {@code IsWithinSizeConstraints}: a
     * payload cut short is a deserialization failure (dropped, no penalty), never "too-large bloom filter" (the peer is
     * punished), even when the part that arrived already breaks a limit. Same for filteradd's 520 bytes.
     */
    @Test
    void truncationIsReportedBeforeTheLimitsAsInCore() {
        IllegalArgumentException e = assertThrows(WireFormatException.class,
                () -> Bip37BloomFilter.parseFilterLoadHex("fda18c" + "bb".repeat(36001) + "01000000"));
        assertEquals("reading filterload nTweak: wanted 4 bytes but 0 are left (at offset 36008)", e.getMessage());
        e = assertThrows(WireFormatException.class,
                () -> Bip37BloomFilter.parseFilterLoadHex("01aa" + "33000000" + "00000000"));
        assertEquals("reading filterload nFlags: wanted 1 bytes but 0 are left (at offset 10)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Bip37BloomFilter.parseFilterLoadHex("fda18c" + "bb".repeat(36001) + "33000000" + "00000000"
                        + "00"));
        assertEquals("filter is 36001 bytes; BIP37 allows at most 36000", e.getMessage(),
                "a whole message over both limits: the size is checked first, as IsWithinSizeConstraints does");
        e = assertThrows(WireFormatException.class,
                () -> Bip37Messages.parseFilterAdd(Hex.decode("fd0902" + "cc".repeat(520))));
        assertEquals("reading filteradd data: wanted 521 bytes but 520 are left (at offset 3)", e.getMessage());
    }

    @Test
    void nonCanonicalLengthAndTruncationAreRefused() {
        WireFormatException e = assertThrows(WireFormatException.class,
                () -> Bip37BloomFilter.parseFilterLoadHex("fd0300614e9b050000000000000001"));
        assertEquals("filterload vData length: non-canonical CompactSize (value 3 encoded with prefix 0xfd)",
                e.getMessage());
        e = assertThrows(WireFormatException.class, () -> Bip37BloomFilter.parseFilterLoadHex("03614e9b0500000000000000"));
        assertEquals("reading filterload nFlags: wanted 1 bytes but 0 are left (at offset 12)", e.getMessage());
        e = assertThrows(WireFormatException.class, () -> Bip37BloomFilter.parseFilterLoadHex("05614e9b"));
        assertEquals("reading filterload vData: wanted 5 bytes but 3 are left (at offset 1)", e.getMessage());
    }

    /** Core's SERIALIZE_METHODS reads the four fields and never looks at what follows. */
    @Test
    void bytesAfterNFlagsAreIgnoredAsInCore() {
        Bip37BloomFilter filter = Bip37BloomFilter.parseFilterLoadHex("03614e9b050000000000000001" + "ffff");
        assertEquals("03614e9b050000000000000001", Hex.encode(filter.toFilterLoad()));
    }

    @Test
    void filterAddUpTo520Bytes() {
        byte[] element = new byte[520];
        byte[] payload = Bip37Messages.filterAdd(element);
        assertEquals("fd0802", Hex.encode(payload).substring(0, 6));
        assertArrayEquals(element, Bip37Messages.parseFilterAdd(payload));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Bip37Messages.filterAdd(new byte[521]));
        assertEquals("filteradd element is 521 bytes; BIP37 allows at most 520", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Bip37Messages.parseFilterAdd(Hex.decode("fd0902" + "cc".repeat(521))));
        assertEquals("filteradd element is 521 bytes; BIP37 allows at most 520", e.getMessage());
        e = assertThrows(WireFormatException.class, () -> Bip37Messages.parseFilterAdd(Hex.decode("02cc")));
        assertEquals("reading filteradd data: wanted 2 bytes but 1 are left (at offset 1)", e.getMessage());
    }

    /** Core's FILTERCLEAR handler never reads the payload, so a filterclear with bytes attached is still honoured. */
    @Test
    void filterClearHasNoPayloadAndIgnoresOneAsCoreDoes() {
        assertEquals(0, Bip37Messages.filterClear().length);
        Bip37Messages.parseFilterClear(new byte[0]);
        Bip37Messages.parseFilterClear(new byte[2]);
    }
}
