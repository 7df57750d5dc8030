package org.chainfilter.ethbloom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

class LogFilterTest {
    static final byte[] A = filled(20, 0xaa);
    static final byte[] B = filled(20, 0xbb);
    static final byte[] T1 = filled(32, 0x01);
    static final byte[] T2 = filled(32, 0x02);
    static final byte[] T3 = filled(32, 0x03);

    static byte[] filled(int length, int value) {
        byte[] out = new byte[length];
        Arrays.fill(out, (byte) value);
        return out;
    }

    @Test
    void couldMatchFollowsGethBloomFilter() {
        LogsBloom block = LogsBloom.builder().addLog(A, List.of(T1, T2)).build();
        assertTrue(LogFilter.builder().address(A).build().couldMatch(block));
        assertFalse(LogFilter.builder().address(B).build().couldMatch(block));
        assertTrue(LogFilter.builder().address(B, A).build().couldMatch(block));
        assertTrue(LogFilter.builder().address(A).topic(0, T1).topic(1, T2).build().couldMatch(block));
        // The bloom has lost positions: T2 at position 0 still passes the bloom, the exact match says no.
        LogFilter swapped = LogFilter.builder().topic(0, T2).build();
        assertTrue(swapped.couldMatch(block));
        assertFalse(swapped.matches(A, List.of(T1, T2)));
        assertFalse(LogFilter.builder().address(A).topic(0, T3).build().couldMatch(block));
        assertTrue(LogFilter.builder().address(A).topic(0, T3, T1).build().couldMatch(block));
        assertTrue(LogFilter.matchAll().couldMatch(LogsBloom.EMPTY));
        assertFalse(LogFilter.builder().address(A).build().couldMatch(LogsBloom.EMPTY));
    }

    @Test
    void nullInsideAnAlternativeListIsAWildcardForTheBloomToo() {
        LogsBloom block = LogsBloom.builder().addLog(A, List.of(T1)).build();
        // [[null, T3]] must not require T3 in the bloom (the Besu / ethrex flattening bug).
        LogFilter filter = LogFilter.of(null, List.of(Arrays.asList(null, T3)));
        assertTrue(filter.couldMatch(block));
        assertTrue(filter.matches(A, List.of(T1)));
        assertNull(filter.topics().get(0));
        assertTrue(filter.isMatchAll());
    }

    @Test
    void exactMatchNeedsAsManyTopicsAsPositions() {
        LogFilter trailingWildcard = LogFilter.builder().topic(0, T1).anyTopic(1).build();
        assertFalse(trailingWildcard.matches(A, List.of(T1)));
        assertTrue(trailingWildcard.matches(A, List.of(T1, T3)));
        assertFalse(trailingWildcard.isMatchAll());
        LogFilter wildcardsOnly = LogFilter.of(List.of(), Arrays.asList(null, null));
        assertTrue(wildcardsOnly.isMatchAll());
        assertTrue(wildcardsOnly.couldMatch(LogsBloom.EMPTY));
        assertFalse(wildcardsOnly.matches(A, List.of(T1)));
        assertTrue(wildcardsOnly.matches(A, List.of(T1, T2)));
        assertTrue(LogFilter.matchAll().matches(B, List.of()));
    }

    @Test
    void emptyListsAndNullsAreWildcardsInOf() {
        List<List<byte[]>> topics = new ArrayList<>();
        topics.add(null);
        topics.add(List.of());
        topics.add(List.of(T3));
        LogFilter filter = LogFilter.of(null, topics);
        assertEquals(3, filter.topics().size());
        assertNull(filter.topics().get(0));
        assertNull(filter.topics().get(1));
        assertEquals(1, filter.bloomBitClauses().length);
        assertTrue(filter.matches(A, List.of(T1, T2, T3)));
        assertFalse(filter.matches(A, List.of(T1, T2, T2)));
        assertTrue(filter.addresses().isEmpty());
    }

    @Test
    void unmentionedEarlierPositionsAreWildcards() {
        LogFilter filter = LogFilter.builder().topic(2, T3).build();
        assertEquals(3, filter.topics().size());
        assertTrue(filter.matches(B, List.of(T1, T1, T3)));
        assertFalse(filter.matches(B, List.of(T3)));
    }

    @Test
    void valuesAreCopiedInAndOut() {
        byte[] address = A.clone();
        LogFilter filter = LogFilter.builder().address(address).build();
        address[0] = 0;
        assertTrue(filter.matches(A, List.of()));
        filter.addresses().get(0)[0] = 0;
        assertTrue(filter.matches(A, List.of()));
    }

