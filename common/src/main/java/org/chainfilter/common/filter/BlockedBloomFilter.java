package org.chainfilter.common.filter;

import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Objects;
import org.chainfilter.common.bloom.EnhancedDoubleHashing;
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
 *   block = floor(h1 * blockCount / 2^64)                (Lemire's multiply-shift reduction, unsigned h1)
 *   x_0 = h2;  x_i = x_{i-1} * 0x9e3779b97f4a7c15 mod 2^64,  probe i = top 9 bits of x_i   (i = 1 .. k)
 * </pre>
 * Multiplying by the odd golden-ratio constant is a bijection on 64-bit values whose top bits depend on all bits
 * below them, so each product's top 9 bits are a fresh, uniform bit number within the block (RocksDB does the same
 * with 32-bit products). Probes are drawn with replacement, as {@link BlockedBloomMath}'s formula assumes.
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
    /** The most blocks one {@code long[]} holds. */
    public static final int MAX_BLOCKS = (Integer.MAX_VALUE - 8) / WORDS_PER_BLOCK;

    private final KeyEncoder<T> encoder;
    private final int blockCount;
    private final int hashFunctionCount;
    private final long[] words;
    private final Hash128Function putHash = this::putHash;
    private final Hash128Function containsHash = this::containsHash;

    private BlockedBloomFilter(KeyEncoder<T> encoder, int blockCount, int hashFunctionCount, long[] words) {
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
    public static <T> BlockedBloomFilter<T> create(KeyEncoder<T> encoder, long expectedElements, double falsePositiveRate) {
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
    public static <T> BlockedBloomFilter<T> withShape(KeyEncoder<T> encoder, int blockCount, int hashFunctionCount) {
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
        int base = (int) EnhancedDoubleHashing.reduce(h1, blockCount) * WORDS_PER_BLOCK;
        long x = h2;
        long newBits = 0;
        for (int i = 0; i < hashFunctionCount; i++) {
            x *= GOLDEN;
            int bit = (int) (x >>> 55);
            int w = base + (bit >>> 6);
            long mask = 1L << bit;
            newBits |= ~words[w] & mask;
            words[w] |= mask;
        }
        return newBits != 0;
    }

    private boolean containsHash(long h1, long h2) {
        int base = (int) EnhancedDoubleHashing.reduce(h1, blockCount) * WORDS_PER_BLOCK;
        long x = h2;
        long missing = 0;
        // No early exit: all k words are in the one block already being loaded, and a data-dependent branch per
        // probe would be mispredicted about once per absent item.
        for (int i = 0; i < hashFunctionCount; i++) {
            x *= GOLDEN;
            int bit = (int) (x >>> 55);
            missing |= ~words[base + (bit >>> 6)] & (1L << bit);
        }
        return missing == 0;
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
     * @throws IOException if the stream fails or ends early
     */
    public static <T> BlockedBloomFilter<T> readFrom(InputStream in, KeyEncoder<T> encoder, long maxBytes)
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

    @Override
    public String toString() {
        return "BlockedBloomFilter[blocks=" + blockCount + ", k=" + hashFunctionCount + "]";
    }
}
