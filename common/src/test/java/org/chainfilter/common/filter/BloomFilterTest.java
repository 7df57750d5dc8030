package org.chainfilter.common.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.chainfilter.common.Hex;
import org.chainfilter.common.bloom.IndexStrategy;
import org.chainfilter.common.bloom.KeyEncoder;
import org.chainfilter.common.math.BloomMath;
import org.chainfilter.common.math.Shape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BloomFilterTest {

    private static byte[] randomKey(SplittableRandom random, int length) {
        byte[] key = new byte[length];
        random.nextBytes(key);
        return key;
    }

    @Test
    void noFalseNegativesOverAMillionRandomKeys() {
        int n = 1_000_000;
        BloomFilter<byte[]> filter = BloomFilter.create(KeyEncoder.bytes(), n, 0.01);
        SplittableRandom random = new SplittableRandom(2024);
        for (int i = 0; i < n; i++) {
            filter.put(randomKey(random, 32));
        }
        SplittableRandom replay = new SplittableRandom(2024);
        for (int i = 0; i < n; i++) {
            byte[] key = randomKey(replay, 32);
            if (!filter.mightContain(key)) {
                throw new AssertionError("false negative for key " + i + ": " + Hex.encode(key));
            }
        }
        // the fill-based estimates track what was put
        assertEquals(n, filter.approximateElementCount(), n * 0.01);
        assertEquals(BloomMath.falsePositiveRate(n, filter.shape().bitCount(), 7), filter.expectedFpp(), 0.0005);
    }

    /**
     * Measured rate over 4 * 10^6 probes never put (values disjoint from the keys put) within 10% of the a-priori
     * {@code (1 - e^(-kn/m))^k}. With a fixed seed the test is deterministic; the bound is real: at p = 0.1% the
     * count of false positives is about 4000 with a standard deviation of about 63 (1.6%), so 10% is six deviations,
     * while a biased index derivation (positions from 32 bits, or a broken reduction) misses it by far more.
     */
    @ParameterizedTest
    @ValueSource(doubles = {0.01, 0.001})
    void measuredFalsePositiveRateIsWithinTenPercentOfTheAPrioriRate(double rate) {
        int n = 1_000_000;
        BloomFilter<Long> filter = BloomFilter.create(KeyEncoder.longs(), n, rate);
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < n; i++) {
            filter.putLong(random.nextLong() | 1); // odd values are put
        }
        int probes = 4_000_000;
        long falsePositives = 0;
        for (int i = 0; i < probes; i++) {
            if (filter.mightContainLong(random.nextLong() & ~1L)) { // even values never were
                falsePositives++;
            }
        }
        double measured = (double) falsePositives / probes;
        double aPriori = filter.shape().falsePositiveRate(n);
        assertEquals(aPriori, measured, 0.1 * aPriori, "measured " + measured + " vs a-priori " + aPriori);
    }

    /**
     * A filter for few items at a low rate meets its rate. Enhanced double hashing fixes all k positions by
     * {@code (h1 mod m, h2 mod m)}, m² sequences: a key that shares its pair with one put is positive whatever the
     * other bits, a floor of about {@code n/m²} under the rate, above {@code p} once {@code n < 1/(p (m/n)²)} (27 items
     * at 10^-4, 1,200 at 10^-6, 68,000 at 10^-8). Measured with it, against {@code (X/m)^k} of the same bits: 30 items
     * at 10^-4 gave 1.9 × 10^-4 against 1.0 × 10^-4 (this test), 1,000 items at 10^-8 gave 7.8 × 10^-7, 78 times the
     * rate asked. The default strategy, congruential hashing, derives the positions from the whole 128-bit hash.
     */
    @Test
    void aSmallFilterAtALowRateMeetsItsRate() {
        for (long n : new long[] {30, 100}) {
            BloomFilter<Long> filter = BloomFilter.create(KeyEncoder.longs(), n, 1e-4);
            for (long i = 0; i < n; i++) {
                filter.putLong(i);
            }
            long probes = 8_000_000;
            long falsePositives = 0;
            for (long i = 0; i < probes; i++) {
                falsePositives += filter.mightContainLong((1L << 40) + i) ? 1 : 0;
            }
            double measured = (double) falsePositives / probes;
            assertEquals(filter.expectedFpp(), measured, 0.15 * filter.expectedFpp(), n + " items, " + filter);
        }
    }

    @Test
    void putSaysWhetherABitChanged() {
        BloomFilter<CharSequence> filter = BloomFilter.create(KeyEncoder.chars(), 100, 0.01);
        assertTrue(filter.put("alpha"));
        assertFalse(filter.put("alpha"));
        assertFalse(filter.put(new StringBuilder("alpha")), "same chars, same key");
        assertTrue(filter.mightContain(new StringBuilder("alpha")));
        assertTrue(filter.put("beta"));
    }

    @Test
    void oneBitFilter() {
        BloomFilter<byte[]> filter = BloomFilter.create(KeyEncoder.bytes(), Shape.of(1, 3));
        assertFalse(filter.mightContain(new byte[] {(byte) 0x80}));
        assertTrue(filter.put(new byte[] {(byte) 0x80}));
        assertFalse(filter.put(new byte[] {1}), "the only bit is already set");
        assertTrue(filter.mightContain(new byte[] {42}));
        assertEquals(1.0, filter.expectedFpp());
        assertEquals(Long.MAX_VALUE, filter.approximateElementCount());
    }

    @Test
    void longsAndTheirBytesAreTheSameKey() {
        BloomFilter<byte[]> filter = BloomFilter.create(KeyEncoder.bytes(), 1000, 0.001);
        filter.putLong(0x8070605040302010L);
        assertTrue(filter.mightContain(Hex.decode("1020304050607080")));
        assertFalse(filter.put(Hex.decode("1020304050607080")));
    }

    /**
     * Golden bytes of a hand-checkable shape: m = 100 (not a multiple of 64: two words, 28 bits of the second
     * unused), k = 17, keys with negative bytes. Header: "CFBF", version 01, strategy 02, k 0x11, m 0x64 as 8 bytes.
     * A change of the hash, the index sequence or the layout must fail this test.
     */
    @Test
    void goldenBinaryForm() {
        BloomFilter<byte[]> filter = BloomFilter.create(KeyEncoder.bytes(), Shape.of(100, 17));
        filter.put(Hex.decode("ff80"));
        filter.put(Hex.decode("00112233445566778899aabbccddeeff00"));
        byte[] form = filter.toByteArray();
        assertEquals("43464246" + "01" + "02" + "11" + "0000000000000064" + GOLDEN_WORDS, Hex.encode(form));
        assertEquals(form.length, filter.serializedSize());
        assertEquals(filter, BloomFilter.fromByteArray(form, KeyEncoder.bytes()));
    }

    // Computed outside Java (Python: MurmurHash3 x64_128 and CongruentialHashing's recurrence).
    private static final String GOLDEN_WORDS = "840a221c120e6a06" + "00000000418180e9";

    /**
     * A form written with enhanced double hashing (strategy 01, the default before congruential hashing) is read with
     * it: the golden form of that time finds its keys and is written back unchanged.
     */
    @Test
    void aFormOfEnhancedDoubleHashingIsReadWithIt() {
        byte[] form = Hex.decode("43464246" + "01" + "01" + "11" + "0000000000000064" + "828808589d8002c8"
                + "00000000288ac988");
        BloomFilter<byte[]> filter = BloomFilter.fromByteArray(form, KeyEncoder.bytes());
        assertEquals(org.chainfilter.common.bloom.EnhancedDoubleHashing.INSTANCE, filter.indexStrategy());
        assertTrue(filter.mightContain(Hex.decode("ff80")));
        assertTrue(filter.mightContain(Hex.decode("00112233445566778899aabbccddeeff00")));
        assertEquals(Hex.encode(form), Hex.encode(filter.toByteArray()));
        assertFalse(filter.isCompatible(BloomFilter.create(KeyEncoder.bytes(), Shape.of(100, 17))));
    }

    @Test
    void roundTripKeepsAnswersAndEstimates() throws IOException {
        BloomFilter<CharSequence> filter = BloomFilter.create(KeyEncoder.chars(), 5000, 0.02);
        for (int i = 0; i < 3000; i++) {
            filter.put("element-" + i);
        }
        BloomFilter<CharSequence> back = BloomFilter.readFrom(
                new ByteArrayInputStream(filter.toByteArray()), KeyEncoder.chars(), filter.serializedSize());
        assertEquals(filter, back);
        assertEquals(filter.hashCode(), back.hashCode());
        assertEquals(filter.setBitCount(), back.setBitCount());
        assertEquals(filter.approximateElementCount(), back.approximateElementCount());
        for (int i = 0; i < 3000; i++) {
            assertTrue(back.mightContain("element-" + i));
        }
    }

    @Test
    void mergeIsTheUnion() {
        BloomFilter<CharSequence> a = BloomFilter.create(KeyEncoder.chars(), 1000, 0.01);
        BloomFilter<CharSequence> b = BloomFilter.create(KeyEncoder.chars(), 1000, 0.01);
        for (int i = 0; i < 400; i++) {
            a.put("a" + i);
            b.put("b" + i);
        }
        long bitsA = a.setBitCount();
        long bitsB = b.setBitCount();
        a.merge(b);
        for (int i = 0; i < 400; i++) {
            assertTrue(a.mightContain("a" + i));
            assertTrue(a.mightContain("b" + i));
        }
        assertEquals(a.setBitCount(), a.copy().setBitCount());
        assertEquals(800, a.approximateElementCount(), 24);
        assertEquals(0, BloomMath.estimatedIntersectionSize(bitsA, bitsB, a.setBitCount(), 9586, 7), 20);
    }

    /** Merging is exactly OR: the merge of A and B has the bits of one filter that was given both sets. */
    @Test
    void mergeEqualsTheFilterOfTheUnion() {
        Shape shape = Shape.of(5000, 5);
        BloomFilter<byte[]> a = BloomFilter.create(KeyEncoder.bytes(), shape);
        BloomFilter<byte[]> b = BloomFilter.create(KeyEncoder.bytes(), shape);
        BloomFilter<byte[]> both = BloomFilter.create(KeyEncoder.bytes(), shape);
        SplittableRandom random = new SplittableRandom(99);
        for (int i = 0; i < 700; i++) {
            byte[] key = randomKey(random, 1 + random.nextInt(40));
            (i % 3 == 0 ? a : b).put(key);
            both.put(key);
        }
        a.merge(b);
        assertEquals(both, a);
        assertEquals(both.setBitCount(), a.setBitCount());
    }

    @Test
    void mergeRefusesAnotherIndexStrategy() {
        IndexStrategy other = new IndexStrategy() {
            @Override
            public int id() {
                return 99;
            }

            @Override
            public boolean forEachIndex(long h1, long h2, int k, long m, java.util.function.LongPredicate position) {
                return position.test(0);
            }

            @Override
            public String toString() {
                return "FirstBitOnly";
            }
        };
        BloomFilter<byte[]> a = BloomFilter.create(KeyEncoder.bytes(), Shape.of(64, 2));
        BloomFilter<byte[]> b = BloomFilter.create(KeyEncoder.bytes(), Shape.of(64, 2), other);
        assertFalse(a.isCompatible(b));
        assertEquals("cannot merge a filter with index strategy FirstBitOnly into one with CongruentialHashing",
                assertThrows(IllegalArgumentException.class, () -> a.merge(b)).getMessage());
        // the default allSet/setAll of a strategy that only gives forEachIndex still work
        assertTrue(b.put(new byte[] {1}));
        assertTrue(b.mightContain(new byte[] {2}));
        assertEquals(1, b.setBitCount());
    }

    @Test
    void mergeRefusesIncompatibleFilters() {
        BloomFilter<byte[]> a = BloomFilter.create(KeyEncoder.bytes(), Shape.of(1000, 7));
        assertEquals("cannot merge a filter of Shape[m=1001, k=7] into one of Shape[m=1000, k=7]",
                assertThrows(IllegalArgumentException.class,
                        () -> a.merge(BloomFilter.create(KeyEncoder.bytes(), Shape.of(1001, 7)))).getMessage());
        assertEquals("cannot merge a filter of Shape[m=1000, k=6] into one of Shape[m=1000, k=7]",
                assertThrows(IllegalArgumentException.class,
                        () -> a.merge(BloomFilter.create(KeyEncoder.bytes(), Shape.of(1000, 6)))).getMessage());
        KeyEncoder<byte[]> other = KeyEncoder.viaBytes(bytes -> bytes);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> a.merge(BloomFilter.create(other, Shape.of(1000, 7))));
        assertTrue(e.getMessage().startsWith("cannot merge a filter with key encoder "), e.getMessage());
        assertTrue(e.getMessage().endsWith(" into one with KeyEncoder.bytes(); pass the same encoder instance to both"),
                e.getMessage());
    }

    @Test
    void copyIsIndependentAndClearEmpties() {
        BloomFilter<Long> filter = BloomFilter.create(KeyEncoder.longs(), 100, 0.01);
        filter.put(1L);
        BloomFilter<Long> copy = filter.copy();
        copy.put(2L);
        assertEquals(filter, filter.copy());
        assertNotEquals(filter, copy);
        assertTrue(copy.mightContain(1L));
        filter.clear();
        assertEquals(0, filter.setBitCount());
        assertEquals(0.0, filter.expectedFpp());
        assertFalse(filter.mightContain(1L));
        assertTrue(copy.mightContain(1L));
        assertEquals("BloomFilter[m=959, k=7, setBits=0, strategy=CongruentialHashing, encoder=KeyEncoder.longs()]",
                filter.toString());
    }

    @Test
    void oversizedInputIsRefusedBeforeAllocation() {
        // m = 2^40 bits claims 137438953487 bytes; only the 15-byte header is present
        byte[] header = Hex.decode("43464246" + "01" + "01" + "07" + "0000010000000000");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BloomFilter.readFrom(new ByteArrayInputStream(header), KeyEncoder.bytes(), 1 << 20));
        assertEquals("Bloom filter is 137438953487 bytes; the caller allows at most 1048576", e.getMessage());
        assertEquals("Bloom filter header declares 137438953487 bytes; 15 are given",
                assertThrows(IllegalArgumentException.class,
                        () -> BloomFilter.fromByteArray(header, KeyEncoder.bytes())).getMessage());
        // m = 2^63 - 1 must not overflow the size computation
        byte[] huge = Hex.decode("43464246" + "01" + "01" + "07" + "7fffffffffffffff");
        assertEquals("Bloom filter is 1152921504606846991 bytes; the caller allows at most " + (1L << 40),
                assertThrows(IllegalArgumentException.class, () -> BloomFilter.readFrom(
                        new ByteArrayInputStream(huge), KeyEncoder.bytes(), 1L << 40)).getMessage());
        assertEquals("bit count is " + Long.MAX_VALUE + "; a filter holds at most 137438952896 bits",
                assertThrows(IllegalArgumentException.class, () -> BloomFilter.readFrom(
                        new ByteArrayInputStream(huge), KeyEncoder.bytes(), Long.MAX_VALUE)).getMessage());
    }

    @Test
    void aStreamThatClaimsMoreThanItHoldsEndsInEofWithoutTheFullAllocation() {
        // m = 2^36 bits (8 GiB of words) under a permissive bound, but the stream stops after the header
        byte[] header = Hex.decode("43464246" + "01" + "01" + "07" + "0000001000000000");
        InputStream in = new ByteArrayInputStream(header);
        assertThrows(EOFException.class, () -> BloomFilter.readFrom(in, KeyEncoder.bytes(), Long.MAX_VALUE - 100));
    }

    @Test
    void malformedHeadersAreRefusedWithTheirValue() {
        assertRefused("464246430101070000000000000040" + "0000000000000000",
                "magic is 0x46424643; a chainfilter Bloom filter starts with 0x43464246 (\"CFBF\")");
        assertRefused("434642460201070000000000000040" + "0000000000000000",
                "Bloom filter format version is 2; this reader knows version 1");
        assertRefused("434642460109070000000000000040" + "0000000000000000",
                "index strategy id is 9; the known ids are 1 (enhanced double hashing) and 2 (congruential hashing)");
        assertRefused("434642460101000000000000000040" + "0000000000000000",
                "hash function count is 0; it must be within [1, 255]");
        assertRefused("434642460101070000000000000000", "bit count is 0; it must be at least 1");
        assertRefused("43464246010107ffffffffffffffff", "bit count is -1; it must be at least 1");
        assertRefused("434642460101070000000000000040" + "0000000000000000" + "00",
                "Bloom filter of 23 bytes is followed by 1 more bytes");
        assertRefused("434642460101070000000000000040" + "00000000000000",
                "Bloom filter header declares 23 bytes; 22 are given");
        assertRefused("4346424601", "Bloom filter is truncated: 5 bytes end inside the 15-byte header");
        // m = 63: the top bit of the only word is past the end
        assertRefused("43464246010107000000000000003f" + "8000000000000000", "bits at or above 63 are set");
    }

    private static void assertRefused(String hex, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BloomFilter.fromByteArray(Hex.decode(hex), KeyEncoder.bytes()));
        assertEquals(message, e.getMessage());
    }

    @Test
    void creationRefusesBadArguments() {
        assertEquals("false-positive rate is 0.0; it must be strictly between 0 and 1",
                assertThrows(IllegalArgumentException.class,
                        () -> BloomFilter.create(KeyEncoder.bytes(), 10, 0.0)).getMessage());
        assertEquals("bit count is 9585058377368; a bit store holds at most 137438952896 bits",
                assertThrows(IllegalArgumentException.class,
                        () -> BloomFilter.create(KeyEncoder.bytes(), 1_000_000_000_000L, 0.01)).getMessage());
        assertEquals("expected element count is -5; it must be at least 1",
                assertThrows(IllegalArgumentException.class,
                        () -> BloomFilter.create(KeyEncoder.bytes(), -5, 0.01)).getMessage());
    }

    @Test
    void keysAreHashedByContent() {
        BloomFilter<byte[]> filter = BloomFilter.create(KeyEncoder.bytes(), 100, 0.01);
        filter.put("chainfilter".getBytes(StandardCharsets.US_ASCII));
        assertTrue(filter.mightContain("chainfilter".getBytes(StandardCharsets.US_ASCII)));
        assertTrue(filter.mightContain(ByteBuffer.allocate(11).put("chainfilter".getBytes(StandardCharsets.US_ASCII))
                .array()));
    }
}
