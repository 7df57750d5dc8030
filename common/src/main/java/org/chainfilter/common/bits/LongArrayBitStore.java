package org.chainfilter.common.bits;

/**
 * A bit store over a plain {@code long[]}: the fastest, for one thread at a time (or many readers after the last
 * write has been safely published). No allocation per {@link #get}/{@link #set}.
 */
public final class LongArrayBitStore extends AbstractWordBitStore {

    /** A store of {@code bitCount} clear bits. */
    public LongArrayBitStore(long bitCount) {
        super(bitCount);
    }

    private LongArrayBitStore(long bitCount, long[] words) {
        super(bitCount, words);
    }

    /** A store of {@code 8 * bytes.length} bits read from {@code bytes} in {@code layout}. */
    public static LongArrayBitStore fromBytes(byte[] bytes, ByteLayout layout) {
        return new LongArrayBitStore(8L * bytes.length, wordsFromBytes(bytes, layout));
    }

    /**
     * A store of {@code bitCount} bits over a copy of {@code words}.
     *
     * @throws IllegalArgumentException if the word count does not fit the bit count, or bits past the end are set
     */
    public static LongArrayBitStore fromWords(long bitCount, long[] words) {
        int expected = wordsFor(bitCount);
        if (words.length != expected) {
            throw new IllegalArgumentException(
                    words.length + " words given; " + bitCount + " bits need exactly " + expected);
        }
        int tailBits = (int) (bitCount & 63);
        if (tailBits != 0 && (words[expected - 1] >>> tailBits) != 0) {
            throw new IllegalArgumentException("bits at or above " + bitCount + " are set");
        }
        return new LongArrayBitStore(bitCount, words.clone());
    }

    @Override
    public boolean get(long index) {
        checkIndex(index);
        return (words[(int) (index >>> 6)] & (1L << index)) != 0;
    }

    @Override
    public boolean set(long index) {
        checkIndex(index);
        int i = (int) (index >>> 6);
        long before = words[i];
        long after = before | (1L << index);
        words[i] = after;
        return before != after;
    }

    @Override
    public void clear() {
        fill(words);
    }

    @Override
    public long word(int i) {
        return words[i];
    }

    @Override
    void orWord(int i, long bits) {
        words[i] |= bits;
    }

    @Override
    void andWord(int i, long bits) {
        words[i] &= bits;
    }

    @Override
    public LongArrayBitStore copy() {
        return new LongArrayBitStore(bitCount, words.clone());
    }
}
