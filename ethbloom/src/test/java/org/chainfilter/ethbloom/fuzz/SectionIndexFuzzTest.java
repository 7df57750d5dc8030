package org.chainfilter.ethbloom.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import org.chainfilter.common.Hex;
import org.chainfilter.ethbloom.LogFilter;
import org.chainfilter.ethbloom.index.IndexFormatException;
import org.chainfilter.ethbloom.index.SectionIndex;
import org.chainfilter.testkit.ParserContract;

/**
 * Fuzzes the bloombits index reader ({@link SectionIndex#open(Path)}) with a hostile section file: the input is the
 * file {@code section-0000000000.bits} next to a valid {@code index.meta}, with its last four bytes replaced by the
 * CRC32C of the rest, so that mutations reach the structure behind the checksum. Checks: only
 * {@link IndexFormatException} (or an {@link UncheckedIOException}) escapes, allocation stays bounded; an index that
 * opens answers queries without failing, and its candidates for a one-address filter are exactly the blocks whose
 * three bloom-bit vectors are all set, decoded here independently from the documented format (big-endian header
 * with the last block's hash, 2048 vector lengths, vectors of 0 bytes = zero, 512 = raw, 65..511 = 64-byte bitmap of
 * the stored non-zero bytes).
 *
 * <p>Seeds ({@code SectionIndexFuzzTestInputs/open}), written by the seed generator in that format (version 2: the
 * version 1 seeds with version 2 and a 32-byte last block hash inserted after the 24-byte header): an empty full
 * section, a section whose three vectors for the test address are raw / sparse, a partial section of 100 blocks, and
 * broken ones (a sparse bitmap that flags too many bytes, a vector length of 513, a payload length that disagrees).
 */
class SectionIndexFuzzTest {
    static final byte[] ADDRESS = Hex.decode("0x5fbdb2315678afecb367f032d93f642f64180aa3");
    private static final int HEADER_BYTES = 56;
    private static final int BIT_COUNT = 2048;
    private static final int PAYLOAD_OFFSET = HEADER_BYTES + 2 * BIT_COUNT;
    private static final int VECTOR_BYTES = 512;
    private static final int BITMAP_BYTES = 64;
    private static final ParserContract<SectionIndex> INDEX = ParserContract.refusing("SectionIndex.open",
            IndexFormatException.class, UncheckedIOException.class);

    private final Path directory;

    SectionIndexFuzzTest() throws IOException {
        directory = Files.createTempDirectory("section-index-fuzz");
        directory.toFile().deleteOnExit();
        ByteBuffer meta = ByteBuffer.allocate(32);
        meta.put("CFBLMIDX".getBytes(java.nio.charset.StandardCharsets.US_ASCII)).putInt(2).putInt(4096).putLong(0)
                .putInt(0);
        meta.putInt(crc32c(meta.array(), 28));
        Files.write(directory.resolve("index.meta"), meta.array());
        directory.resolve("index.meta").toFile().deleteOnExit();
    }

    @FuzzTest(maxDuration = "5m")
    void open(byte[] input) throws IOException {
        byte[] file = input.clone();
        if (file.length >= 4) {
            ByteBuffer.wrap(file).putInt(file.length - 4, crc32c(file, file.length - 4));
        }
        Path section = directory.resolve("section-0000000000.bits");
        Files.write(section, file);
        section.toFile().deleteOnExit();
        INDEX.parse(file.length, () -> SectionIndex.open(directory)).ifPresent(index -> query(index, file));
    }

    private static void query(SectionIndex index, byte[] file) {
        long last = index.endBlockExclusive() - 1;
        LogFilter filter = LogFilter.builder().address(ADDRESS).build();
        long[] candidates = index.candidates(filter, 0, last);
        long[] everything = index.candidates(LogFilter.matchAll(), 0, last);
        if (everything.length != index.indexedBlockCount()) {
            throw new AssertionError("a match-all filter gave " + everything.length + " of "
                    + index.indexedBlockCount() + " blocks");
        }
        int[] bits = filter.bloomBitClauses()[0][0];
        long[] expected = expectedCandidates(file, bits, (int) index.indexedBlockCount());
        if (!Arrays.equals(candidates, expected)) {
            throw new AssertionError("candidates " + Arrays.toString(candidates) + " but the vectors of bits "
                    + Arrays.toString(bits) + " say " + Arrays.toString(expected));
        }
    }

    /** The blocks whose vectors of all {@code bits} are set, read from the section file as the format says. */
    private static long[] expectedCandidates(byte[] file, int[] bits, int blockCount) {
        ByteBuffer buffer = ByteBuffer.wrap(file);
        int[] start = new int[BIT_COUNT + 1];
        start[0] = PAYLOAD_OFFSET;
        for (int bit = 0; bit < BIT_COUNT; bit++) {
            start[bit + 1] = start[bit] + (buffer.getShort(HEADER_BYTES + 2 * bit) & 0xffff);
        }
        byte[] all = new byte[VECTOR_BYTES];
        Arrays.fill(all, (byte) 0xff);
        for (int bit : bits) {
            byte[] vector = decode(file, start[bit], start[bit + 1] - start[bit]);
            for (int i = 0; i < VECTOR_BYTES; i++) {
                all[i] &= vector[i];
            }
        }
        List<Long> blocks = new ArrayList<>();
        for (int j = 0; j < blockCount; j++) {
            if ((all[j >>> 3] & 0x80 >>> (j & 7)) != 0) {
                blocks.add((long) j);
            }
        }
        return blocks.stream().mapToLong(Long::longValue).toArray();
    }

    private static byte[] decode(byte[] file, int offset, int length) {
        byte[] raw = new byte[VECTOR_BYTES];
        if (length == VECTOR_BYTES) {
            System.arraycopy(file, offset, raw, 0, VECTOR_BYTES);
        } else if (length > 0) {
            int next = offset + BITMAP_BYTES;
            for (int j = 0; j < VECTOR_BYTES; j++) {
                if ((file[offset + (j >>> 3)] & 0x80 >>> (j & 7)) != 0) {
                    raw[j] = file[next++];
                }
            }
        }
        return raw;
    }

    private static int crc32c(byte[] bytes, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, length);
        return (int) crc.getValue();
    }
}
