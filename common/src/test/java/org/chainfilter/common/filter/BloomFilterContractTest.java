package org.chainfilter.common.filter;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import org.chainfilter.common.bloom.KeyEncoder;
import org.chainfilter.common.math.Shape;
import org.junit.jupiter.api.function.Executable;

/** The generic {@link BloomFilter} on the family's contract (its own binary form has magic "CFBF" and no kind byte). */
class BloomFilterContractTest extends MembershipFilterContract<BloomFilter<Long>> {

    @Override
    BloomFilter<Long> create(long expectedElements, double falsePositiveRate) {
        return BloomFilter.create(KeyEncoder.longs(), expectedElements, falsePositiveRate);
    }

    @Override
    double formulaRate(BloomFilter<Long> filter, long elements) {
        return filter.shape().falsePositiveRate(elements);
    }

    @Override
    BloomFilter<Long> readFrom(InputStream in, KeyEncoder<Long> encoder, long maxBytes) throws IOException {
        return BloomFilter.readFrom(in, encoder, maxBytes);
    }

    /** 70 bits (the second word partial), k = 5, keys 1..3 and -1. */
    @Override
    BloomFilter<Long> smallFixedFilter() {
        BloomFilter<Long> filter = BloomFilter.create(KeyEncoder.longs(), Shape.of(70, 5));
        for (long key : new long[] {1, 2, 3, -1}) {
            filter.put(key);
        }
        return filter;
    }

    @Override
    String goldenHex() {
        return "43464246010205000000000000004631004940051384870000000000000000";
    }

    @Override
    int versionOffset() {
        return 4;
    }

    @Override
    String badMagicMessage() {
        return "magic is 0x00464246; a chainfilter Bloom filter starts with 0x43464246 (\"CFBF\")";
    }

    @Override
    boolean hasKindByte() {
        return false;
    }

    @Override
    Map<String, Executable> badParameters() {
        return Map.of(
                "expected element count is 0; it must be at least 1",
                () -> BloomFilter.create(KeyEncoder.longs(), 0, 0.01),
                "hash function count is 256; it must be within [1, 255]",
                () -> BloomFilter.create(KeyEncoder.longs(), Shape.of(100, 256)));
    }
}
