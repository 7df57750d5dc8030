package org.chainfilter.ethbloom;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

import org.chainfilter.common.Hex;
import org.chainfilter.common.bits.ByteLayout;
import org.chainfilter.common.bits.LongArrayBitStore;

/**
 * An Ethereum {@code logsBloom}: the immutable 2048-bit (256-byte) Bloom filter of a receipt or a block header.
 *
 * <p>Yellow Paper, transaction receipt section: {@code M(O) = OR over x in {O_a} ∪ O_t of M3:2048(x)}, where
 * {@code M3:2048(x)} sets bit {@code 2047 - m(x, i)} (bit reference function B, big-endian) for {@code i ∈ {0, 2, 4}}
 * and {@code m(x, i) = KEC(x)[i, i+1] mod 2048}. Equivalently (go-ethereum {@code core/types/bloom9.go}): for each of
 * the three pairs of Keccak-256 bytes, {@code k = ((h[i] & 7) << 8) | h[i+1]} and the bloom read as one big-endian
 * 2048-bit integer has bit {@code k} set, i.e. byte {@code 255 - k/8} gets mask {@code 1 << (k % 8)}
 * ({@link ByteLayout#BIG_ENDIAN}). A header bloom is the OR of its receipts' blooms.
 *
 * <p>Internally 32 words, bit {@code k} in word {@code k >>> 6} at bit {@code k & 63}, the word layout of
 * {@code common}'s bit stores; {@link #containsAll} is then {@code (B & Q) == Q} over 32 words.
 */
public final class LogsBloom {
    /** The size of a logsBloom in bytes. */
    public static final int BYTE_COUNT = 256;
    /** The size of a logsBloom in bits: the 2048 of M3:2048. */
    public static final int BIT_COUNT = 2048;
    /** Words of 64 bits. */
    static final int WORD_COUNT = BIT_COUNT / 64;

    /** The all-zero bloom: a receipt without logs, a block without logs. */
    public static final LogsBloom EMPTY = new LogsBloom(new long[WORD_COUNT]);

    private final long[] words;

    private LogsBloom(long[] words) {
        this.words = words;
    }

    /**
     * Parses the JSON-RPC form: exactly 512 hex digits, {@code 0x} optional. Shorter input is refused rather than
     * right-aligned as go-ethereum's {@code BytesToBloom} would do, as Besu and web3j do.
     *
     * @throws IllegalArgumentException naming the length found when it is not 256 bytes, or the bad character
     */
    public static LogsBloom fromHex(String hex) {
        if (hex == null) {
            throw new IllegalArgumentException("logsBloom hex is null");
        }
        return fromBytes(Hex.decode(hex, BYTE_COUNT, "logsBloom"));
    }

    /**
     * A bloom over a copy of exactly 256 bytes, byte 0 the most significant.
     *
     * @throws IllegalArgumentException naming the length when it is not 256
     */
    public static LogsBloom fromBytes(byte[] bytes) {
        if (bytes == null) {
            throw new IllegalArgumentException("logsBloom bytes are null");
        }
        if (bytes.length != BYTE_COUNT) {
            throw new IllegalArgumentException(
                    "logsBloom is " + bytes.length + " bytes; it must be exactly " + BYTE_COUNT + " bytes");
        }
        LongArrayBitStore store = LongArrayBitStore.fromBytes(bytes, ByteLayout.BIG_ENDIAN);
        long[] words = new long[WORD_COUNT];
        for (int i = 0; i < WORD_COUNT; i++) {
            words[i] = store.word(i);
        }
        return new LogsBloom(words);
    }

    /** A bloom over a copy of 32 words (bit {@code k} in word {@code k >>> 6}). */
    static LogsBloom fromWords(long[] words) {
        if (words.length != WORD_COUNT) {
            throw new IllegalArgumentException(
                    "logsBloom is " + words.length + " words; it must be exactly " + WORD_COUNT + " words");
        }
        return new LogsBloom(words.clone());
    }

    /** The bloom of one raw value (20-byte address or 32-byte topic, or any bytes): M3:2048 of it. */
    public static LogsBloom ofValue(byte[] rawValue) {
        return builder().addValue(rawValue).build();
    }

    /** A new empty builder. */
    public static Builder builder() {
        return new Builder();
    }

    /** {@code 0x} followed by 512 lower-case hex digits, the JSON-RPC form. */
    public String toHex() {
        return "0x" + Hex.encode(toBytes());
    }

    /** A new 256-byte array, byte 0 the most significant. */
    public byte[] toBytes() {
        byte[] out = new byte[BYTE_COUNT];
        writeWords(words, out, 0);
        return out;
    }

