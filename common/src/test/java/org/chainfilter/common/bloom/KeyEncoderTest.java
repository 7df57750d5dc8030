package org.chainfilter.common.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.chainfilter.common.hash.Murmur3;
import org.chainfilter.common.hash.Xxh3;
import org.junit.jupiter.api.Test;

class KeyEncoderTest {

    private static <T> long[] hash(KeyEncoder<T> encoder, T key, int seed) {
        long[] out = new long[2];
        encoder.hash128(key, seed, (h1, h2) -> {
            out[0] = h1;
            out[1] = h2;
            return true;
        });
        return out;
    }

    @Test
    void builtInsHashTheirCanonicalBytes() {
        byte[] bytes = {(byte) 0xff, 0x00, (byte) 0x80, 0x7f};
        assertEquals(Murmur3.x64_128(5, bytes)[1], hash(KeyEncoder.bytes(), bytes, 5)[1]);
        // 0x0102030405060708 little-endian
        byte[] le = {8, 7, 6, 5, 4, 3, 2, 1};
        assertEquals(Murmur3.x64_128(-1, le)[0], hash(KeyEncoder.longs(), 0x0102030405060708L, -1)[0]);
        assertEquals(Murmur3.x64_128(0, "héllo".getBytes(StandardCharsets.UTF_16LE))[0],
                hash(KeyEncoder.chars(), new StringBuilder("héllo"), 0)[0]);
        assertEquals(Murmur3.x64_128(3, "key".getBytes(StandardCharsets.UTF_8))[0],
                hash(KeyEncoder.<String>viaBytes(s -> s.getBytes(StandardCharsets.UTF_8)), "key", 3)[0]);
    }

    /** hash64 of a built-in is XXH3-64 of the same canonical bytes hash128 reads. */
    @Test
    void builtInsHash64TheirCanonicalBytesWithXxh3() {
        byte[] bytes = {(byte) 0xff, 0x00, (byte) 0x80, 0x7f};
        assertEquals(Xxh3.hash64(bytes), KeyEncoder.bytes().hash64(bytes));
        byte[] le = {8, 7, 6, 5, 4, 3, 2, 1};
        assertEquals(Xxh3.hash64(le), KeyEncoder.longs().hash64(0x0102030405060708L));
        assertEquals(Xxh3.hash64("héllo".getBytes(StandardCharsets.UTF_16LE)),
                KeyEncoder.chars().hash64(new StringBuilder("héllo")));
        assertEquals(Xxh3.hash64("key".getBytes(StandardCharsets.UTF_8)),
                KeyEncoder.<String>viaBytes(s -> s.getBytes(StandardCharsets.UTF_8)).hash64("key"));
    }

    /** An encoder that defines only hash128 answers its first half under seed 0 for hash64. */
    @Test
    void aCustomEncoderHash64IsItsFirstHalf() {
        KeyEncoder<String> custom = (key, seed, result) -> Murmur3.x64_128(seed, key.getBytes(StandardCharsets.UTF_8),
                result);
        assertEquals(Murmur3.x64_128(0, "abc".getBytes(StandardCharsets.UTF_8))[0], custom.hash64("abc"));
    }

    @Test
    void builtInsHaveReadableNames() {
        assertEquals("KeyEncoder.bytes()", KeyEncoder.bytes().toString());
        assertEquals("KeyEncoder.longs()", KeyEncoder.longs().toString());
        assertEquals("KeyEncoder.chars()", KeyEncoder.chars().toString());
    }

    @Test
    void nullKeysAreRefused() {
        String message = "the element is null; a filter holds no null element";
        assertEquals(message, assertThrows(NullPointerException.class,
                () -> hash(KeyEncoder.bytes(), (byte[]) null, 0)).getMessage());
        assertEquals(message, assertThrows(NullPointerException.class,
                () -> hash(KeyEncoder.longs(), (Long) null, 0)).getMessage());
        assertEquals(message, assertThrows(NullPointerException.class,
                () -> hash(KeyEncoder.chars(), (CharSequence) null, 0)).getMessage());
        KeyEncoder<String> utf8 = KeyEncoder.viaBytes(s -> s.getBytes(StandardCharsets.UTF_8));
        assertEquals(message, assertThrows(NullPointerException.class, () -> hash(utf8, (String) null, 0)).getMessage());
        assertEquals(message, assertThrows(NullPointerException.class,
                () -> KeyEncoder.bytes().hash64(null)).getMessage());
        assertEquals(message, assertThrows(NullPointerException.class,
                () -> KeyEncoder.longs().hash64(null)).getMessage());
        assertEquals(message, assertThrows(NullPointerException.class,
                () -> KeyEncoder.chars().hash64(null)).getMessage());
        assertEquals(message, assertThrows(NullPointerException.class, () -> utf8.hash64(null)).getMessage());
    }
}
