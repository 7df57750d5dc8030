package org.chainfilter.common.filter;

import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Objects;
import org.chainfilter.common.bloom.KeyEncoder;
import org.chainfilter.common.hash.Xxh3;

/**
 * A blocked ("cache-local") Bloom filter: the item's hash picks one 512-bit block (8 words, 64 bytes) and all {@code k}
 * probes fall inside it, so a lookup touches one block of memory instead of {@code k} scattered words (Putze, Sanders
 * and Singler, "Cache-, hash- and space-efficient Bloom filters", WEA 2007; RocksDB's {@code FastLocalBloomImpl} is the
 * same idea). Inside the block, probe {@code i} sets or tests one bit of word {@code i mod 8}, so the block is eight
 * 64-bit sectors; with the usual {@code k = 8} an item puts one bit in each (the split-block layout of Impala's and
 * Parquet's filters, on 64-bit words).
 *
 * <p>Positions, from the key's 64-bit hash {@code h = }{@link KeyEncoder#hash64} (XXH3-64 for the built-in encoders),
 * with {@code G = 0x9e3779b97f4a7c15} (odd: multiplying by it is a bijection whose top bits depend on all bits below):
 * <pre>
 *   block   = floor((h >>> 32) * blockCount / 2^32)            (Lemire's multiply-shift reduction on h's top half)
 *   x       = h * G mod 2^64
 *   probe i = word i mod 8 of the block, bit: bits [58 - 6i, 64 - 6i) of x      (i = 0 .. min(k, 10) - 1)
 *             top 6 bits of x_i, x_9 = x, x_i = x_{i-1} * G mod 2^64              (i = 10 .. k - 1)
 * </pre>
 * The probes come from the top of {@code x}, whose bits depend on all of {@code h}, so items in one block (which share
 * most of {@code h}'s top bits) still draw independent probes.
 * A lookup knows the eight addresses it reads from the block number alone: it issues the block's loads at fixed
 * offsets and only then shifts each word by its probe's bit number, with no early exit and no address that waits for
 * a probe. A probe anywhere in the block (the layout before, and RocksDB's) first computes which word to read, a
 * dependent address per probe; measured at 10^7 items, single lookups at fixed offsets ran about 1.3 times as fast
 * ({@code FamilyBenchmark}). Beyond ten probes, multiplying by the odd golden-ratio constant, a bijection whose top bits
 * depend on all bits below them, gives a fresh uniform bit number per step. The probes of one word are drawn with
 * replacement, as {@link BlockedBloomMath}'s formula assumes; bit {@code b} of word {@code j} is bit {@code b} of the
 * 64-bit value.
 *
 * <p>Sizing and {@code k} follow {@link BlockedBloomMath}: for 1% the filter uses about 10.1 bits per item and
 * {@code k = 8}, where a classic filter uses 9.59 and {@code k = 7}.
 *
 * <p>The words start {@value #PAD_WORDS} words into the array, so that every block starts on a 64-byte cache line when
 * the array's data starts 16 bytes past a line boundary: HotSpot puts a {@code long[]}'s data 16 bytes after the
 * object's start, and G1 starts an array of half a region or more (a filter larger than the caches) at a region
 * boundary. A block then takes one cache miss, not two: single lookups at 10^7 items ran about 1.3 times as fast
 * aligned ({@code FamilyBenchmark}). Where the array lies elsewhere (a small filter, another collector) a block may
 * span two lines; the answers are the same.
 *
 * <p>{@link #put} and {@link #mightContain} allocate nothing for the built-in key encoders. Not thread-safe: use
 * {@link ConcurrentBloomFilter} for concurrent writers.
 *
 * @param <T> the element type
 */
