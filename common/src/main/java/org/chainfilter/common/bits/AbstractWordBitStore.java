package org.chainfilter.common.bits;

import java.util.Arrays;

/** Storage and the word-wise operations shared by both bit stores; subclasses decide how single bits are accessed. */
abstract class AbstractWordBitStore implements BitStore {
    /** Bit stores are limited by Java's array size: at most this many 64-bit words. */
    static final int MAX_WORDS = Integer.MAX_VALUE - 8;

    final long[] words;
    final long bitCount;

    AbstractWordBitStore(long bitCount) {
        this.bitCount = bitCount;
        this.words = new long[wordsFor(bitCount)];
    }

    AbstractWordBitStore(long bitCount, long[] words) {
        this.bitCount = bitCount;
        this.words = words;
    }

    static int wordsFor(long bitCount) {
        if (bitCount <= 0) {
            throw new IllegalArgumentException("bit count is " + bitCount + "; it must be at least 1");
        }
        long words = (bitCount + 63) >>> 6;
        if (words > MAX_WORDS) {
            throw new IllegalArgumentException(
                    "bit count is " + bitCount + "; a bit store holds at most " + (long) MAX_WORDS * 64 + " bits");
        }
        return (int) words;
    }

    /** Reads {@code bytes} in {@code layout} into fresh words; the bit count is {@code 8 * bytes.length}. */
    static long[] wordsFromBytes(byte[] bytes, ByteLayout layout) {
        long[] words = new long[wordsFor(8L * bytes.length)];
        for (int b = 0; b < bytes.length; b++) {
            long value = bytes[layout.byteIndex((long) b << 3, bytes.length)] & 0xffL;
            words[b >>> 3] |= value << ((b & 7) << 3);
        }
        return words;
    }

    final void checkIndex(long index) {
        if (index < 0 || index >= bitCount) {
            throw new IndexOutOfBoundsException("bit index " + index + " is outside [0, " + bitCount + ")");
        }
    }

    private void checkSameSize(BitStore other) {
        if (other.bitCount() != bitCount) {
            throw new IllegalArgumentException(
                    "cannot combine a store of " + other.bitCount() + " bits with one of " + bitCount + " bits");
        }
    }

    @Override
    public final long bitCount() {
        return bitCount;
    }

    @Override
    public final int wordCount() {
        return words.length;
    }

    @Override
    public long cardinality() {
        long count = 0;
        for (int i = 0; i < words.length; i++) {
            count += Long.bitCount(word(i));
        }
        return count;
    }

    @Override
    public void or(BitStore other) {
        checkSameSize(other);
        for (int i = 0; i < words.length; i++) {
            orWord(i, other.word(i));
        }
    }

    @Override
    public void and(BitStore other) {
        checkSameSize(other);
        for (int i = 0; i < words.length; i++) {
            andWord(i, other.word(i));
        }
    }

    abstract void orWord(int i, long bits);

    abstract void andWord(int i, long bits);

    @Override
    public final boolean equals(Object o) {
        // Identity first: with writers running (AtomicBitStore), reading this store's words twice could differ.
        return o == this || o instanceof AbstractWordBitStore && BitStore.sameBits(this, (BitStore) o);
    }

    @Override
    public final int hashCode() {
        long h = bitCount;
        for (int i = 0; i < words.length; i++) {
            h = 31 * h + word(i);
        }
        return Long.hashCode(h);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[bits=" + bitCount + ", set=" + cardinality() + "]";
    }

    long[] snapshotWords() {
        long[] copy = new long[words.length];
        for (int i = 0; i < copy.length; i++) {
            copy[i] = word(i);
        }
        return copy;
    }

    static void fill(long[] words) {
        Arrays.fill(words, 0L);
    }
}
