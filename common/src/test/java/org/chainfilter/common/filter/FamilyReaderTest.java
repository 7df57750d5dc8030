package org.chainfilter.common.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import org.chainfilter.common.Hex;
import org.chainfilter.common.bloom.KeyEncoder;
import org.chainfilter.common.math.Shape;
import org.junit.jupiter.api.Test;

/** The readers' refusals that the contract's generic corruption test does not name one by one. */
class FamilyReaderTest {

    private static ByteArrayInputStream in(String hex) {
        return new ByteArrayInputStream(Hex.decode(hex));
    }

    @Test
    void blockedReaderRefusesAProbeCountOutOfRange() {
        var e = assertThrows(IllegalArgumentException.class,
                () -> BlockedBloomFilter.readFrom(in("4346464d0303" + "19" + "00000001"), KeyEncoder.longs(), 1000));
        assertEquals("hash function count is 25; a blocked filter takes 1 to 24", e.getMessage());
    }

    @Test
    void blockedReaderRefusesAHugeBlockCountBeforeAllocating() {
        var e = assertThrows(IllegalArgumentException.class,
                () -> BlockedBloomFilter.readFrom(in("4346464d0303" + "06" + "0ffffff0"), KeyEncoder.longs(), 1 << 20));
        assertEquals("blocked Bloom filter is 17179868171 bytes; the caller allows at most 1048576", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> BlockedBloomFilter.readFrom(in("4346464d0303" + "06" + "ffffffff"), KeyEncoder.longs(), 1 << 20));
        assertEquals("block count is 4294967295; a blocked filter holds 1 to 268435454 blocks", e.getMessage());
    }

    /**
     * A header that declares the largest filter its kind holds (8 to 17 GB of words), under a caller's bound that
     * allows it, followed by nothing: the reader fails at the end of the stream having allocated about 1 MiB, not the
     * declared array (which exceeds the tests' 2 GB heap, so allocating it first fails with OutOfMemoryError).
     */
    @Test
    void aStreamThatClaimsTheLargestFilterEndsInEofWithoutTheFullAllocation() {
        assertThrows(EOFException.class, () -> CountingBloomFilter.readFrom(
                in("4346464d0101" + "01" + "07" + "00000007ffffff70"), KeyEncoder.longs(), Long.MAX_VALUE));
        assertThrows(EOFException.class, () -> ConcurrentBloomFilter.readFrom(
                in("4346464d0401" + "01" + "07" + "0000001ffffffdc0"), KeyEncoder.longs(), Long.MAX_VALUE));
        assertThrows(EOFException.class, () -> BlockedBloomFilter.readFrom(
                in("4346464d0303" + "06" + "0ffffffe"), KeyEncoder.longs(), Long.MAX_VALUE));
        assertThrows(EOFException.class, () -> CuckooFilter.readFrom(
                in("4346464d0501" + "10" + "0000000040000000" + "00".repeat(8 + 1 + 8 + 8)), KeyEncoder.longs(),
                Long.MAX_VALUE));
    }

    /** A form cut short is an EOFException that names the kind (DataInputStream's own has no message). */
    @Test
    void aTruncatedFormNamesItsKind() {
        var e = assertThrows(EOFException.class, () -> CountingBloomFilter.readFrom(
                in("4346464d0101" + "01" + "02" + "0000000000000003" + "00000000"), KeyEncoder.longs(), 100));
        assertEquals("counting Bloom filter binary form is truncated: the stream ends before the last byte the form"
                + " declares", e.getMessage());
        e = assertThrows(EOFException.class, () -> CuckooFilter.readFrom(in("4346464d05"), KeyEncoder.longs(), 100));
        assertEquals("cuckoo filter binary form is truncated: the stream ends before the last byte the form declares",
                e.getMessage());
        e = assertThrows(EOFException.class, () -> BloomFilter.readFrom(in(""), KeyEncoder.longs(), 100));
        assertEquals("Bloom filter binary form is truncated: the stream ends before the last byte the form declares",
                e.getMessage());
    }

