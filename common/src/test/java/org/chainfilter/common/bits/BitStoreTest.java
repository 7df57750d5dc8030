package org.chainfilter.common.bits;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.LongFunction;
import org.chainfilter.common.Hex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class BitStoreTest {

    static List<LongFunction<BitStore>> kinds() {
        return List.of(LongArrayBitStore::new, AtomicBitStore::new);
    }

    @ParameterizedTest
    @MethodSource("kinds")
    void setReportsChangeAndGetSeesIt(LongFunction<BitStore> kind) {
        BitStore store = kind.apply(131); // not a multiple of 64: the last word is partial
        assertTrue(store.set(130));
        assertFalse(store.set(130));
        assertTrue(store.set(63));
        assertTrue(store.set(64));
        assertTrue(store.get(130) && store.get(63) && store.get(64));
        assertFalse(store.get(0));
        assertEquals(3, store.cardinality());
        assertEquals(3, store.wordCount());
        store.clear();
        assertEquals(0, store.cardinality());
    }

    @ParameterizedTest
    @MethodSource("kinds")
    void indicesOutsideTheStoreAreRefused(LongFunction<BitStore> kind) {
        BitStore store = kind.apply(100);
        var e = assertThrows(IndexOutOfBoundsException.class, () -> store.set(100));
        assertEquals("bit index 100 is outside [0, 100)", e.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> store.get(-1));
    }

    @Test
    void sizesOutsideTheLimitsAreRefused() {
        var e = assertThrows(IllegalArgumentException.class, () -> new LongArrayBitStore(0));
        assertEquals("bit count is 0; it must be at least 1", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new LongArrayBitStore(Long.MAX_VALUE));
    }

    /** BIP37's vData: bit i is 1 << (i & 7) of byte i >> 3. */
    @Test
    void lsbFirstLayoutIsBip37s() {
        BitStore store = new LongArrayBitStore(24);
        store.set(0);
        store.set(9);
        store.set(23);
        assertArrayEquals(Hex.decode("010280"), store.toBytes(ByteLayout.LSB_FIRST));
        assertEquals(store, LongArrayBitStore.fromBytes(Hex.decode("010280"), ByteLayout.LSB_FIRST));
    }

    /** Ethereum's bloom: bit k is 1 << (k & 7) of byte 255 - k/8 (the ERC-20 Transfer topic's bit 1443 → byte 75, 0x08). */
    @Test
    void bigEndianLayoutIsEthereums() {
        BitStore store = new LongArrayBitStore(2048);
        store.set(1443);
        store.set(0);
        byte[] bytes = store.toBytes(ByteLayout.BIG_ENDIAN);
        assertEquals(256, bytes.length);
        assertEquals(0x08, bytes[75]);
        assertEquals(0x01, bytes[255]);
        assertEquals(2, LongArrayBitStore.fromBytes(bytes, ByteLayout.BIG_ENDIAN).cardinality());
        assertEquals(store, AtomicBitStore.fromBytes(bytes, ByteLayout.BIG_ENDIAN));
    }

    @ParameterizedTest
    @MethodSource("kinds")
    void orAndMergeWordWise(LongFunction<BitStore> kind) {
        BitStore a = kind.apply(200);
        BitStore b = kind.apply(200);
        a.set(1);
        a.set(199);
        b.set(199);
        b.set(70);
        BitStore union = a.copy();
        union.or(b);
        assertEquals(3, union.cardinality());
        BitStore both = a.copy();
        both.and(b);
        assertEquals(1, both.cardinality());
        assertTrue(both.get(199));
        assertNotEquals(a, b);
        var e = assertThrows(IllegalArgumentException.class, () -> a.or(kind.apply(201)));
        assertEquals("cannot combine a store of 201 bits with one of 200 bits", e.getMessage());
    }

    /**
     * A size not a multiple of 8 takes a last, partial byte: 9 bits are 2 bytes, bit 8 in the second (LSB_FIRST) or the
     * first (BIG_ENDIAN). Rounding the byte count down passed every test (from a mutation review).
     */
    @Test
    void toBytesRoundsAPartialByteUp() {
        BitStore store = new LongArrayBitStore(9);
        store.set(8);
        assertEquals("0001", Hex.encode(store.toBytes(ByteLayout.LSB_FIRST)));
        assertEquals("0100", Hex.encode(store.toBytes(ByteLayout.BIG_ENDIAN)));
    }

    /**
     * Equal stores have the same size and every word the same: 65 and 100 clear bits (two words each) are not equal,
     * nor are two stores that differ only in their last word. Comparing the words alone, or all but the last, passed
     * every test (from a mutation review).
     */
    @ParameterizedTest
    @MethodSource("kinds")
    void equalStoresHaveTheSameSizeAndEveryWord(LongFunction<BitStore> kind) {
        assertNotEquals(kind.apply(65), kind.apply(100));
        assertFalse(BitStore.sameBits(kind.apply(65), kind.apply(100)));
        BitStore a = kind.apply(200);
        BitStore b = kind.apply(200);
        a.set(1);
        b.set(1);
        assertEquals(a, b);
        b.set(199);
        assertNotEquals(a, b);
        assertFalse(BitStore.sameBits(a, b));
    }

    /**
     * A bit store equals only another bit store of this library (so equality stays symmetric): a foreign BitStore of
     * the same bits is not equal to it. Comparing with any BitStore passed every test (from a mutation review).
     */
    @ParameterizedTest
    @MethodSource("kinds")
    void aStoreIsNotEqualToAForeignStoreOfTheSameBits(LongFunction<BitStore> kind) {
        BitStore foreign = hugeEmptyStore(64);
        assertTrue(BitStore.sameBits(kind.apply(64), foreign));
        assertNotEquals(kind.apply(64), foreign);
    }

    /**
     * and, like or, refuses a store of another size: 200 and 201 bits both take four words, so without the check the
     * words were silently combined (from a mutation review).
     */
    @ParameterizedTest
    @MethodSource("kinds")
    void andRefusesAStoreOfAnotherSize(LongFunction<BitStore> kind) {
        var e = assertThrows(IllegalArgumentException.class, () -> kind.apply(200).and(kind.apply(201)));
        assertEquals("cannot combine a store of 201 bits with one of 200 bits", e.getMessage());
    }

    /**
     * A negative index is refused with its value, whatever it is: without the check, Long.MIN_VALUE (whose word index
     * truncates to 0) read and set bit 0 (from a mutation review).
     */
    @ParameterizedTest
    @MethodSource("kinds")
    void aNegativeIndexIsRefusedWithItsValue(LongFunction<BitStore> kind) {
        BitStore store = kind.apply(100);
        var e = assertThrows(IndexOutOfBoundsException.class, () -> store.set(Long.MIN_VALUE));
        assertEquals("bit index -9223372036854775808 is outside [0, 100)", e.getMessage());
        e = assertThrows(IndexOutOfBoundsException.class, () -> store.get(-1));
        assertEquals("bit index -1 is outside [0, 100)", e.getMessage());
        assertEquals(0, store.cardinality());
    }

    /**
     * The largest store, 64 (Integer.MAX_VALUE - 8) bits, is the limit the message names; one bit more is refused
     * before anything is allocated. Refusing only from one word further on passed every test (from a mutation review).
     */
    @Test
    void aStoreOneBitPastTheLimitIsRefused() {
        var e = assertThrows(IllegalArgumentException.class, () -> new LongArrayBitStore(137_438_952_897L));
        assertEquals("bit count is 137438952897; a bit store holds at most 137438952896 bits", e.getMessage());
    }

    /**
     * fromWords takes exactly the words the size needs, accepts a full last word, and keeps its own copy: a third word
     * for 65 bits, refusing the top bit of a 128-bit store, and keeping the caller's array all passed every test (from
     * a mutation review).
     */
    @Test
    void fromWordsTakesExactlyTheWordsItNeedsAndCopiesThem() {
        var e = assertThrows(IllegalArgumentException.class, () -> LongArrayBitStore.fromWords(65, new long[3]));
        assertEquals("3 words given; 65 bits need exactly 2", e.getMessage());
        long[] words = {0, 1L << 63};
        LongArrayBitStore store = LongArrayBitStore.fromWords(128, words);
        assertTrue(store.get(127));
        words[0] = -1L;
        assertEquals(1, store.cardinality());
    }

    @Test
    void fromWordsRefusesStrayBitsPastTheEnd() {
        var e = assertThrows(IllegalArgumentException.class,
                () -> LongArrayBitStore.fromWords(65, new long[] {0, 2}));
        assertEquals("bits at or above 65 are set", e.getMessage());
        assertEquals(1, LongArrayBitStore.fromWords(65, new long[] {0, 1}).cardinality());
    }

    @Test
    void concurrentSettersLoseNoBit() throws InterruptedException {
        AtomicBitStore store = new AtomicBitStore(1 << 16);
        int threads = 8;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int offset = t;
            Thread worker = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                // Interleaved bits: every thread writes into every word, the case a non-atomic OR would lose.
                for (int i = offset; i < (1 << 16); i += threads) {
                    store.set(i);
                }
            });
            worker.start();
            workers.add(worker);
        }
        start.countDown();
        for (Thread worker : workers) {
            worker.join();
        }
        assertEquals(1 << 16, store.cardinality());
    }

    /**
     * toBytes of a store past 2^34 bits (more bytes than an array holds) is refused by its size: the int cast gave an
     * empty array for 2^35 bits and a negative size for 2^34 + 8 bits. A view of such a store, so nothing is allocated.
     */
    @Test
    void toBytesOfAStoreLargerThanAByteArrayIsRefused() {
        // 8 (Integer.MAX_VALUE - 8) + 1 bits: the first size past the limit (refusing only from one byte further on
        // passed every test, from a mutation review).
        long firstPastTheLimit = 8L * (Integer.MAX_VALUE - 8) + 1;
        for (long bits : new long[] {1L << 35, (1L << 34) + 8, 8L * Integer.MAX_VALUE, firstPastTheLimit}) {
            var e = assertThrows(IllegalStateException.class, () -> hugeEmptyStore(bits).toBytes(ByteLayout.LSB_FIRST));
            assertEquals("a store of " + bits + " bits is " + (bits + 7) / 8 + " bytes; a byte array holds at most "
                    + (Integer.MAX_VALUE - 8), e.getMessage());
        }
    }

    /** An all-clear store of {@code bits} bits that holds no words (only the default methods are under test). */
    private static BitStore hugeEmptyStore(long bits) {
        return new BitStore() {
            @Override public long bitCount() { return bits; }
            @Override public boolean get(long index) { return false; }
            @Override public boolean set(long index) { throw new UnsupportedOperationException(); }
            @Override public void clear() { }
            @Override public long cardinality() { return 0; }
            @Override public int wordCount() { return (int) Math.min(Integer.MAX_VALUE, (bits + 63) >>> 6); }
            @Override public long word(int i) { return 0; }
            @Override public void or(BitStore other) { throw new UnsupportedOperationException(); }
            @Override public void and(BitStore other) { throw new UnsupportedOperationException(); }
            @Override public BitStore copy() { return this; }
        };
    }
}
