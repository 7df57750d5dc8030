package org.chainfilter.ethbloom.index;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.zip.CRC32C;

import org.chainfilter.ethbloom.LogsBloom;

/**
 * The on-disk format of a section index (version 2). All integers are big-endian.
 *
 * <pre>
 * index.meta (32 bytes)
 *   0  8  magic "CFBLMIDX"
 *   8  4  format version (2)
 *  12  4  section size in blocks (4096)
 *  16  8  first block (block number of bit 0 of section 0)
 *  24  4  reserved, zero
 *  28  4  CRC32C of bytes 0..27
 *
 * section-NNNNNNNNNN.bits (one per section, NNNNNNNNNN = section number, decimal)
 *   0  4  magic "CFBS"
 *   4  4  format version (2)
 *   8  8  section number
 *  16  4  block count (1..4096; below 4096 only for the last, partial section)
 *  20  4  payload length P in bytes
 *  24  32 hash of the section's last block (block firstBlock + 4096 * section + count - 1)
 *  56  2 * 2048  length of each bloom bit's vector, bits k = 0..2047 in order (0..512)
 *  4152  P  the vectors, in the same order
 *  4152+P  4  CRC32C of every byte before it
 * </pre>
 *
 * <p>Version 2 added the last block's hash: the blooms of a section belong to the chain that ends in that block (the
 * writer checks that every block appended names the previous one as its parent), so a reader can check a section
 * against a node by one header, and a section built from blocks that were later reorganised away is detected instead
 * of hiding the new blocks' logs. Version 1 files, which cannot be checked, are refused with a request to rebuild.
 *
 * A vector is 4096 bits, block j of the section at byte j/8, mask {@code 0x80 >> (j % 8)} (go-ethereum's bloombits
 * layout). It is stored in one of three forms told apart by its length: 0 bytes = all zero; 512 bytes = raw; 65..511
 * bytes = sparse, a 64-byte bitmap of the non-zero bytes (byte j flagged at bitmap byte j/8, mask
 * {@code 0x80 >> (j % 8)}) followed by those bytes in order: one level of go-ethereum's {@code bitutil.CompressBytes},
 * kept only when shorter than raw.
 *
 * <p>Each section file is written to a temporary name, forced to disk and renamed into place, so a reader sees either
 * the old file, the new one, or none: an interrupted build leaves a readable index of the sections written so far.
 */
final class SectionFormat {
    static final String META_FILE = "index.meta";
    static final int META_BYTES = 32;
    static final byte[] META_MAGIC = "CFBLMIDX".getBytes(StandardCharsets.US_ASCII);
    static final int SECTION_MAGIC = 0x43464253; // "CFBS"
    static final int FORMAT_VERSION = 2;
    /** Why version 1 is refused, appended to its message. */
    static final String VERSION_1_ADVICE = "; version 1 stores no block hashes, so it cannot be checked against the"
            + " chain after a reorganisation: rebuild the index (chainfilter eth index build into a new directory)";
    static final int HASH_BYTES = 32;
    static final int BIT_COUNT = LogsBloom.BIT_COUNT;
    static final int VECTOR_BYTES = BloomBitsMatcher.SECTION_SIZE / 8;
    static final int BITMAP_BYTES = VECTOR_BYTES / 8;
    /**
     * A vector is stored sparse only when that takes fewer than 128 bytes, a quarter of raw: decoding a sparse vector
     * costs a step per stored byte, a raw one a load per word, and queries read many vectors.
     */
    static final int SPARSE_LIMIT_BYTES = VECTOR_BYTES / 4;
    static final int HASH_OFFSET = 24;
    static final int HEADER_BYTES = HASH_OFFSET + HASH_BYTES;
    static final int TABLE_BYTES = 2 * BIT_COUNT;
    static final int PAYLOAD_OFFSET = HEADER_BYTES + TABLE_BYTES;
    static final int CRC_BYTES = 4;
    static final long MIN_SECTION_FILE_BYTES = PAYLOAD_OFFSET + CRC_BYTES;
    static final long MAX_SECTION_FILE_BYTES = PAYLOAD_OFFSET + (long) BIT_COUNT * VECTOR_BYTES + CRC_BYTES;

    private SectionFormat() {
    }

