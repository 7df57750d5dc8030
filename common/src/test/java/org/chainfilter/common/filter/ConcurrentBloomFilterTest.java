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
