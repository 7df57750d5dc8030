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
import org.chainfilter.common.hash.Hash128Function;

/**
 * A blocked ("cache-local") Bloom filter: the item's first hash half picks one 512-bit block (8 words, 64 bytes) and
 * all {@code k} probes fall inside it, so a lookup touches one block of memory instead of {@code k} scattered words
 * (Putze, Sanders and Singler, "Cache-, hash- and space-efficient Bloom filters", WEA 2007; RocksDB's
 * {@code FastLocalBloomImpl} is the same idea).
 *
 * <p>Positions, from the 128-bit MurmurHash3 x64_128 hash {@code (h1, h2)} of the key under seed 0:
 * <pre>
 *   block   = floor((h1 >>> 32) * blockCount / 2^32)          (Lemire's multiply-shift reduction on h1's top half)
 *   probe i = bits [9i, 9i + 9) of h2                        (i = 0 .. min(k, 7) - 1)
 *   probe i = top 9 bits of x_i, x_6 = h1, x_i = x_{i-1} * 0x9e3779b97f4a7c15 mod 2^64   (i = 7 .. k - 1)
 * </pre>
 * The first seven probes are disjoint bit fields of {@code h2}, so they cost a shift each and no probe waits for
 * another: the lookup issues all its reads as soon as the hash is known, which is what lets the processor overlap the
 * cache misses of consecutive lookups (a chain of dependent multiplications, as RocksDB uses, measured about 40%
 * slower at 10^7 items here). Beyond seven probes, multiplying by the odd golden-ratio constant, a bijection whose top
 * bits depend on all bits below them, gives a fresh uniform bit number per step. Probes are drawn with replacement, as
 * {@link BlockedBloomMath}'s formula assumes; bit {@code b} of a block is bit {@code b mod 64} of its word
 * {@code b / 64}.
 *
 * <p>Sizing and {@code k} follow {@link BlockedBloomMath} (the Poisson-averaged rate), not the classic formula: for
 * 1% the filter uses about 9.9 bits per item and {@code k = 6}, where a classic filter uses 9.59 and {@code k = 7}.
 *
 * <p>The Java array starts 16 bytes after its object header, so a logical block is 64 bytes but not always aligned to
 * one cache line; it then spans two adjacent lines, which the hardware's adjacent-line prefetcher usually fetches
 * together.
 *
 * <p>{@link #put} and {@link #mightContain} allocate nothing for the built-in key encoders. Not thread-safe: use
 * {@link ConcurrentBloomFilter} for concurrent writers.
 *
 * @param <T> the element type
 */
public final class BlockedBloomFilter<T> implements MembershipFilter<T> {
    static final String KIND = "blocked Bloom filter";
    private static final long GOLDEN = 0x9e3779b97f4a7c15L;
    private static final int WORDS_PER_BLOCK = 8;
    /** log2 of the 512 bits of a block: the width of one probe. */
    private static final int BITS_PER_PROBE = 9;
    /** How many probes h2's 64 bits hold as disjoint 9-bit fields. */
    private static final int FIELD_PROBES = 64 / BITS_PER_PROBE;
    /** The most blocks one {@code long[]} holds. */
    public static final int MAX_BLOCKS = (Integer.MAX_VALUE - 8) / WORDS_PER_BLOCK;

