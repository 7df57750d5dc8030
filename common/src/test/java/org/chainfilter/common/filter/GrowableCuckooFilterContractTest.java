package org.chainfilter.common.filter;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import org.chainfilter.common.bloom.KeyEncoder;
import org.junit.jupiter.api.function.Executable;

/** The contract for a growable cuckoo filter whose first table holds 1/16 of the elements, so it grows 4 times. */
class GrowableCuckooFilterContractTest extends MembershipFilterContract<GrowableCuckooFilter<Long>> {

    @Override
    GrowableCuckooFilter<Long> create(long expectedElements, double falsePositiveRate) {
        return GrowableCuckooFilter.create(KeyEncoder.longs(), Math.max(1, expectedElements / 16), falsePositiveRate);
    }

    /** Each table's rate at its actual load, compounded. */
    @Override
    double formulaRate(GrowableCuckooFilter<Long> filter, long elements) {
        double allNegative = 1;
        for (int i = 0; i < filter.tableCount(); i++) {
            CuckooFilter<Long> table = filter.table(i);
            allNegative *= 1 - CuckooFilter.falsePositiveRate(table.load(), table.fingerprintBits(),
                    table.bucketCount());
        }
        return 1 - allNegative;
    }

    @Override
    GrowableCuckooFilter<Long> readFrom(InputStream in, KeyEncoder<Long> encoder, long maxBytes) throws IOException {
        return GrowableCuckooFilter.readFrom(in, encoder, maxBytes);
    }

    /**
     * First table: 1 bucket of 4, 7-bit fingerprints (P/2 = 10%); 9 keys fill it (4 slots and the stashed victim) and
     * open a second table of 2 buckets and 8-bit fingerprints, which takes the other 4.
     */
    @Override
    GrowableCuckooFilter<Long> smallFixedFilter() {
        GrowableCuckooFilter<Long> filter = GrowableCuckooFilter.create(KeyEncoder.longs(), 1, 0.2);
        for (long key = 1; key <= 9; key++) {
            filter.put(key);
        }
        return filter;
    }

    @Override
    String goldenHex() {
        return "4346464d06013fc999999999999a0000000000000001024346464d050107000000000000000100000000000000050100"
                + "00000000000000000000000000005d000000000a00791f4346464d050108000000000000000200000000000000040000"
                + "000000000000000000000000000000000025aa0000170f";
    }

    @Override
    Map<String, Executable> badParameters() {
        return Map.of(
                "expected element count is 0; it must be at least 1",
                () -> GrowableCuckooFilter.create(KeyEncoder.longs(), 0, 0.01),
                "false-positive rate is 1.0E-8; a growable cuckoo filter supports rates in [2e-8, 0.5]",
                () -> GrowableCuckooFilter.create(KeyEncoder.longs(), 10, 1e-8));
    }
}
