package org.chainfilter.bip37;

import static org.chainfilter.bip37.Vectors.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Random;
import org.chainfilter.btcwire.Hash256;
import org.chainfilter.btcwire.OutPoint;
import org.chainfilter.btcwire.Sha256d;
import org.chainfilter.btcwire.Transaction;
import org.chainfilter.common.Hex;
import org.chainfilter.common.hash.Murmur3;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class Bip37BloomFilterTest {
    private static final String ITEM1 = "99108ad8ed9bb6274d3980bab5a85c048f0950c8";
    private static final String ITEM2 = "b5a2c786d9ef4658287ced5914b37a1b4aa32eee";
    private static final String ITEM3 = "b9300670b4c5366e95b2699e8b18bc75e5f729c5";
    private static final String NOT_INSERTED = "19108ad8ed9bb6274d3980bab5a85c048f0950c8";

    /**
     * bitcoin/bitcoin src/test/bloom_tests.cpp bloom_create_insert_serialize and
     * bloom_create_insert_serialize_with_tweak (commit e3f416dbf7633b2fb19c933e5508bd231cc7e9cf); the same in btcd
     * btcutil/bloom/filter_test.go TestFilterInsert / TestFilterInsertWithTweak (2c67bc29ce) and, with flags 2,
     * bitcoinj BloomFilterTest.insertSerializeTestWithTweak (13e137ec1d).
     */
    @ParameterizedTest
    @CsvSource({
        "0, 1, 03614e9b050000000000000001",
        "-2147483647, 1, 03ce4299050000000100008001",
        "-2147483647, 2, 03ce4299050000000100008002"
    })
    void publishedCreateInsertSerializeVectors(int tweak, int flags, String expected) {
        Bip37BloomFilter filter = Bip37BloomFilter.fromElementsAndRate(3, 0.01, tweak, flags);
        assertEquals(3, filter.byteLength());
        assertEquals(5, filter.hashFunctionCount());
        assertFalse(filter.contains(hex(ITEM1)), "Bloom filter should be empty");
        filter.insert(hex(ITEM1));
        assertTrue(filter.contains(hex(ITEM1)));
        assertFalse(filter.contains(hex(NOT_INSERTED)));
        filter.insert(hex(ITEM2));
        filter.insert(hex(ITEM3));
        for (String item : new String[] {ITEM1, ITEM2, ITEM3}) {
            assertTrue(filter.contains(hex(item)));
        }
        assertEquals(expected, Hex.encode(filter.toFilterLoad()));
        assertEquals(filter, Bip37BloomFilter.parseFilterLoadHex(expected));
    }

    /**
     * Bit indices MurmurHash3(i·0xFBA4C795 + 0, item) mod 24 for i = 0..4 from bitcoinj PR #4162 (UNMERGED, head
     * 3e072a1a004c321818e0201918f3bc63b422e535, base/src/test/java/org/bitcoinj/base/BloomFilterTest.java
     * murmurHashMatchesKnownBitIndexes), consistent with Core's vData 614e9b.
     */
    @ParameterizedTest
    @CsvSource({
        ITEM1 + ", 0 23 0 19 20",
        ITEM2 + ", 17 14 6 10 14",
        ITEM3 + ", 11 5 20 9 16"
    })
    void bitIndicesOfEachHashFunction(String item, String indices) {
        String[] expected = indices.split(" ");
        for (int i = 0; i < 5; i++) {
            int hash = Murmur3.x86_32(i * Bip37BloomFilter.SEED_STEP, hex(item));
            assertEquals(Long.parseLong(expected[i]), Integer.toUnsignedLong(hash) % 24);
        }
    }

    /** BIP37 text (bitcoin/bips 7fe0b034, bip-0037.mediawiki): nTweak 5, nHashNum 1 gives seed 4221880218. */
    @Test
    void bip37SeedExample() {
        assertEquals(4221880218L, Integer.toUnsignedLong(1 * Bip37BloomFilter.SEED_STEP + 5));
    }

    /**
     * bitcoin/bitcoin src/test/bloom_tests.cpp bloom_create_insert_key (e3f416dbf7); btcd TestFilterInsertKey. The
     * public key and its Hash160 of WIF 5Kg1gnAjaLfKiwhhPpGS3QfRg2m6awQvaj98JCZBZQ5SuS2F15C are derived values given
     * in the vector file (address 17Wx1GQfyPTNWpQMHrTwRSMTCAonSiZx9e as published by bitcoinj walletTest).
     */
    @Test
    void publishedKeyInsertVector() {
        Bip37BloomFilter filter = Bip37BloomFilter.fromElementsAndRate(2, 0.001, 0, 1);
        filter.insert(hex("045b81f0017e2091e2edcd5eecf10d5bdd120a5514cb3ee65b8447ec18bfc4575c6d5bf415e54e03b1067934a0f0ba"
                + "76b01c6b9ab227142ee1d543764b69d901e0"));
        filter.insert(hex("477abbacd4113f2e6b100526222eedd953c26a64"));
        assertEquals("038fc16b080000000000000001", Hex.encode(filter.toFilterLoad()));
    }

    /**
     * bitcoinj core/src/test/java/org/bitcoinj/core/BloomFilterTest.java walletTest (13e137ec1d): two keys, their
     * Hash160s and the outpoint of the wallet's P2PK output, (5, 0.001, 0, UPDATE_P2PUBKEY_ONLY).
     */
    @Test
    void publishedWalletVector() {
        Bip37BloomFilter filter = Bip37BloomFilter.fromElementsAndRate(5, 0.001, 0, 2);
        filter.insert(hex("045b81f0017e2091e2edcd5eecf10d5bdd120a5514cb3ee65b8447ec18bfc4575c6d5bf415e54e03b1067934a0f0ba"
                + "76b01c6b9ab227142ee1d543764b69d901e0"));
        filter.insert(hex("477abbacd4113f2e6b100526222eedd953c26a64"));
        byte[] second = hex("03cb219f69f1b49468bd563239a86667e74a06fcba69ac50a08a5cbc42a5808e99");
        filter.insert(second);
        filter.insert(Hash160.of(second));
        Transaction walletTx = Transaction.fromHex("01000000010000000000000000000000000000000000000000000000000000000000"
                + "000000ffffffff0d038754030114062f503253482fffffffff01c05e559500000000232103cb219f69f1b49468bd563239a86667"
                + "e74a06fcba69ac50a08a5cbc42a5808e99ac00000000");
        assertEquals("3ce8339eb44fd3b502713efaa2b25ccce56e8822b0563b609b961a4763cc0864", walletTx.txid().toString());
        filter.insertOutPoint(new OutPoint(walletTx.txid(), 0));
        assertEquals("082ae5edc8e51d4a03080000000000000002", Hex.encode(filter.toFilterLoad()));
    }

    /**
     * bitcoin/bitcoin test/functional/p2p_filter.py watch_filter_init (e3f416dbf7): (10, 1e-6, 0, UPDATE_ALL) with the
     * 20-byte push of a914ff…ff87 inserted.
     */
    @Test
    void publishedFunctionalTestFilter() {
        Bip37BloomFilter filter = Bip37BloomFilter.fromElementsAndRate(10, 0.000001, 0, 1);
        filter.insert(hex("ff".repeat(20)));
        assertEquals("400008008000002000c000200400082400048000002000000000800000400002402000", Hex.encode(filter.data()));
        assertEquals(19, filter.hashFunctionCount());
    }

    /**
     * btcd btcutil/bloom/filter_test.go TestFilterFPRange (2c67bc29ce): Core's own formulas give the same bytes for p
     * = 1.0 (0 bytes, 0 hash functions) and p = 1e-9 (btcd's clamp; the rate itself is valid for us).
     */
    @Test
    void publishedFalsePositiveRangeVectors() {
        byte[] item = Vectors.uint256("02981fa052f0481dbc5868f4fc2166035a10f27a03cfd2de67326471df5bc041")
                .internalBytes();
        Bip37BloomFilter one = Bip37BloomFilter.fromElementsAndRate(1, 1.0, 0, 1);
        one.insert(item);
        assertEquals("00000000000000000001", Hex.encode(one.toFilterLoad()));
        Bip37BloomFilter tiny = Bip37BloomFilter.fromElementsAndRate(1, 1e-9, 0, 1);
        tiny.insert(item);
        assertEquals("0566d97a91a91b0000000000000001", Hex.encode(tiny.toFilterLoad()));
    }

    /**
     * Core's sizes, spec digest §2.2 (checked there against the published vectors). (9, 0.01) and (5, 0.05) are where
     * Core's integer division gives one hash function fewer than bitcoinj's and btcd's floating point. (1, 1e-20) and
     * (100, 1e-20) give 60 and 65 by the formula, which Core cuts to MAX_HASH_FUNCS = 50 (computed with Core's
     * expression in C doubles).
     */
    @ParameterizedTest
    @CsvSource({
        "3, 0.01, 3, 5", "2, 0.001, 3, 8", "10, 0.000001, 35, 19", "5, 0.001, 8, 8", "8, 0.001, 14, 9",
        "1, 1e-9, 5, 27", "9, 0.01, 10, 5", "5, 0.05, 3, 2", "1, 0.1, 0, 0", "1, 1.0, 0, 0",
        "20000, 0.001, 35943, 9", "100000, 0.0001, 36000, 1", "1000000, 0.5, 36000, 0",
        "1, 1e-20, 11, 50", "100, 1e-20, 1198, 50"
    })
    void coreSizingFormulas(long n, double p, int bytes, int hashFunctions) {
        Bip37BloomFilter filter = Bip37BloomFilter.fromElementsAndRate(n, p, 0, 0);
        assertEquals(bytes, filter.byteLength());
        assertEquals(hashFunctions, filter.hashFunctionCount());
    }

    @Test
    void invalidParametersAreRefusedWithTheValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Bip37BloomFilter.fromElementsAndRate(0, 0.01, 0, 0));
        assertEquals("nElements is 0; it must be 1..4294967295 (Core divides by it)", e.getMessage());
        for (double p : new double[] {0, -0.5, 1.0000001, Double.NaN, Double.POSITIVE_INFINITY}) {
            e = assertThrows(IllegalArgumentException.class, () -> Bip37BloomFilter.fromElementsAndRate(10, p, 0, 0));
            assertEquals("nFPRate is " + p + "; it must be in (0, 1]", e.getMessage());
        }
        e = assertThrows(IllegalArgumentException.class, () -> Bip37BloomFilter.fromElementsAndRate(3, 0.01, 0, 256));
        assertEquals("nFlags is 256; it is one byte, 0..255", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Bip37BloomFilter.fromParts(new byte[36001], 1, 0, 0));
        assertEquals("filter is 36001 bytes; BIP37 allows at most 36000", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Bip37BloomFilter.fromParts(new byte[1], 51, 0, 0));
        assertEquals("filter has 51 hash functions; BIP37 allows at most 50", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Bip37BloomFilter.fromParts(new byte[1], -1, 0, 0));
        assertEquals("filter has -1 hash functions; the count is 0 or more", e.getMessage());
    }

    /** nFlags is Core's uint8: -1 is no byte, refused by both factories as 256 is, and 255 is kept whole. */
    @Test
    void negativeFlagsAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Bip37BloomFilter.fromParts(new byte[1], 1, 0, -1));
        assertEquals("nFlags is -1; it is one byte, 0..255", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Bip37BloomFilter.fromElementsAndRate(3, 0.01, 0, -1));
        assertEquals("nFlags is -1; it is one byte, 0..255", e.getMessage());
        assertEquals(255, Bip37BloomFilter.fromParts(new byte[1], 1, 0, 255).flags());
    }

    /**
     * Core's nElements is an unsigned int: 4294967295 is a count it takes (and divides by), 4294967296 is none. At
     * (4294967295, 0.9999999) Core sizes 893 bits, 111 bytes, and (888 / 4294967295) · ln 2 truncates to 0 hash
     * functions: a match-all filter of 111 bytes.
     */
    @Test
    void nElementsTakesEveryUint32() {
        Bip37BloomFilter largest = Bip37BloomFilter.fromElementsAndRate(0xffffffffL, 0.9999999, 0, 0);
        assertEquals(111, largest.byteLength());
        assertEquals(0, largest.hashFunctionCount());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Bip37BloomFilter.fromElementsAndRate(0x100000000L, 0.9999999, 0, 0));
        assertEquals("nElements is 4294967296; it must be 1..4294967295 (Core divides by it)", e.getMessage());
    }

    /** Current Core: empty vData matches everything and ignores inserts (CVE-2013-5700 fix); btcd differs. */
    @Test
    void emptyFilterMatchesAll() {
        Bip37BloomFilter empty = Bip37BloomFilter.fromParts(new byte[0], 1, 0, 1);
        empty.insert(hex("letstrytocrashthisnode".chars().mapToObj(c -> String.format("%02x", c))
                .reduce("", String::concat)));
        assertTrue(empty.contains(hex("00")));
        assertTrue(empty.matchesAll());
        assertTrue(empty.isRelevantAndUpdate(Vectors.tx("tx_b4749f")));
        assertEquals("00010000000000000001", Hex.encode(empty.toFilterLoad()));
        assertEquals(0, empty.setBitCount());
    }

    /** nHashFuncs 0 on a non-empty filter: the probe loop never runs, so contains is true (Core), btcd says false. */
    @Test
    void zeroHashFunctionsMatchAll() {
        Bip37BloomFilter filter = Bip37BloomFilter.fromParts(new byte[] {0}, 0, 0, 0);
        assertTrue(filter.contains(hex("74657374")));
        assertTrue(filter.matchesAll());
    }

    @Test
    void flagsAreMaskedButKeptWhole() {
        Bip37BloomFilter filter = Bip37BloomFilter.fromParts(new byte[] {1}, 1, 0, 0x05);
        assertEquals(Bip37UpdateMode.ALL, filter.updateMode());
        assertEquals(0x05, filter.flags());
        assertTrue(Hex.encode(filter.toFilterLoad()).endsWith("05"));
        assertEquals(Bip37UpdateMode.NONE, Bip37BloomFilter.fromParts(new byte[] {1}, 1, 0, 3).updateMode());
        assertEquals(Bip37UpdateMode.P2PUBKEY_ONLY, Bip37BloomFilter.fromParts(new byte[] {1}, 1, 0, 0xfe)
                .updateMode());
    }

    @Test
    void hashesAreInsertedInInternalOrder() {
        Hash256 txid = Vectors.uint256("b4749f017444b051c44dfd2720e88f314ff94f3dd6d56d40ef65854fcd7fff6b");
        Bip37BloomFilter filter = Bip37BloomFilter.fromElementsAndRate(10, 0.000001, 0, 0);
        filter.insert(txid);
        assertTrue(filter.contains(hex("6bff7fcd4f8565ef406dd5d63d4ff94f318fe82027fd4dc451b04474019f74b4")));
        assertFalse(filter.contains(txid.displayBytes()));
        assertTrue(filter.contains(txid));
    }

    @Test
    void outpointsAreTheir36ByteSerialization() {
        OutPoint outPoint = new OutPoint(Sha256d.hash(new byte[] {7}), 0xfffffffeL);
        Bip37BloomFilter filter = Bip37BloomFilter.fromElementsAndRate(10, 0.000001, 0, 0);
        filter.insertOutPoint(outPoint);
        assertTrue(filter.contains(outPoint.toBytes()));
        assertTrue(filter.containsOutPoint(outPoint));
        assertFalse(filter.containsOutPoint(new OutPoint(outPoint.txid(), 0)));
    }

    @Test
    void sliceInsertEqualsWholeArrayInsert() {
        byte[] padded = hex("aa" + ITEM1 + "bb");
        Bip37BloomFilter a = Bip37BloomFilter.fromElementsAndRate(3, 0.01, 0, 1);
        Bip37BloomFilter b = a.copy();
        a.insert(padded, 1, 20);
        b.insert(hex(ITEM1));
        assertEquals(a, b);
        assertTrue(a.contains(padded, 1, 20));
    }

    /** A slice outside the array is refused alike by every filter, also by the match-all ones that hash nothing. */
    @Test
    void slicesOutsideTheArrayAreRefusedByEveryFilter() {
        byte[] item = new byte[4];
        for (Bip37BloomFilter filter : new Bip37BloomFilter[] {Bip37BloomFilter.fromParts(new byte[3], 5, 0, 0),
            Bip37BloomFilter.fromParts(new byte[0], 5, 0, 0), Bip37BloomFilter.fromParts(new byte[3], 0, 0, 0)}) {
            IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
                    () -> filter.contains(item, 2, 3), filter.toString());
            assertEquals("Range [2, 2 + 3) out of bounds for length 4", e.getMessage());
            e = assertThrows(IndexOutOfBoundsException.class, () -> filter.insert(item, -1, 2), filter.toString());
            assertEquals("Range [-1, -1 + 2) out of bounds for length 4", e.getMessage());
        }
    }

    @Test
    void copyIsIndependentAndEqualityCoversEveryField() {
        Bip37BloomFilter filter = Bip37BloomFilter.fromElementsAndRate(3, 0.01, 0, 1);
        Bip37BloomFilter copy = filter.copy();
        assertEquals(filter, copy);
        assertEquals(filter.hashCode(), copy.hashCode());
        copy.insert(hex(ITEM1));
        assertNotEquals(filter, copy);
        assertFalse(filter.contains(hex(ITEM1)));
        assertNotEquals(filter, Bip37BloomFilter.fromElementsAndRate(3, 0.01, 1, 1));
        assertNotEquals(filter, Bip37BloomFilter.fromElementsAndRate(3, 0.01, 0, 2));
        assertEquals("Bip37BloomFilter{3 bytes, nHashFuncs 5, nTweak 0x0, nFlags 1 (ALL), vData 000000}",
                filter.toString());
    }

    @Test
    void randomTweakComesFromTheGenerator() {
        SecureRandom random = new SecureRandom();
        Bip37BloomFilter a = Bip37BloomFilter.withRandomTweak(100, 0.001, Bip37UpdateMode.ALL, random);
        assertEquals(1, a.flags());
        Bip37BloomFilter seeded = Bip37BloomFilter.withRandomTweak(100, 0.001, Bip37UpdateMode.NONE,
                new SecureRandom() {
                    private static final long serialVersionUID = 1L;

                    @Override
                    public int nextInt() {
                        return 0x80000001;
                    }
                });
        assertEquals(0x80000001L, seeded.tweakUnsigned());
        assertEquals(0, seeded.flags());
    }

    /** (X/m)^k from the real fill: 0 when empty, 1 for match-all, and near the design rate at capacity. */
    @Test
    void expectedFalsePositiveRateFromTheFill() {
        Bip37BloomFilter filter = Bip37BloomFilter.fromElementsAndRate(1000, 0.01, 0, 0);
        assertEquals(0.0, filter.expectedFalsePositiveRate());
        Random random = new Random(5);
        byte[] item = new byte[32];
        for (int i = 0; i < 1000; i++) {
            random.nextBytes(item);
            filter.insert(item);
        }
        double rate = filter.expectedFalsePositiveRate();
        assertTrue(rate > 0.005 && rate < 0.02, "rate " + rate);
        assertEquals(Math.pow(filter.setBitCount() / (8.0 * filter.byteLength()), filter.hashFunctionCount()), rate);
        assertEquals(1.0, Bip37BloomFilter.fromParts(new byte[0], 3, 0, 0).expectedFalsePositiveRate());
        assertEquals(1.0, Bip37BloomFilter.fromParts(new byte[4], 0, 0, 0).expectedFalsePositiveRate());
    }

    /**
     * contains asks every one of the nHashFuncs probes: with all bits set but the one probe j of an item points at,
     * the item is not contained, for each j (a contains that stopped one probe short, or skipped the first, would say
     * yes). The positions are computed here as Core's Hash does, MurmurHash3(j · 0xFBA4C795 + nTweak) mod 8·bytes.
     */
    @ParameterizedTest
    @CsvSource({"1, 5", "2, 5", "5, 17", "9, 40", "13, 300", "50, 36000"})
    void containsNeedsEveryProbe(int hashFunctions, int bytes) {
        int tweak = 0x9e3779b9;
        byte[] item = hex(ITEM2);
        for (int j = 0; j < hashFunctions; j++) {
            long index = Integer.toUnsignedLong(Murmur3.x86_32(j * Bip37BloomFilter.SEED_STEP + tweak, item))
                    % (8L * bytes);
            byte[] data = new byte[bytes];
            Arrays.fill(data, (byte) 0xff);
            data[(int) (index >>> 3)] &= (byte) ~(1 << (index & 7));
            Bip37BloomFilter filter = Bip37BloomFilter.fromParts(data, hashFunctions, tweak, 0);
            assertFalse(filter.contains(item), "probe " + j + " of " + hashFunctions + " at bit " + index);
        }
    }

    /** An m that is not a multiple of 64 and seeds above 2^31: unsigned modulo, never a negative index. */
    @Test
    void oddSizesAndHighTweaksStayInRange() {
        Random random = new Random(17);
        Bip37BloomFilter filter = Bip37BloomFilter.fromParts(new byte[13], 17, 0xfffffff0, 1);
        byte[] item = new byte[7];
        for (int i = 0; i < 2000; i++) {
            random.nextBytes(item);
            filter.insert(item);
            assertTrue(filter.contains(item));
        }
        assertEquals(104, filter.setBitCount());
    }
}
