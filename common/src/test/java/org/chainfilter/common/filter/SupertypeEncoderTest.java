package org.chainfilter.common.filter;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.List;
import org.chainfilter.common.bloom.KeyEncoder;
import org.junit.jupiter.api.Test;

/**
 * Every kind takes an encoder of a supertype of its element type, as {@link BloomFilter} does: a filter of
 * {@code String}s over {@link KeyEncoder#chars()} (a {@code KeyEncoder<CharSequence>}). The blocked, counting,
 * concurrent, cuckoo and growable cuckoo factories took only a {@code KeyEncoder<T>}, so these lines did not compile.
 */
class SupertypeEncoderTest {
    private static final KeyEncoder<CharSequence> CHARS = KeyEncoder.chars();

    @Test
    void everyKindHoldsStringsThroughACharSequenceEncoder() throws IOException {
        List<MembershipFilter<String>> filters = List.of(
                BloomFilter.create(CHARS, 100, 0.01),
                ScalableBloomFilter.create(CHARS, 100, 0.01),
                BlockedBloomFilter.create(CHARS, 100, 0.01),
                CountingBloomFilter.create(CHARS, 100, 0.01),
                ConcurrentBloomFilter.create(CHARS, 100, 0.01),
                CuckooFilter.create(CHARS, 100, 0.01),
                GrowableCuckooFilter.create(CHARS, 100, 0.01));
        for (MembershipFilter<String> filter : filters) {
            assertTrue(filter.put("alice"), filter::toString);
            assertTrue(filter.mightContain("alice"), filter::toString);
            assertFalse(filter.mightContain("bob"), filter::toString);
        }
        byte[] blocked = filters.get(2).toByteArray();
        BlockedBloomFilter<String> read = BlockedBloomFilter.readFrom(new ByteArrayInputStream(blocked), CHARS, 1 << 20);
        assertTrue(read.mightContain("alice"));
        byte[] cuckoo = filters.get(5).toByteArray();
        assertTrue(CuckooFilter.<String>readFrom(new ByteArrayInputStream(cuckoo), CHARS, 1 << 20).mightContain("alice"));
        byte[] counting = filters.get(3).toByteArray();
        assertTrue(CountingBloomFilter.<String>readFrom(new ByteArrayInputStream(counting), CHARS, 1 << 20)
                .mightContain("alice"));
        byte[] concurrent = filters.get(4).toByteArray();
        assertTrue(ConcurrentBloomFilter.<String>readFrom(new ByteArrayInputStream(concurrent), CHARS, 1 << 20)
                .mightContain("alice"));
        byte[] growable = filters.get(6).toByteArray();
        assertTrue(GrowableCuckooFilter.<String>readFrom(new ByteArrayInputStream(growable), CHARS, 1 << 20)
                .mightContain("alice"));
        assertTrue(BlockedBloomFilter.<String>withShape(CHARS, 4, 6).put("carol"));
        assertTrue(CuckooFilter.<String>withShape(CHARS, 4, 8).put("carol"));
    }
}