    /** Word w holds bits 64w..64w+63, i.e. big-endian bytes 248-8w..255-8w of the bloom. */
    private static void writeWords(long[] words, byte[] out, int offset) {
        for (int w = 0; w < WORD_COUNT; w++) {
            long word = words[w];
            int last = offset + BYTE_COUNT - 1 - 8 * w;
            for (int b = 0; b < 8; b++) {
                out[last - b] = (byte) (word >>> (8 * b));
            }
        }
    }

    /** Word {@code i} (0..31) of the bloom: bits {@code 64i .. 64i+63}. */
    public long word(int i) {
        return words[i];
    }

    /** Whether bit {@code k} (0..2047, the big-endian bit number of M3:2048) is set. */
    public boolean testBit(int k) {
        Objects.checkIndex(k, BIT_COUNT);
        return (words[k >>> 6] & (1L << k)) != 0;
    }

    /** The union of the two blooms, as a header bloom is the union of its receipts' blooms. */
    public LogsBloom or(LogsBloom other) {
        long[] out = new long[WORD_COUNT];
        for (int i = 0; i < WORD_COUNT; i++) {
            out[i] = words[i] | other.words[i];
        }
        return new LogsBloom(out);
    }

    /**
     * Whether every bit of {@code probe} is set here: {@code (B & Q) == Q}, Besu's {@code couldContain}, parity's
     * {@code contains_bloom}. False means no value whose bloom is {@code probe} can be in the block; true means it
     * might be. Allocates nothing.
     */
    public boolean containsAll(LogsBloom probe) {
        long[] q = probe.words;
        for (int i = 0; i < WORD_COUNT; i++) {
            if ((words[i] & q[i]) != q[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the raw value (not pre-hashed: the 20 address bytes or the 32 topic bytes) might have been added:
     * all three M3:2048 bits of Keccak-256(rawValue) are set. Hashes on every call (and allocates a hasher); to test
     * many blooms against the same values, build a {@link LogFilter} once instead.
     */
    public boolean mightContain(byte[] rawValue) {
        Objects.requireNonNull(rawValue, "rawValue");
        long hash = new Keccak256().firstEightBytes(rawValue, 0, rawValue.length);
        for (int pair = 0; pair < 3; pair++) {
            int k = bitOf(hash, pair);
            if ((words[k >>> 6] & (1L << k)) == 0) {
                return false;
            }
        }
        return true;
    }

    /** The number of bits set, 0..2048. */
    public int bitsSet() {
        int count = 0;
        for (long word : words) {
            count += Long.bitCount(word);
        }
        return count;
    }

    /**
     * The fill ratio {@code bitsSet / 2048}. An absent value passes {@link #mightContain} with probability about
     * {@code saturation^3}: 0.13 at 0.51, 0.51 at 0.80, and 1 for the all-ones blooms seen on mainnet (block
     * 15537394) and proposed by EIP-7668.
     */
    public double saturation() {
        return bitsSet() / (double) BIT_COUNT;
    }

    /**
     * The bloom bit {@code k} (0..2047) of pair {@code pair} (0, 1, 2 for the Yellow Paper's i = 0, 2, 4) of a hash
     * given by its first eight bytes, little-endian: {@code ((h[2p] & 7) << 8) | h[2p+1]}.
     */
    static int bitOf(long firstEightHashBytes, int pair) {
        int high = (int) (firstEightHashBytes >>> (16 * pair)) & 0x07;
        int low = (int) (firstEightHashBytes >>> (16 * pair + 8)) & 0xff;
        return high << 8 | low;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LogsBloom && Arrays.equals(words, ((LogsBloom) o).words);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(words);
    }

    /** {@code LogsBloom[bitsSet=N, 0x…]} with the full hex, so a failed comparison shows the bits. */
    @Override
    public String toString() {
        return "LogsBloom[bitsSet=" + bitsSet() + ", " + toHex() + "]";
    }

    /**
     * Accumulates values into a bloom. Adding a value hashes it with a Keccak-256 sponge owned by the builder and sets
     * three bits: no allocation per value. Not thread-safe; {@link #build()} may be called repeatedly and the builder
     * reused.
     */
    public static final class Builder {
        private static final VarHandle LONG_LE =
                MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
        /**
         * Values of at most this many bytes (addresses and topics) are remembered with their hash until the next
         * {@link #reset()}. Real receipts repeat values: the receipts of the portal-spec-tests mainnet blocks add 582
         * values of which 284 are distinct within their receipt (event signatures, the token address).
         */
        static final int MEMO_VALUE_BYTES = 32;
        /** How many recent values are remembered: a ring, so a long run of distinct values costs only the compare. */
        static final int MEMO_SIZE = 16;

        private final long[] words = new long[WORD_COUNT];
        private final Keccak256 keccak = new Keccak256();
        private final byte[][] memoValues = new byte[MEMO_SIZE][MEMO_VALUE_BYTES];
        private final int[] memoLengths = new int[MEMO_SIZE];
        private final long[] memoHashes = new long[MEMO_SIZE];
        /** The last eight bytes of each remembered value (left-padded topics differ at the end), a cheap first test. */
        private final long[] memoTails = new long[MEMO_SIZE];
        private int memoCount;
        private int memoNext;

        private Builder() {
        }

        /** Adds M3:2048 of the raw bytes (hashed with Keccak-256 here; do not pass a hash). */
        public Builder addValue(byte[] raw) {
            Objects.requireNonNull(raw, "raw value");
            return addValue(raw, 0, raw.length);
        }

        /**
         * Adds M3:2048 of {@code raw[offset, offset+length)}. Allocates nothing. A value equal to one of the last 16
         * values of at most 32 bytes added since the last {@link #reset()} reuses its hash instead of hashing again.
         */
        public Builder addValue(byte[] raw, int offset, int length) {
            long hash = hashOf(raw, offset, length);
            for (int pair = 0; pair < 3; pair++) {
                int k = bitOf(hash, pair);
                words[k >>> 6] |= 1L << k;
            }
            return this;
        }

        private long hashOf(byte[] raw, int offset, int length) {
            Objects.checkFromIndexSize(offset, length, raw.length);
            if (length > MEMO_VALUE_BYTES) {
                return keccak.firstEightBytes(raw, offset, length);
            }
            long tail = length >= 8 ? (long) LONG_LE.get(raw, offset + length - 8) : 0;
            for (int i = 0; i < memoCount; i++) {
                if (memoTails[i] == tail && memoLengths[i] == length
                        && Arrays.equals(memoValues[i], 0, length, raw, offset, offset + length)) {
                    return memoHashes[i];
                }
            }
            long hash = keccak.firstEightBytes(raw, offset, length);
            System.arraycopy(raw, offset, memoValues[memoNext], 0, length);
            memoTails[memoNext] = tail;
            memoLengths[memoNext] = length;
            memoHashes[memoNext] = hash;
            memoNext = (memoNext + 1) % MEMO_SIZE;
            memoCount = Math.min(memoCount + 1, MEMO_SIZE);
            return hash;
        }

        /**
         * Adds a log's emitting address: the raw 20 bytes, not left-padded (an address used as an indexed event
         * argument is a 32-byte topic and a different bloom item).
         *
         * @throws IllegalArgumentException when the address is not 20 bytes
         */
        public Builder addAddress(byte[] address20) {
            return addValue(checkLength(address20, 20, "address"));
        }

        /**
         * Adds a 32-byte topic.
         *
         * @throws IllegalArgumentException when the topic is not 32 bytes
         */
        public Builder addTopic(byte[] topic32) {
            return addValue(checkLength(topic32, 32, "topic"));
        }

        /**
         * Adds a log: its address and each of its topics (the log's data never enters the bloom). The EVM emits at
         * most four topics (LOG0..LOG4), but M(O) is defined over any topic sequence and Nethermind's published
         * vectors use up to ten, so the count is not limited here. Nothing is added when a value is refused.
         *
         * @throws IllegalArgumentException on an address that is not 20 bytes or a topic that is not 32 bytes
         */
        public Builder addLog(byte[] address, List<byte[]> topics) {
            Objects.requireNonNull(topics, "topics");
            checkLength(address, 20, "address");
            for (int i = 0; i < topics.size(); i++) {
                checkLength(topics.get(i), 32, "topic");
            }
            addValue(address);
            // Indexed, not for-each: no iterator, so adding a log allocates nothing even without escape analysis.
            for (int i = 0; i < topics.size(); i++) {
                addValue(topics.get(i));
            }
            return this;
        }

        /** ORs a whole bloom in (a receipt's bloom into a block's). */
        public Builder addBloom(LogsBloom bloom) {
            for (int i = 0; i < WORD_COUNT; i++) {
                words[i] |= bloom.words[i];
            }
            return this;
        }

        /** Clears the builder for reuse, its memo of recent values included: it is then as new. */
        public Builder reset() {
            Arrays.fill(words, 0L);
            memoCount = 0;
            memoNext = 0;
            return this;
        }

        /**
         * Writes the 256 bytes of the bloom built so far into {@code out[offset, offset+256)}, byte 0 the most
         * significant: the allocation-free way to finish a receipt's bloom into a caller's buffer.
         */
        public void writeTo(byte[] out, int offset) {
            Objects.checkFromIndexSize(offset, BYTE_COUNT, out.length);
            writeWords(words, out, offset);
        }

        /** The bloom of everything added so far. */
        public LogsBloom build() {
            return new LogsBloom(words.clone());
        }

        static byte[] checkLength(byte[] value, int expected, String what) {
            if (value == null) {
                throw new IllegalArgumentException(what + " is null");
            }
            if (value.length != expected) {
                throw new IllegalArgumentException(
                        what + " is " + value.length + " bytes; it must be exactly " + expected + " bytes");
            }
            return value;
        }
    }
}
