package org.chainfilter.ethbloom.property;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.chainfilter.ethbloom.LogFilter;
import org.chainfilter.ethbloom.LogsBloom;
import org.junit.jupiter.api.Test;

/**
 * The safety property of bloom skipping, seeded: a block is never skipped when one of its logs matches the filter.
 * For random blocks of random logs (0..4 topics, values drawn from a small pool so that filters built from the pool
 * match some logs and miss others) and random filters (1..3 addresses or none, up to 4 topic positions with
 * alternatives, wildcards and absent values), whenever {@link LogFilter#matches} accepts a log of the block,
 * {@link LogFilter#couldMatch} accepts the block's {@link LogsBloom}, and the bloom contains every address and topic
 * of every log added to it. Beside it, the skip test is checked against go-ethereum's rule written out plainly
 * (one of the addresses, and one alternative of each topic position with alternatives, each in the bloom), so blocks
 * that cannot match are skipped too.
 */
class BloomSkipPropertyTest {
    private final SplittableRandom random = new SplittableRandom(2048);
    private final List<byte[]> addresses = pool(12, 20);
    private final List<byte[]> topics = pool(24, 32);

    private record Log(byte[] address, List<byte[]> topics) {
    }

    @Test
    void aBlockWithAMatchingLogIsNeverSkipped() {
        int matchedBlocks = 0;
        int skippedBlocks = 0;
        for (int block = 0; block < 3000; block++) {
            List<Log> logs = new ArrayList<>();
            LogsBloom.Builder builder = LogsBloom.builder();
            int count = random.nextInt(random.nextInt(4) == 0 ? 60 : 6);
            for (int i = 0; i < count; i++) {
                List<byte[]> logTopics = new ArrayList<>();
                int topicCount = random.nextInt(5);
                for (int t = 0; t < topicCount; t++) {
                    logTopics.add(pick(topics));
                }
                Log log = new Log(pick(addresses), logTopics);
                logs.add(log);
                builder.addLog(log.address(), log.topics());
            }
            LogsBloom bloom = builder.build();
            for (Log log : logs) {
                assertTrue(bloom.mightContain(log.address()));
                log.topics().forEach(topic -> assertTrue(bloom.mightContain(topic)));
            }
            for (int f = 0; f < 5; f++) {
                FilterSpec spec = randomFilter();
                LogFilter filter = spec.build();
                boolean couldMatch = filter.couldMatch(bloom);
                // And the skip is exactly the test go-ethereum's bloomFilter makes, so skipping is not lost either
                // (a couldMatch that always said yes would pass the safety check above).
                assertEquals(spec.bloomAdmits(bloom), couldMatch, "block " + block + ": " + filter);
                skippedBlocks += couldMatch ? 0 : 1;
                for (Log log : logs) {
                    if (filter.matches(log.address(), log.topics())) {
                        matchedBlocks++;
                        assertTrue(couldMatch, "block " + block + ": " + filter
                                + " matches a log but the bloom check would skip the block");
                        break;
                    }
                }
            }
        }
        assertTrue(matchedBlocks > 1000, "the property was exercised on " + matchedBlocks + " matching blocks");
        assertTrue(skippedBlocks > 1000, "the bloom check skipped only " + skippedBlocks + " blocks");
    }

    /**
     * A filter as drawn: its addresses (none: any) and, per topic position, its alternatives (null: any). What
     * go-ethereum's {@code bloomFilter} asks of a block's bloom, written out plainly: one of the addresses, if any
     * are given, and for each position with alternatives one of them, each tested on its own.
     */
    private record FilterSpec(List<byte[]> addresses, List<List<byte[]>> positions) {
        LogFilter build() {
            LogFilter.Builder filter = LogFilter.builder();
            addresses.forEach(filter::address);
            for (int p = 0; p < positions.size(); p++) {
                if (positions.get(p) == null) {
                    filter.anyTopic(p);
                } else {
                    filter.topic(p, positions.get(p).toArray(new byte[0][]));
                }
            }
            return filter.build();
        }

        boolean bloomAdmits(LogsBloom bloom) {
            if (!addresses.isEmpty() && addresses.stream().noneMatch(bloom::mightContain)) {
                return false;
            }
            return positions.stream().allMatch(p -> p == null || p.stream().anyMatch(bloom::mightContain));
        }
    }

    private FilterSpec randomFilter() {
        List<byte[]> chosenAddresses = new ArrayList<>();
        int addressCount = random.nextInt(4);
        for (int i = 0; i < addressCount; i++) {
            chosenAddresses.add(pick(addresses));
        }
        List<List<byte[]>> positions = new ArrayList<>();
        int positionCount = random.nextInt(5);
        for (int p = 0; p < positionCount; p++) {
            int kind = random.nextInt(4);
            if (kind == 0) {
                positions.add(null);
            } else {
                List<byte[]> alternatives = new ArrayList<>();
                for (int a = 0; a < kind; a++) {
                    alternatives.add(random.nextInt(10) == 0 ? bytes(32) : pick(topics));
                }
                positions.add(alternatives);
            }
        }
        return new FilterSpec(chosenAddresses, positions);
    }

    private byte[] pick(List<byte[]> values) {
        return values.get(random.nextInt(values.size()));
    }

    private List<byte[]> pool(int count, int length) {
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(bytes(length));
        }
        return out;
    }

    private byte[] bytes(int length) {
        byte[] out = new byte[length];
        random.nextBytes(out);
        return out;
    }
}
