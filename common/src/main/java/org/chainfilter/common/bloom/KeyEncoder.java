package org.chainfilter.common.bloom;

import java.util.Objects;
import java.util.function.Function;
import org.chainfilter.common.hash.Hash128Function;
import org.chainfilter.common.hash.Murmur3;
import org.chainfilter.common.hash.Xxh3;

/**
 * How a key of type {@code T} becomes a 128-bit hash (Guava's {@code Funnel} idea, fused with the hash so the built-in
 * keys never become a byte array): the key's canonical bytes are hashed with MurmurHash3 x64_128 and the two halves
 * handed to a {@link Hash128Function}; filters that need only 64 bits take {@link #hash64}, XXH3-64 of the same
 * bytes for the built-ins.
 *
 * <p>The built-ins allocate nothing per call:
 * <ul>
 *   <li>{@link #bytes()}: the array's bytes;</li>
 *   <li>{@link #longs()}: the 8 little-endian bytes of the value;</li>
 *   <li>{@link #chars()}: the UTF-16 code units, each little-endian (as Guava's
 *       {@code Funnels.unencodedCharsFunnel()}), so a {@code String} and a {@code StringBuilder} with the same chars are
 *       the same key.</li>
 * </ul>
 * A filter and the filter it is merged with, or read back into, must use the same encoding, for {@link #hash128} and
 * for {@link #hash64} alike (a blocked filter places its bits by {@code hash64}: an encoder whose {@code hash64}
 * changes moves them); the binary form cannot record a lambda.
 *
 * @param <T> the key type
 */
@FunctionalInterface
public interface KeyEncoder<T> {

    /**
     * Hashes {@code key} with MurmurHash3 x64_128 under {@code seed} and returns what {@code result} answers for the
     * two halves.
     *
     * @throws NullPointerException if {@code key} is null (the built-in encoders say "the element is null; a filter
     *     holds no null element")
     */
    boolean hash128(T key, int seed, Hash128Function result);

    /**
     * A 64-bit hash of {@code key}, for filters that need 64 bits (the blocked filter): the built-in encoders answer
     * XXH3-64 ({@link Xxh3}, default secret, seed 0) of the key's canonical bytes, as {@link #viaBytes} does of the
     * bytes it is given; about half the work of {@link #hash128} for short keys. An encoder that defines only
     * {@link #hash128} answers the first half {@code h1} of its hash under seed 0, through a one-element array that
     * the JIT's escape analysis usually removes; override this method for a 64-bit hash of your own.
     *
     * @throws NullPointerException if {@code key} is null (the built-in encoders say "the element is null; a filter
     *     holds no null element")
     * @throws IllegalArgumentException from {@link #chars()} for text longer than 2^30 - 1 chars
     */
    default long hash64(T key) {
        long[] first = new long[1];
        hash128(key, 0, (h1, h2) -> {
            first[0] = h1;
            return true;
        });
        return first[0];
    }

    /** Keys are byte arrays; their contents (not their identity) are the key. */
    static KeyEncoder<byte[]> bytes() {
        return BuiltInKeyEncoders.BYTES;
    }

    /** Keys are {@code long}s, hashed as their 8 little-endian bytes (the same hash as {@link #bytes()} of those). */
    static KeyEncoder<Long> longs() {
        return BuiltInKeyEncoders.LONGS;
    }

    /** Keys are char sequences, hashed as their UTF-16LE code units without encoding them. */
    static KeyEncoder<CharSequence> chars() {
        return BuiltInKeyEncoders.CHARS;
    }

    /**
     * Keys of any type, through a function that gives their canonical bytes. This allocates whatever
     * {@code toBytes} allocates; use it for keys that already hold their bytes or off the hot path.
     */
    static <T> KeyEncoder<T> viaBytes(Function<? super T, byte[]> toBytes) {
        Objects.requireNonNull(toBytes, "toBytes");
        return new KeyEncoder<>() {
            @Override
            public boolean hash128(T key, int seed, Hash128Function result) {
                return Murmur3.x64_128(seed, bytesOf(key), result);
            }

            @Override
            public long hash64(T key) {
                return Xxh3.hash64(bytesOf(key));
            }

            private byte[] bytesOf(T key) {
                return toBytes.apply(Objects.requireNonNull(key, BuiltInKeyEncoders.NULL_KEY));
            }
        };
    }
}