    /**
     * {@code topics()} and {@code clauses()} hand out copies: changing a returned topic cannot change what the filter
     * matches or which blooms pass it.
     */
    @Test
    void topicsAndClausesAreCopiedOut() {
        LogFilter filter = LogFilter.builder().topic(0, T1).build();
        LogsBloom block = LogsBloom.builder().addLog(A, List.of(T1)).build();
        filter.topics().get(0).get(0)[0] = 0;
        filter.clauses().get(0).get(0)[1] = 0;
        assertArrayEquals(T1, filter.topics().get(0).get(0));
        assertArrayEquals(T1, filter.clauses().get(0).get(0));
        assertTrue(filter.matches(A, List.of(T1)));
        assertTrue(filter.couldMatch(block));
        assertEquals(LogFilter.builder().topic(0, T1).build(), filter);
    }

    @Test
    void equalityAndToString() {
        LogFilter one = LogFilter.builder().address(A).topic(0, T1).anyTopic(1).build();
        LogFilter same = LogFilter.of(List.of(A), Arrays.asList(List.of(T1), null));
        assertEquals(one, same);
        assertEquals(one.hashCode(), same.hashCode());
        assertNotEquals(one, LogFilter.builder().address(A).topic(0, T1).build());
        assertEquals("LogFilter[address=[0x" + "aa".repeat(20) + "], topics=[[0x" + "01".repeat(32) + "], *]]",
                one.toString());
    }

    /**
     * A wildcard position and a position with alternatives select different logs, so the two filters are not equal,
     * whichever is asked: {@code [*]} matches a log whose first topic is T2, {@code [[T1]]} does not.
     */
    @Test
    void aWildcardPositionIsNotEqualToAPositionWithAlternatives() {
        LogFilter wildcard = LogFilter.builder().address(A).anyTopic(0).build();
        LogFilter t1 = LogFilter.builder().address(A).topic(0, T1).build();
        assertTrue(wildcard.matches(A, List.of(T2)));
        assertFalse(t1.matches(A, List.of(T2)));
        assertNotEquals(wildcard, t1);
        assertNotEquals(t1, wildcard);
        assertEquals(wildcard, LogFilter.of(List.of(A), Arrays.asList((List<byte[]>) null)));
    }

    /**
     * {@code clauses()} are go-ethereum's bloombits {@code NewMatcher} input: the address set first when there is one,
     * then each non-wildcard topic position in order, each with its alternatives.
     */
    @Test
    void clausesAreTheAddressSetThenEachNonWildcardPosition() {
        LogFilter filter = LogFilter.builder().address(A, B).anyTopic(0).topic(1, T1, T2).topic(2, T3).build();
        List<List<byte[]>> clauses = filter.clauses();
        assertEquals(3, clauses.size());
        assertEquals(2, clauses.get(0).size());
        assertArrayEquals(A, clauses.get(0).get(0));
        assertArrayEquals(B, clauses.get(0).get(1));
        assertEquals(2, clauses.get(1).size());
        assertArrayEquals(T1, clauses.get(1).get(0));
        assertArrayEquals(T2, clauses.get(1).get(1));
        assertEquals(1, clauses.get(2).size());
        assertArrayEquals(T3, clauses.get(2).get(0));
        assertEquals(clauses.size(), filter.bloomBitClauses().length);
        assertEquals(1, LogFilter.builder().topic(0, T1).build().clauses().size());
        assertEquals(1, LogFilter.builder().address(A).anyTopic(0).build().clauses().get(0).size());
    }

    @Test
    void invalidFiltersAreRefused() {
        assertEquals("address is 32 bytes; it must be exactly 20 bytes", assertThrows(IllegalArgumentException.class,
                () -> LogFilter.builder().address(T1)).getMessage());
        assertEquals("topic is 20 bytes; it must be exactly 32 bytes", assertThrows(IllegalArgumentException.class,
                () -> LogFilter.builder().topic(0, A)).getMessage());
        assertEquals("topic position 4 is outside 0..3", assertThrows(IllegalArgumentException.class,
                () -> LogFilter.builder().topic(4, T1)).getMessage());
        assertEquals("topic position -1 is outside 0..3", assertThrows(IllegalArgumentException.class,
                () -> LogFilter.builder().anyTopic(-1)).getMessage());
        assertEquals("filter has 5 topic positions; at most 4 are allowed", assertThrows(IllegalArgumentException.class,
                () -> LogFilter.of(null, Arrays.asList(null, null, null, null, null))).getMessage());
        assertEquals("address is null", assertThrows(IllegalArgumentException.class,
                () -> LogFilter.builder().address((byte[]) null)).getMessage());
        LogFilter.Builder many = LogFilter.builder();
        for (int i = 0; i < LogFilter.MAX_ALTERNATIVES; i++) {
            byte[] topic = new byte[32];
            topic[0] = (byte) i;
            topic[1] = (byte) (i >> 8);
            many.topic(0, topic);
        }
        many.topic(0, new byte[32]); // a duplicate of alternative 0 is not counted again
        byte[] extra = filled(32, 0x7f);
        assertEquals("topic position 0 has more than 1000 alternatives; at most 1000 are allowed (geth maxSubTopics)",
                assertThrows(IllegalArgumentException.class, () -> many.topic(0, extra)).getMessage());
    }

