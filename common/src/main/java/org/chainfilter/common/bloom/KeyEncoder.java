package org.chainfilter.common.bloom;

import java.util.Objects;
import java.util.function.Function;
import org.chainfilter.common.hash.Hash128Function;
import org.chainfilter.common.hash.Murmur3;

/**
 * How a key of type {@code T} becomes a 128-bit hash (Guava's {@code Funnel} idea, fused with the hash so the built-in
 * keys never become a byte array): the key's canonical bytes are hashed with MurmurHash3 x64_128 and the two halves
 * handed to a {@link Hash128Function}.
 *
 * <p>The built-ins allocate nothing per call:
 * <ul>
 *   <li>{@link #bytes()}: the array's bytes;</li>
 *   <li>{@link #longs()}: the 8 little-endian bytes of the value;</li>
 *   <li>{@link #chars()}: the UTF-16 code units, each little-endian (as Guava's
 *       {@code Funnels.unencodedCharsFunnel()}), so a {@code String} and a {@code StringBuilder} with the same chars are
 *       the same key.</li>
 * </ul>
 * A filter and the filter it is merged with, or read back into, must use the same encoding; the binary form cannot
 * record a lambda.
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
        return (key, seed, result) ->
                Murmur3.x64_128(seed, toBytes.apply(Objects.requireNonNull(key, BuiltInKeyEncoders.NULL_KEY)), result);
    }
}
