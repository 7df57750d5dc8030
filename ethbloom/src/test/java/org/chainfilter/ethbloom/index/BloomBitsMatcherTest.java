package org.chainfilter.ethbloom.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongPredicate;
import java.util.stream.LongStream;

import org.chainfilter.ethbloom.LogFilter;
import org.junit.jupiter.api.Test;

/**
 * go-ethereum's synthetic bloombits matcher cases: core/bloombits/matcher_test.go at 7fed9584b5426be5db6d7b0198acdec6515d9c81
 * (the parent of the commit 07cca7ab9f that removed the package). {@code generateBitset(bit, section)} sets block b
 * iff {@code b % bit == 0}; bit numbers are used as divisors, so they may exceed 2047 there. We port the match results,
 * not geth's retrieval counts.
 */
class BloomBitsMatcherTest {

    /** geth's generateBitset as a vector source: block b of the vector of "bit" is set iff b % bit == 0. */
    static final BitVectorSource SYNTHETIC = (bit, section, into) -> {
        long any = 0;
        for (int w = 0; w < into.length; w++) {
            long word = 0;
            for (int i = 0; i < 64; i++) {
                long block = section * BloomBitsMatcher.SECTION_SIZE + 64L * w + i;
                if (block % bit == 0) {
                    word |= Long.MIN_VALUE >>> i;
                }
            }
            into[w] = word;
            any |= word;
        }
        return any != 0;
    };

    static long[] run(int[][][] filter, long from, long to) {
        LongStream.Builder out = LongStream.builder();
        BloomBitsMatcher.ofBits(filter).candidates(SYNTHETIC, 0, from, to, out::add);
        return out.build().toArray();
    }

    static long[] expected(long from, long to, LongPredicate rule) {
        return LongStream.rangeClosed(from, to).filter(rule).toArray();
    }

    static boolean divides(long b, int... bits) {
        return Arrays.stream(bits).allMatch(bit -> b % bit == 0);
    }

    /** TestMatcherContinuous-style single value: [[{10,20,30}]] over 0..99999 gives exactly the multiples of 60. */
    @Test
    void singleValueGivesMultiplesOfSixty() {
        long[] found = run(new int[][][] {{{10, 20, 30}}}, 0, 99_999);
        assertArrayEquals(expected(0, 99_999, b -> b % 60 == 0), found);
        assertEquals(1667, found.length);
    }

    @Test
    void twoClausesAreAnded() {
        long[] found = run(new int[][][] {{{32, 3125, 100}}, {{40, 50, 10}}}, 0, 99_999);
        assertArrayEquals(expected(0, 99_999, b -> divides(b, 32, 3125, 100) && divides(b, 40, 50, 10)), found);
        // lcm(32, 3125, 100, 40, 50, 10) = 100000: only block 0 in range.
        assertArrayEquals(new long[] {0}, found);
    }

    @Test
    void alternativesAreOredWithinAClause() {
        long[] found = run(new int[][][] {
            {{4, 8, 11}, {7, 8, 17}},
            {{9, 9, 12}, {15, 20, 13}},
            {{18, 15, 15}, {12, 10, 4}}}, 0, 9_999);
        assertArrayEquals(expected(0, 9_999, b -> (divides(b, 4, 8, 11) || divides(b, 7, 8, 17))
                && (divides(b, 9, 9, 12) || divides(b, 15, 20, 13))
                && (divides(b, 18, 15, 15) || divides(b, 12, 10, 4))), found);
    }

    /** TestMatcherShifted: a range that starts at a block not divisible by 8. */
    @Test
    void shiftedStart() {
        assertArrayEquals(new long[] {16, 32, 48}, run(new int[][][] {{{16, 16, 16}}}, 9, 63));
    }

    /** TestWildcardMatcher: the empty filter matches every block. */
    @Test
    void emptyFilterMatchesEveryBlock() {
        assertArrayEquals(expected(0, 9_999, b -> true), run(new int[][][] {}, 0, 9_999));
        assertTrue(BloomBitsMatcher.ofBits(new int[][][] {}).isMatchAll());
    }

    /**
     * TestMatcherWildcards: of [[a0, a1], [h0, h1], [h1], [h1, nil], [nil, h1], [nil, nil], [], nil] exactly three
     * clauses survive (sizes 2, 2, 1); the zero address and zero hash are values, not wildcards.
     */
    @Test
    void wildcardClausesAreDropped() {
        byte[] a0 = new byte[20];
        byte[] a1 = new byte[20];
        a1[19] = 1;
        byte[] h0 = new byte[32];
        byte[] h1 = new byte[32];
        h1[31] = 1;
        LogFilter addressesAndTopics = LogFilter.builder().address(a0, a1).topic(0, h0, h1).topic(1, h1)
                .topic(2, h1, null).topic(3, null, h1).build();
        int[][][] clauses = addressesAndTopics.bloomBitClauses();
        assertEquals(3, clauses.length);
        assertEquals(2, clauses[0].length);
        assertEquals(2, clauses[1].length);
        assertEquals(1, clauses[2].length);
        int[][][] raw = {{{1, 2, 3}, {4, 5, 6}}, {{7, 8, 9}}, {{1, 2, 3}, null}, {}, null};
        // The three wildcard clauses add no condition: only the first two decide.
        LongStream.Builder out = LongStream.builder();
        BloomBitsMatcher.ofBits(raw).candidates(SYNTHETIC, 0, 0, 5_039, out::add);
        assertArrayEquals(expected(0, 5_039, b -> divides(b, 1, 2, 3, 7, 8, 9) || divides(b, 4, 5, 6, 7, 8, 9)),
                out.build().toArray());
    }

