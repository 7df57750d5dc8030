package org.chainfilter.common.filter;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import org.chainfilter.common.bloom.KeyEncoder;
import org.chainfilter.common.math.BloomMath;
import org.chainfilter.common.math.Shape;
import org.junit.jupiter.api.function.Executable;

class CountingBloomFilterContractTest extends MembershipFilterContract<CountingBloomFilter<Long>> {

    @Override
    CountingBloomFilter<Long> create(long expectedElements, double falsePositiveRate) {
        return CountingBloomFilter.create(KeyEncoder.longs(), expectedElements, falsePositiveRate);
    }

    @Override
    double formulaRate(CountingBloomFilter<Long> filter, long elements) {
        Shape shape = filter.shape();
        return BloomMath.falsePositiveRate(elements, shape.bitCount(), shape.hashFunctionCount());
    }

    @Override
    CountingBloomFilter<Long> readFrom(InputStream in, KeyEncoder<Long> encoder, long maxBytes) throws IOException {
        return CountingBloomFilter.readFrom(in, encoder, maxBytes);
    }

    /** 37 counters (not a multiple of 16), k = 3, key 7 three times, keys 1..4, -1. */
    @Override
    CountingBloomFilter<Long> smallFixedFilter() {
        CountingBloomFilter<Long> filter = CountingBloomFilter.withShape(KeyEncoder.longs(), Shape.of(37, 3));
        for (long key : new long[] {7, 7, 7, 1, 2, 3, 4, -1}) {
            filter.put(key);
        }
        return filter;
    }

    @Override
    String goldenHex() {
        return "4346464d010102030000000000000025001000026010000200000101101210000000000000030002";
    }

    @Override
    Map<String, Executable> badParameters() {
        return Map.of(
                "cell count is 34359738225; a counting filter holds 1 to 34359738224 cells",
                () -> CountingBloomFilter.withShape(KeyEncoder.longs(), Shape.of(FourBitCells.MAX_CELLS + 1, 3)),
                "hash function count is 0; it must be within [1, 255]",
                () -> CountingBloomFilter.withShape(KeyEncoder.longs(), Shape.of(100, 0)));
    }
}
