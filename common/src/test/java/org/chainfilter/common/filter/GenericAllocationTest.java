package org.chainfilter.common.filter;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.chainfilter.common.bloom.EnhancedDoubleHashing;
import org.chainfilter.common.bloom.KeyEncoder;
import org.chainfilter.common.math.Shape;
import org.chainfilter.testkit.InterpretedAllocation;
import org.junit.jupiter.api.Test;

/**
 * The kinds over a generic index strategy allocate nothing per {@code put}, {@code mightContain} or {@code remove}
 * with the built-in encoders, under congruential hashing (new filters) and enhanced double hashing (filters read from
 * forms of it), as their javadoc and the strategies' say, counted in an interpreted JVM
 * ({@link InterpretedAllocation}): the bound is under one byte per call. Until this test only JMH's {@code -prof gc}
 * backed the claim, and only for new filters.
 */
class GenericAllocationTest {

    @Test
    void putMightContainAndRemoveAllocateNothingInTheInterpreter() throws Exception {
        long[] counts = InterpretedAllocation.run(Probe.class, Probe.CASES.length);
        for (int i = 0; i < counts.length; i++) {
            assertTrue(counts[i] < Probe.CALLS, Probe.CASES[i] + ": " + counts[i] + " bytes over " + Probe.CALLS + " calls");
        }
    }

    /** The forked JVM: bytes allocated over {@link #CALLS} calls of each case. */
    static final class Probe {
        static final int CALLS = 1_000;
        static final String[] CASES = {"BloomFilter, congruential hashing", "BloomFilter, enhanced double hashing",
            "BloomFilter putLong and mightContainLong", "CountingBloomFilter put, mightContain and remove",
            "ConcurrentBloomFilter put and mightContain", "ScalableBloomFilter put of present keys and mightContain"};

        public static void main(String[] args) {
            Long[] keys = new Long[64];
            for (int n = 0; n < keys.length; n++) {
                keys[n] = n * 0x9e3779b97f4a7c15L;
            }
            Shape shape = Shape.of(10_007, 17);
            BloomFilter<Long> congruential = BloomFilter.create(KeyEncoder.longs(), shape);
            BloomFilter<Long> enhanced = BloomFilter.create(KeyEncoder.longs(), shape, EnhancedDoubleHashing.INSTANCE);
            CountingBloomFilter<Long> counting = CountingBloomFilter.withShape(KeyEncoder.longs(), shape);
            ConcurrentBloomFilter<Long> concurrent = ConcurrentBloomFilter.withShape(KeyEncoder.longs(), shape);
            ScalableBloomFilter<Long> scalable = ScalableBloomFilter.create(KeyEncoder.longs(), 1_000, 0.01);
            for (Long key : keys) {
                scalable.put(key);
            }
            Runnable[] cases = {
                () -> putAndFind(congruential, keys),
                () -> putAndFind(enhanced, keys),
                () -> {
                    for (int i = 0; i < CALLS; i++) {
                        congruential.putLong(i * 31L);
                        check(congruential.mightContainLong(i * 31L));
                    }
                },
                () -> {
                    putAndFind(counting, keys);
                    for (int i = 0; i < CALLS; i++) {
                        check(counting.remove(keys[i % keys.length]));
                        counting.put(keys[i % keys.length]);
                    }
                },
                () -> putAndFind(concurrent, keys),
                () -> putAndFind(scalable, keys),
            };
            StringBuilder out = new StringBuilder();
            for (int c = 0; c < cases.length; c++) {
                cases[c].run();
                out.append(c == 0 ? "" : " ").append(InterpretedAllocation.allocatedBytes(cases[c]));
            }
            System.out.println(out);
        }

        /** {@link #CALLS} puts of the keys in turn, each followed by the query that must find it. */
        private static void putAndFind(MembershipFilter<Long> filter, Long[] keys) {
            for (int i = 0; i < CALLS; i++) {
                Long key = keys[i % keys.length];
                filter.put(key);
                check(filter.mightContain(key));
            }
        }

        private static void check(boolean held) {
            if (!held) {
                throw new AssertionError("a key just put is not found");
            }
        }
    }
}