    /**
     * The builder's contract ("a null alternative, or no alternative, makes the position a wildcard for good"): a
     * later {@code topic(p)} with no alternative turns a position that already had alternatives into a wildcard, as
     * {@code topic(p, (byte[]) null)} does, in whichever order; like geth's {@code []} position it then asks nothing of
     * the bloom.
     */
    @Test
    void aTopicCallWithNoAlternativeMakesThePositionAWildcardForGood() {
        LogsBloom block = LogsBloom.builder().addLog(A, List.of(T1)).build();
        for (LogFilter filter : List.of(
                LogFilter.builder().topic(0, T3).topic(0).build(),
                LogFilter.builder().topic(0).topic(0, T3).build(),
                LogFilter.builder().topic(0, T3).topic(0, (byte[]) null).build(),
                LogFilter.builder().topic(0, (byte[]) null).topic(0, T3).build())) {
            assertNull(filter.topics().get(0), filter.toString());
            assertTrue(filter.isMatchAll(), filter.toString());
            assertEquals(0, filter.bloomBitClauses().length, filter.toString());
            assertTrue(filter.couldMatch(block), filter.toString());
            assertTrue(filter.matches(A, List.of(T1)), filter.toString());
        }
        // Without the wildcard call the same position asks for T3, which the block lacks.
        assertFalse(LogFilter.builder().topic(0, T3).build().couldMatch(block));
    }

    /**
     * {@code anyTopic(p)} makes the position a wildcard whatever alternatives it was given before or after, as
     * {@code topic(p)} with no alternative does: {@code [T3]} then {@code *} asks nothing of the bloom nor of the log.
     */
    @Test
    void anyTopicMakesAPositionWithAlternativesAWildcard() {
        LogsBloom block = LogsBloom.builder().addLog(A, List.of(T1)).build();
        for (LogFilter filter : List.of(LogFilter.builder().topic(0, T3).anyTopic(0).build(),
                LogFilter.builder().anyTopic(0).topic(0, T3).build())) {
            assertNull(filter.topics().get(0), filter.toString());
            assertTrue(filter.couldMatch(block), filter.toString());
            assertTrue(filter.matches(A, List.of(T1)), filter.toString());
        }
    }

    /**
     * A topic call refused for a topic of the wrong length leaves no empty alternative set behind: the filter built
     * afterwards asks nothing of the bloom at that position (an empty set would be a clause no bloom passes).
     */
    @Test
    void aRefusedTopicLeavesNoEmptyClauseBehind() {
        LogFilter.Builder builder = LogFilter.builder();
        assertThrows(IllegalArgumentException.class, () -> builder.topic(0, A));
        LogFilter filter = builder.build();
        assertEquals(0, filter.bloomBitClauses().length);
        assertTrue(filter.couldMatch(LogsBloom.EMPTY));
    }

    /**
     * A refused {@code address} or {@code topic} call changes nothing: not the alternatives before it, not the valid
     * values beside the bad one, not the wildcard a null beside it would make, and not the count of positions (a
     * refused {@code topic(1, …)} does not make the filter ask for two topics). Before, the valid values and the
     * position stayed behind. The builder stays usable after the refusal.
     */
    @Test
    void aRefusedCallLeavesTheBuilderAsItWas() {
        byte[] shortTopic = new byte[31];
        LogFilter.Builder builder = LogFilter.builder().address(A).topic(0, T1);
        assertThrows(IllegalArgumentException.class, () -> builder.address(B, new byte[19]));
        assertThrows(IllegalArgumentException.class, () -> builder.topic(0, T2, null, shortTopic));
        assertThrows(IllegalArgumentException.class, () -> builder.topic(1, T3, shortTopic));
        LogFilter expected = LogFilter.builder().address(A).topic(0, T1).build();
        assertEquals(expected, builder.build());
        assertEquals(1, builder.build().topics().size());
        assertTrue(builder.build().matches(A, List.of(T1)));

        LogFilter.Builder full = LogFilter.builder();
        for (int i = 0; i < LogFilter.MAX_ALTERNATIVES - 1; i++) {
            byte[] address = new byte[20];
            address[0] = (byte) i;
            address[1] = (byte) (i >> 8);
            full.address(address);
        }
        byte[] last = filled(20, 0x7f);
        assertThrows(IllegalArgumentException.class, () -> full.address(last, filled(20, 0x7e)));
        assertEquals(LogFilter.MAX_ALTERNATIVES - 1, full.build().addresses().size());
        assertEquals(LogFilter.MAX_ALTERNATIVES, full.address(last).build().addresses().size());
    }
}
