package org.chainfilter.common.bloom;

import java.util.Objects;
import org.chainfilter.common.hash.Hash128Function;
import org.chainfilter.common.hash.Murmur3;
import org.chainfilter.common.hash.Xxh3;

/** The singletons behind {@link KeyEncoder#bytes()}, {@link KeyEncoder#longs()} and {@link KeyEncoder#chars()}. */
final class BuiltInKeyEncoders {
    /** The message of the {@link NullPointerException} for a null key: a filter has no null element. */
    static final String NULL_KEY = "the element is null; a filter holds no null element";

    static final KeyEncoder<byte[]> BYTES = new KeyEncoder<>() {
        @Override
        public boolean hash128(byte[] key, int seed, Hash128Function result) {
            return Murmur3.x64_128(seed, Objects.requireNonNull(key, NULL_KEY), result);
        }

        @Override
        public long hash64(byte[] key) {
            return Xxh3.hash64(Objects.requireNonNull(key, NULL_KEY));
        }

        @Override
        public String toString() {
            return "KeyEncoder.bytes()";
        }
    };

    static final KeyEncoder<Long> LONGS = new KeyEncoder<>() {
        @Override
        public boolean hash128(Long key, int seed, Hash128Function result) {
            return Murmur3.x64_128OfLong(seed, Objects.requireNonNull(key, NULL_KEY), result);
        }

        @Override
        public long hash64(Long key) {
            return Xxh3.hash64OfLong(Objects.requireNonNull(key, NULL_KEY));
        }

        @Override
        public String toString() {
            return "KeyEncoder.longs()";
        }
    };

    static final KeyEncoder<CharSequence> CHARS = new KeyEncoder<>() {
        @Override
        public boolean hash128(CharSequence key, int seed, Hash128Function result) {
            return Murmur3.x64_128OfChars(seed, Objects.requireNonNull(key, NULL_KEY), result);
        }

        @Override
        public long hash64(CharSequence key) {
            return Xxh3.hash64OfChars(Objects.requireNonNull(key, NULL_KEY));
        }

        @Override
        public String toString() {
            return "KeyEncoder.chars()";
        }
    };

    private BuiltInKeyEncoders() {
    }
}