public final class BlockedBloomFilter<T> implements MembershipFilter<T> {
    static final String KIND = "blocked Bloom filter";
    private static final long GOLDEN = 0x9e3779b97f4a7c15L;
    private static final int WORDS_PER_BLOCK = BlockedBloomMath.WORDS_PER_BLOCK;
    /** log2 of a word's 64 bits: the width of one probe. */
    private static final int BITS_PER_PROBE = 6;
    /** How many probes x's 64 bits hold as disjoint 6-bit fields. */
    private static final int FIELD_PROBES = 64 / BITS_PER_PROBE;
    /** Unused words before the first block, so blocks start on cache lines (see the class comment). */
    static final int PAD_WORDS = 6;
    /** The most blocks one {@code long[]} holds. */
    public static final int MAX_BLOCKS = (Integer.MAX_VALUE - 8 - PAD_WORDS) / WORDS_PER_BLOCK;

    private final KeyEncoder<? super T> encoder;
    private final int blockCount;
    private final int hashFunctionCount;
    /** {@link #PAD_WORDS} zero words, then the blocks. */
    private final long[] words;

    private BlockedBloomFilter(KeyEncoder<? super T> encoder, int blockCount, int hashFunctionCount, long[] words) {
        this.encoder = encoder;
        this.blockCount = blockCount;
        this.hashFunctionCount = hashFunctionCount;
        this.words = words;
    }

    /**
     * A filter for {@code expectedElements} items at {@code falsePositiveRate}: {@code ceil(n / λ)} blocks where
     * {@code λ = }{@link BlockedBloomMath#elementsPerBlockFor}{@code (p)}, and the {@code k} that is optimal at that load.
     *
     * @throws IllegalArgumentException if {@code n < 1}, the rate is outside [1e-9, 0.5] or the filter needs more than
     *     {@link #MAX_BLOCKS} blocks
     */
    public static <T> BlockedBloomFilter<T> create(KeyEncoder<? super T> encoder,
            long expectedElements, double falsePositiveRate) {
        if (expectedElements < 1) {
            throw new IllegalArgumentException("expected element count is " + expectedElements + "; it must be at least 1");
        }
        double load = BlockedBloomMath.elementsPerBlockFor(falsePositiveRate);
        double blocks = Math.ceil(expectedElements / load);
        if (blocks > MAX_BLOCKS) {
            throw new IllegalArgumentException(expectedElements + " elements at rate " + falsePositiveRate + " need "
                    + (long) blocks + " blocks; a blocked filter holds at most " + MAX_BLOCKS);
        }
        return withShape(encoder, (int) blocks, BlockedBloomMath.optimalHashFunctionCount(load));
    }

    /**
     * A filter of exactly {@code blockCount} 512-bit blocks and {@code hashFunctionCount} probes per item.
     *
     * @throws IllegalArgumentException if the block count is outside [1, {@link #MAX_BLOCKS}] or k outside [1, 24]
     */
    public static <T> BlockedBloomFilter<T> withShape(KeyEncoder<? super T> encoder,
            int blockCount, int hashFunctionCount) {
        Objects.requireNonNull(encoder, "encoder");
        checkBlockCount(blockCount);
        BlockedBloomMath.checkHashFunctionCount(hashFunctionCount);
        return new BlockedBloomFilter<>(encoder, blockCount, hashFunctionCount,
                new long[PAD_WORDS + blockCount * WORDS_PER_BLOCK]);
    }

    private static void checkBlockCount(long blockCount) {
        if (blockCount < 1 || blockCount > MAX_BLOCKS) {
            throw new IllegalArgumentException(
                    "block count is " + blockCount + "; a blocked filter holds 1 to " + MAX_BLOCKS + " blocks");
        }
    }

    /**
     * Sets the item's {@code k} bits in its block; returns whether any was clear. No allocation.
     *
     * @throws IllegalArgumentException for a {@code CharSequence} key longer than 2^30 - 1 chars (its UTF-16 bytes
     *     would exceed what XXH3 over an {@code int} length takes)
     */
    @Override
    public boolean put(T element) {
        return putHash(encoder.hash64(element));
    }

    /** Whether all {@code k} of the item's bits are set. No allocation. */
    @Override
    public boolean mightContain(T element) {
        return containsHash(encoder.hash64(element));
    }

