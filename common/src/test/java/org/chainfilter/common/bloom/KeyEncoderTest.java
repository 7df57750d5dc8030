package org.chainfilter.common.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.chainfilter.common.hash.Murmur3;
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
    }
}
