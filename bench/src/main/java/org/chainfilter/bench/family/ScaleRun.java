package org.chainfilter.bench.family;

import org.chainfilter.common.bloom.KeyEncoder;
import org.chainfilter.common.filter.BlockedBloomFilter;
import org.chainfilter.common.filter.BloomFilter;

/**
 * The scale run (not part of {@code mvn verify}): the classic and the blocked filter sized for {@code n} items at
 * p = 1% (default {@code n = 10^8}), filled with keys {@code 0 .. n-1}, then probed with {@code probes} keys from
 * {@code 2^40} on, never put. Prints, for each kind, the measured rate, the kind's a-priori formula and the relative
 * difference; exits 1 if a member is missing or a difference exceeds 10%.
 *
 * <pre>
 *   mvn -B -q -pl bench -am package -Dmaven.test.skip=true
 *   java -Xmx4g -cp bench/target/benchmarks.jar org.chainfilter.bench.family.ScaleRun [n] [probes]
 * </pre>
 * About 120 MB per filter at 10^8; a few minutes on 2 cores (member checks included).
 */
public final class ScaleRun {
    private static final double RATE = 0.01;
    private static final long PROBE_BASE = 1L << 40;

    private ScaleRun() {
    }

    /** Argument {@code i} as a positive count (underscores allowed, as in 100_000_000), or {@code absent}. */
    static long count(String[] args, int i, String name, long absent) {
        if (args.length <= i) {
            return absent;
        }
        long value;
        try {
            value = Long.parseLong(args[i].replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " is '" + args[i] + "'; it must be a whole number");
        }
        if (value < 1) {
            throw new IllegalArgumentException(name + " is " + value + "; it must be at least 1");
        }
        return value;
    }

    public static void main(String[] args) {
        if (args.length > 2) {
            System.err.println("usage: ScaleRun [n] [probes]; " + args.length + " arguments given");
            System.exit(2);
        }
        boolean ok;
        try {
            ok = run(count(args, 0, "n", 100_000_000L), count(args, 1, "probes", 20_000_000L));
        } catch (IllegalArgumentException e) {
            // A count the filters refuse (more items than a filter can hold) is reported the same way.
            System.err.println("ScaleRun: " + e.getMessage() + " (usage: ScaleRun [n] [probes])");
            System.exit(2);
            return;
        }
        System.exit(ok ? 0 : 1);
    }

    /** The run itself; whether every member was found and both rates are within 10% of their formulas. */
    private static boolean run(long n, long probes) {
        boolean ok = true;

        long start = System.nanoTime();
        BloomFilter<Long> classic = BloomFilter.create(KeyEncoder.longs(), n, RATE);
        for (long i = 0; i < n; i++) {
            classic.putLong(i);
        }
        long missing = 0;
        for (long i = 0; i < n; i++) {
            if (!classic.mightContainLong(i)) {
                missing++;
            }
        }
        long positives = 0;
        for (long i = 0; i < probes; i++) {
            if (classic.mightContainLong(PROBE_BASE + i)) {
                positives++;
            }
        }
        ok &= report("classic " + classic.shape(), n, probes, missing, positives,
                classic.shape().falsePositiveRate(n), start);
        classic = null;

        start = System.nanoTime();
        BlockedBloomFilter<Long> blocked = BlockedBloomFilter.create(KeyEncoder.longs(), n, RATE);
        for (long i = 0; i < n; i++) {
            blocked.putLong(i);
        }
        missing = 0;
        for (long i = 0; i < n; i++) {
            if (!blocked.mightContainLong(i)) {
                missing++;
            }
        }
        positives = 0;
        for (long i = 0; i < probes; i++) {
            if (blocked.mightContainLong(PROBE_BASE + i)) {
                positives++;
            }
        }
        ok &= report("blocked " + blocked + " (" + blocked.bitCount() + " bits)", n, probes, missing, positives,
                blocked.falsePositiveRate(n), start);
        return ok;
    }

    private static boolean report(String kind, long n, long probes, long missing, long positives, double formula,
            long startNanos) {
        double measured = (double) positives / probes;
        double relative = (measured - formula) / formula;
        boolean ok = missing == 0 && Math.abs(relative) <= 0.10;
        System.out.printf("%s: n=%d probes=%d false negatives=%d measured=%.6f formula=%.6f diff=%+.2f%% %s (%.0f s)%n",
                kind, n, probes, missing, measured, formula, 100 * relative, ok ? "OK" : "FAIL",
                (System.nanoTime() - startNanos) / 1e9);
        return ok;
    }
}