    /**
     * Adds the element whose canonical bytes are the 8 little-endian bytes of {@code value}, without boxing: the same
     * element as {@code put(value)} with {@link KeyEncoder#longs()} (and as {@code put} of those 8 bytes with
     * {@link KeyEncoder#bytes()}). No allocation.
     */
    public boolean putLong(long value) {
        return putHash(Xxh3.hash64OfLong(value));
    }

    /** {@link #mightContain} for the element {@link #putLong} adds. No allocation. */
    public boolean mightContainLong(long value) {
        return containsHash(Xxh3.hash64OfLong(value));
    }

    private boolean putHash(long h) {
        return !probes(baseOf(h), h * GOLDEN, true);
    }

    private boolean containsHash(long h) {
        return containsAt(baseOf(h), h);
    }

    /**
     * The probes of hash {@code h} in the block whose first word is {@code base}. For {@code k = 8} the eight words are
     * read at fixed offsets and each shifted by its probe's 6 bits of {@code x} (a {@code long} shift uses the low 6
     * bits of its count), all ANDed, with no early exit: a data-dependent branch per probe would be mispredicted about
     * once per absent item, and no read waits for a probe bit.
     */
    private boolean containsAt(int base, long h) {
        long[] w = words;
        long x = h * GOLDEN;
        if (hashFunctionCount == WORDS_PER_BLOCK) {
            long all = (w[base] >>> (x >>> 58)) & (w[base + 1] >>> (x >>> 52)) & (w[base + 2] >>> (x >>> 46))
                    & (w[base + 3] >>> (x >>> 40)) & (w[base + 4] >>> (x >>> 34)) & (w[base + 5] >>> (x >>> 28))
                    & (w[base + 6] >>> (x >>> 22)) & (w[base + 7] >>> (x >>> 16));
            return (all & 1) != 0;
        }
        return probes(base, x, false);
    }

    /**
     * Whether all the probes' bits of {@code x = h * G} in the block at {@code base} were set, setting them too when
     * {@code set} (every put, and contains for k other than 8). Probe i is word i mod 8, its bit a 6-bit field of
     * {@code x} from the top for the first ten, then the top 6 bits of a chain of multiplications by G.
     */
    private boolean probes(int base, long x, boolean set) {
        long[] w = words;
        long all = 1;
        long chain = x;
        for (int i = 0; i < hashFunctionCount; i++) {
            long bit;
            if (i < FIELD_PROBES) {
                bit = x >>> (64 - BITS_PER_PROBE * (i + 1));
            } else {
                chain *= GOLDEN;
                bit = chain >>> (64 - BITS_PER_PROBE);
            }
            int word = base + (i & (WORDS_PER_BLOCK - 1));
            long before = w[word];
            all &= before >>> bit;
            if (set) {
                w[word] = before | (1L << bit);
            }
        }
        return (all & 1) != 0;
    }

    /**
     * A reader that hashes a group of sixteen keys, then reads both ends of their sixteen blocks in one short loop,
     * then probes them: the reads are independent loads that the processor keeps in flight together. One
     * {@link #mightContain} call per key leaves about one lookup's miss in flight at a time, since each call's
     * hashing fills the processor's reorder window before the next call's read can issue; when the filter is much
     * larger than the cache, that is what bounds it. The reader holds the group's hashes (it belongs to one thread)
     * and allocates nothing per call.
     */
    @Override
    public MembershipFilter.BatchReader<T> batchReader() {
        return new GroupReader();
    }

    /** See {@link #batchReader()}. */
    private final class GroupReader implements MembershipFilter.BatchReader<T> {
        /**
         * Keys hashed before their blocks are read: sixteen keys' blocks are up to 32 cache lines, about as many misses
         * as one core keeps outstanding; larger groups measured no faster.
         */
        private static final int GROUP = 16;

        private final int[] bases = new int[GROUP];
        private final long[] hashes = new long[GROUP];
        /** The OR of the words {@link #touchBlocks} read; never used otherwise. */
        private long touchedBits;