    static Path sectionPath(Path directory, long section) {
        return directory.resolve(String.format(Locale.ROOT, "section-%010d.bits", section));
    }

    static int crc32c(ByteBuffer buffer, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(buffer.duplicate().position(offset).limit(offset + length));
        return (int) crc.getValue();
    }

    static byte[] encodeMeta(long firstBlock) {
        ByteBuffer meta = ByteBuffer.allocate(META_BYTES);
        meta.put(META_MAGIC).putInt(FORMAT_VERSION).putInt(BloomBitsMatcher.SECTION_SIZE).putLong(firstBlock).putInt(0);
        meta.putInt(crc32c(meta, 0, META_BYTES - CRC_BYTES));
        return meta.array();
    }

    /**
     * The first block recorded in a meta file.
     *
     * @throws IndexFormatException when the file is not a version 2 index meta file of 4096-block sections
     */
    static long decodeMeta(Path metaPath) throws IOException {
        long size = Files.size(metaPath);
        if (size != META_BYTES) {
            throw new IndexFormatException(metaPath + " is " + size + " bytes; an index meta file is " + META_BYTES);
        }
        ByteBuffer meta = ByteBuffer.wrap(Files.readAllBytes(metaPath));
        byte[] magic = new byte[META_MAGIC.length];
        meta.get(magic);
        if (!java.util.Arrays.equals(magic, META_MAGIC)) {
            throw new IndexFormatException(metaPath + " does not start with the magic CFBLMIDX");
        }
        int crc = meta.getInt(META_BYTES - CRC_BYTES);
        if (crc != crc32c(meta, 0, META_BYTES - CRC_BYTES)) {
            throw new IndexFormatException(metaPath + " fails its CRC32C check");
        }
        int version = meta.getInt(8);
        if (version != FORMAT_VERSION) {
            throw new IndexFormatException(metaPath + " has format version " + version + "; this reader knows version "
                    + FORMAT_VERSION + (version == 1 ? VERSION_1_ADVICE : ""));
        }
        int sectionSize = meta.getInt(12);
        if (sectionSize != BloomBitsMatcher.SECTION_SIZE) {
            throw new IndexFormatException(metaPath + " has sections of " + sectionSize + " blocks; expected "
                    + BloomBitsMatcher.SECTION_SIZE);
        }
        long firstBlock = meta.getLong(16);
        if (firstBlock < 0) {
            throw new IndexFormatException(metaPath + " has a negative first block " + firstBlock);
        }
        return firstBlock;
    }

    /**
     * Encodes a section from the hash of its last block and its 2048 vectors of 64 big-endian words.
     */
    static ByteBuffer encodeSection(long section, int blockCount, byte[] lastBlockHash, long[][] vectors) {
        byte[][] encoded = new byte[BIT_COUNT][];
        byte[] raw = new byte[VECTOR_BYTES];
        int payload = 0;
        for (int bit = 0; bit < BIT_COUNT; bit++) {
            ByteBuffer.wrap(raw).asLongBuffer().put(vectors[bit]);
            encoded[bit] = encodeVector(raw);
            payload += encoded[bit].length;
        }
        ByteBuffer out = ByteBuffer.allocate(PAYLOAD_OFFSET + payload + CRC_BYTES);
        out.putInt(SECTION_MAGIC).putInt(FORMAT_VERSION).putLong(section).putInt(blockCount).putInt(payload)
                .put(lastBlockHash);
        for (byte[] vector : encoded) {
            out.putShort((short) vector.length);
        }
        for (byte[] vector : encoded) {
            out.put(vector);
        }
        out.putInt(crc32c(out, 0, out.position()));
        return out.flip();
    }

    private static byte[] encodeVector(byte[] raw) {
        int nonZero = 0;
        for (byte b : raw) {
            if (b != 0) {
                nonZero++;
            }
        }
        if (nonZero == 0) {
            return new byte[0];
        }
        if (BITMAP_BYTES + nonZero >= SPARSE_LIMIT_BYTES) {
            return raw.clone();
        }
        byte[] out = new byte[BITMAP_BYTES + nonZero];
        int next = BITMAP_BYTES;
        for (int j = 0; j < VECTOR_BYTES; j++) {
            if (raw[j] != 0) {
                out[j >>> 3] |= (byte) (0x80 >>> (j & 7));
                out[next++] = raw[j];
            }
        }
        return out;
    }

