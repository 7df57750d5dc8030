package org.chainfilter.common.filter;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Map;
import org.chainfilter.common.bloom.KeyEncoder;
import org.junit.jupiter.api.function.Executable;

class BlockedBloomFilterContractTest extends MembershipFilterContract<BlockedBloomFilter<Long>> {

    @Override
    BlockedBloomFilter<Long> create(long expectedElements, double falsePositiveRate) {
        return BlockedBloomFilter.create(KeyEncoder.longs(), expectedElements, falsePositiveRate);
    }

    @Override
    double formulaRate(BlockedBloomFilter<Long> filter, long elements) {
        return filter.falsePositiveRate(elements);
    }

    @Override
    BlockedBloomFilter<Long> read(byte[] bytes, long maxBytes) throws IOException {
        return BlockedBloomFilter.readFrom(new ByteArrayInputStream(bytes), KeyEncoder.longs(), maxBytes);
    }

    /** Two blocks, k = 5, keys 1..4 and a negative one. */
    @Override
    BlockedBloomFilter<Long> smallFixedFilter() {
        BlockedBloomFilter<Long> filter = BlockedBloomFilter.withShape(KeyEncoder.longs(), 2, 5);
        for (long key : new long[] {1, 2, 3, 4, -1}) {
            filter.put(key);
        }
        return filter;
    }

    @Override
    String goldenHex() {
        return "4346464d0301050000000201001000000000000000400000000000000100000000040000100000000000000001000000"
                + "000000000000000000020000000010000000000000800000000000800000000000000009000002000000000040000220"
                + "00000000000000000000000000400000000000400000000000000000002201800000000000000001000004";
    }

    @Override
    Map<String, Executable> badParameters() {
        return Map.of(
                "expected element count is 0; it must be at least 1",
                () -> BlockedBloomFilter.create(KeyEncoder.longs(), 0, 0.01),
                "false-positive rate is 0.6; a blocked filter supports rates in [1e-9, 0.5]",
                () -> BlockedBloomFilter.create(KeyEncoder.longs(), 10, 0.6),
                "false-positive rate is NaN; a blocked filter supports rates in [1e-9, 0.5]",
                () -> BlockedBloomFilter.create(KeyEncoder.longs(), 10, Double.NaN),
                "block count is 0; a blocked filter holds 1 to 268435454 blocks",
                () -> BlockedBloomFilter.withShape(KeyEncoder.longs(), 0, 6),
                "hash function count is 25; a blocked filter takes 1 to 24",
                () -> BlockedBloomFilter.withShape(KeyEncoder.longs(), 4, 25),
                "4000000000000 elements at rate 0.01 need 77311721990 blocks; a blocked filter holds at most 268435454",
                () -> BlockedBloomFilter.create(KeyEncoder.longs(), 4_000_000_000_000L, 0.01));
    }
}
