package org.chainfilter.bench.family;

import com.google.common.hash.Funnels;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;
import org.chainfilter.common.bloom.EnhancedDoubleHashing;
import org.chainfilter.common.bloom.KeyEncoder;
import org.chainfilter.common.filter.BlockedBloomFilter;
import org.chainfilter.common.filter.MembershipFilter;

/**
 * A cross-check of {@link FamilyBenchmark}'s {@code mightContain} ratios for a shared, overloaded machine (not part of
 * {@code mvn verify}). JMH measures wall-clock time, so when other processes take the cores its figures swing with
 * their load; here every kind is measured in the same JVM, in interleaved rounds, by the thread's CPU time
 * ({@link ThreadMXBean#getCurrentThreadCpuTime()}), which does not count time the thread spent descheduled (nor the
 * garbage collector's threads: Guava's 232-248 B a call are collected off this clock, which favours Guava). One
 * run measures one of the family's kinds (so the library's call sites see one filter class, as in a JMH fork) against
 * Guava and two floors, one random read of a {@code long[]} the size of the blocked filter per lookup:
 * independent reads ({@code floor}, whose misses the processor may overlap) and dependent reads ({@code dep-floor},
 * the next index is the word just read: one full miss latency each). Each round runs 2^20 lookups per contestant over the same probe pool as the JMH
 * benchmark (half members); the median ns per lookup over the rounds is printed with the ratios. The first rounds
 * are warm-up and discarded. Before the rounds, both filters are checked as in {@link FamilyBenchmark}'s setup (every
 * key put found, about 1% on keys never put). Every contestant is called through the same {@code Predicate} call site, one
 * megamorphic call per lookup for each, the floor included.
 *
 * <pre>
 *   mvn -B -q -pl bench -am package -Dmaven.test.skip=true
 *   java -Xmx4g -cp bench/target/benchmarks.jar org.chainfilter.bench.family.InterleavedCpuTimeRun KIND [rounds]
 * </pre>
 * with KIND one of blocked, classic, concurrent, cuckoo, counting, scalable.
 */
public final class InterleavedCpuTimeRun {
    private static final int WARMUP_ROUNDS = 5;

    private InterleavedCpuTimeRun() {
    }

    public static void main(String[] args) {
        String kind = args.length > 0 ? args[0] : "blocked";
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 25;
        ProbeKeys keys = new ProbeKeys();
        keys.createPool();

        Map<String, Predicate<byte[]>> kinds = new LinkedHashMap<>();
        MembershipFilter<byte[]> filter = FamilyBenchmark.Filter.create(kind);
        fill(filter::put);
        kinds.put(kind, filter::mightContain);
        com.google.common.hash.BloomFilter<byte[]> guava = com.google.common.hash.BloomFilter.create(
                Funnels.byteArrayFunnel(), FamilyBenchmark.ELEMENTS, FamilyBenchmark.RATE);
        fill(guava::put);
        kinds.put("guava", guava::mightContain);
        // As FamilyBenchmark's setup: both hold every key put and answer about 1% on keys never put (ours at most 2%,
        // as a scalable or cuckoo filter may stay well under it), so a broken filter cannot pass for a fast one.
        org.chainfilter.bench.core.CommonsBloom.requireWorking(kind, filter::mightContain,
                (i, key) -> ProbeKeys.fill(key, i), FamilyBenchmark.ELEMENTS, FamilyBenchmark.ABSENT_CHECK_FROM,
                100_000, 0, 2 * FamilyBenchmark.RATE);
        org.chainfilter.bench.core.CommonsBloom.requireWorking("guava", guava::mightContain,
                (i, key) -> ProbeKeys.fill(key, i), FamilyBenchmark.ELEMENTS, FamilyBenchmark.ABSENT_CHECK_FROM,
                100_000, FamilyBenchmark.RATE);
        BlockedBloomFilter<byte[]> blocked = BlockedBloomFilter.create(KeyEncoder.bytes(), FamilyBenchmark.ELEMENTS,
                FamilyBenchmark.RATE);
        long[] words = new long[blocked.blockCount() * 8];
        long random = 0x2545f4914f6cdd1dL;
        for (int i = 0; i < words.length; i++) {
            random ^= random << 13;
            random ^= random >>> 7;
            random ^= random << 17;
            words[i] = random;
        }
        long[] state = {0x9e3779b97f4a7c15L, 0};
        long[] previous = {0};
        kinds.put("floor", key -> {
            long x = state[0];
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            state[0] = x;
            // The key read as every filter reads it (FamilyBenchmark.readKey).
            return ((words[(int) EnhancedDoubleHashing.reduce(x, words.length)] ^ FamilyBenchmark.readKey(key)) & 1)
                    != 0;
        });
        // The latency floor: the next index is the word just read, so the misses cannot overlap.
        // A step counter joins the word in the index, or the walk would soon fall into a short, cached cycle.
        kinds.put("dep-floor", key -> {
            long step = ++state[1];
            previous[0] = words[(int) EnhancedDoubleHashing.reduce(previous[0] ^ step * 0x9e3779b97f4a7c15L,
                    words.length)];
            return ((previous[0] ^ FamilyBenchmark.readKey(key)) & 1) != 0;
        });

        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Map<String, double[]> nanos = new LinkedHashMap<>();
        kinds.keySet().forEach(name -> nanos.put(name, new double[rounds]));
        int lookups = ProbeKeys.POOL;
        long sink = 0;
        for (int round = 0; round < WARMUP_ROUNDS + rounds; round++) {
            for (Map.Entry<String, Predicate<byte[]>> contestant : kinds.entrySet()) {
                Predicate<byte[]> query = contestant.getValue();
                long start = threads.getCurrentThreadCpuTime();
                for (int i = 0; i < lookups; i++) {
                    if (query.test(keys.next())) {
                        sink++;
                    }
                }
                long used = threads.getCurrentThreadCpuTime() - start;
                if (round >= WARMUP_ROUNDS) {
                    nanos.get(contestant.getKey())[round - WARMUP_ROUNDS] = (double) used / lookups;
                }
            }
        }
        double guavaNs = median(nanos.get("guava"));
        double floorNs = median(nanos.get("floor"));
        System.out.printf("mightContain at %d items, p = %.2f, thread CPU time, median of %d rounds of %d lookups%n",
                FamilyBenchmark.ELEMENTS, FamilyBenchmark.RATE, rounds, lookups);
        for (Map.Entry<String, double[]> measured : nanos.entrySet()) {
            double ns = median(measured.getValue());
            System.out.printf("%-10s %7.1f ns/op   %5.2fx Guava's speed   %5.2fx the independent-read floor's time%n",
                    measured.getKey(), ns, guavaNs / ns, ns / floorNs);
        }
        System.out.println("(positives seen: " + sink + ")");
    }

    private static void fill(Predicate<byte[]> put) {
        byte[] key = new byte[32];
        for (long i = 0; i < FamilyBenchmark.ELEMENTS; i++) {
            put.test(ProbeKeys.fill(key, i));
        }
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
