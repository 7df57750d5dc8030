package org.chainfilter.common.math;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Expected figures are computed by hand from the formulas in {@link BloomMath}'s javadoc (ln 2 = 0.693147...). */
class BloomMathTest {

    @Test
    void onePercentNeeds9585BitsPerElementAndSevenHashes() {
        // -ln 0.01 / (ln 2)^2 = 4.605170 / 0.480453 = 9.585058
        assertEquals(9.585058, BloomMath.bitsPerElement(0.01), 1e-6);
        // -log2 0.01 = 6.64 -> 7
        assertEquals(7, BloomMath.optimalHashFunctionCount(0.01));
        assertEquals(7, BloomMath.optimalHashFunctionCount(1000, 9586));
    }

    @Test
    void aFilterTooSmallForItsElementsStillGetsOneHashFunction() {
        // m / n * ln 2 rounds to 0 here (1 / 100 * 0.693 = 0.0069; 50 / 100 * 0.693 = 0.35); a filter queried with no
        // hash function would answer "maybe" for everything without ever touching a bit. Core's CBloomFilter and
        // Guava's optimalNumOfHashFunctions both clamp to at least 1.
        assertEquals(1, BloomMath.optimalHashFunctionCount(100, 1));
        assertEquals(1, BloomMath.optimalHashFunctionCount(100, 50));
        assertEquals(1, BloomMath.optimalHashFunctionCount(Long.MAX_VALUE, 1));
        // 104 bits: 0.72 rounds to 1 on its own; 300 bits: 2.08 rounds to 2.
        assertEquals(1, BloomMath.optimalHashFunctionCount(100, 104));
        assertEquals(2, BloomMath.optimalHashFunctionCount(100, 300));
    }

    @Test
    void aTenthOfAPercentNeeds14378BitsPerElementAndTenHashes() {
        assertEquals(14.377588, BloomMath.bitsPerElement(0.001), 1e-6);
        assertEquals(10, BloomMath.optimalHashFunctionCount(0.001));
    }

    /**
     * {@code k = round(-log2 p)} rounds down as well as up: -log2 0.1 = 3.32 gives 3 and -log2 0.05 = 4.32 gives 4
     * (6.64 and 9.97 above both round up). Taking the ceiling passed every test (from a mutation review).
     */
    @Test
    void theHashCountForARateRoundsToTheNearest() {
        assertEquals(3, BloomMath.optimalHashFunctionCount(0.1));
        assertEquals(4, BloomMath.optimalHashFunctionCount(0.05));
        assertEquals(1, BloomMath.optimalHashFunctionCount(0.6)); // -log2 0.6 = 0.74
    }

    @Test
    void hundredMillionElementsAtOnePercentTake120Megabytes() {
        long bits = BloomMath.optimalBitCount(100_000_000L, 0.01);
        assertEquals(958_505_838L, bits); // ceil(10^8 * 9.5850584)
        assertEquals(119.8, bits / 8 / 1e6, 0.05);
        assertEquals(7, BloomMath.optimalHashFunctionCount(100_000_000L, bits));
    }

    @Test
    void aPrioriRate() {
        // one element, 8 bits, k = 1: 1 - e^(-1/8)
        assertEquals(0.117503097415, BloomMath.falsePositiveRate(1, 8, 1), 1e-12);
        // the optimal shape for 1000 elements at 1% delivers about 1%
        assertEquals(0.0100345, BloomMath.falsePositiveRate(1000, 9586, 7), 1e-7);
        assertEquals(0.0, BloomMath.falsePositiveRate(0, 9586, 7));
    }

    @Test
    void rateFromFill() {
        assertEquals(0.5 * 0.5 * 0.5, BloomMath.falsePositiveRateFromFill(50, 100, 3), 1e-15);
        assertEquals(0.0, BloomMath.falsePositiveRateFromFill(0, 100, 3));
        assertEquals(1.0, BloomMath.falsePositiveRateFromFill(100, 100, 3));
    }

    @Test
    void capacityInvertsTheBitCount() {
        assertEquals(1000, BloomMath.capacity(9586, 0.01)); // 9586 / 9.5850584 = 1000.098
        assertEquals(999, BloomMath.capacity(9585, 0.01));
        // Past a long the capacity is refused, not cut to Long.MAX_VALUE (the cast saturated silently).
        var e = assertThrows(IllegalArgumentException.class, () -> BloomMath.capacity(Long.MAX_VALUE, 0.9));
        assertEquals("9223372036854775807 bits at rate 0.9 hold 4.205936983060474E19 elements; at most"
                + " 9223372036854775807 are representable", e.getMessage());
        assertEquals((long) Math.floor((1L << 62) / BloomMath.bitsPerElement(0.5)), BloomMath.capacity(1L << 62, 0.5));
    }

