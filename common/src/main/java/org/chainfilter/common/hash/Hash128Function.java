package org.chainfilter.common.hash;

/**
 * Receives the two 64-bit halves of a 128-bit hash without boxing or an array, and answers a {@code boolean}. This is
 * how {@link Murmur3#x64_128(int, byte[], int, int, Hash128Function)} hands its result to a filter's hot path without
 * allocating: a filter keeps one instance per operation (put, contains) in a final field.
 */
@FunctionalInterface
public interface Hash128Function {

    /**
     * @param h1 the first 64-bit half (MurmurHash3's {@code out[0]}, the first 8 output bytes read little-endian)
     * @param h2 the second 64-bit half ({@code out[1]})
     */
    boolean apply(long h1, long h2);
}
