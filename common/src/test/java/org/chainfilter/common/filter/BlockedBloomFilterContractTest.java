package org.chainfilter.common.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import org.chainfilter.common.Hex;
import org.chainfilter.common.bloom.KeyEncoder;
import org.junit.jupiter.api.Test;
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
    BlockedBloomFilter<Long> readFrom(InputStream in, long maxBytes) throws IOException {
        return BlockedBloomFilter.readFrom(in, KeyEncoder.longs(), maxBytes);
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
        // Recomputed outside Java (a Python MurmurHash3 x64_128 and the layout in BlockedBloomFilter's javadoc).
        return "4346464d0302050000000200000000800000400000000002000000000000000400000000000000080040000000000000000000"
                + "040040000000000000000000004000000000000000000000000012000000000000001000000000000000a00000000000000000"
                + "04000404000000300800000000000000010000000008000020000000100000000000000000";
    }

    @Override
    int formVersion() {
        return 2;
    }

    /**
     * A version-1 form (the layout before the probes became bit fields: this same filter's bytes then) is refused,
     * not read into a filter that would answer false for its members.
     */
    @Test
    void versionOneFormIsRefused() {
        String versionOne = "4346464d0301050000000201001000000000000000400000000000000100000000040000100000000000000001000000"
                + "000000000000000000020000000010000000000000800000000000800000000000000009000002000000000040000220"
                + "00000000000000000000000000400000000000400000000000000000002201800000000000000001000004";
        var e = assertThrows(IllegalArgumentException.class, () -> read(Hex.decode(versionOne), Long.MAX_VALUE));
        assertEquals("blocked Bloom filter binary form version is 1; this reader knows version 2 (version 1 put its"
                + " bits elsewhere: rebuild the filter)", e.getMessage());
    }

    /** Every k from 1 to 24 (the unrolled field probes and the multiplicative ones beyond 7) finds what it holds. */
    @Test
    void everyProbeCountFindsWhatItHolds() {
        for (int k = 1; k <= 24; k++) {
            BlockedBloomFilter<Long> filter = BlockedBloomFilter.withShape(KeyEncoder.longs(), 64, k);
            for (long key = 0; key < 2_000; key++) {
                filter.put(key * 0x9e3779b97f4a7c15L);
            }
            for (long key = 0; key < 2_000; key++) {
                assertTrue(filter.mightContain(key * 0x9e3779b97f4a7c15L), "k = " + k + ", key " + key);
            }
            long set = 0;
            for (long key = 0; key < 2_000; key++) {
                set += filter.put(key * 0x9e3779b97f4a7c15L) ? 1 : 0;
            }
            assertEquals(0, set, "k = " + k + ": a second put of the same keys set no bit");
        }
    }

    /** At p = 0.1% the filter uses k = 10, three probes past the field ones; the rate still meets its formula. */
    @Test
    void rateBeyondSevenProbesMeetsTheFormula() {
        BlockedBloomFilter<Long> filter = BlockedBloomFilter.create(KeyEncoder.longs(), 100_000, 0.001);
        assertTrue(filter.hashFunctionCount() > 7, "k = " + filter.hashFunctionCount());
        for (long key = 0; key < 100_000; key++) {
            filter.put(key);
        }
        long probes = 4_000_000;
        long positives = 0;
        for (long key = 0; key < probes; key++) {
            positives += filter.mightContain(-1 - key) ? 1 : 0;
        }
        double measured = positives / (double) probes;
        double formula = filter.falsePositiveRate(100_000);
        assertEquals(formula, measured, formula * 0.15, "measured " + measured + " against " + formula);
    }

    /** The batch reader answers exactly as {@code mightContain} for every k (field probes and multiplicative ones). */
    @Test
    void batchReaderAnswersAsMightContainForEveryProbeCount() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(11);
        for (int k : new int[] {1, 3, 6, 7, 8, 13, 24}) {
            BlockedBloomFilter<Long> filter = BlockedBloomFilter.withShape(KeyEncoder.longs(), 40, k);
            assertBatchReaderAgrees(filter, random);
        }
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