    private final KeyEncoder<? super T> encoder;
    private final int blockCount;
    private final int hashFunctionCount;
    private final long[] words;
    private final Hash128Function putHash = this::putHash;
    private final Hash128Function containsHash = this::containsHash;

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
        return new BlockedBloomFilter<>(encoder, blockCount, hashFunctionCount, new long[blockCount * WORDS_PER_BLOCK]);
    }

    private static void checkBlockCount(long blockCount) {
        if (blockCount < 1 || blockCount > MAX_BLOCKS) {
            throw new IllegalArgumentException(
                    "block count is " + blockCount + "; a blocked filter holds 1 to " + MAX_BLOCKS + " blocks");
        }
    }

    /** Sets the item's {@code k} bits in its block; returns whether any was clear. No allocation. */
    @Override
    public boolean put(T element) {
        return encoder.hash128(element, 0, putHash);
    }

    /** Whether all {@code k} of the item's bits are set. No allocation. */
    @Override
    public boolean mightContain(T element) {
        return encoder.hash128(element, 0, containsHash);
    }

    private boolean putHash(long h1, long h2) {
        long[] w = words;
        int base = blockOf(h1) * WORDS_PER_BLOCK;
        long x = h1;
        long newBits = 0;
        for (int i = 0; i < hashFunctionCount; i++) {
            long bit;
            if (i < FIELD_PROBES) {
                bit = h2 >>> (BITS_PER_PROBE * i);
            } else {
                x *= GOLDEN;
                bit = x >>> (64 - BITS_PER_PROBE);
            }
            int word = base + ((int) bit >>> 6 & (WORDS_PER_BLOCK - 1));
            long mask = 1L << bit;
            newBits |= ~w[word] & mask;
            w[word] |= mask;
        }
        return newBits != 0;
    }

    private boolean containsHash(long h1, long h2) {
        return containsAt(blockOf(h1) * WORDS_PER_BLOCK, h1, h2);
    }

    /** The probes of hash {@code (h1, h2)} in the block whose first word is {@code base}. */
    private boolean containsAt(int base, long h1, long h2) {
        long[] w = words;
        long missing = 0;
        // Unrolled, with no early exit: every read is known once the hash is, all fall in the one block already being
        // loaded, and a data-dependent branch per probe would be mispredicted about once per absent item.
        switch (Math.min(hashFunctionCount, FIELD_PROBES)) {
            case 7:
                missing |= missingBit(w, base, h2 >>> 54);
                // fall through
            case 6:
                missing |= missingBit(w, base, h2 >>> 45);
                // fall through
            case 5:
                missing |= missingBit(w, base, h2 >>> 36);
                // fall through
            case 4:
                missing |= missingBit(w, base, h2 >>> 27);
                // fall through
            case 3:
                missing |= missingBit(w, base, h2 >>> 18);
                // fall through
            case 2:
                missing |= missingBit(w, base, h2 >>> 9);
                // fall through
            default:
                missing |= missingBit(w, base, h2);
        }
        long x = h1;
        for (int i = FIELD_PROBES; i < hashFunctionCount; i++) {
            x *= GOLDEN;
            missing |= missingBit(w, base, x >>> (64 - BITS_PER_PROBE));
        }
        return missing == 0;
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
        private final long[] firstHalves = new long[GROUP];
        private final long[] secondHalves = new long[GROUP];
        private final Hash128Function record = this::record;
        private int slot;
        /** The OR of the words {@link #touchBlocks} read; never used otherwise. */
        private long touchedBits;

        private boolean record(long h1, long h2) {
            bases[slot] = blockOf(h1) * WORDS_PER_BLOCK;
            firstHalves[slot] = h1;
            secondHalves[slot] = h2;
            return true;
        }

        /**
         * Reads the first and the last word of each of the group's blocks, before any block is probed: a short loop of
         * independent loads, so all the group's misses are in flight at once (the probe loop, about 35 instructions
         * a key, would hold only a few in the processor's window). A block is 64 bytes but not always aligned to a
         * cache line (see the class comment), so it may span two lines; both ends are read. The OR is kept in a field
         * so the loads are not removed as dead code.
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
                    slot = i;
                    encoder.hash128(elements[offset + done + i], 0, record);
                }
                touchBlocks(n);
                for (int i = 0; i < n; i++) {
                    boolean result = containsAt(bases[i], firstHalves[i], secondHalves[i]);
                    results[resultOffset + done + i] = result;
                    maybe += result ? 1 : 0;
                }
            }
            return maybe;
        }
    }

    /** The block {@code floor((h1 >>> 32) * blockCount / 2^32)}; exact in a long as blockCount < 2^28. */
    private int blockOf(long h1) {
        return (int) (((h1 >>> 32) * blockCount) >>> 32);
    }

    /** The probe's bit if it is clear, else 0; the probe is the low 9 bits of {@code bit} (word, then bit in word). */
    private static long missingBit(long[] words, int base, long bit) {
        return ~words[base + ((int) bit >>> 6 & (WORDS_PER_BLOCK - 1))] & (1L << bit);
    }

    /**
     * The exact rate for the current bits: the mean over blocks of {@code (X_b / 512)^k}, where {@code X_b} is the
     * number of set bits in block {@code b} (a query lands in a uniform block and its {@code k} probes are uniform in
     * it).
     */
    @Override
    public double expectedFpp() {
        double sum = 0;
        for (int b = 0; b < blockCount; b++) {
            sum += Math.pow(setBitsInBlock(b) / (double) BlockedBloomMath.BLOCK_BITS, hashFunctionCount);
        }
        return sum / blockCount;
    }

    /**
     * Swamidass–Baldi per block, summed: {@code Σ_b -(512/k) ln(1 - X_b/512)}; a full block counts as if it had one
     * clear bit (its count is then a lower bound).
     */
    @Override
    public long approximateElementCount() {
        double bitsPerBlock = BlockedBloomMath.BLOCK_BITS;
        double sum = 0;
        for (int b = 0; b < blockCount; b++) {
            int set = Math.min(setBitsInBlock(b), BlockedBloomMath.BLOCK_BITS - 1);
            sum += -(bitsPerBlock / hashFunctionCount) * Math.log1p(-set / bitsPerBlock);
        }
        return Math.round(sum);
    }

    private int setBitsInBlock(int block) {
        int set = 0;
        for (int w = block * WORDS_PER_BLOCK, end = w + WORDS_PER_BLOCK; w < end; w++) {
            set += Long.bitCount(words[w]);
        }
        return set;
    }

    /** The a-priori rate after {@code elements} distinct insertions: {@link BlockedBloomMath#falsePositiveRate}. */
    public double falsePositiveRate(long elements) {
        return BlockedBloomMath.falsePositiveRate((double) elements / blockCount, hashFunctionCount);
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
     * Writes the binary form: the family header (kind 3, see {@link FamilyBinaryForm}), then {@code k} (1 byte), the
     * block count (4 bytes) and the {@code 8 * blockCount} words.
     */
    @Override
    public void writeTo(OutputStream out) throws IOException {
        DataOutputStream data = new DataOutputStream(new BufferedOutputStream(out));
        FamilyBinaryForm.writeHeader(data, FamilyBinaryForm.BLOCKED);
        data.writeByte(hashFunctionCount);
        data.writeInt(blockCount);
        FamilyBinaryForm.writeWords(data, words);
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
                FamilyBinaryForm.readWords(data, (int) blocks * WORDS_PER_BLOCK));
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