        /**
         * Reads the first and the last word of each of the group's blocks, before any block is probed: a short loop of
         * independent loads, so all the group's misses are in flight at once (the probe loop, about 35 instructions
         * a key, would hold only a few in the processor's window). A block is 64 bytes and usually on one cache line,
         * but not always (see the class comment), so it may span two lines; both ends are read. The OR is kept in a
         * field so the loads are not removed as dead code.
         */
        private void touchBlocks(int n) {
            long[] w = words;
            long touched = 0;
            for (int i = 0; i < n; i++) {
                touched |= w[bases[i]] | w[bases[i] + WORDS_PER_BLOCK - 1];
            }
            touchedBits = touched;
        }

        @Override
        public int mightContain(T[] elements, int offset, int count, boolean[] results, int resultOffset) {
            MembershipFilter.BatchReader.checkRanges(elements, offset, count, results, resultOffset);
            int maybe = 0;
            for (int done = 0; done < count; done += GROUP) {
                int n = Math.min(GROUP, count - done);
                for (int i = 0; i < n; i++) {
                    long h = encoder.hash64(elements[offset + done + i]);
                    hashes[i] = h;
                    bases[i] = baseOf(h);
                }
                touchBlocks(n);
                for (int i = 0; i < n; i++) {
                    boolean result = containsAt(bases[i], hashes[i]);
                    results[resultOffset + done + i] = result;
                    maybe += result ? 1 : 0;
                }
            }
            return maybe;
        }
    }

    /**
     * The index of the first word of block {@code floor((h >>> 32) * blockCount / 2^32)}; exact in a long as
     * blockCount < 2^28.
     */
    private int baseOf(long h) {
        return PAD_WORDS + (int) (((h >>> 32) * blockCount) >>> 32) * WORDS_PER_BLOCK;
    }

    /**
     * The exact rate for the current bits: the mean over blocks of {@code Π_j (X_bj / 64)^c_j}, where {@code X_bj} is
     * the number of set bits in word {@code j} of block {@code b} and {@code c_j} the number of probes that word takes
     * (a query lands in a uniform block and each of its probes is uniform in its word).
     */
    @Override
    public double expectedFpp() {
        double sum = 0;
        for (int b = 0; b < blockCount; b++) {
            double rate = 1;
            for (int j = 0; j < WORDS_PER_BLOCK; j++) {
                rate *= Math.pow(setBitsInWord(b, j) / 64.0, probesInWord(j));
            }
            sum += rate;
        }
        return sum / blockCount;
    }

    private int setBitsInWord(int block, int j) {
        return Long.bitCount(words[PAD_WORDS + block * WORDS_PER_BLOCK + j]);
    }

    /** How many of the {@code k} probes fall in word {@code j} of a block: {@code ⌊k/8⌋}, plus one for j < k mod 8. */
    private int probesInWord(int j) {
        return hashFunctionCount / WORDS_PER_BLOCK + (j < hashFunctionCount % WORDS_PER_BLOCK ? 1 : 0);
    }

    /**
     * Swamidass–Baldi per word, combined and summed: word {@code j} of a block holding {@code n} items has about
     * {@code 64 (1 - (63/64)^{n c_j})} bits set, so {@code n = Σ_j ln(1 - X_bj / 64) / (k ln(63/64))} over the words
     * that take probes (with the exact {@code ln(63/64)}: its first-order value {@code -1/64} would count 0.8 % high);
     * a full word counts as if it had one clear bit (the count is then a lower bound).
     */
    @Override
    public long approximateElementCount() {
        double sum = 0;
        for (int b = 0; b < blockCount; b++) {
            for (int j = 0; j < WORDS_PER_BLOCK; j++) {
                if (probesInWord(j) > 0) {
                    int set = Math.min(setBitsInWord(b, j), 63);
                    sum += Math.log1p(-set / 64.0);
                }
            }
        }
        return Math.round(sum / (hashFunctionCount * Math.log1p(-1.0 / 64)));
    }

