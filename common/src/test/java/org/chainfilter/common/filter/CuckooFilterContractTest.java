package org.chainfilter.common.filter;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import org.chainfilter.common.bloom.KeyEncoder;
import org.junit.jupiter.api.function.Executable;

class CuckooFilterContractTest extends MembershipFilterContract<CuckooFilter<Long>> {

    @Override
    CuckooFilter<Long> create(long expectedElements, double falsePositiveRate) {
        return CuckooFilter.create(KeyEncoder.longs(), expectedElements, falsePositiveRate);
    }

    /** The rate at the load the elements give: {@code 1 - (1 - 1/(2^f-1))^((8 - 4/B) α)} for B buckets. */
    @Override
    double formulaRate(CuckooFilter<Long> filter, long elements) {
        return CuckooFilter.falsePositiveRate((double) elements / (4 * filter.bucketCount()), filter.fingerprintBits(),
                filter.bucketCount());
    }

    @Override
    CuckooFilter<Long> readFrom(InputStream in, KeyEncoder<Long> encoder, long maxBytes) throws IOException {
        return CuckooFilter.readFrom(in, encoder, maxBytes);
    }

    /** Four buckets of 4 with 7-bit fingerprints (slots straddle words), keys 1..5 and a negative one. */
    @Override
    CuckooFilter<Long> smallFixedFilter() {
        CuckooFilter<Long> filter = CuckooFilter.withShape(KeyEncoder.longs(), 4, 7);
        for (long key : new long[] {1, 2, 3, 4, 5, -1}) {
            filter.put(key);
        }
        return filter;
    }

    @Override
    String goldenHex() {
        return "4346464d0501070000000000000004000000000000000600000000000000000000000000000000001f000005d0002872"
                + "00000001a8100000";
    }

    @Override
    Map<String, Executable> badParameters() {
        return Map.of(
                "expected element count is -5; it must be at least 1",
                () -> CuckooFilter.create(KeyEncoder.longs(), -5, 0.01),
                "false-positive rate is 0.5; a cuckoo filter supports rates in [1e-8, 0.25]",
                () -> CuckooFilter.create(KeyEncoder.longs(), 10, 0.5),
                "false-positive rate is 1.0E-9; a cuckoo filter supports rates in [1e-8, 0.25]",
                () -> CuckooFilter.create(KeyEncoder.longs(), 10, 1e-9),
                "bucket count is 12; it must be a power of two from 1 to 1073741824 (the xor of partial-key hashing"
                        + " needs one)",
                () -> CuckooFilter.withShape(KeyEncoder.longs(), 12, 8),
                "fingerprint is 33 bits; it must be 2 to 32",
                () -> CuckooFilter.withShape(KeyEncoder.longs(), 16, 33),
                // The largest table of the largest fingerprints passes Java's array limit (wordsFor's own check).
                "1073741824 buckets of 4 x 32-bit slots need 2147483648 words; a table holds at most 2147483639",
                () -> CuckooFilter.withShape(KeyEncoder.longs(), CuckooFilter.MAX_BUCKETS, 32),
                "5000000000 elements need 1308900524 buckets; a cuckoo filter holds at most 1073741824",
                () -> CuckooFilter.create(KeyEncoder.longs(), 5_000_000_000L, 0.01));
    }
}