    /**
     * A chain cut short inside a member names the member, whose reader named it first: the chain's reader passes an
     * {@link EOFException} that has a message unchanged (FamilyBinaryForm.namingTruncation). Renaming every end of
     * stream after the chain passed every test (from a mutation review).
     */
    @Test
    void aChainCutInsideAMemberNamesTheMember() {
        ScalableBloomFilter<Long> scalable = ScalableBloomFilter.create(KeyEncoder.longs(), 10, 0.01);
        GrowableCuckooFilter<Long> growable = GrowableCuckooFilter.create(KeyEncoder.longs(), 10, 0.01);
        for (long key = 1; key <= 5; key++) {
            scalable.put(key);
            growable.put(key);
        }
        byte[] stage = scalable.toByteArray();
        var e = assertThrows(EOFException.class, () -> ScalableBloomFilter.readFrom(
                new ByteArrayInputStream(stage, 0, stage.length - 1), KeyEncoder.longs(), 1000));
        assertEquals("Bloom filter binary form is truncated: the stream ends before the last byte the form declares",
                e.getMessage());
        byte[] table = growable.toByteArray();
        e = assertThrows(EOFException.class, () -> GrowableCuckooFilter.readFrom(
                new ByteArrayInputStream(table, 0, table.length - 1), KeyEncoder.longs(), 1000));
        assertEquals("cuckoo filter binary form is truncated: the stream ends before the last byte the form declares",
                e.getMessage());
        // Cut before the first member, the chain names itself.
        e = assertThrows(EOFException.class, () -> ScalableBloomFilter.readFrom(
                new ByteArrayInputStream(stage, 0, FamilyBinaryForm.CHAIN_HEADER_BYTES - 1), KeyEncoder.longs(), 1000));
        assertEquals("scalable Bloom filter binary form is truncated: the stream ends before the last byte the form"
                + " declares", e.getMessage());
    }

    /**
     * The family's forms written with enhanced double hashing (strategy 01, the default before congruential hashing:
     * the golden forms of that time) are read with it, find their keys, write back unchanged, and go on working.
     */
    @Test
    void formsOfEnhancedDoubleHashingAreReadWithIt() throws Exception {
        String counting = "4346464d010101030000000000000025101300313010001100010110200000200000000000010001";
        CountingBloomFilter<Long> c = CountingBloomFilter.readFrom(in(counting), KeyEncoder.longs(), 100);
        for (long key : new long[] {7, 1, 2, 3, 4, -1}) {
            assertTrue(c.mightContain(key), "counting, key " + key);
        }
        assertEquals(counting, Hex.encode(c.toByteArray()));
        assertTrue(c.remove(1L));
        assertTrue(c.mightContain(7L) && c.mightContain(-1L));

        String concurrent = "4346464d0401011100000000000000645e9a2f3a0310a0e9000000062ef69c03";
        ConcurrentBloomFilter<Long> b = ConcurrentBloomFilter.readFrom(in(concurrent), KeyEncoder.longs(), 100);
        for (long key : new long[] {1, 2, 3, -1}) {
            assertTrue(b.mightContain(key), "concurrent, key " + key);
        }
        assertEquals(concurrent, Hex.encode(b.toByteArray()));

        String scalable = "4346464d02013fb999999999999a00000000000000020343464246010106000000000000001100000000000102514346"
                + "424601010600000000000000230000000365d052224346424601010600000000000000498000200083004132000000"
                + "0000000001";
        ScalableBloomFilter<Long> s = ScalableBloomFilter.readFrom(in(scalable), KeyEncoder.longs(), 1000);
        assertEquals(scalable, Hex.encode(s.toByteArray()));
        for (long key = -1; key < 200; key++) {
            s.put(key);
        }
        for (long key = -1; key < 200; key++) {
            assertTrue(s.mightContain(key), "scalable, key " + key);
        }
    }

