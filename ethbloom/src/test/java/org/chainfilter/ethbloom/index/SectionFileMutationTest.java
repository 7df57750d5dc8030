package org.chainfilter.ethbloom.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;

import org.chainfilter.ethbloom.LogFilter;
import org.chainfilter.ethbloom.LogsBloom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutated section files whose CRC32C is recomputed after the mutation, so every check after the checksum is
 * exercised: the reader either refuses the file with an {@link IndexFormatException} carrying a message, or accepts
 * it and then answers queries without any other exception (it never reads past a vector or the file).
 */
class SectionFileMutationTest {

    @TempDir
    Path dir;

    @Test
    void mutatedSectionsAreRefusedOrQueriedSafely() throws IOException {
        SplittableRandom random = new SplittableRandom(314);
        byte[][] values = new byte[60][20];
        for (byte[] v : values) {
            random.nextBytes(v);
        }
        try (SectionIndexWriter writer = SectionIndexWriter.open(dir, 0)) {
            for (long b = 0; b < 1_500; b++) {
                LogsBloom.Builder builder = LogsBloom.builder();
                // Some blocks very full, so both raw and sparse vectors occur.
                int count = b % 50 == 0 ? 600 : random.nextInt(4);
                for (int i = 0; i < count; i++) {
                    byte[] value = b % 50 == 0 ? randomBytes(random, 32) : values[random.nextInt(values.length)];
                    builder.addValue(value);
                }
                SyntheticChain.append(writer, b, builder.build());
            }
        }
        Path file = dir.resolve("section-0000000000.bits");
        byte[] good = Files.readAllBytes(file);
        LogFilter filter = LogFilter.builder().address(values[0], values[1]).build();
        long[] expected = SectionIndex.open(dir).candidates(filter, 0, 1_499);
        assertTrue(expected.length > 0);

        int refused = 0;
        int accepted = 0;
        for (int trial = 0; trial < 400; trial++) {
            byte[] mutated = mutate(good, random);
            Files.write(file, mutated);
            SectionIndex index;
            try {
                index = SectionIndex.open(dir);
            } catch (IndexFormatException e) {
                assertFalse(e.getMessage() == null || e.getMessage().isBlank());
                assertTrue(e.getMessage().length() < 300, e.getMessage());
                refused++;
                continue;
            }
            accepted++;
            long end = index.endBlockExclusive();
            if (end > 0) {
                long[] found = index.candidates(filter, 0, end - 1);
                for (long block : found) {
                    assertTrue(block >= 0 && block < end);
                }
            }
        }
        assertEquals(400, refused + accepted);
        assertTrue(refused > 200, "refused " + refused);
        Files.write(file, good);
        assertArrayEqualsLong(expected, SectionIndex.open(dir).candidates(filter, 0, 1_499));
    }

    private static void assertArrayEqualsLong(long[] expected, long[] actual) {
        if (!Arrays.equals(expected, actual)) {
            fail("candidates changed: " + Arrays.toString(actual));
        }
    }

    private static byte[] randomBytes(SplittableRandom random, int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    /**
     * One of: flip bytes in the header (with the last block's hash), the length table or the payload; truncate;
     * extend; then fix the CRC.
     */
    private static byte[] mutate(byte[] good, SplittableRandom random) {
        byte[] body = Arrays.copyOf(good, good.length - 4);
        switch (random.nextInt(5)) {
            case 0 -> body[random.nextInt(56)] ^= (byte) (1 << random.nextInt(8));
            case 1 -> {
                int at = 56 + 2 * random.nextInt(2048);
                body[at + random.nextInt(2)] = (byte) random.nextInt(256);
            }
            case 2 -> {
                for (int i = 0; i < 1 + random.nextInt(4); i++) {
                    body[4152 + random.nextInt(body.length - 4152)] ^= (byte) (1 << random.nextInt(8));
                }
            }
            case 3 -> body = Arrays.copyOf(body, 4152 + random.nextInt(body.length - 4152));
            default -> body = Arrays.copyOf(body, body.length + 1 + random.nextInt(600));
        }
        ByteBuffer out = ByteBuffer.allocate(body.length + 4).put(body);
        CRC32C crc = new CRC32C();
        crc.update(body);
        out.putInt((int) crc.getValue());
        return out.array();
    }
}