    /**
     * The a-priori rate after {@code elements} distinct insertions:
     * {@link BlockedBloomMath#falsePositiveRate(long, long, int)}, over the binomial load of this filter's blocks.
     */
    public double falsePositiveRate(long elements) {
        return BlockedBloomMath.falsePositiveRate(elements, blockCount, hashFunctionCount);
    }

    /** The number of 512-bit blocks. */
    public int blockCount() {
        return blockCount;
    }

    /** The number of probes per item, {@code k}. */
    public int hashFunctionCount() {
        return hashFunctionCount;
    }

    /** The filter's size in bits: {@code 512 * blockCount}. */
    public long bitCount() {
        return (long) blockCount * BlockedBloomMath.BLOCK_BITS;
    }

    @Override
    public void clear() {
        Arrays.fill(words, 0L);
    }

    @Override
    public BlockedBloomFilter<T> copy() {
        return new BlockedBloomFilter<>(encoder, blockCount, hashFunctionCount, words.clone());
    }

    /**
     * Writes the binary form: the family header (kind 3, version 3, see {@link FamilyBinaryForm}), then {@code k}
     * (1 byte), the block count (4 bytes) and the {@code 8 * blockCount} words of the blocks (not the padding).
     */
    @Override
    public void writeTo(OutputStream out) throws IOException {
        DataOutputStream data = new DataOutputStream(new BufferedOutputStream(out));
        FamilyBinaryForm.writeHeader(data, FamilyBinaryForm.BLOCKED);
        data.writeByte(hashFunctionCount);
        data.writeInt(blockCount);
        FamilyBinaryForm.writeWords(data, words, PAD_WORDS, words.length - PAD_WORDS);
        data.flush();
    }

    /**
     * Reads a filter written by {@link #writeTo}, refusing one larger than {@code maxBytes} before allocating it.
     *
     * @throws IllegalArgumentException if the header is not a blocked filter's, a field is out of range, or the filter
     *     is larger than {@code maxBytes}
     * @throws IOException if the stream fails, or ends early (an {@link java.io.EOFException} naming the kind)
     */
    public static <T> BlockedBloomFilter<T> readFrom(InputStream in, KeyEncoder<? super T> encoder, long maxBytes)
            throws IOException {
        return FamilyBinaryForm.namingTruncation(KIND, () -> read(in, encoder, maxBytes));
    }

    private static <T> BlockedBloomFilter<T> read(InputStream in, KeyEncoder<? super T> encoder, long maxBytes)
            throws IOException {
        Objects.requireNonNull(encoder, "encoder");
        DataInputStream data = FamilyBinaryForm.readHeader(in, FamilyBinaryForm.BLOCKED, KIND);
        int k = data.readUnsignedByte();
        BlockedBloomMath.checkHashFunctionCount(k);
        long blocks = data.readInt() & 0xffffffffL;
        checkBlockCount(blocks);
        FamilyBinaryForm.checkSize(KIND, FamilyBinaryForm.HEADER_BYTES + 5 + blocks * 64, maxBytes);
        return new BlockedBloomFilter<>(encoder, (int) blocks, k,
                FamilyBinaryForm.readWords(data, PAD_WORDS, (int) blocks * WORDS_PER_BLOCK));
    }

    /** Equal when the block count, {@code k}, the key encoder and every bit are equal. */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof BlockedBloomFilter)) {
            return false;
        }
        BlockedBloomFilter<?> other = (BlockedBloomFilter<?>) o;
        return blockCount == other.blockCount && hashFunctionCount == other.hashFunctionCount
                && encoder.equals(other.encoder) && Arrays.equals(words, other.words);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * blockCount + hashFunctionCount) + Arrays.hashCode(words);
    }

    @Override
    public String toString() {
        return "BlockedBloomFilter[blocks=" + blockCount + ", k=" + hashFunctionCount + "]";
    }
}
