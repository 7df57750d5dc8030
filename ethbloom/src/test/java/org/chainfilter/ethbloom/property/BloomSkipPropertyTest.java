package org.chainfilter.ethbloom.property;

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
 * of every log added to it.
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
                LogFilter filter = randomFilter();
                for (Log log : logs) {
                    if (filter.matches(log.address(), log.topics())) {
                        matchedBlocks++;
                        assertTrue(filter.couldMatch(bloom), "block " + block + ": " + filter
                                + " matches a log but the bloom check would skip the block");
                        break;
                    }
                }
            }
        }
        assertTrue(matchedBlocks > 1000, "the property was exercised on " + matchedBlocks + " matching blocks");
    }

    private LogFilter randomFilter() {
        LogFilter.Builder filter = LogFilter.builder();
        int addressCount = random.nextInt(4);
        for (int i = 0; i < addressCount; i++) {
            filter.address(pick(addresses));
        }
        int positions = random.nextInt(5);
        for (int p = 0; p < positions; p++) {
            int kind = random.nextInt(4);
            if (kind == 0) {
                filter.anyTopic(p);
            } else {
                byte[][] alternatives = new byte[kind][];
                for (int a = 0; a < kind; a++) {
                    alternatives[a] = random.nextInt(10) == 0 ? bytes(32) : pick(topics);
                }
                filter.topic(p, alternatives);
            }
        }
        return filter.build();
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