    /**
     * A filter read from a form of strategy 1 keeps the strategy through {@code copy} and {@code clear}, and is not
     * equal to a new filter (strategy 2) with the same shape and cells: the two write different bytes and put the
     * same key on different positions. The contract test copies and compares only new filters, so a {@code copy} that
     * took the default strategy, or an {@code equals} that left the strategy out, passed every test.
     */
    @Test
    void formsOfEnhancedDoubleHashingKeepTheirStrategyThroughCopyAndClear() throws Exception {
        String counting = "4346464d010101030000000000000025101300313010001100010110200000200000000000010001";
        CountingBloomFilter<Long> c = CountingBloomFilter.readFrom(in(counting), KeyEncoder.longs(), 100);
        CountingBloomFilter<Long> countingCopy = c.copy();
        assertEquals(c, countingCopy);
        assertEquals(counting, Hex.encode(countingCopy.toByteArray()));
        assertTrue(countingCopy.remove(7L) && countingCopy.mightContain(7L) && countingCopy.mightContain(-1L));
        countingCopy.clear();
        String emptyCounting = "4346464d0101" + "01" + "03" + "0000000000000025" + "00".repeat(24);
        assertEquals(emptyCounting, Hex.encode(countingCopy.toByteArray()));
        assertNotEquals(CountingBloomFilter.withShape(KeyEncoder.longs(), Shape.of(37, 3)), countingCopy);

        String concurrent = "4346464d0401011100000000000000645e9a2f3a0310a0e9000000062ef69c03";
        ConcurrentBloomFilter<Long> b = ConcurrentBloomFilter.readFrom(in(concurrent), KeyEncoder.longs(), 100);
        ConcurrentBloomFilter<Long> concurrentCopy = b.copy();
        assertEquals(b, concurrentCopy);
        assertEquals(concurrent, Hex.encode(concurrentCopy.toByteArray()));
        concurrentCopy.clear();
        assertTrue(concurrentCopy.put(1L));
        ConcurrentBloomFilter<Long> fresh = ConcurrentBloomFilter.withShape(KeyEncoder.longs(), Shape.of(100, 17));
        assertTrue(fresh.put(1L));
        // The same key on other positions: the words after the 16-byte header differ.
        assertNotEquals(Hex.encode(fresh.toByteArray()).substring(32), Hex.encode(concurrentCopy.toByteArray())
                .substring(32));
        fresh.clear();
        concurrentCopy.clear();
        assertNotEquals(fresh, concurrentCopy);

        String bloom = "43464246010105000000000000004630102b4243030013000000000000000c";
        BloomFilter<Long> f = BloomFilter.fromByteArray(Hex.decode(bloom), KeyEncoder.longs());
        BloomFilter<Long> bloomCopy = f.copy();
        assertEquals(f, bloomCopy);
        assertEquals(bloom, Hex.encode(bloomCopy.toByteArray()));
        bloomCopy.merge(f);
        assertEquals(bloom, Hex.encode(bloomCopy.toByteArray()));
        bloomCopy.clear();
        BloomFilter<Long> empty = BloomFilter.create(KeyEncoder.longs(), Shape.of(70, 5));
        assertNotEquals(empty, bloomCopy);
        assertEquals(org.chainfilter.common.bloom.EnhancedDoubleHashing.INSTANCE, bloomCopy.indexStrategy());
    }

    @Test
    void countingReaderRefusesCountersPastTheEnd() {
        // 3 counters in one word; the fourth nibble is set.
        var e = assertThrows(IllegalArgumentException.class, () -> CountingBloomFilter.readFrom(
                in("4346464d0101" + "01" + "02" + "0000000000000003" + "0000000000001000"), KeyEncoder.longs(), 100));
        assertEquals("counters at or above 3 are non-zero", e.getMessage());
    }

    @Test
    void countingReaderRefusesAnotherIndexStrategy() {
        var e = assertThrows(IllegalArgumentException.class, () -> CountingBloomFilter.readFrom(
                in("4346464d0101" + "07" + "02" + "0000000000000003" + "0000000000000000"), KeyEncoder.longs(), 100));
        assertEquals("index strategy id is 7; a counting Bloom filter uses 1 (enhanced double hashing) or 2 (congruential"
                + " hashing)", e.getMessage());
    }

    @Test
    void concurrentReaderRefusesBitsPastTheEnd() {
        var e = assertThrows(IllegalArgumentException.class, () -> ConcurrentBloomFilter.readFrom(
                in("4346464d0401" + "01" + "02" + "0000000000000003" + "0000000000000008"), KeyEncoder.longs(), 100));
        assertEquals("bits at or above 3 are set", e.getMessage());
    }

