package org.chainfilter.ethbloom.index;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.chainfilter.ethbloom.LogFilter;

/**
 * A read-only bit-sliced bloom index over a run of consecutive blocks, go-ethereum's "bloombits" design
 * ({@code core/bloombits}, {@code core/bloom_indexer.go}, 2017 to v1.15.5): blocks are grouped in sections of 4,096
 * and, for every bloom bit k (0..2047) and section, a 4,096-bit vector says which blocks' header blooms have bit k
 * set. A filter's candidate blocks in a section are then found from a handful of 512-byte vectors instead of 4,096
 * blooms ({@link BloomBitsMatcher}).
 *
 * <p>Coverage: blocks {@link #firstBlock()} .. {@link #endBlockExclusive()}{@code - 1}, {@link #indexedBlockCount()}
 * of them; section s holds blocks {@code firstBlock + 4096 s ..}. Blocks after the coverage must be scanned header by
 * header (geth's {@code unindexedLogs}). Files are described in {@code SectionFormat}: a directory with
 * {@code index.meta} and one CRC32C-checked file per section, written atomically by {@link SectionIndexWriter}.
 *
 * <p>Opening validates every section (sizes before any allocation, magic, version, numbering, CRC32C, each vector's
 * encoding) and maps the files read-only; queries read the mapped files and are thread-safe. A corrupt index is
 * refused with an {@link IndexFormatException} naming the file and the fault.
 */
public final class SectionIndex implements BitVectorSource {
    /** The name of an index's metadata file in its directory ({@code index.meta}): its presence makes an index. */
    public static final String META_FILE_NAME = SectionFormat.META_FILE;

    /** One vector's stored bytes, per query thread: queries stay allocation-free and thread-safe. */
    private static final ThreadLocal<byte[]> VECTOR_BYTES =
            ThreadLocal.withInitial(() -> new byte[SectionFormat.VECTOR_BYTES]);
    private static final Pattern SECTION_NAME = Pattern.compile("section-(\\d{10})\\.bits");

    private final long firstBlock;
    private final long indexedBlockCount;
    private final Section[] sections;

    /** One mapped section file and the start offset of each of its vectors. */
    static final class Section {
        final ByteBuffer buffer;
        final int[] vectorStart;
        final int blockCount;
        final byte[] lastBlockHash;

        Section(ByteBuffer buffer, int[] vectorStart, int blockCount, byte[] lastBlockHash) {
            this.buffer = buffer;
            this.vectorStart = vectorStart;
            this.blockCount = blockCount;
            this.lastBlockHash = lastBlockHash;
        }
    }

    private SectionIndex(long firstBlock, Section[] sections) {
        this.firstBlock = firstBlock;
        this.sections = sections;
        long blocks = 0;
        for (Section section : sections) {
            blocks += section.blockCount;
        }
        this.indexedBlockCount = blocks;
    }