    private static final VarHandle LONG_BE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    /**
     * Decodes a vector of {@code length} bytes held in {@code bytes[0, length)} into 64 big-endian words. Allocates
     * nothing. The encoding was validated when the section was opened.
     *
     * @return false when the vector is all zero
     */
    static boolean decodeVector(byte[] bytes, int length, long[] into) {
        if (length == 0) {
            java.util.Arrays.fill(into, 0L);
            return false;
        }
        if (length == VECTOR_BYTES) {
            for (int w = 0; w < into.length; w++) {
                into[w] = (long) LONG_BE.get(bytes, 8 * w);
            }
            return true;
        }
        int next = BITMAP_BYTES;
        for (int w = 0; w < into.length; w++) {
            // Bitmap byte w flags which of the eight bytes of word w are stored.
            int flags = bytes[w] & 0xff;
            long word = 0;
            while (flags != 0) {
                int byteInWord = Integer.numberOfLeadingZeros(flags) - 24;
                word |= (bytes[next++] & 0xffL) << (8 * (7 - byteInWord));
                flags &= ~(0x80 >>> byteInWord);
            }
            into[w] = word;
        }
        return true;
    }

    /**
     * ANDs a vector of {@code length} bytes held in {@code bytes[0, length)} into {@code accumulator}, decoding only
     * the words where the accumulator is non-zero (a skipped sparse word costs one bit count). Allocates nothing.
     *
     * @return whether any bit of the accumulator is still set
     */
    static boolean andVector(byte[] bytes, int length, long[] accumulator) {
        long any = 0;
        if (length == 0) {
            java.util.Arrays.fill(accumulator, 0L);
            return false;
        }
        if (length == VECTOR_BYTES) {
            for (int w = 0; w < accumulator.length; w++) {
                if (accumulator[w] != 0) {
                    any |= accumulator[w] &= (long) LONG_BE.get(bytes, 8 * w);
                }
            }
            return any != 0;
        }
        int next = BITMAP_BYTES;
        for (int w = 0; w < accumulator.length; w++) {
            int flags = bytes[w] & 0xff;
            if (accumulator[w] == 0 || flags == 0) {
                accumulator[w] = 0;
                next += Integer.bitCount(flags);
                continue;
            }
            long word = 0;
            while (flags != 0) {
                int byteInWord = Integer.numberOfLeadingZeros(flags) - 24;
                word |= (bytes[next++] & 0xffL) << (8 * (7 - byteInWord));
                flags &= ~(0x80 >>> byteInWord);
            }
            any |= accumulator[w] &= word;
        }
        return any != 0;
    }

    /**
     * Checks a vector's encoding: length 0, 512, or a sparse form whose bitmap flags exactly the stored bytes, all of
     * them non-zero.
     */
    static void validateVector(ByteBuffer buffer, int offset, int length, Path file, int bit) {
        if (length == 0 || length == VECTOR_BYTES) {
            return;
        }
        if (length <= BITMAP_BYTES || length > VECTOR_BYTES) {
            throw new IndexFormatException(file + ": vector of bloom bit " + bit + " is " + length
                    + " bytes; a vector is 0, 512 or 65..511 bytes");
        }
        int flagged = 0;
        for (int i = 0; i < BITMAP_BYTES; i++) {
            flagged += Integer.bitCount(buffer.get(offset + i) & 0xff);
        }
        if (flagged != length - BITMAP_BYTES) {
            throw new IndexFormatException(file + ": vector of bloom bit " + bit + " flags " + flagged
                    + " bytes but stores " + (length - BITMAP_BYTES));
        }
        for (int i = offset + BITMAP_BYTES; i < offset + length; i++) {
            if (buffer.get(i) == 0) {
                throw new IndexFormatException(file + ": vector of bloom bit " + bit + " stores a zero byte");
            }
        }
    }

    /** Writes {@code content} to {@code target} through a temporary file forced to disk, then an atomic rename. */
    static void writeAtomically(Path target, ByteBuffer content) throws IOException {
        Path temp = target.resolveSibling(target.getFileName() + ".tmp");
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer data = content.duplicate();
            while (data.hasRemaining()) {
                channel.write(data);
            }
            channel.force(true);
        }
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
