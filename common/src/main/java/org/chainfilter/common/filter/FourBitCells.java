package org.chainfilter.common.filter;

import java.util.Arrays;

/**
 * An array of 4-bit saturating counters, sixteen to a {@code long} (cell {@code i} is bits {@code 4(i mod 16) ..
 * 4(i mod 16)+3} of word {@code i / 16}). A counter at {@link #SATURATED} stays there: it is never incremented past 15
 * and never decremented, because once it has overflowed its true count is unknown and decrementing it could clear a
 * cell that other items still need (a false negative). No allocation per call.
 */
final class FourBitCells {
    static final int SATURATED = 15;
    static final int CELLS_PER_WORD = 16;
    static final long MAX_CELLS = (long) (Integer.MAX_VALUE - 8) * CELLS_PER_WORD;

    final long cellCount;
    final long[] words;

    FourBitCells(long cellCount) {
        this(cellCount, new long[wordsFor(cellCount)]);
    }

    FourBitCells(long cellCount, long[] words) {
        this.cellCount = cellCount;
        this.words = words;
    }

    static int wordsFor(long cellCount) {
        if (cellCount < 1 || cellCount > MAX_CELLS) {
            throw new IllegalArgumentException(
                    "cell count is " + cellCount + "; a counting filter holds 1 to " + MAX_CELLS + " cells");
        }
        return (int) ((cellCount + CELLS_PER_WORD - 1) / CELLS_PER_WORD);
    }

    int get(long cell) {
        return (int) (words[(int) (cell >>> 4)] >>> ((cell & 15) << 2)) & 0xf;
    }

    /** Adds one unless the cell is saturated; returns the value before. */
    int increment(long cell) {
        int w = (int) (cell >>> 4);
        int shift = (int) ((cell & 15) << 2);
        int before = (int) (words[w] >>> shift) & 0xf;
        if (before != SATURATED) {
            words[w] += 1L << shift;
        }
        return before;
    }

    /** Subtracts one unless the cell is zero or saturated. */
    void decrement(long cell) {
        int w = (int) (cell >>> 4);
        int shift = (int) ((cell & 15) << 2);
        int before = (int) (words[w] >>> shift) & 0xf;
        if (before != 0 && before != SATURATED) {
            words[w] -= 1L << shift;
        }
    }

    /** How many cells are non-zero (the bits a plain Bloom filter of the same items would have set). */
    long nonZeroCount() {
        long count = 0;
        for (long word : words) {
            // Fold each nibble onto its low bit: the low bit of the nibble ends up set iff the nibble is non-zero.
            long folded = word | (word >>> 1);
            folded |= folded >>> 2;
            count += Long.bitCount(folded & 0x1111111111111111L);
        }
        return count;
    }

    void clear() {
        Arrays.fill(words, 0L);
    }

    FourBitCells copy() {
        return new FourBitCells(cellCount, words.clone());
    }
}