    /**
     * Opens the index in {@code directory}. Temporary files of an interrupted build are ignored.
     *
     * @throws IndexFormatException when the meta file or a section is corrupt, a section is missing between others,
     *                              or a section other than the last is partial
     * @throws UncheckedIOException when the directory cannot be read (it does not exist, for instance)
     */
    public static SectionIndex open(Path directory) {
        Objects.requireNonNull(directory, "directory");
        try {
            // As documented, an unreadable directory is an I/O failure: it was said to "hold no section index
            // (index.meta is missing)", a corrupt-index refusal for a directory that does not exist or is a file.
            if (!Files.isDirectory(directory)) {
                boolean exists = Files.exists(directory);
                IOException cause = exists ? new NotDirectoryException(directory.toString())
                        : new NoSuchFileException(directory.toString());
                throw new UncheckedIOException("cannot read the section index in " + directory
                        + (exists ? ": it is not a directory" : ": no such directory"), cause);
            }
            Path meta = directory.resolve(SectionFormat.META_FILE);
            if (!Files.isRegularFile(meta)) {
                throw new IndexFormatException(directory + " holds no section index (" + SectionFormat.META_FILE
                        + (Files.exists(meta) ? " is not a regular file)" : " is missing)"));
            }
            long firstBlock = SectionFormat.decodeMeta(meta);
            List<Long> numbers = new ArrayList<>();
            try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
                for (Path file : files) {
                    Matcher m = SECTION_NAME.matcher(file.getFileName().toString());
                    if (m.matches()) {
                        numbers.add(Long.parseLong(m.group(1)));
                    }
                }
            }
            numbers.sort(null);
            Section[] sections = new Section[numbers.size()];
            for (int s = 0; s < sections.length; s++) {
                if (numbers.get(s) != s) {
                    throw new IndexFormatException(directory + ": section " + s + " is missing but section "
                            + numbers.get(s) + " exists");
                }
                sections[s] = readSection(SectionFormat.sectionPath(directory, s), s);
                if (s > 0 && sections[s - 1].blockCount != BloomBitsMatcher.SECTION_SIZE) {
                    throw new IndexFormatException(directory + ": section " + (s - 1) + " holds "
                            + sections[s - 1].blockCount + " blocks but is followed by section " + s);
                }
            }
            if (firstBlock + (long) sections.length * BloomBitsMatcher.SECTION_SIZE < firstBlock) {
                throw new IndexFormatException(directory + ": block numbers overflow");
            }
            return new SectionIndex(firstBlock, sections);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the section index in " + directory + ": " + e.getMessage(), e);
        }
    }

    static Section readSection(Path file, long expectedNumber) throws IOException {
        if (!Files.isRegularFile(file)) {
            // Opening a named pipe for reading would wait for a writer.
            throw new IndexFormatException(file + " is not a regular file");
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            // Magic and version first (a version 1 file is told so, whatever its size), then the size of this one.
            if (size < 8 || size > SectionFormat.MAX_SECTION_FILE_BYTES) {
                throw new IndexFormatException(file + " is " + size + " bytes; a section file is "
                        + SectionFormat.MIN_SECTION_FILE_BYTES + " to " + SectionFormat.MAX_SECTION_FILE_BYTES);
            }
            ByteBuffer buffer = channel.map(FileChannel.MapMode.READ_ONLY, 0, size);
            int length = (int) size;
            if (buffer.getInt(0) != SectionFormat.SECTION_MAGIC) {
                throw new IndexFormatException(file + " does not start with the magic CFBS");
            }
            int version = buffer.getInt(4);
            if (version != SectionFormat.FORMAT_VERSION) {
                throw new IndexFormatException(file + " has format version " + version + "; this reader knows version "
                        + SectionFormat.FORMAT_VERSION + (version == 1 ? SectionFormat.VERSION_1_ADVICE : ""));
            }
            if (size < SectionFormat.MIN_SECTION_FILE_BYTES) {
                throw new IndexFormatException(file + " is " + size + " bytes; a section file is "
                        + SectionFormat.MIN_SECTION_FILE_BYTES + " to " + SectionFormat.MAX_SECTION_FILE_BYTES);
            }
            int storedCrc = buffer.getInt(length - SectionFormat.CRC_BYTES);
            if (storedCrc != SectionFormat.crc32c(buffer, 0, length - SectionFormat.CRC_BYTES)) {
                throw new IndexFormatException(file + " fails its CRC32C check (corrupt or truncated)");
            }
            long number = buffer.getLong(8);
            if (number != expectedNumber) {
                throw new IndexFormatException(file + " holds section " + number + "; its name says " + expectedNumber);
            }
            int blockCount = buffer.getInt(16);
            if (blockCount < 1 || blockCount > BloomBitsMatcher.SECTION_SIZE) {
                throw new IndexFormatException(file + " holds " + blockCount + " blocks; a section holds 1 to "
                        + BloomBitsMatcher.SECTION_SIZE);
            }
            int payload = buffer.getInt(20);
            long expectedPayload = size - SectionFormat.MIN_SECTION_FILE_BYTES;
            if (payload != expectedPayload) {
                throw new IndexFormatException(file + " declares " + payload + " payload bytes but holds "
                        + expectedPayload);
            }
            int[] start = new int[SectionFormat.BIT_COUNT + 1];
            start[0] = SectionFormat.PAYLOAD_OFFSET;
            for (int bit = 0; bit < SectionFormat.BIT_COUNT; bit++) {
                int vectorLength = buffer.getShort(SectionFormat.HEADER_BYTES + 2 * bit) & 0xffff;
                if (vectorLength > SectionFormat.VECTOR_BYTES) {
                    throw new IndexFormatException(file + ": vector of bloom bit " + bit + " is " + vectorLength
                            + " bytes; at most " + SectionFormat.VECTOR_BYTES);
                }
                start[bit + 1] = start[bit] + vectorLength;
            }
            if (start[SectionFormat.BIT_COUNT] - SectionFormat.PAYLOAD_OFFSET != payload) {
                throw new IndexFormatException(file + ": vector lengths add up to "
                        + (start[SectionFormat.BIT_COUNT] - SectionFormat.PAYLOAD_OFFSET) + " bytes, payload is "
                        + payload);
            }
            for (int bit = 0; bit < SectionFormat.BIT_COUNT; bit++) {
                SectionFormat.validateVector(buffer, start[bit], start[bit + 1] - start[bit], file, bit);
            }
            byte[] lastBlockHash = new byte[SectionFormat.HASH_BYTES];
            buffer.get(SectionFormat.HASH_OFFSET, lastBlockHash);
            return new Section(buffer, start, blockCount, lastBlockHash);
        }
    }

    /** The first block covered (bit 0 of section 0). */
    public long firstBlock() {
        return firstBlock;
    }

    /** The number of consecutive blocks covered, from {@link #firstBlock()}. */
    public long indexedBlockCount() {
        return indexedBlockCount;
    }

    /** One past the last block covered: {@code firstBlock() + indexedBlockCount()}. */
    public long endBlockExclusive() {
        return firstBlock + indexedBlockCount;
    }

    /** The number of sections on disk, the last one possibly partial. */
    public int sectionCount() {
        return sections.length;
    }

    /**
     * The section holding {@code block}.
     *
     * @throws IllegalArgumentException when the block is outside the blocks covered
     */
    public long sectionOf(long block) {
        if (block < firstBlock || block >= endBlockExclusive()) {
            throw new IllegalArgumentException("block " + block + " is outside the index, which covers " + coverage());
        }
        return (block - firstBlock) / BloomBitsMatcher.SECTION_SIZE;
    }

    /**
     * The last block of {@code section} ({@code firstBlock() + 4096 section + its block count - 1}).
     *
     * @throws IndexOutOfBoundsException on a section not on disk
     */
    public long lastBlockOf(long section) {
        Section s = sections[(int) Objects.checkIndex(section, (long) sections.length)];
        return firstBlock + section * BloomBitsMatcher.SECTION_SIZE + s.blockCount - 1;
    }

    /**
     * The hash of {@link #lastBlockOf}{@code (section)} as it was when the section was built (a copy). A node whose
     * block of that number has this hash has the very blocks the section was built from (each block's hash covers its
     * parent's), so the section's candidates hold on it; any other hash means the chain was reorganised since.
     *
     * @throws IndexOutOfBoundsException on a section not on disk
     */
    public byte[] lastBlockHash(long section) {
        return sections[(int) Objects.checkIndex(section, (long) sections.length)].lastBlockHash.clone();
    }

    /**
     * The candidate blocks of {@code filter} in {@code [fromBlock, toBlockInclusive]}, ascending: every block whose
     * header bloom passes {@link LogFilter#couldMatch}, exactly those. A match-all filter yields every block.
     *
     * @throws IllegalArgumentException when the range is empty or reversed or reaches outside the blocks covered
     */
    public long[] candidates(LogFilter filter, long fromBlock, long toBlockInclusive) {
        return candidates(BloomBitsMatcher.of(filter), fromBlock, toBlockInclusive);
    }

    /** The candidate blocks of a matcher in {@code [fromBlock, toBlockInclusive]}; see {@link #candidates(LogFilter, long, long)}. */
    public long[] candidates(BloomBitsMatcher matcher, long fromBlock, long toBlockInclusive) {
        checkRange(fromBlock, toBlockInclusive);
        LongCollector out = new LongCollector();
        matcher.candidates(this, firstBlock, fromBlock, toBlockInclusive, out);
        return out.toArray();
    }

    private void checkRange(long fromBlock, long toBlockInclusive) {
        if (fromBlock > toBlockInclusive) {
            throw new IllegalArgumentException("block range " + fromBlock + ".." + toBlockInclusive + " is reversed");
        }
        if (indexedBlockCount == 0 || fromBlock < firstBlock || toBlockInclusive >= endBlockExclusive()) {
            throw new IllegalArgumentException("block range " + fromBlock + ".." + toBlockInclusive
                    + " reaches outside the index, which covers " + coverage());
        }
    }

    private String coverage() {
        return indexedBlockCount == 0 ? "no block" : "blocks " + firstBlock + ".." + (endBlockExclusive() - 1);
    }

    /**
     * {@inheritDoc} Bits of blocks past the end of a partial last section are zero.
     *
     * @throws IndexOutOfBoundsException on a bit outside 0..2047 or a section not on disk
     */
    @Override
    public boolean load(int bit, long section, long[] into) {
        byte[] bytes = VECTOR_BYTES.get();
        return SectionFormat.decodeVector(bytes, copyVector(bit, section, bytes), into);
    }

    /** {@inheritDoc} Reads only the words of the vector where the accumulator is non-zero; {@code scratch} is unused. */
    @Override
    public boolean andInto(int bit, long section, long[] accumulator, long[] scratch) {
        byte[] bytes = VECTOR_BYTES.get();
        return SectionFormat.andVector(bytes, copyVector(bit, section, bytes), accumulator);
    }

    /**
     * Copies the stored form of a vector out of the mapped file in one bulk read, and returns its length. Decoding
     * from a heap array is several times faster than byte-by-byte reads of a mapped buffer.
     */
    private int copyVector(int bit, long section, byte[] into) {
        Objects.checkIndex(bit, SectionFormat.BIT_COUNT);
        // Checked as a long: a cast first would wrap section 2^32 to section 0 and answer with its vector.
        Section s = sections[(int) Objects.checkIndex(section, (long) sections.length)];
        int start = s.vectorStart[bit];
        int length = s.vectorStart[bit + 1] - start;
        s.buffer.get(start, into, 0, length);
        return length;
    }

    Section section(int s) {
        return sections[s];
    }

    @Override
    public String toString() {
        return "SectionIndex[" + coverage() + ", " + sections.length + " sections]";
    }

    /** A growable primitive list, so candidate lists do not box. */
    private static final class LongCollector implements java.util.function.LongConsumer {
        private long[] values = new long[64];
        private int size;

        @Override
        public void accept(long value) {
            if (size == values.length) {
                values = Arrays.copyOf(values, 2 * size);
            }
            values[size++] = value;
        }

        long[] toArray() {
            return Arrays.copyOf(values, size);
        }
    }
}
