package org.chainfilter.common.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLongArray;
import org.chainfilter.common.bloom.KeyEncoder;
import org.junit.jupiter.api.RepeatedTest;

class ConcurrentBloomFilterTest {
    private static final int WRITERS = 8;
    private static final int READERS = 8;
    private static final long PER_WRITER = 100_000;

    /**
     * A filter equals itself while a writer runs: it compared its bits with themselves word by word, read twice, and
     * a put between the two reads made {@code f.equals(f)} false (found by a review; about 1 % of comparisons).
     */
    /**
     * {@code put} answers whether any of the item's bits was clear: {@code false} for an item already present, whose
     * bits it leaves as they were. Setting the bits without the read-only pass first answered {@code true} for every
     * put and passed every test (the contract checks only a new item's answer; from a mutation review).
     */
    @org.junit.jupiter.api.Test
    void putOfAPresentItemAnswersFalse() {
        ConcurrentBloomFilter<Long> filter = ConcurrentBloomFilter.create(KeyEncoder.longs(), 1_000, 0.01);
        for (long key = 0; key < 100; key++) {
            assertTrue(filter.put(key), "key " + key);
        }
        ConcurrentBloomFilter<Long> before = filter.copy();
        for (long key = 0; key < 100; key++) {
            assertEquals(false, filter.put(key), "key " + key + " again");
        }
        assertEquals(before, filter);
    }

    @org.junit.jupiter.api.Test
    void aFilterEqualsItselfWhileAWriterRuns() throws Exception {
        ConcurrentBloomFilter<Long> filter = ConcurrentBloomFilter.create(KeyEncoder.longs(), 1_000_000, 0.01);
        org.chainfilter.common.bits.AtomicBitStore bits = new org.chainfilter.common.bits.AtomicBitStore(1 << 20);
        java.util.concurrent.atomic.AtomicBoolean writing = new java.util.concurrent.atomic.AtomicBoolean(true);
        Thread writer = new Thread(() -> {
            for (long i = 0; writing.get(); i++) {
                filter.put(i);
                bits.set((i * 0x9e3779b97f4a7c15L) >>> 44);
            }
        });
        writer.start();
        int unequal = 0;
        for (int i = 0; i < 4_000; i++) {
            if (!filter.equals(filter) || !bits.equals(bits)) {
                unequal++;
            }
        }
        writing.set(false);
        writer.join();
        assertEquals(0, unequal);
    }

    /**
     * 8 writers put disjoint ranges while 8 readers check items the writers have published as done (through an atomic
     * progress counter, a happens-before edge); at the end every item of every writer is found.
     */
    @RepeatedTest(5)
    void eightWritersAndEightReadersLoseNoItem() throws Exception {
        ConcurrentBloomFilter<Long> filter =
                ConcurrentBloomFilter.create(KeyEncoder.longs(), WRITERS * PER_WRITER, 0.01);
        AtomicLongArray published = new AtomicLongArray(WRITERS);
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        CyclicBarrier start = new CyclicBarrier(WRITERS + READERS);
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            int writer = w;
            threads.add(new Thread(() -> {
                await(start);
                for (long i = 0; i < PER_WRITER; i++) {
                    filter.put(writer * PER_WRITER + i);
                    published.lazySet(writer, i + 1);
                }
            }));
        }
        for (int r = 0; r < READERS; r++) {
            int reader = r;
            threads.add(new Thread(() -> {
                await(start);
                long checks = 0;
                while (checks < 400_000) {
                    int writer = (int) (checks + reader) % WRITERS;
                    long done = published.get(writer);
                    if (done > 0) {
                        long key = writer * PER_WRITER + (checks * 7919 % done);
                        if (!filter.mightContain(key)) {
                            failures.add("reader " + reader + " missed published key " + key);
                        }
                    }
                    checks++;
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        assertTrue(failures.isEmpty(), () -> failures.size() + " misses, e.g. " + failures.peek());
        long missing = 0;
        for (long key = 0; key < WRITERS * PER_WRITER; key++) {
            if (!filter.mightContain(key)) {
                missing++;
            }
        }
        assertEquals(0, missing, "items lost by concurrent writers");
        double count = filter.approximateElementCount();
        assertEquals(WRITERS * PER_WRITER, count, 0.02 * WRITERS * PER_WRITER);
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