    @Test
    void swamidassBaldiEstimate() {
        // half the bits set: -(1000/7) ln(1/2) = 99.021
        assertEquals(99.0210258, BloomMath.estimatedElementCount(500, 1000, 7), 1e-6);
        assertEquals(0.0, BloomMath.estimatedElementCount(0, 1000, 7));
        assertEquals(Double.POSITIVE_INFINITY, BloomMath.estimatedElementCount(1000, 1000, 7));
    }

    @Test
    void unionAndIntersection() {
        // A: 300 bits -> 50.954; B: 400 -> 72.975; A OR B: 550 -> 114.073; A AND B by inclusion-exclusion: 9.856
        assertEquals(114.0725280, BloomMath.estimatedUnionSize(550, 1000, 7), 1e-6);
        assertEquals(9.8561245, BloomMath.estimatedIntersectionSize(300, 400, 550, 1000, 7), 1e-6);
        // disjoint-looking fills never give a negative intersection
        assertEquals(0.0, BloomMath.estimatedIntersectionSize(300, 400, 700, 1000, 7));
        assertTrue(Double.isNaN(BloomMath.estimatedIntersectionSize(300, 1000, 1000, 1000, 7)));
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.0, 1.0, -0.5, 1.5, Double.NaN})
    void ratesOutsideTheOpenIntervalAreRefused(double rate) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BloomMath.bitsPerElement(rate));
        assertEquals("false-positive rate is " + rate + "; it must be strictly between 0 and 1", e.getMessage());
    }

    @Test
    void badCountsAreRefused() {
        assertEquals("expected element count is 0; it must be at least 1", assertThrows(IllegalArgumentException.class,
                () -> BloomMath.optimalBitCount(0, 0.01)).getMessage());
        assertEquals("bit count is -8; it must be at least 1", assertThrows(IllegalArgumentException.class,
                () -> BloomMath.falsePositiveRate(1, -8, 1)).getMessage());
        assertEquals("hash function count is 0; it must be at least 1", assertThrows(IllegalArgumentException.class,
                () -> BloomMath.falsePositiveRate(1, 8, 0)).getMessage());
        assertEquals("element count is -1; it must not be negative", assertThrows(IllegalArgumentException.class,
                () -> BloomMath.falsePositiveRate(-1, 8, 1)).getMessage());
        assertEquals("set bit count is 1001; it must be within [0, 1000]", assertThrows(IllegalArgumentException.class,
                () -> BloomMath.estimatedElementCount(1001, 1000, 7)).getMessage());
        assertEquals("the union has 350 set bits, fewer than an operand's 400",
                assertThrows(IllegalArgumentException.class,
                        () -> BloomMath.estimatedIntersectionSize(300, 400, 350, 1000, 7)).getMessage());
    }

    @Test
    void bitCountsBeyondALongAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BloomMath.optimalBitCount(Long.MAX_VALUE, 1e-300));
        assertTrue(e.getMessage().startsWith(Long.MAX_VALUE + " elements at rate 1.0E-300 need "), e.getMessage());
        assertTrue(e.getMessage().endsWith("bits; at most " + Long.MAX_VALUE + " are representable"), e.getMessage());
    }

    /**
     * 2^63 is one more than a long holds, so a bit count or a capacity of exactly 2^63 is refused, not cast to
     * Long.MAX_VALUE: at 1% the bits of 962,265,609,005,920,192 elements, and at 0.9 the capacity of
     * 2,022,631,153,839,411,841 bits, come to exactly 2^63 in double; one less, to the largest double below it.
     * Refusing only above 2^63 passed every test in both (from a mutation review).
     */
    @Test
    void countsOfExactly2To63AreRefused() {
        var e = assertThrows(IllegalArgumentException.class,
                () -> BloomMath.optimalBitCount(962_265_609_005_920_192L, 0.01));
        assertEquals("962265609005920192 elements at rate 0.01 need 9.223372036854776E18 bits; at most"
                + " 9223372036854775807 are representable", e.getMessage());
        assertEquals(9_223_372_036_854_774_784L, BloomMath.optimalBitCount(962_265_609_005_920_191L, 0.01));
        e = assertThrows(IllegalArgumentException.class, () -> BloomMath.capacity(2_022_631_153_839_411_841L, 0.9));
        assertEquals("2022631153839411841 bits at rate 0.9 hold 9.223372036854776E18 elements; at most"
                + " 9223372036854775807 are representable", e.getMessage());
        assertEquals(9_223_372_036_854_774_784L, BloomMath.capacity(2_022_631_153_839_411_840L, 0.9));
    }

    /** A negative fill is refused like one above m: without the lower check it gave a negative estimate. */
    @Test
    void aNegativeSetBitCountIsRefused() {
        assertEquals("set bit count is -1; it must be within [0, 1000]", assertThrows(IllegalArgumentException.class,
                () -> BloomMath.estimatedElementCount(-1, 1000, 7)).getMessage());
        assertEquals("set bit count is -1; it must be within [0, 1000]", assertThrows(IllegalArgumentException.class,
                () -> BloomMath.falsePositiveRateFromFill(-1, 1000, 7)).getMessage());
    }

    /**
     * {@code (m/n) ln 2} past Integer.MAX_VALUE is clamped to it: cast straight to int, 2^63 - 1 bits for one element
     * (6.4 * 10^18 hash functions) gave -387,466,240 and 2^40 bits 1,914,173,394.
     */
    @Test
    void aHashCountBeyondAnIntIsClampedNotTruncated() {
        assertEquals(Integer.MAX_VALUE, BloomMath.optimalHashFunctionCount(1, Long.MAX_VALUE));
        assertEquals(Integer.MAX_VALUE, BloomMath.optimalHashFunctionCount(1, 1L << 40));
    }

    /**
     * The count of hash functions for m bits refuses m below 1, and the rate from a fill a k below 1, like the other
     * formulas: without their checks, m = 0 gave k = 1 and k = 0 gave a rate of 1.
     */
    @Test
    void theHashCountAndTheRateFromFillRefuseCountsBelowOne() {
        assertEquals("bit count is 0; it must be at least 1", assertThrows(IllegalArgumentException.class,
                () -> BloomMath.optimalHashFunctionCount(100, 0)).getMessage());
        assertEquals("hash function count is 0; it must be at least 1", assertThrows(IllegalArgumentException.class,
                () -> BloomMath.falsePositiveRateFromFill(50, 100, 0)).getMessage());
    }

    @Test
    void shapeIsAValue() {
        Shape shape = Shape.fromElementsAndRate(1000, 0.01);
        assertEquals(Shape.of(9586, 7), shape);
        assertEquals(Shape.of(9586, 7).hashCode(), shape.hashCode());
        assertNotEquals(Shape.of(9586, 8), shape);
        assertNotEquals(Shape.of(9587, 7), shape);
        assertEquals("Shape[m=9586, k=7]", shape.toString());
        assertEquals(1199, shape.byteCount());
        assertEquals(0.0100345, shape.falsePositiveRate(1000), 1e-7);
        assertEquals(99.0210258, Shape.of(1000, 7).estimatedElementCount(500), 1e-6);
    }

    @Test
    void shapeRefusesBadArguments() {
        assertEquals("hash function count is 256; it must be within [1, 255]",
                assertThrows(IllegalArgumentException.class, () -> Shape.of(64, 256)).getMessage());
        assertEquals("hash function count is 0; it must be within [1, 255]",
                assertThrows(IllegalArgumentException.class, () -> Shape.of(64, 0)).getMessage());
        assertEquals("bit count is 0; it must be at least 1",
                assertThrows(IllegalArgumentException.class, () -> Shape.of(0, 3)).getMessage());
        // -log2(1e-80) = 265.75: more hash functions than the binary forms can record
        assertEquals("false-positive rate is 1.0E-80; its optimal shape needs 266 hash functions, more than the 255 a"
                + " shape allows (the rate must be at least about 1.2e-77)",
                assertThrows(IllegalArgumentException.class, () -> Shape.fromElementsAndRate(10, 1e-80)).getMessage());
        // the bound the message states: 2^-255.5 = 1.22e-77 is the last rate whose k rounds to 255
        assertEquals(255, Shape.fromElementsAndRate(1000, 1.23e-77).hashFunctionCount());
        assertThrows(IllegalArgumentException.class, () -> Shape.fromElementsAndRate(1000, 1.21e-77));
    }
}
