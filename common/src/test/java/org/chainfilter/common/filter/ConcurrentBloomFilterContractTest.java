package org.chainfilter.common.filter;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import org.chainfilter.common.bloom.KeyEncoder;
import org.chainfilter.common.math.BloomMath;
import org.chainfilter.common.math.Shape;
import org.junit.jupiter.api.function.Executable;

class ConcurrentBloomFilterContractTest extends MembershipFilterContract<ConcurrentBloomFilter<Long>> {

    @Override
    ConcurrentBloomFilter<Long> create(long expectedElements, double falsePositiveRate) {
        return ConcurrentBloomFilter.create(KeyEncoder.longs(), expectedElements, falsePositiveRate);
    }

    @Override
    double formulaRate(ConcurrentBloomFilter<Long> filter, long elements) {
        Shape shape = filter.shape();
        return BloomMath.falsePositiveRate(elements, shape.bitCount(), shape.hashFunctionCount());
    }

    @Override
    ConcurrentBloomFilter<Long> readFrom(InputStream in, KeyEncoder<Long> encoder, long maxBytes) throws IOException {
        return ConcurrentBloomFilter.readFrom(in, encoder, maxBytes);
    }

    /** 100 bits (the last word partial), k = 17, keys 1..3 and -1. */
    @Override
    ConcurrentBloomFilter<Long> smallFixedFilter() {
        ConcurrentBloomFilter<Long> filter = ConcurrentBloomFilter.withShape(KeyEncoder.longs(), Shape.of(100, 17));
        for (long key : new long[] {1, 2, 3, -1}) {
            filter.put(key);
        }
        return filter;
    }

    @Override
    String goldenHex() {
        return "4346464d0401021100000000000000644a868b2de5a2661b0000000a48f763a6";
    }

    @Override
    Map<String, Executable> badParameters() {
        return Map.of(
                "expected element count is 0; it must be at least 1",
                () -> ConcurrentBloomFilter.create(KeyEncoder.longs(), 0, 0.01),
                "bit count is 0; it must be at least 1",
                () -> ConcurrentBloomFilter.withShape(KeyEncoder.longs(), Shape.of(0, 3)));
    }
}