    /** The matcher is immutable: it keeps its own copy of the bits, so the caller's arrays may be reused. */
    @Test
    void theMatcherKeepsItsOwnCopyOfTheBits() {
        int[] bits = {10, 20, 30};
        BloomBitsMatcher matcher = BloomBitsMatcher.ofBits(new int[][][] {{bits}});
        bits[0] = 7;
        LongStream.Builder out = LongStream.builder();
        matcher.candidates(SYNTHETIC, 0, 0, 999, out::add);
        assertArrayEquals(expected(0, 999, b -> b % 60 == 0), out.build().toArray());
    }

    @Test
    void refusesNegativeBitsAndEmptyAlternatives() {
        assertEquals("bloom bit -1 is negative", assertThrows(IllegalArgumentException.class,
                () -> BloomBitsMatcher.ofBits(new int[][][] {{{-1, 2, 3}}})).getMessage());
        assertEquals("an alternative has no bloom bit", assertThrows(IllegalArgumentException.class,
                () -> BloomBitsMatcher.ofBits(new int[][][] {{{}}})).getMessage());
    }

    /**
     * A range whose last block is the first block of a section (to - first = 4096 s) must still reach that section:
     * with geth's synthetic vectors, [[{16,16,16}]] over 0..4096 gives the multiples of 16 up to and including 4096.
     */
    @Test
    void aRangeEndingOnTheFirstBlockOfASectionIncludesIt() {
        assertArrayEquals(expected(0, 4_096, b -> b % 16 == 0), run(new int[][][] {{{16, 16, 16}}}, 0, 4_096));
        assertArrayEquals(new long[] {8_192}, run(new int[][][] {{{16, 16, 16}}}, 8_177, 8_192));
        assertArrayEquals(new long[] {4_096}, run(new int[][][] {{{16, 16, 16}}}, 4_096, 4_096));
        // Counted from a first block that is not 0: block 100 + 4096 is bit 0 of section 1.
        LongStream.Builder out = LongStream.builder();
        BloomBitsMatcher.ofBits(new int[][][] {{{16, 16, 16}}}).candidates(SYNTHETIC, 100, 100, 4_196, out::add);
        assertArrayEquals(expected(100, 4_196, b -> (b - 100) % 16 == 0), out.build().toArray());
    }

    /**
     * geth's daisy chain: a value stops fetching its bits once their AND is empty, a section whose result is empty
     * fetches no further clause, and a range inside section 1 fetches nothing of section 0. In section 1 (blocks
     * 4096..8191) the vectors of 5000 and 6000 each hold one block, not the same one, so 7 is never fetched.
     */
    @Test
    void fetchingStopsOnceAResultIsEmptyAndSkipsTheSectionsBeforeTheRange() {
        List<String> fetched = new ArrayList<>();
        BitVectorSource recording = (bit, section, into) -> {
            fetched.add(bit + "@" + section);
            return SYNTHETIC.load(bit, section, into);
        };
        BloomBitsMatcher.ofBits(new int[][][] {{{5_000, 6_000, 7}}}).candidates(recording, 0, 4_096, 8_191, b -> { });
        assertEquals(List.of("5000@1", "6000@1"), fetched);
        fetched.clear();
        BloomBitsMatcher.ofBits(new int[][][] {{{5_000}}, {{6_000}}, {{7}}})
                .candidates(recording, 0, 4_096, 8_191, b -> { });
        assertEquals(List.of("5000@1", "6000@1"), fetched);
    }

    /** Only a matcher without clauses matches every block: one clause, or a log filter's address, is not match-all. */
    @Test
    void aMatcherWithOneClauseIsNotMatchAll() {
        assertFalse(BloomBitsMatcher.ofBits(new int[][][] {{{1, 2, 3}}}).isMatchAll());
        assertFalse(BloomBitsMatcher.of(LogFilter.builder().address(new byte[20]).build()).isMatchAll());
        assertTrue(BloomBitsMatcher.of(LogFilter.matchAll()).isMatchAll());
    }

    /**
     * {@link BitVectorSource#andInto}'s default (the synthetic source has only {@code load}) when no block is left:
     * the accumulator is zero and the answer false, for an empty vector (divisor 10000 has no multiple in section 1)
     * and for one that clears every bit still set (divisor 5000 in section 0: only block 0, bit 63 of word 0).
     */
    @Test
    void theDefaultAndIntoLeavesZeroAndAnswersFalseWhenNoBlockIsLeft() {
        long[] zero = new long[BloomBitsMatcher.WORDS_PER_VECTOR];
        long[] accumulator = new long[BloomBitsMatcher.WORDS_PER_VECTOR];
        long[] scratch = new long[BloomBitsMatcher.WORDS_PER_VECTOR];
        Arrays.fill(accumulator, -1L);
        assertFalse(SYNTHETIC.andInto(10_000, 1, accumulator, scratch));
        assertArrayEquals(zero, accumulator);
        Arrays.fill(accumulator, -1L);
        accumulator[0] = Long.MAX_VALUE;
        assertFalse(SYNTHETIC.andInto(5_000, 0, accumulator, scratch));
        assertArrayEquals(zero, accumulator);
    }
}
