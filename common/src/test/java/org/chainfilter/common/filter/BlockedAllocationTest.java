package org.chainfilter.common.filter;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.chainfilter.common.bloom.KeyEncoder;
import org.chainfilter.testkit.InterpretedAllocation;
import org.junit.jupiter.api.Test;

/**
 * The blocked filter's {@code put}, {@code mightContain} and batch reader allocate nothing per call with the built-in
 * encoders, as its javadoc says, for keys of every XXH3 length class (a 300-byte key takes the long-input path),
 * counted in an interpreted JVM ({@link InterpretedAllocation}): the bound is under one byte per call.
 */
class BlockedAllocationTest {

    @Test
    void putAndMightContainAllocateNothingInTheInterpreter() throws Exception {
        long[] counts = InterpretedAllocation.run(Probe.class, Probe.CASES.length);
        for (int i = 0; i < counts.length; i++) {
            assertTrue(counts[i] < Probe.CALLS, Probe.CASES[i] + ": " + counts[i] + " bytes over " + Probe.CALLS + " calls");
        }
    }

    /** The forked JVM: bytes allocated over {@link #CALLS} calls of each case. */
    static final class Probe {
        static final int CALLS = 1_000;
        static final String[] CASES = {"byte[] keys of 0..300 bytes", "long keys", "CharSequence keys of 0..200 chars",
            "putLong and mightContainLong",
            "the batch reader over byte[] keys"};

        public static void main(String[] args) {
            byte[][] byteKeys = new byte[301][];
            for (int n = 0; n < byteKeys.length; n++) {
                byteKeys[n] = new byte[n];
                java.util.Arrays.fill(byteKeys[n], (byte) n);
            }
            Long[] longKeys = new Long[64];
            for (int n = 0; n < longKeys.length; n++) {
                longKeys[n] = n * 0x9e3779b97f4a7c15L;
            }
            String[] textKeys = new String[201];
            for (int n = 0; n < textKeys.length; n++) {
                textKeys[n] = "k".repeat(n);
            }
            BlockedBloomFilter<byte[]> bytes = BlockedBloomFilter.create(KeyEncoder.bytes(), 1_000, 0.01);
            BlockedBloomFilter<Long> longs = BlockedBloomFilter.create(KeyEncoder.longs(), 1_000, 0.01);
            BlockedBloomFilter<CharSequence> chars = BlockedBloomFilter.create(KeyEncoder.chars(), 1_000, 0.0001);
            MembershipFilter.BatchReader<byte[]> reader = bytes.batchReader();
            boolean[] results = new boolean[byteKeys.length];
            Runnable[] cases = {
                () -> {
                    for (int i = 0; i < CALLS; i++) {
                        byte[] key = byteKeys[i % byteKeys.length];
                        bytes.put(key);
                        check(bytes.mightContain(key));
                    }
                },
                () -> {
                    for (int i = 0; i < CALLS; i++) {
                        Long key = longKeys[i % longKeys.length];
                        longs.put(key);
                        check(longs.mightContain(key));
                    }
                },
                () -> {
                    for (int i = 0; i < CALLS; i++) {
                        String key = textKeys[i % textKeys.length];
                        chars.put(key);
                        check(chars.mightContain(key));
                    }
                },
                () -> {
                    for (int i = 0; i < CALLS; i++) {
                        longs.putLong(i * 31L);
                        check(longs.mightContainLong(i * 31L));
                    }
                },
                () -> {
                    for (int i = 0; i < CALLS; i++) {
                        check(reader.mightContain(byteKeys, i % 32, 16, results, 0) == 16);
                    }
                },
            };
            StringBuilder out = new StringBuilder();
            for (int c = 0; c < cases.length; c++) {
                cases[c].run();
                out.append(c == 0 ? "" : " ").append(InterpretedAllocation.allocatedBytes(cases[c]));
            }
            System.out.println(out);
        }

        private static void check(boolean held) {
            if (!held) {
                throw new AssertionError("a key just put is not found");
            }
        }
    }
}
