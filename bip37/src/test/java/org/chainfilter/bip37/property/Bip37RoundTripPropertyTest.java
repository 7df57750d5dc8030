package org.chainfilter.bip37.property;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.chainfilter.bip37.Bip37BloomFilter;
import org.chainfilter.bip37.Bip37Messages;
import org.chainfilter.btcwire.Hash256;
import org.chainfilter.btcwire.OutPoint;
import org.junit.jupiter.api.Test;

/**
 * Seeded property tests of BIP37's messages and filter: random filters from raw parts over the whole accepted space
 * (0..36,000 bytes, 0..50 hash functions, any nTweak, any nFlags byte) and filters sized by Core's formulas round-trip
 * through {@code filterload} byte for byte; every item and outpoint inserted is contained afterwards (no false
 * negatives), in the original and in a copy; {@code filteradd} round-trips for every length 0..520.
 */
class Bip37RoundTripPropertyTest {
    private final SplittableRandom random = new SplittableRandom(37_0520);

    @Test
    void filtersFromRawPartsRoundTripThroughFilterload() {
        for (int i = 0; i < 300; i++) {
            int length = random.nextInt(8) == 0 ? Bip37BloomFilter.MAX_FILTER_BYTES - random.nextInt(3)
                    : random.nextInt(600);
            Bip37BloomFilter filter = Bip37BloomFilter.fromParts(bytes(length),
                    random.nextInt(Bip37BloomFilter.MAX_HASH_FUNCS + 1), random.nextInt(), random.nextInt(256));
            byte[] payload = filter.toFilterLoad();
            Bip37BloomFilter parsed = Bip37BloomFilter.parseFilterLoad(payload);
            assertEquals(filter, parsed);
            assertArrayEquals(payload, parsed.toFilterLoad());
            assertEquals(filter.flags(), parsed.flags());
        }
    }

    @Test
    void sizedFiltersHaveNoFalseNegativesForItemsAndOutpoints() {
        for (int i = 0; i < 60; i++) {
            int elements = 1 + random.nextInt(random.nextBoolean() ? 50 : 3000);
            double rate = Math.pow(10, -1 - random.nextInt(6)) * (1 + random.nextDouble());
            Bip37BloomFilter filter = Bip37BloomFilter.fromElementsAndRate(elements, rate, random.nextInt(),
                    random.nextInt(256));
            List<byte[]> items = new ArrayList<>();
            List<OutPoint> outpoints = new ArrayList<>();
            for (int e = 0; e < elements; e++) {
                byte[] item = bytes(random.nextInt(80));
                items.add(item);
                filter.insert(item);
                OutPoint outpoint = new OutPoint(Hash256.fromInternalBytes(bytes(32)), random.nextLong(1L << 32));
                outpoints.add(outpoint);
                filter.insertOutPoint(outpoint);
            }
            Bip37BloomFilter copy = Bip37BloomFilter.parseFilterLoad(filter.toFilterLoad());
            for (int e = 0; e < elements; e++) {
                String where = "filter " + filter + ", item " + e;
                assertTrue(filter.contains(items.get(e)) && copy.contains(items.get(e)), where);
                assertTrue(filter.containsOutPoint(outpoints.get(e)) && copy.containsOutPoint(outpoints.get(e)),
                        where);
            }
        }
    }

    @Test
    void filteraddRoundTripsForEveryLength() {
        for (int length = 0; length <= Bip37Messages.MAX_FILTERADD_BYTES; length++) {
            byte[] element = bytes(length);
            assertArrayEquals(element, Bip37Messages.parseFilterAdd(Bip37Messages.filterAdd(element)));
        }
    }

    private byte[] bytes(int length) {
        byte[] out = new byte[length];
        random.nextBytes(out);
        return out;
    }
}
