package org.chainfilter.ethbloom.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.LongStream;

import org.chainfilter.common.Hex;
import org.chainfilter.ethbloom.LogFilter;
import org.chainfilter.ethbloom.LogsBloom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SectionIndexTest {

    @TempDir
    Path dir;

    /** The bloom whose bit k is set iff b % k == 0 (k = 1..2047): geth's synthetic vectors, as real header blooms. */
    /** Appends blocks {@code from .. to-1} of the synthetic chain, each with its {@link #divisorBloom}. */
    static void appendDivisorBlocks(SectionIndexWriter writer, long from, long to) {
        for (long b = from; b < to; b++) {
            SyntheticChain.append(writer, b, divisorBloom(b));
        }
    }

    static LogsBloom divisorBloom(long b) {
        byte[] bytes = new byte[256];
        for (int k = 1; k < 2048; k++) {
            if (b % k == 0) {
                bytes[255 - k / 8] |= (byte) (1 << (k % 8));
            }
        }
        return LogsBloom.fromBytes(bytes);
    }

    @Test
    void syntheticCasesThroughAnIndexOnDisk() {
        try (SectionIndexWriter writer = SectionIndexWriter.open(dir, 0)) {
            appendDivisorBlocks(writer, 0, 10_000);
        }
        SectionIndex index = SectionIndex.open(dir);
        assertEquals(0, index.firstBlock());
        assertEquals(10_000, index.indexedBlockCount());
        assertEquals(3, index.sectionCount());
        assertArrayEquals(LongStream.rangeClosed(0, 9_999).filter(b -> b % 60 == 0).toArray(),
                index.candidates(BloomBitsMatcher.ofBits(new int[][][] {{{10, 20, 30}}}), 0, 9_999));
        assertArrayEquals(new long[] {16, 32, 48},
                index.candidates(BloomBitsMatcher.ofBits(new int[][][] {{{16, 16, 16}}}), 9, 63));
        assertArrayEquals(BloomBitsMatcherTest.run(new int[][][] {
                {{4, 8, 11}, {7, 8, 17}}, {{9, 9, 12}, {15, 20, 13}}, {{18, 15, 15}, {12, 10, 4}}}, 0, 9_999),
                index.candidates(BloomBitsMatcher.ofBits(new int[][][] {
                    {{4, 8, 11}, {7, 8, 17}}, {{9, 9, 12}, {15, 20, 13}}, {{18, 15, 15}, {12, 10, 4}}}), 0, 9_999));
        assertEquals(10_000, index.candidates(LogFilter.matchAll(), 0, 9_999).length);
    }

    /** Random blooms and filters: the index gives exactly the blocks whose bloom passes couldMatch. */
    @Test
    void candidatesEqualSequentialCouldMatch() {
        SplittableRandom random = new SplittableRandom(7);
        byte[][] addresses = new byte[40][20];
        byte[][] topics = new byte[40][32];
        for (byte[] a : addresses) {
            random.nextBytes(a);
        }
        for (byte[] t : topics) {
            random.nextBytes(t);
        }
        long first = 123_456;
        int count = 9_000;
        List<LogsBloom> blooms = new ArrayList<>();
        try (SectionIndexWriter writer = SectionIndexWriter.open(dir, first)) {
            for (int i = 0; i < count; i++) {
                LogsBloom.Builder builder = LogsBloom.builder();
                int logs = random.nextInt(4);
                for (int l = 0; l < logs; l++) {
                    builder.addLog(addresses[random.nextInt(40)],
                            List.of(topics[random.nextInt(40)], topics[random.nextInt(40)]));
                }
                LogsBloom bloom = builder.build();
                blooms.add(bloom);
                SyntheticChain.append(writer, first + i, bloom);
            }
        }
        SectionIndex index = SectionIndex.open(dir);
        for (int trial = 0; trial < 30; trial++) {
            LogFilter.Builder fb = LogFilter.builder();
            if (random.nextBoolean()) {
                fb.address(addresses[random.nextInt(40)], addresses[random.nextInt(40)]);
            }
            if (random.nextBoolean()) {
                fb.topic(0, topics[random.nextInt(40)]);
            }
            if (random.nextBoolean()) {
                fb.topic(1, topics[random.nextInt(40)], topics[random.nextInt(40)]);
            }
            LogFilter filter = fb.build();
            long from = first + random.nextInt(count);
            long to = from + random.nextInt((int) (first + count - from));
            long[] expected = LongStream.rangeClosed(from, to)
                    .filter(b -> filter.couldMatch(blooms.get((int) (b - first)))).toArray();
            assertArrayEquals(expected, index.candidates(filter, from, to), filter + " " + from + ".." + to);
        }
    }

    @Test
    void interruptedBuildLeavesTheWrittenSectionsReadableAndResumes() throws IOException {
        SectionIndexWriter crashed = SectionIndexWriter.open(dir, 0);
        appendDivisorBlocks(crashed, 0, 9_000);
        // No close: the partial third section is lost, as after a crash. A half-written temp file is left behind.
        Files.write(dir.resolve("section-0000000002.bits.tmp"), new byte[] {1, 2, 3});
        SectionIndex afterCrash = SectionIndex.open(dir);
        assertEquals(8_192, afterCrash.indexedBlockCount());

        try (SectionIndexWriter resumed = SectionIndexWriter.open(dir, 0)) {
            assertEquals(8_192, resumed.nextBlock());
            appendDivisorBlocks(resumed, 8_192, 9_000);
        }
        // Resume again from a partial last section, which is reloaded and rewritten.
        try (SectionIndexWriter resumed = SectionIndexWriter.open(dir, 0)) {
            assertEquals(9_000, resumed.nextBlock());
            appendDivisorBlocks(resumed, 9_000, 13_000);
        }
        assertDivisorIndex(13_000, 60, 10, 20, 30);
    }

    /** Writes blocks 0 .. blocks-1 with their {@link #divisorBloom}s into {@code dir} and opens the index. */
    private SectionIndex divisorIndex(long blocks) {
        try (SectionIndexWriter writer = SectionIndexWriter.open(dir, 0)) {
            appendDivisorBlocks(writer, 0, blocks);
        }
        return SectionIndex.open(dir);
    }

    /**
     * The index in {@code dir} holds blocks 0 .. blocks-1 with their {@link #divisorBloom}s: asked for the given bits,
     * its candidates are the multiples of {@code multiple}.
     */
    private void assertDivisorIndex(long blocks, long multiple, int... bits) {
        SectionIndex index = SectionIndex.open(dir);
        assertEquals(blocks, index.indexedBlockCount());
        assertArrayEquals(LongStream.range(0, blocks).filter(b -> b % multiple == 0).toArray(),
                index.candidates(BloomBitsMatcher.ofBits(new int[][][] {{bits}}), 0, blocks - 1));
    }

    /**
     * A section that cannot be written leaves the writer as it was before the block that completed it: the block may
     * be appended again, and nothing of the failed attempt stays. (It once kept the block with the section unwritten:
     * the next append overran the section, or wrote a section of 9,096 blocks the reader refused.)
     */
    @Test
    void aSectionWriteThatFailsTakesItsBlockBackSoItCanBeRetried() throws IOException {
        try (SectionIndexWriter writer = SectionIndexWriter.open(dir, 0)) {
            appendDivisorBlocks(writer, 0, 4_095);
            Path blocker = dir.resolve("section-0000000000.bits.tmp");
            Files.createDirectory(blocker);
            // The failed attempt carries other bits (those of block 0, which every divisor query matches).
            UncheckedIOException e = assertThrows(UncheckedIOException.class,
                    () -> SyntheticChain.append(writer, 4_095, divisorBloom(0)));
            assertTrue(e.getMessage().startsWith("cannot write section 0 in " + dir), e.getMessage());
            assertEquals(4_095, writer.nextBlock());
            Files.delete(blocker);
            appendDivisorBlocks(writer, 4_095, 9_000);
        }
        assertDivisorIndex(9_000, 60, 10, 20, 30);
        assertDivisorIndex(9_000, 2_047, 2_047);
    }

    @Test
    void writerRefusesOutOfOrderBlocksAndAnotherFirstBlock() {
        try (SectionIndexWriter writer = SectionIndexWriter.open(dir, 100)) {
            SyntheticChain.append(writer, 100, LogsBloom.EMPTY);
            assertEquals("block 102 cannot follow block 100 (block 101 is missing); the index expects block 101 next",
                    assertThrows(IllegalArgumentException.class,
                            () -> SyntheticChain.append(writer, 102, LogsBloom.EMPTY)).getMessage());
            assertEquals("block 99 is below the index's first block 100; the index expects block 101 next",
                    assertThrows(IllegalArgumentException.class,
                            () -> SyntheticChain.append(writer, 99, LogsBloom.EMPTY)).getMessage());
            assertEquals("block 100 is in the index already (it holds blocks 100..100); the index expects block 101"
                    + " next", assertThrows(IllegalArgumentException.class,
                            () -> SyntheticChain.append(writer, 100, LogsBloom.EMPTY)).getMessage());
            assertEquals("block hash is 31 bytes; a block hash is 32", assertThrows(IllegalArgumentException.class,
                    () -> writer.append(101, new byte[31], SyntheticChain.hash(100), LogsBloom.EMPTY)).getMessage());
            assertEquals("parent hash is 33 bytes; a block hash is 32", assertThrows(IllegalArgumentException.class,
                    () -> writer.append(101, SyntheticChain.hash(101), new byte[33], LogsBloom.EMPTY)).getMessage());
            assertEquals(101, writer.nextBlock());
        }
        assertEquals("the index in " + dir + " starts at block 100, not 0", assertThrows(
                IllegalArgumentException.class, () -> SectionIndexWriter.open(dir, 0)).getMessage());
        assertEquals("first block -1 is negative", assertThrows(
                IllegalArgumentException.class, () -> SectionIndexWriter.open(dir, -1)).getMessage());
    }

    /**
     * The writer never writes an index the reader refuses as overflowing: a first block whose section would end past
     * block 2^63 - 1 is refused at open, and a block that would open such a section at append, while the last section
     * that fits is written and read back (it used to accept them, and the reader then refused the index).
     */
    @Test
    void theWriterRefusesSectionsThatWouldEndPastTheLargestBlockNumber() {
        long first = Long.MAX_VALUE - 4_096;
        assertEquals("first block " + (first + 1) + " leaves no room for a section of 4096 blocks: its section would"
                + " end past block 9223372036854775807, the largest an index holds", assertThrows(
                IllegalArgumentException.class, () -> SectionIndexWriter.open(dir, first + 1)).getMessage());
        assertFalse(Files.exists(dir.resolve("index.meta")));
        try (SectionIndexWriter writer = SectionIndexWriter.open(dir, first)) {
            for (long b = first; b < Long.MAX_VALUE; b++) {
                SyntheticChain.append(writer, b, LogsBloom.EMPTY);
            }
            assertEquals(Long.MAX_VALUE, writer.nextBlock());
        }
        SectionIndex index = SectionIndex.open(dir);
        assertEquals(Long.MAX_VALUE, index.endBlockExclusive());
        try (SectionIndexWriter resumed = SectionIndexWriter.open(dir, first)) {
            assertEquals("block 9223372036854775807 would open section 1, whose 4096 blocks end past block"
                    + " 9223372036854775807, the largest an index holds", assertThrows(IllegalArgumentException.class,
                    () -> SyntheticChain.append(resumed, Long.MAX_VALUE, LogsBloom.EMPTY)).getMessage());
            assertEquals(Long.MAX_VALUE, resumed.nextBlock());
        }
        assertEquals(1, SectionIndex.open(dir).sectionCount());
    }

    @Test
    void queriesOutsideTheCoverageAreRefused() {
        try (SectionIndexWriter writer = SectionIndexWriter.open(dir, 10)) {
            for (long b = 10; b < 20; b++) {
                SyntheticChain.append(writer, b, LogsBloom.EMPTY);
            }
        }
        SectionIndex index = SectionIndex.open(dir);
        LogFilter filter = LogFilter.builder().address(new byte[20]).build();
        assertEquals("block range 5..12 reaches outside the index, which covers blocks 10..19", assertThrows(
                IllegalArgumentException.class, () -> index.candidates(filter, 5, 12)).getMessage());
        assertEquals("block range 12..20 reaches outside the index, which covers blocks 10..19", assertThrows(
                IllegalArgumentException.class, () -> index.candidates(filter, 12, 20)).getMessage());
        assertEquals("block range 12..11 is reversed", assertThrows(
                IllegalArgumentException.class, () -> index.candidates(filter, 12, 11)).getMessage());
        assertEquals(0, index.candidates(filter, 10, 19).length);
        long[] vector = new long[BloomBitsMatcher.WORDS_PER_VECTOR];
        assertEquals("Index 1 out of bounds for length 1", assertThrows(IndexOutOfBoundsException.class,
                () -> index.load(0, 1, vector)).getMessage());
        assertEquals("Index 4294967296 out of bounds for length 1", assertThrows(IndexOutOfBoundsException.class,
                () -> index.load(0, 1L << 32, vector)).getMessage());
        assertEquals("Index -1 out of bounds for length 1", assertThrows(IndexOutOfBoundsException.class,
                () -> index.andInto(0, -1, vector, vector)).getMessage());
    }

    @Test
    void corruptFilesAreRefusedWithTheirFault() throws IOException {
        try (SectionIndexWriter writer = SectionIndexWriter.open(dir, 0)) {
            appendDivisorBlocks(writer, 0, 5_000);
        }
        Path section0 = dir.resolve("section-0000000000.bits");
        byte[] good = Files.readAllBytes(section0);

        byte[] flipped = good.clone();
        flipped[5000] ^= 1;
        Files.write(section0, flipped);
        assertEquals(section0 + " fails its CRC32C check (corrupt or truncated)",
                assertThrows(IndexFormatException.class, () -> SectionIndex.open(dir)).getMessage());

        Files.write(section0, java.util.Arrays.copyOf(good, 100));
        assertEquals(section0 + " is 100 bytes; a section file is 4156 to 1052732",
                assertThrows(IndexFormatException.class, () -> SectionIndex.open(dir)).getMessage());

        Files.write(section0, good);
        Files.delete(section0);
        assertEquals(dir + ": section 0 is missing but section 1 exists",
                assertThrows(IndexFormatException.class, () -> SectionIndex.open(dir)).getMessage());

        Files.write(section0, good);
        Path meta = dir.resolve("index.meta");
        byte[] metaBytes = Files.readAllBytes(meta);
        metaBytes[20] ^= 1;
        Files.write(meta, metaBytes, StandardOpenOption.TRUNCATE_EXISTING);
        assertEquals(meta + " fails its CRC32C check",
                assertThrows(IndexFormatException.class, () -> SectionIndex.open(dir)).getMessage());
        Files.write(meta, new byte[] {1, 2});
        assertEquals(meta + " is 2 bytes; an index meta file is 32",
                assertThrows(IndexFormatException.class, () -> SectionIndex.open(dir)).getMessage());
        Files.delete(meta);
        assertEquals(dir + " holds no section index (index.meta is missing)",
                assertThrows(IndexFormatException.class, () -> SectionIndex.open(dir)).getMessage());
    }

    /**
     * A directory that does not exist, or a file in its place, cannot be read (UncheckedIOException, as documented):
     * both were refused as a corrupt index, "holds no section index (index.meta is missing)".
     */
    @Test
    void aMissingDirectoryOrAFileInItsPlaceIsAnIoFailure() throws IOException {
        Path missing = dir.resolve("missing");
        assertEquals("cannot read the section index in " + missing + ": no such directory",
                assertThrows(UncheckedIOException.class, () -> SectionIndex.open(missing)).getMessage());
        Path file = Files.writeString(dir.resolve("file"), "x");
        assertEquals("cannot read the section index in " + file + ": it is not a directory",
                assertThrows(UncheckedIOException.class, () -> SectionIndex.open(file)).getMessage());
    }

    /** Rewrites a section file with {@code edit} applied and a fresh CRC32C, so only the later checks can object. */
    private static void rewriteWithValidCrc(Path file, java.util.function.Consumer<java.nio.ByteBuffer> edit)
            throws IOException {
        java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(Files.readAllBytes(file));
        edit.accept(buffer);
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(buffer.array(), 0, buffer.capacity() - 4);
        buffer.putInt(buffer.capacity() - 4, (int) crc.getValue());
        Files.write(file, buffer.array());
    }

    /** Writes a one-block index whose bloom is the zero address's; returns its section file. */
    private Path oneBlockZeroAddressSection() {
        try (SectionIndexWriter writer = SectionIndexWriter.open(dir, 0)) {
            SyntheticChain.append(writer, 0, LogsBloom.ofValue(new byte[20]));
        }
        return dir.resolve("section-0000000000.bits");
    }

    /** The first bloom bit whose vector is stored with a non-zero length in a section file's length table. */
    private static int firstStoredVectorBit(byte[] section) {
        for (int bit = 0; bit < 2048; bit++) {
            if (((section[56 + 2 * bit] & 0xff) << 8 | (section[57 + 2 * bit] & 0xff)) != 0) {
                return bit;
            }
        }
        throw new AssertionError("no stored vector");
    }

    @Test
    void inconsistentSectionsWithAValidChecksumAreRefused() throws IOException {
        Path file = oneBlockZeroAddressSection();
        byte[] good = Files.readAllBytes(file);
        int bit = firstStoredVectorBit(good);

        rewriteWithValidCrc(file, b -> b.putInt(4, 3));
        assertEquals(file + " has format version 3; this reader knows version 2",
                assertThrows(IndexFormatException.class, () -> SectionIndex.open(dir)).getMessage());
        Files.write(file, good);
        rewriteWithValidCrc(file, b -> b.putLong(8, 5));
        assertEquals(file + " holds section 5; its name says 0",
                assertThrows(IndexFormatException.class, () -> SectionIndex.open(dir)).getMessage());
        Files.write(file, good);
        rewriteWithValidCrc(file, b -> b.putInt(16, 4097));
        assertEquals(file + " holds 4097 blocks; a section holds 1 to 4096",
                assertThrows(IndexFormatException.class, () -> SectionIndex.open(dir)).getMessage());
        Files.write(file, good);
        rewriteWithValidCrc(file, b -> b.putInt(20, 7));
        assertEquals(file + " declares 7 payload bytes but holds 195",
                assertThrows(IndexFormatException.class, () -> SectionIndex.open(dir)).getMessage());
        Files.write(file, good);
        rewriteWithValidCrc(file, b -> b.putShort(56 + 2 * bit, (short) 600));
        assertEquals(file + ": vector of bloom bit " + bit + " is 600 bytes; at most 512",
                assertThrows(IndexFormatException.class, () -> SectionIndex.open(dir)).getMessage());
        Files.write(file, good);
        rewriteWithValidCrc(file, b -> b.putShort(56 + 2 * bit, (short) 66));
        assertEquals(file + ": vector lengths add up to 196 bytes, payload is 195",
                assertThrows(IndexFormatException.class, () -> SectionIndex.open(dir)).getMessage());
        Files.write(file, good);
        // The first vector's bitmap flags byte 0; flag byte 1 as well: 2 flagged, 1 stored.
        rewriteWithValidCrc(file, b -> b.put(4152, (byte) (b.get(4152) | 0x40)));
        assertEquals(file + ": vector of bloom bit " + bit + " flags 2 bytes but stores 1",
                assertThrows(IndexFormatException.class, () -> SectionIndex.open(dir)).getMessage());
        Files.write(file, good);
        rewriteWithValidCrc(file, b -> b.put(4152 + 64, (byte) 0));
        assertEquals(file + ": vector of bloom bit " + bit + " stores a zero byte",
                assertThrows(IndexFormatException.class, () -> SectionIndex.open(dir)).getMessage());
        Files.write(file, good);
        rewriteWithValidCrc(file, b -> b.putInt(0, 0x12345678));
        assertEquals(file + " does not start with the magic CFBS",
                assertThrows(IndexFormatException.class, () -> SectionIndex.open(dir)).getMessage());
        Files.write(file, good);
        assertEquals(1, SectionIndex.open(dir).indexedBlockCount());
    }

    @Test
    void aPartialSectionFollowedByAnotherIsRefused() throws IOException {
        try (SectionIndexWriter writer = SectionIndexWriter.open(dir, 0)) {
            for (long b = 0; b < 4_100; b++) {
                SyntheticChain.append(writer, b, LogsBloom.EMPTY);
            }
        }
        Path first = dir.resolve("section-0000000000.bits");
        rewriteWithValidCrc(first, b -> b.putInt(16, 100));
        assertEquals(dir + ": section 0 holds 100 blocks but is followed by section 1",
                assertThrows(IndexFormatException.class, () -> SectionIndex.open(dir)).getMessage());
    }

    @Test
    void sectionFileGoldenLayout() throws IOException {
        try (SectionIndexWriter writer = SectionIndexWriter.open(dir, 0)) {
            SyntheticChain.append(writer, 0, LogsBloom.ofValue(new byte[20]));
        }
        byte[] file = Files.readAllBytes(dir.resolve("section-0000000000.bits"));
        // Three vectors of one set block each, stored sparse: 64-byte bitmap + 1 byte.
        assertEquals(4152 + 3 * 65 + 4, file.length);
        assertEquals("CFBS", new String(file, 0, 4, java.nio.charset.StandardCharsets.US_ASCII));
        assertEquals(2, file[7]);
        assertEquals(1, file[19]);
        assertArrayEquals(SyntheticChain.hash(0), java.util.Arrays.copyOfRange(file, 24, 56));
        byte[] meta = Files.readAllBytes(dir.resolve("index.meta"));
        assertEquals("CFBLMIDX", new String(meta, 0, 8, java.nio.charset.StandardCharsets.US_ASCII));
        assertTrue(SectionIndex.open(dir).toString().contains("blocks 0..0"));
    }

    /**
     * Each section stores the hash of its last block, and every block appended must name the one before it as its
     * parent, also across a reopened writer: blooms from two forks never end up under one hash.
     */
    @Test
    void sectionsStoreTheirLastBlockHashAndTheWriterChecksTheChain() {
        try (SectionIndexWriter writer = SectionIndexWriter.open(dir, 10)) {
            for (long b = 10; b < 10 + 4096 + 5; b++) {
                SyntheticChain.append(writer, b, LogsBloom.EMPTY);
            }
        }
        SectionIndex index = SectionIndex.open(dir);
        assertEquals(4105, index.lastBlockOf(0));
        assertArrayEquals(SyntheticChain.hash(4105), index.lastBlockHash(0));
        assertEquals(4110, index.lastBlockOf(1));
        assertArrayEquals(SyntheticChain.hash(4110), index.lastBlockHash(1));
        assertEquals(0, index.sectionOf(10));
        assertEquals(0, index.sectionOf(4105));
        assertEquals(1, index.sectionOf(4106));
        assertEquals("block 4111 is outside the index, which covers blocks 10..4110",
                assertThrows(IllegalArgumentException.class, () -> index.sectionOf(4111)).getMessage());
        assertEquals("block 9 is outside the index, which covers blocks 10..4110",
                assertThrows(IllegalArgumentException.class, () -> index.sectionOf(9)).getMessage());
        assertEquals("Index 2 out of bounds for length 2",
                assertThrows(IndexOutOfBoundsException.class, () -> index.lastBlockHash(2)).getMessage());
        try (SectionIndexWriter resumed = SectionIndexWriter.open(dir, 10)) {
            byte[] otherFork = SyntheticChain.hash(-4110);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> resumed.append(4111, SyntheticChain.hash(4111), otherFork, LogsBloom.EMPTY));
            assertEquals("block 4111 has parent hash 0x" + Hex.encode(otherFork) + " but block 4110 was indexed with"
                    + " hash 0x" + Hex.encode(SyntheticChain.hash(4110)) + ": the chain was reorganised (or the headers"
                    + " come from two forks); an index is never rewritten, so rebuild it from blocks with more"
                    + " confirmations", e.getMessage());
            SyntheticChain.append(resumed, 4111, LogsBloom.EMPTY);
        }
        assertArrayEquals(SyntheticChain.hash(4111), SectionIndex.open(dir).lastBlockHash(1));
    }

    /**
     * The parent-hash check holds across a reopened writer also when the index ends exactly at a section boundary
     * (no partial section to reload): the first block of the next section must name the hash stored with the last
     * full section as its parent.
     */
    @Test
    void aWriterReopenedAtASectionBoundaryStillChecksTheParentHash() {
        try (SectionIndexWriter writer = SectionIndexWriter.open(dir, 0)) {
            for (long b = 0; b < BloomBitsMatcher.SECTION_SIZE; b++) {
                SyntheticChain.append(writer, b, LogsBloom.EMPTY);
            }
        }
        try (SectionIndexWriter resumed = SectionIndexWriter.open(dir, 0)) {
            assertEquals(4_096, resumed.nextBlock());
            byte[] otherFork = SyntheticChain.hash(-4_095);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> resumed.append(4_096, SyntheticChain.hash(4_096), otherFork, LogsBloom.EMPTY));
            assertTrue(e.getMessage().startsWith("block 4096 has parent hash 0x" + Hex.encode(otherFork)
                    + " but block 4095 was indexed with hash 0x" + Hex.encode(SyntheticChain.hash(4_095))),
                    e.getMessage());
            assertEquals(4_096, resumed.nextBlock());
            SyntheticChain.append(resumed, 4_096, LogsBloom.EMPTY);
        }
        assertArrayEquals(SyntheticChain.hash(4_096), SectionIndex.open(dir).lastBlockHash(1));
    }

    /** A section holds 1 to 4096 blocks: a section file that says it holds none is refused. */
    @Test
    void aSectionOfZeroBlocksIsRefused() throws IOException {
        Path file = oneBlockZeroAddressSection();
        rewriteWithValidCrc(file, b -> b.putInt(16, 0));
        assertEquals(file + " holds 0 blocks; a section holds 1 to 4096",
                assertThrows(IndexFormatException.class, () -> SectionIndex.open(dir)).getMessage());
    }

    /**
     * The meta file must describe a version 2 index of 4096-block sections starting at a block number that is not
     * negative: a meta file with another section size, or a negative first block, is refused even with a valid CRC32C.
     */
    @Test
    void aMetaFileWithAnotherSectionSizeOrANegativeFirstBlockIsRefused() throws IOException {
        SectionIndexWriter.open(dir, 0).close();
        Path meta = dir.resolve("index.meta");
        byte[] good = Files.readAllBytes(meta);
        rewriteMetaWithValidCrc(meta, good, b -> b.putInt(12, 2_048));
        assertEquals(meta + " has sections of 2048 blocks; expected 4096",
                assertThrows(IndexFormatException.class, () -> SectionIndex.open(dir)).getMessage());
        rewriteMetaWithValidCrc(meta, good, b -> b.putLong(16, -1));
        assertEquals(meta + " has a negative first block -1",
                assertThrows(IndexFormatException.class, () -> SectionIndex.open(dir)).getMessage());
        Files.write(meta, good);
        assertEquals(0, SectionIndex.open(dir).indexedBlockCount());
    }

    private static void rewriteMetaWithValidCrc(Path meta, byte[] good,
            java.util.function.Consumer<java.nio.ByteBuffer> edit) throws IOException {
        java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(good.clone());
        edit.accept(buffer);
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(buffer.array(), 0, 28);
        Files.write(meta, buffer.putInt(28, (int) crc.getValue()).array());
    }

    /**
     * A vector is stored sparse only when that takes fewer than 128 bytes (a 64-byte bitmap and at most 63 non-zero
     * bytes), otherwise raw (512 bytes). Bloom bit 0 set in one block of each of 63 bytes of the section is stored in
     * 127 bytes; in 64 bytes, raw.
     */
    @Test
    void aVectorIsStoredSparseOnlyBelow128Bytes() throws IOException {
        byte[] bit0 = new byte[256];
        bit0[255] = 0x01;
        LogsBloom withBit0 = LogsBloom.fromBytes(bit0);
        for (int nonZeroBytes : new int[] {63, 64}) {
            Path index = dir.resolve("bytes-" + nonZeroBytes);
            try (SectionIndexWriter writer = SectionIndexWriter.open(index, 0)) {
                for (long b = 0; b < 8 * 64; b++) {
                    SyntheticChain.append(writer, b, b % 8 == 0 && b / 8 < nonZeroBytes ? withBit0 : LogsBloom.EMPTY);
                }
            }
            byte[] file = Files.readAllBytes(index.resolve("section-0000000000.bits"));
            int stored = (file[56] & 0xff) << 8 | (file[57] & 0xff);
            assertEquals(nonZeroBytes == 63 ? 64 + 63 : 512, stored, nonZeroBytes + " non-zero bytes");
            assertEquals(4152 + stored + 4, file.length);
            assertArrayEquals(LongStream.range(0, 8L * nonZeroBytes).filter(b -> b % 8 == 0).toArray(),
                    SectionIndex.open(index).candidates(BloomBitsMatcher.ofBits(new int[][][] {{{0}}}), 0, 511));
        }
    }

    /** {@code lastBlockHash} returns a copy: changing it cannot change the hash the index checks the chain against. */
    @Test
    void lastBlockHashIsACopy() {
        try (SectionIndexWriter writer = SectionIndexWriter.open(dir, 0)) {
            SyntheticChain.append(writer, 0, LogsBloom.EMPTY);
        }
        SectionIndex index = SectionIndex.open(dir);
        index.lastBlockHash(0)[31] ^= 1;
        assertArrayEquals(SyntheticChain.hash(0), index.lastBlockHash(0));
    }

    /** Version 1 stored no hashes: its files are refused with the advice to rebuild, not read unchecked. */
    @Test
    void aVersion1IndexIsRefusedWithTheAdviceToRebuild() throws IOException {
        try (SectionIndexWriter writer = SectionIndexWriter.open(dir, 0)) {
            SyntheticChain.append(writer, 0, LogsBloom.EMPTY);
        }
        String advice = "; version 1 stores no block hashes, so it cannot be checked against the chain after a"
                + " reorganisation: rebuild the index (chainfilter eth index build into a new directory)";
        Path file = dir.resolve("section-0000000000.bits");
        // A version 1 file is 32 bytes shorter: the version is read before the size is judged.
        byte[] good = Files.readAllBytes(file);
        java.nio.ByteBuffer v1 = java.nio.ByteBuffer.allocate(good.length - 32);
        v1.put(good, 0, 24).put(good, 56, good.length - 56).putInt(4, 1);
        Files.write(file, v1.array());
        assertEquals(file + " has format version 1; this reader knows version 2" + advice,
                assertThrows(IndexFormatException.class, () -> SectionIndex.open(dir)).getMessage());
        Path meta = dir.resolve("index.meta");
        java.nio.ByteBuffer oldMeta = java.nio.ByteBuffer.wrap(Files.readAllBytes(meta)).putInt(8, 1);
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(oldMeta.array(), 0, 28);
        Files.write(meta, oldMeta.putInt(28, (int) crc.getValue()).array());
        assertEquals(meta + " has format version 1; this reader knows version 2" + advice,
                assertThrows(IndexFormatException.class, () -> SectionIndex.open(dir)).getMessage());
        assertEquals(meta + " has format version 1; this reader knows version 2" + advice,
                assertThrows(IndexFormatException.class, () -> SectionIndexWriter.open(dir, 0)).getMessage());
    }

    /**
     * A named pipe with a section's name (or the meta file's) is refused as not a regular file: opening it for reading
     * would wait for a writer forever (found by a review; the checkpoint store refuses pipes the same way).
     */
    @Test
    void aNamedPipeInPlaceOfASectionOrTheMetaFileIsRefusedWithoutWaiting() throws Exception {
        SectionIndexWriter.open(dir, 0).close();
        Path section = dir.resolve("section-0000000000.bits");
        assumeTrue(new ProcessBuilder("mkfifo", section.toString()).start().waitFor() == 0, "needs mkfifo");
        IndexFormatException sectionPipe = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> assertThrows(IndexFormatException.class, () -> SectionIndex.open(dir)));
        assertEquals(section + " is not a regular file", sectionPipe.getMessage());
        assertThrows(IndexFormatException.class, () -> SectionIndexWriter.open(dir, 0));

        Files.delete(section);
        Path meta = dir.resolve("index.meta");
        Files.delete(meta);
        assumeTrue(new ProcessBuilder("mkfifo", meta.toString()).start().waitFor() == 0, "needs mkfifo");
        IndexFormatException metaPipe = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> assertThrows(IndexFormatException.class, () -> SectionIndex.open(dir)));
        assertEquals(dir + " holds no section index (index.meta is not a regular file)", metaPipe.getMessage());
    }

    /**
     * Sparse vectors (a 64-byte bitmap of the non-zero bytes, then those bytes) ANDed into a value's accumulator: a
     * word skipped because the accumulator is already zero there must still step over its stored bytes. The ERC-20
     * Transfer topic sets bloom bits 1443, 481, 1060 (KeccakAndBitsTest); block 10 has only bits 481 and 1060 and
     * block 3000 has the topic. Only block 3000's bloom passes {@code couldMatch}, so it is the only candidate.
     */
    @Test
    void sparseVectorsSkipTheStoredBytesOfWordsAlreadyZero() {
        byte[] transfer = Hex.decode("0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef");
        byte[] bits = new byte[256];
        bits[255 - 481 / 8] |= (byte) (1 << (481 % 8));
        bits[255 - 1060 / 8] |= (byte) (1 << (1060 % 8));
        LogsBloom twoOfThree = LogsBloom.fromBytes(bits);
        LogsBloom withTopic = LogsBloom.ofValue(transfer);
        try (SectionIndexWriter writer = SectionIndexWriter.open(dir, 0)) {
            for (long b = 0; b <= 3_000; b++) {
                SyntheticChain.append(writer, b, b == 10 ? twoOfThree : b == 3_000 ? withTopic : LogsBloom.EMPTY);
            }
        }
        LogFilter filter = LogFilter.builder().topic(0, transfer).build();
        assertTrue(filter.couldMatch(withTopic));
        assertEquals(false, filter.couldMatch(twoOfThree));
        SectionIndex index = SectionIndex.open(dir);
        assertArrayEquals(new long[] {3_000}, index.candidates(filter, 0, 3_000));
        assertArrayEquals(new long[] {3_000}, index.candidates(BloomBitsMatcher.ofBits(new int[][][] {{{1443, 481}}}),
                0, 3_000));
        assertArrayEquals(new long[] {10, 3_000}, index.candidates(BloomBitsMatcher.ofBits(new int[][][] {{{481, 1060}}}),
                0, 3_000));
    }

    /** The format admits 0, 512 or 65..511 bytes per vector: a bare 64-byte bitmap (no stored byte) is refused. */
    @Test
    void aVectorOfOnlyABitmapIsRefused() throws IOException {
        Path file = oneBlockZeroAddressSection();
        // Keep a zero bitmap.
        int bit = replaceFirstStoredVector(file, new byte[64]);
        assertEquals(file + ": vector of bloom bit " + bit + " is 64 bytes; a vector is 0, 512 or 65..511 bytes",
                assertThrows(IndexFormatException.class, () -> SectionIndex.open(dir)).getMessage());
    }

    /**
     * Replaces the first stored vector of a {@link #oneBlockZeroAddressSection} (65 bytes at 4152: a bitmap flagging
     * byte 0, then that byte) by {@code vector}, fixing its length, the payload length and the CRC32C; returns its
     * bloom bit.
     */
    private static int replaceFirstStoredVector(Path file, byte[] vector) throws IOException {
        byte[] good = Files.readAllBytes(file);
        int bit = firstStoredVectorBit(good);
        assertEquals(65, (good[56 + 2 * bit] & 0xff) << 8 | (good[57 + 2 * bit] & 0xff));
        java.nio.ByteBuffer out = java.nio.ByteBuffer.allocate(good.length - 65 + vector.length);
        out.put(good, 0, 4152).put(vector).put(good, 4152 + 65, good.length - 4152 - 65);
        out.putShort(56 + 2 * bit, (short) vector.length);
        out.putInt(20, out.getInt(20) - 65 + vector.length);
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(out.array(), 0, out.capacity() - 4);
        out.putInt(out.capacity() - 4, (int) crc.getValue());
        Files.write(file, out.array());
        return bit;
    }

    /**
     * A section file's size is judged before anything is read or mapped: 7 bytes (the magic and part of the version)
     * and one byte more than the largest possible file (every vector raw) are refused naming the size, not read past
     * their end (an IndexOutOfBoundsException) nor mapped and checksummed whole.
     */
    @Test
    void sectionFilesOfAnImpossibleSizeAreRefusedNamingTheSize() throws IOException {
        Path file = oneBlockZeroAddressSection();
        byte[] good = Files.readAllBytes(file);
        Files.write(file, java.util.Arrays.copyOf(good, 7));
        assertEquals(file + " is 7 bytes; a section file is 4156 to 1052732",
                assertThrows(IndexFormatException.class, () -> SectionIndex.open(dir)).getMessage());
        Files.write(file, good);
        try (java.io.RandomAccessFile raf = new java.io.RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(SectionFormat.MAX_SECTION_FILE_BYTES + 1);
        }
        assertEquals(file + " is 1052733 bytes; a section file is 4156 to 1052732",
                assertThrows(IndexFormatException.class, () -> SectionIndex.open(dir)).getMessage());
    }

    /**
     * A vector length is an unsigned 16-bit number: a length with its high bit set (0x8041 = 32833) is refused as too
     * long, naming it, not read as a negative length that only the later sum check objects to.
     */
    @Test
    void aVectorLengthWithItsHighBitSetIsReadUnsigned() throws IOException {
        Path file = oneBlockZeroAddressSection();
        int bit = firstStoredVectorBit(Files.readAllBytes(file));
        rewriteWithValidCrc(file, b -> b.putShort(56 + 2 * bit, (short) 0x8041));
        assertEquals(file + ": vector of bloom bit " + bit + " is 32833 bytes; at most 512",
                assertThrows(IndexFormatException.class, () -> SectionIndex.open(dir)).getMessage());
    }

    /**
     * Block numbers past {@code Long.MAX_VALUE} cannot be represented: a meta file whose first block leaves no room
     * for the sections on disk is refused.
     */
    @Test
    void anIndexWhoseBlockNumbersOverflowIsRefused() throws IOException {
        oneBlockZeroAddressSection();
        Path meta = dir.resolve("index.meta");
        rewriteMetaWithValidCrc(meta, Files.readAllBytes(meta), b -> b.putLong(16, Long.MAX_VALUE));
        assertEquals(dir + ": block numbers overflow",
                assertThrows(IndexFormatException.class, () -> SectionIndex.open(dir)).getMessage());
    }

    /**
     * A range of one block is a range: at the first block of the index and of a section, at the last block of a full
     * section and at the last block of a partial last section, bloom bit 1 (set in every divisor bloom) gives that
     * block.
     */
    @Test
    void aRangeOfOneBlockAtASectionEdgeGivesThatBlock() {
        SectionIndex index = divisorIndex(4_100);
        BloomBitsMatcher everyBlock = BloomBitsMatcher.ofBits(new int[][][] {{{1}}});
        for (long block : new long[] {0, 4_095, 4_096, 4_099}) {
            assertArrayEquals(new long[] {block}, index.candidates(everyBlock, block, block), "block " + block);
        }
    }

    /** The index file: its 32 bytes for first block 0x0102030405060708, the reserved word zero, then the CRC32C. */
    @Test
    void indexMetaGoldenLayout() throws IOException {
        SectionIndexWriter.open(dir, 0x0102030405060708L).close();
        assertEquals("4346424c4d494458" + "00000002" + "00001000" + "0102030405060708" + "00000000" + "d0be308f",
                Hex.encode(Files.readAllBytes(dir.resolve("index.meta"))));
    }

    /** A meta file is exactly 32 bytes starting with CFBLMIDX: one byte longer, or another magic, is refused. */
    @Test
    void aMetaFileOfAnotherLengthOrMagicIsRefused() throws IOException {
        SectionIndexWriter.open(dir, 0).close();
        Path meta = dir.resolve("index.meta");
        byte[] good = Files.readAllBytes(meta);
        Files.write(meta, java.util.Arrays.copyOf(good, 33));
        assertEquals(meta + " is 33 bytes; an index meta file is 32",
                assertThrows(IndexFormatException.class, () -> SectionIndex.open(dir)).getMessage());
        rewriteMetaWithValidCrc(meta, good, b -> b.put(0, (byte) 'X'));
        assertEquals(meta + " does not start with the magic CFBLMIDX",
                assertThrows(IndexFormatException.class, () -> SectionIndex.open(dir)).getMessage());
    }

    /**
     * A sparse vector's bitmap flags exactly the bytes it stores: a bitmap flagging one byte followed by two stored
     * bytes is refused, as is the converse (inconsistentSectionsWithAValidChecksumAreRefused).
     */
    @Test
    void aSparseVectorStoringMoreBytesThanItsBitmapFlagsIsRefused() throws IOException {
        Path file = oneBlockZeroAddressSection();
        byte[] vector = new byte[66];
        vector[0] = (byte) 0x80;
        vector[64] = 1;
        vector[65] = 2;
        int bit = replaceFirstStoredVector(file, vector);
        assertEquals(file + ": vector of bloom bit " + bit + " flags 1 bytes but stores 2",
                assertThrows(IndexFormatException.class, () -> SectionIndex.open(dir)).getMessage());
    }

    /**
     * {@link BitVectorSource}'s contract when no block is left: {@code load} of a vector without a set block leaves
     * {@code into} zero and answers false, and {@code andInto} leaves the accumulator zero and answers false, both for
     * an empty stored vector (bloom bit 0, in no divisor bloom) and for a raw one that clears every bit still set (bloom
     * bit 2, the even blocks, ANDed into the odd ones).
     */
    @Test
    void loadAndAndIntoLeaveZeroAndAnswerFalseWhenNoBlockIsLeft() {
        SectionIndex index = divisorIndex(600);
        long[] zero = new long[BloomBitsMatcher.WORDS_PER_VECTOR];
        long[] vector = new long[BloomBitsMatcher.WORDS_PER_VECTOR];
        java.util.Arrays.fill(vector, -1L);
        assertEquals(false, index.load(0, 0, vector));
        assertArrayEquals(zero, vector);
        java.util.Arrays.fill(vector, -1L);
        assertEquals(false, index.andInto(0, 0, vector, null));
        assertArrayEquals(zero, vector);
        // Block j is bit 63 - j % 64 of word j / 64: the odd blocks are the even bits.
        java.util.Arrays.fill(vector, 0x5555_5555_5555_5555L);
        assertEquals(false, index.andInto(2, 0, vector, null));
        assertArrayEquals(zero, vector);
    }

    /** A bloom bit outside 0..2047 is refused as such, not read from the table of vector starts (2049 entries). */
    @Test
    void aBloomBitOutsideTheBloomIsRefusedNamingTheBloomSize() {
        try (SectionIndexWriter writer = SectionIndexWriter.open(dir, 0)) {
            SyntheticChain.append(writer, 0, LogsBloom.EMPTY);
        }
        SectionIndex index = SectionIndex.open(dir);
        long[] vector = new long[BloomBitsMatcher.WORDS_PER_VECTOR];
        assertEquals("Index 2048 out of bounds for length 2048", assertThrows(IndexOutOfBoundsException.class,
                () -> index.load(2_048, 0, vector)).getMessage());
        assertEquals("Index -1 out of bounds for length 2048", assertThrows(IndexOutOfBoundsException.class,
                () -> index.andInto(-1, 0, vector, vector)).getMessage());
    }

    /**
     * A writer reopened on an index whose last section holds 4,095 blocks, one short of full, resumes in that section
     * at block 4,095, not at the next section (which would leave a hole where block 4,095 belongs).
     */
    @Test
    void aWriterResumedOneBlockShortOfAFullSectionCompletesIt() {
        try (SectionIndexWriter writer = SectionIndexWriter.open(dir, 0)) {
            appendDivisorBlocks(writer, 0, 4_095);
        }
        try (SectionIndexWriter resumed = SectionIndexWriter.open(dir, 0)) {
            assertEquals(4_095, resumed.nextBlock());
            appendDivisorBlocks(resumed, 4_095, 4_200);
        }
        assertDivisorIndex(4_200, 60, 10, 20, 30);
    }

    /**
     * A writer closed without appending writes nothing: the partial last section it reloaded is not rewritten (the
     * file is still the one written before, the same inode, where a rewrite renames a new file into place).
     */
    @Test
    void aWriterClosedWithoutAppendingRewritesNothing() throws IOException {
        try (SectionIndexWriter writer = SectionIndexWriter.open(dir, 0)) {
            appendDivisorBlocks(writer, 0, 100);
        }
        Path file = dir.resolve("section-0000000000.bits");
        Object before = Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class).fileKey();
        assumeTrue(before != null, "needs file keys");
        try (SectionIndexWriter resumed = SectionIndexWriter.open(dir, 0)) {
            assertEquals(100, resumed.nextBlock());
        }
        assertEquals(before, Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class).fileKey());
    }

    /** A gap of several blocks is named as a range: "blocks 101..103 are missing". */
    @Test
    void aGapOfSeveralBlocksIsNamedAsARange() {
        try (SectionIndexWriter writer = SectionIndexWriter.open(dir, 100)) {
            SyntheticChain.append(writer, 100, LogsBloom.EMPTY);
            assertEquals("block 104 cannot follow block 100 (blocks 101..103 are missing); the index expects block 101"
                    + " next", assertThrows(IllegalArgumentException.class,
                            () -> SyntheticChain.append(writer, 104, LogsBloom.EMPTY)).getMessage());
        }
    }

    /**
     * A writer reopened on an index that has no section yet (created, nothing appended) starts at its first block,
     * and the first block it is given needs no particular parent, as in a new index.
     */
    @Test
    void aWriterReopenedOnAnIndexWithoutSectionsStartsAtItsFirstBlock() {
        SectionIndexWriter.open(dir, 10).close();
        try (SectionIndexWriter resumed = SectionIndexWriter.open(dir, 10)) {
            assertEquals(10, resumed.nextBlock());
            resumed.append(10, SyntheticChain.hash(10), SyntheticChain.hash(-10), LogsBloom.EMPTY);
        }
        assertEquals(1, SectionIndex.open(dir).indexedBlockCount());
    }
}
