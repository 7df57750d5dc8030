package org.chainfilter.common.filter;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import org.chainfilter.common.bloom.KeyEncoder;
import org.junit.jupiter.api.function.Executable;

/** The contract for a scalable filter whose first stage holds 1/64 of the elements, so 10^6 items open 7 stages. */
class ScalableBloomFilterContractTest extends MembershipFilterContract<ScalableBloomFilter<Long>> {

    @Override
    ScalableBloomFilter<Long> create(long expectedElements, double falsePositiveRate) {
        return ScalableBloomFilter.create(KeyEncoder.longs(), Math.max(1, expectedElements / 64), falsePositiveRate);
    }

    @Override
    double formulaRate(ScalableBloomFilter<Long> filter, long elements) {
        return filter.falsePositiveRate(elements);
    }

    @Override
    ScalableBloomFilter<Long> readFrom(InputStream in, KeyEncoder<Long> encoder, long maxBytes) throws IOException {
        return ScalableBloomFilter.readFrom(in, encoder, maxBytes);
    }

    /**
     * First stage of 2 items at P = 10%: 6 keys fill three stages. Header, P = 0.1 (0x3fb999999999999a), n0 = 2,
     * 3 stages; stage 0 is a CFBF filter of m = 17, k = 6 (2 items at P0 = 2%) holding key 1, stage 1 m = 35, k = 6
     * (4 at 1.6%) keys 2, 3 and 4, stage 2 m = 73, k = 6 (8 at 1.28%) keys 5 and -1: each stage takes an item while
     * its set bits leave room for k more under {@code m P_i^(1/k)} ({@code ScalableBloomFilterTest.stagesFillByTheir
     * SetBits} rebuilds these bytes from classic filters).
     */
    @Override
    ScalableBloomFilter<Long> smallFixedFilter() {
        ScalableBloomFilter<Long> filter = ScalableBloomFilter.create(KeyEncoder.longs(), 2, 0.1);
        for (long key : new long[] {1, 2, 3, 4, 5, -1}) {
            filter.put(key);
        }
        return filter;
    }

    @Override
    String goldenHex() {
        // Computed outside Java (Python: MurmurHash3 x64_128, CongruentialHashing's recurrence and the fill rule).
        return "4346464d02013fb999999999999a00000000000000020343464246010206000000000000001100000000000032254346"
                + "4246010206000000000000002300000002411e150b434642460102060000000000000049140120008800801600000000"
                + "00000080";
    }

    @Override
    Map<String, Executable> badParameters() {
        return Map.of(
                "initial capacity is 0; it must be at least 1",
                () -> ScalableBloomFilter.create(KeyEncoder.longs(), 0, 0.01),
                "false-positive rate is 1.0; it must be strictly between 0 and 1",
                () -> ScalableBloomFilter.create(KeyEncoder.longs(), 10, 1.0),
                // The refusal named only the first stage's rate, P (1 - r), and a limit that P itself met.
                "false-positive rate bound is 5.0E-77 with initial capacity 10: the first stage, for 10 items at"
                        + " P (1 - r) = 9.999999999999997E-78, cannot be made: false-positive rate is"
                        + " 9.999999999999997E-78; its optimal shape needs 256 hash functions, more than the 255 a"
                        + " shape allows (the rate must be at least about 1.2e-77)",
                () -> ScalableBloomFilter.create(KeyEncoder.longs(), 10, 5e-77),
                "false-positive rate bound is 0.01 with initial capacity 4611686018427387903: the first stage, for"
                        + " 4611686018427387903 items at P (1 - r) = 0.0019999999999999996, cannot be made:"
                        + " 4611686018427387903 elements at rate 0.0019999999999999996 need 5.965166300815144E19 bits;"
                        + " at most 9223372036854775807 are representable",
                () -> ScalableBloomFilter.create(KeyEncoder.longs(), Long.MAX_VALUE / 2, 0.01));
    }
}
