package org.chainfilter.common.bits;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A bit store that many threads may write and read at once without a lock. {@link #set} is one atomic
 * {@code getAndBitwiseOr} on the word (a {@code LOCK OR}/{@code LOCK XADD}-class instruction on x86), so concurrent
 * sets never lose each other's bits; a bit once seen set by {@link #get} stays set until {@link #clear}
 * or an {@link #and} with a store where it is clear.
 *
 * <p>Reads use acquire semantics, so a thread that sees a bit set also sees everything the setting thread did before.
 * {@link #clear}, {@link #or} and {@link #and} are word-wise atomic but not atomic as a whole.
 */
public final class AtomicBitStore extends AbstractWordBitStore {
    private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);

    /** A store of {@code bitCount} clear bits. */
    public AtomicBitStore(long bitCount) {
        super(bitCount);
    }

    private AtomicBitStore(long bitCount, long[] words) {
        super(bitCount, words);
    }

    /** A store of {@code 8 * bytes.length} bits read from {@code bytes} in {@code layout}. */
    public static AtomicBitStore fromBytes(byte[] bytes, ByteLayout layout) {
        return new AtomicBitStore(8L * bytes.length, wordsFromBytes(bytes, layout));
    }

    @Override
    public boolean get(long index) {
        checkIndex(index);
        return ((long) WORDS.getAcquire(words, (int) (index >>> 6)) & (1L << index)) != 0;
    }

    @Override
    public boolean set(long index) {
        checkIndex(index);
        long mask = 1L << index;
        int i = (int) (index >>> 6);
        // A plain read first: once a filter fills up, most sets find the bit already there and need no atomic write.
        if (((long) WORDS.getAcquire(words, i) & mask) != 0) {
            return false;
        }
        return ((long) WORDS.getAndBitwiseOrRelease(words, i, mask) & mask) == 0;
    }

    @Override
    public void clear() {
        for (int i = 0; i < words.length; i++) {
            WORDS.setRelease(words, i, 0L);
        }
    }

    @Override
    public long word(int i) {
        return (long) WORDS.getAcquire(words, i);
    }

    @Override
    void orWord(int i, long bits) {
        WORDS.getAndBitwiseOrRelease(words, i, bits);
    }

    @Override
    void andWord(int i, long bits) {
        WORDS.getAndBitwiseAndRelease(words, i, bits);
    }

    @Override
    public AtomicBitStore copy() {
        return new AtomicBitStore(bitCount, snapshotWords());
    }
}
