package org.chainfilter.bench.core;

import java.util.function.Predicate;
import org.apache.commons.codec.digest.MurmurHash3;
import org.apache.commons.collections4.bloomfilter.EnhancedDoubleHasher;
import org.apache.commons.collections4.bloomfilter.Hasher;

/**
 * How the benchmarks feed a key to Apache Commons Collections' Bloom filters (4.5,
 * {@code org.apache.commons.collections4.bloomfilter}), and the check that a filter built that way works.
 *
 * <p>Commons Collections hashes nothing itself: a {@link Hasher} turns one item into the {@code k} indices of a
 * {@code Shape}. Its javadoc builds an {@link EnhancedDoubleHasher} from a hash function's output (a digest's bytes
 * or a pair of longs); we take commons-codec's 128-bit MurmurHash3 ({@code MurmurHash3.hash128x64}, seed 0), whose
 * two 64-bit halves become the hasher's initial value and increment: index {@code i} is
 * {@code h1 - i h2 - (i^3 - i)/6 mod m} (Kirsch–Mitzenmacher, enhanced double hashing). Guava's filter also starts
 * from MurmurHash3 x64_128, so the libraries differ in what they do with the hash, not in the hash.
 *
 * <p>Each call allocates the hash's {@code long[2]}, the hasher, and (inside Commons) an index extractor and its
 * lambdas; that is the API's cost, and part of what the benchmarks measure.
 */
public final class CommonsBloom {
    /** Writes key {@code i} of a benchmark's key sequence into {@code into} and returns it. */
    @FunctionalInterface
    public interface KeyWriter {
        byte[] write(long i, byte[] into);
    }

    private CommonsBloom() {
    }

    /** The hasher for {@code key}: MurmurHash3 x64_128 of the bytes, halves as initial value and increment. */
    public static Hasher hasher(byte[] key) {
        long[] hash = MurmurHash3.hash128x64(key);
        return new EnhancedDoubleHasher(hash[0], hash[1]);
    }

    /**
     * Throws unless {@code mightContain} answers true for every key {@code 0 .. members-1} and its rate on the keys
     * {@code absentFrom .. absentFrom+absentCount-1} (never put) is within a factor 2 of {@code rate}: so a misuse of
     * an API (wrong shape, indices never set, a filter that says yes to everything) cannot produce a fast wrong
     * benchmark.
     */
    public static void requireWorking(String filter, Predicate<byte[]> mightContain, KeyWriter keys, long members,
            long absentFrom, int absentCount, double rate) {
        requireWorking(filter, mightContain, keys, members, absentFrom, absentCount, rate / 2, rate * 2);
    }

    /**
     * {@link #requireWorking(String, Predicate, KeyWriter, long, long, int, double)} with the measured rate required
     * within {@code [minRate, maxRate]}: a scalable or cuckoo filter may stay well under the rate it was asked for.
     */
    public static void requireWorking(String filter, Predicate<byte[]> mightContain, KeyWriter keys, long members,
            long absentFrom, int absentCount, double minRate, double maxRate) {
        byte[] key = new byte[32];
        for (long i = 0; i < members; i++) {
            if (!mightContain.test(keys.write(i, key))) {
                throw new IllegalStateException(filter + " does not contain key " + i + " of the " + members
                        + " put into it");
            }
        }
        long positives = 0;
        for (long i = absentFrom; i < absentFrom + absentCount; i++) {
            positives += mightContain.test(keys.write(i, key)) ? 1 : 0;
        }
        double measured = (double) positives / absentCount;
        if (measured < minRate || measured > maxRate) {
            throw new IllegalStateException(filter + " answers true for " + positives + " of " + absentCount
                    + " keys never put (" + measured + "); it should be within " + minRate + " .. " + maxRate);
        }
    }
}
