package org.chainfilter.ethbloom.index;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;

import org.chainfilter.common.Hex;
import org.chainfilter.ethbloom.LogsBloom;

/**
 * Builds a {@link SectionIndex} incrementally from a stream of headers (number, hash, parent hash, bloom), as
 * go-ethereum's bloombits generator does: the current section's 2048 vectors (1 MiB) are kept in memory and each
 * bloom's set bits are transposed into them. When a section fills up (4,096 blocks) it is written to its own file
 * atomically, with the hash of its last block; {@link #flush()} also writes the current partial section. Opening an existing index resumes after its last block, reloading a partial last
 * section. A crash loses at most the blocks appended since the last written section; the index stays readable.
 *
 * <p>Not thread-safe.
 */
public final class SectionIndexWriter implements Closeable {
    private final Path directory;
    private final long firstBlock;
    private final long[][] vectors = new long[SectionFormat.BIT_COUNT][BloomBitsMatcher.WORDS_PER_VECTOR];
    /** The section being filled. */
    private long section;
    /** Blocks of the current section appended so far. */
    private int pending;
    /** Whether blocks were appended since the current section was last written. */
    private boolean dirty;
    /** The hash of the block appended last (or of the index's last block when resumed); null before the first. */
    private byte[] lastHash;

    private SectionIndexWriter(Path directory, long firstBlock, long section, int pending, byte[] lastHash) {
        this.directory = directory;
        this.firstBlock = firstBlock;
        this.section = section;
        this.pending = pending;
        this.lastHash = lastHash;
    }

    /**
     * Opens the index in {@code directory} for appending, creating the directory and a new index starting at
     * {@code firstBlock} when there is none.
     *
     * @throws IllegalArgumentException when an existing index starts at another block, or firstBlock is negative or
     *                                  so large that its first section would end past block 2^63 - 1 (the largest
     *                                  block number an index holds: {@link SectionIndex#open} refuses such an index)
     * @throws IndexFormatException     when the existing index is corrupt
     */
    public static SectionIndexWriter open(Path directory, long firstBlock) {
        Objects.requireNonNull(directory, "directory");
        if (firstBlock < 0) {
            throw new IllegalArgumentException("first block " + firstBlock + " is negative");
        }
        if (!sectionFits(firstBlock, 0)) {
            throw new IllegalArgumentException("first block " + firstBlock + " leaves no room for a section of "
                    + BloomBitsMatcher.SECTION_SIZE + " blocks: its section would end past block " + Long.MAX_VALUE
                    + ", the largest an index holds");
        }
        try {
            Path meta = directory.resolve(SectionFormat.META_FILE);
            if (!Files.exists(meta)) {
                Files.createDirectories(directory);
                SectionFormat.writeAtomically(meta, ByteBuffer.wrap(SectionFormat.encodeMeta(firstBlock)));
                return new SectionIndexWriter(directory, firstBlock, 0, 0, null);
            }
            SectionIndex existing = SectionIndex.open(directory);
            if (existing.firstBlock() != firstBlock) {
                throw new IllegalArgumentException("the index in " + directory + " starts at block "
                        + existing.firstBlock() + ", not " + firstBlock);
            }
            int sections = existing.sectionCount();
            if (sections == 0) {
                return new SectionIndexWriter(directory, firstBlock, 0, 0, null);
            }
            int lastCount = existing.section(sections - 1).blockCount;
            byte[] lastHash = existing.lastBlockHash(sections - 1);
            if (lastCount == BloomBitsMatcher.SECTION_SIZE) {
                return new SectionIndexWriter(directory, firstBlock, sections, 0, lastHash);
            }
            SectionIndexWriter writer =
                    new SectionIndexWriter(directory, firstBlock, sections - 1, lastCount, lastHash);
            for (int bit = 0; bit < SectionFormat.BIT_COUNT; bit++) {
                existing.load(bit, sections - 1, writer.vectors[bit]);
            }
            return writer;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the section index in " + directory + ": " + e.getMessage(), e);
        }
    }

    /**
     * Whether section {@code section} of an index starting at {@code firstBlock} ends at or below block
     * {@code 2^63 - 1}: the reader counts a partial last section as whole, so every section must fit in full.
     */
    private static boolean sectionFits(long firstBlock, long section) {
        return (section + 1) * BloomBitsMatcher.SECTION_SIZE <= Long.MAX_VALUE - firstBlock;
    }

    /** The block number the next {@link #append} must carry. */
    public long nextBlock() {
        return firstBlock + section * BloomBitsMatcher.SECTION_SIZE + pending;
    }