    @Test
    void cuckooReaderRefusesAVictimOutsideTheTable() {
        String header = "4346464d0501" + "07" + "0000000000000002" + "0000000000000001" + "01";
        var e = assertThrows(IllegalArgumentException.class, () -> CuckooFilter.readFrom(
                in(header + "0000000000000002" + "0000000000000005" + "0000000000000000"), KeyEncoder.longs(), 100));
        assertEquals("victim (bucket 2, fingerprint 5) is outside the table of 2 buckets and 7-bit fingerprints",
                e.getMessage());
    }

    @Test
    void cuckooReaderRefusesABucketCountThatIsNotAPowerOfTwo() {
        var e = assertThrows(IllegalArgumentException.class, () -> CuckooFilter.readFrom(
                in("4346464d0501" + "07" + "0000000000000003"), KeyEncoder.longs(), 100));
        assertEquals("bucket count is 3; it must be a power of two from 1 to 1073741824 (the xor of partial-key hashing"
                + " needs one)", e.getMessage());
    }

    /**
     * Filters of another shape are not equal even when their words are: 100 and 101 counters or bits fill the same
     * words, and empty filters of k = 3 and 4 (or a blocked filter's k = 8 and 9) write the same zeros. Comparing the
     * words without the shape, or without k, passed every test (from a mutation review).
     */
    @Test
    void filtersOfAnotherShapeAreNotEqualEvenWithEqualWords() {
        KeyEncoder<Long> longs = KeyEncoder.longs();
        for (Shape other : new Shape[] {Shape.of(101, 3), Shape.of(100, 4)}) {
            assertNotEquals(CountingBloomFilter.withShape(longs, Shape.of(100, 3)),
                    CountingBloomFilter.withShape(longs, other), other.toString());
            assertNotEquals(ConcurrentBloomFilter.withShape(longs, Shape.of(100, 3)),
                    ConcurrentBloomFilter.withShape(longs, other), other.toString());
        }
        assertNotEquals(BlockedBloomFilter.withShape(longs, 2, 8), BlockedBloomFilter.withShape(longs, 2, 9));
        assertEquals(CountingBloomFilter.withShape(longs, Shape.of(100, 3)),
                CountingBloomFilter.withShape(longs, Shape.of(100, 3)));
    }

    /**
     * An index past either end is refused by name. Without the check below 0 a negative index passed every test (from
     * a mutation review): most fall outside the array anyway, but Long.MIN_VALUE read counter 0.
     */
    @Test
    void counterIndexOutsideTheFilterIsRefused() {
        CountingBloomFilter<Long> filter = CountingBloomFilter.withShape(KeyEncoder.longs(), Shape.of(10, 2));
        for (long index : new long[] {10, -1, Long.MIN_VALUE}) {
            var e = assertThrows(IndexOutOfBoundsException.class, () -> filter.counter(index));
            assertEquals("counter index " + index + " is outside [0, 10)", e.getMessage());
        }
    }

    /**
     * A chain of one member more than its kind allows (41 stages, 23 tables) is refused at the count, before any
     * member is sized. Allowing one more passed every test (from a mutation review).
     */
    @Test
    void aChainOfOneMemberTooManyIsRefusedAtTheCount() {
        String rateAndCapacity = "3f847ae147ae147b" + "0000000000000001"; // P = 0.01, n0 = 1
        var e = assertThrows(IllegalArgumentException.class, () -> ScalableBloomFilter.readFrom(
                in("4346464d0201" + rateAndCapacity + "29"), KeyEncoder.longs(), Long.MAX_VALUE));
        assertEquals("stage count is 41; it must be 1 to 40", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> GrowableCuckooFilter.readFrom(
                in("4346464d0601" + rateAndCapacity + "17"), KeyEncoder.longs(), Long.MAX_VALUE));
        assertEquals("table count is 23; it must be 1 to 22", e.getMessage());
    }

    /** A growable cuckoo filter's rate bound is checked as soon as it is read, before the fields after it. */
    @Test
    void growableCuckooRefusesABadRateBeforeReadingFurther() {
        var e = assertThrows(IllegalArgumentException.class, () -> GrowableCuckooFilter.readFrom(
                in("4346464d0601" + "3fe8000000000000"), KeyEncoder.longs(), 1 << 20));
        assertEquals("false-positive rate is 0.75; a growable cuckoo filter supports rates in [2e-8, 0.5]",
                e.getMessage());
    }
}