    /**
     * Adds the header bloom of block {@code blockNumber}, which must be {@link #nextBlock()} and, unless it is the
     * first block of a new index, name the block appended before it as its parent: the blooms of a section are then
     * those of the one chain that ends in its last block, whose hash the section stores (a reorganisation while the
     * index is built, or headers read from two forks, would otherwise mix blooms of both under one hash). Writes the
     * section when this block completes it.
     *
     * @param blockHash  the block's 32-byte hash
     * @param parentHash its header's parent hash, 32 bytes
     * @throws IllegalArgumentException when the block is not the next one, a hash is not 32 bytes, the parent hash
     *                                  is not the hash of the block appended before, or the block would open a section
     *                                  that ends past block 2^63 - 1
     * @throws UncheckedIOException     when the section this block completes cannot be written; the block is then not
     *                                  appended (the writer is as before the call), so it may be appended again
     */
    public void append(long blockNumber, byte[] blockHash, byte[] parentHash, LogsBloom bloom) {
        Objects.requireNonNull(bloom, "bloom");
        checkHash(blockHash, "block hash");
        checkHash(parentHash, "parent hash");
        long next = nextBlock();
        if (blockNumber != next) {
            String why = blockNumber < firstBlock ? " is below the index's first block " + firstBlock
                    : blockNumber < next ? " is in the index already (it holds blocks " + firstBlock + ".." + (next - 1)
                            + ")"
                    : next == firstBlock ? " is not the first block " + firstBlock + " of the empty index"
                    : " cannot follow block " + (next - 1) + " (" + (blockNumber - 1 == next ? "block " + next
                            + " is" : "blocks " + next + ".." + (blockNumber - 1) + " are") + " missing)";
            throw new IllegalArgumentException("block " + blockNumber + why + "; the index expects block " + next
                    + " next");
        }
        if (pending == 0 && !sectionFits(firstBlock, section)) {
            throw new IllegalArgumentException("block " + blockNumber + " would open section " + section
                    + ", whose " + BloomBitsMatcher.SECTION_SIZE + " blocks end past block " + Long.MAX_VALUE
                    + ", the largest an index holds");
        }
        if (lastHash != null && !Arrays.equals(parentHash, lastHash)) {
            throw new IllegalArgumentException("block " + blockNumber + " has parent hash 0x" + Hex.encode(parentHash)
                    + " but block " + (blockNumber - 1) + " was indexed with hash 0x" + Hex.encode(lastHash)
                    + ": the chain was reorganised (or the headers come from two forks); an index is never rewritten,"
                    + " so rebuild it from blocks with more confirmations");
        }
        int word = pending >>> 6;
        long mask = Long.MIN_VALUE >>> (pending & 63);
        byte[] previousHash = lastHash;
        lastHash = blockHash.clone();
        markColumn(bloom, word, mask, true);
        pending++;
        if (pending < BloomBitsMatcher.SECTION_SIZE) {
            dirty = true;
            return;
        }
        try {
            writeSection();
        } catch (UncheckedIOException e) {
            // The block is taken back (its column was empty before), so the writer is as it was before this call
            // and the caller may append the same block again once the cause is fixed.
            pending--;
            markColumn(bloom, word, mask, false);
            lastHash = previousHash;
            throw e;
        }
        section++;
        pending = 0;
        for (long[] vector : vectors) {
            Arrays.fill(vector, 0L);
        }
    }

    /** Sets (or clears) the bit {@code mask} of word {@code word} in the vector of every bit set in {@code bloom}. */
    private void markColumn(LogsBloom bloom, int word, long mask, boolean set) {
        for (int w = 0; w < LogsBloom.BIT_COUNT / 64; w++) {
            long bits = bloom.word(w);
            while (bits != 0) {
                long[] vector = vectors[64 * w + Long.numberOfTrailingZeros(bits)];
                vector[word] = set ? vector[word] | mask : vector[word] & ~mask;
                bits &= bits - 1;
            }
        }
    }

    /** Writes the current partial section, if blocks were appended since it was last written. */
    public void flush() {
        if (dirty && pending > 0) {
            writeSection();
        }
    }

    private void writeSection() {
        try {
            SectionFormat.writeAtomically(SectionFormat.sectionPath(directory, section),
                    SectionFormat.encodeSection(section, pending, lastHash, vectors));
            dirty = false;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write section " + section + " in " + directory + ": "
                    + e.getMessage(), e);
        }
    }

    private static void checkHash(byte[] hash, String what) {
        Objects.requireNonNull(hash, what);
        if (hash.length != SectionFormat.HASH_BYTES) {
            throw new IllegalArgumentException(what + " is " + hash.length + " bytes; a block hash is "
                    + SectionFormat.HASH_BYTES);
        }
    }

    /** Flushes the partial section. */
    @Override
    public void close() {
        flush();
    }
}
