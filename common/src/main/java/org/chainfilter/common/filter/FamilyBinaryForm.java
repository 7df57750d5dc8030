package org.chainfilter.common.filter;

import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleConsumer;
import java.util.function.IntToLongFunction;
import java.util.function.LongToIntFunction;
import org.chainfilter.common.bloom.CongruentialHashing;
import org.chainfilter.common.bloom.EnhancedDoubleHashing;
import org.chainfilter.common.bloom.IndexStrategy;
import org.chainfilter.common.math.Shape;

/**
 * The binary form shared by the filter family (counting, scalable, blocked, concurrent, cuckoo). All integers are
 * big-endian ({@link DataOutputStream} order):
 *
 * <pre>
 *   magic    4 bytes  "CFFM" (0x4346464d)
 *   kind     1 byte   {@link #COUNTING} 1, {@link #SCALABLE} 2, {@link #BLOCKED} 3, {@link #CONCURRENT} 4, {@link #CUCKOO} 5,
 *                     {@link #GROWABLE_CUCKOO} 6
 *   version  1 byte   {@link #versionOf} the kind: 3 for {@link #BLOCKED} (its third probe layout), 1 for the others
 *   then the kind's own fields, documented on its {@code writeTo}; word arrays as 64-bit big-endian words
 * </pre>
 *
 * <p>Two layouts recur. A kind over the generic index strategy ({@link CountingBloomFilter}, {@link ConcurrentBloomFilter})
 * continues with {@link #writeStrategyAndShape} and its words ({@link #writeShapeAndWords}); a chain of filters
 * ({@link ScalableBloomFilter}, {@link GrowableCuckooFilter}) with the rate bound, the initial capacity, the member
 * count and each member's own form ({@link #writeChain}).
 *
 * <p>Readers take the caller's bound on the total size in bytes and refuse a header that declares more before they
 * allocate anything, so a hostile length cannot exhaust memory.
 *
 * <p>A reader consumes exactly the bytes of one filter and leaves whatever follows in the stream unread (it does not
 * buffer ahead): a chain reads its members one after another from one stream this way, and a form may be embedded in
 * a larger message. So trailing bytes are not refused here; a caller that holds a whole form (a file, a byte array)
 * checks that its stream is at its end after the read.
 */
final class FamilyBinaryForm {
    static final int MAGIC = 0x4346464d;
    static final int VERSION = 1;
    /**
     * The blocked filter's version: 3 since probe {@code i} sets a bit of the block's word {@code i mod 8} (2: probes
     * anywhere in the block, from 9-bit fields of the hash; 1: from a chain of multiplications). An older blocked filter
     * put its bits elsewhere, so reading one with this code would answer false for its members; it is refused instead.
     */
    static final int BLOCKED_VERSION = 3;
    static final int HEADER_BYTES = 6;
    static final int COUNTING = 1;
    static final int SCALABLE = 2;
    static final int BLOCKED = 3;
    static final int CONCURRENT = 4;
    static final int CUCKOO = 5;
    static final int GROWABLE_CUCKOO = 6;
    /** A chain's bytes before its first member: the header, the rate bound, the initial capacity, the member count. */
    static final int CHAIN_HEADER_BYTES = HEADER_BYTES + 8 + 8 + 1;
    /** A kind over the generic index strategy: the header, strategy id, {@code k} and {@code m}, before the words. */
    static final int SHAPE_HEADER_BYTES = HEADER_BYTES + 1 + 1 + 8;

    private FamilyBinaryForm() {
    }

    static void writeHeader(DataOutputStream out, int kind) throws IOException {
        out.writeInt(MAGIC);
        out.writeByte(kind);
        out.writeByte(versionOf(kind));
    }

    /** The binary-form version this code writes and reads for {@code kind}. */
    static int versionOf(int kind) {
        return kind == BLOCKED ? BLOCKED_VERSION : VERSION;
    }

    /**
     * Reads and checks the header of a {@code kindName} filter.
     *
     * @throws IllegalArgumentException if the magic, kind or version is not the expected one
     */
    static DataInputStream readHeader(InputStream in, int kind, String kindName) throws IOException {
        DataInputStream data = in instanceof DataInputStream ? (DataInputStream) in : new DataInputStream(in);
        int magic = data.readInt();
        if (magic != MAGIC) {
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                    "magic is 0x%08x; a chainfilter family filter starts with 0x%08x (\"CFFM\")", magic, MAGIC));
        }
        int readKind = data.readUnsignedByte();
        if (readKind != kind) {
            throw new IllegalArgumentException(
                    "filter kind is " + readKind + "; expected " + kind + " (" + kindName + ")");
        }
        int version = data.readUnsignedByte();
        int expected = versionOf(kind);
        if (version != expected) {
            String why = kind == BLOCKED && version >= 1 && version < BLOCKED_VERSION
                    ? " (version " + version + " put its bits elsewhere: rebuild the filter)" : "";
            throw new IllegalArgumentException(kindName + " binary form version is " + version
                    + "; this reader knows version " + expected + why);
        }
        return data;
    }

    /** The reading of one binary form. */
    @FunctionalInterface
    interface FormReader<F> {
        F read() throws IOException;
    }

    /**
     * Runs {@code reader}, giving an end of stream inside the form a message that names the kind:
     * {@link DataInputStream}'s {@link EOFException} has none, so a caller could not tell its user what was cut
     * short. An {@code EOFException} that already has a message (a chain's member named itself) passes unchanged.
     */
    static <F> F namingTruncation(String kindName, FormReader<F> reader) throws IOException {
        try {
            return reader.read();
        } catch (EOFException e) {
            if (e.getMessage() != null) {
                throw e;
            }
            EOFException named = new EOFException(
                    kindName + " binary form is truncated: the stream ends before the last byte the form declares");
            named.initCause(e);
            throw named;
        }
    }

    /**
     * Refuses a declared size over the caller's bound, before allocation.
     *
     * @throws IllegalArgumentException naming both sizes
     */
    static void checkSize(String kindName, long declaredBytes, long maxBytes) {
        if (declaredBytes > maxBytes) {
            throw new IllegalArgumentException(
                    kindName + " is " + declaredBytes + " bytes; the caller allows at most " + maxBytes);
        }
    }

    /**
     * Writes the fields of a filter over a generic index strategy: strategy id (1 byte, {@link CongruentialHashing#ID}
     * for a new filter, {@link EnhancedDoubleHashing#ID} for one read from a form of it), {@code k} (1 byte), {@code m}
     * (8 bytes).
     */
    static void writeStrategyAndShape(DataOutputStream out, IndexStrategy strategy, Shape shape) throws IOException {
        out.writeByte(strategy.id());
        out.writeByte(shape.hashFunctionCount());
        out.writeLong(shape.bitCount());
    }

    /** What {@link #readStrategyAndShape} read. */
    record StrategyAndShape(IndexStrategy strategy, Shape shape) {
    }

    /**
     * Reads what {@link #writeStrategyAndShape} wrote.
     *
     * @throws IllegalArgumentException if the strategy is not one of the two generic ones or the shape is invalid
     */
    static StrategyAndShape readStrategyAndShape(DataInputStream in, String kindName) throws IOException {
        int strategyId = in.readUnsignedByte();
        if (strategyId != EnhancedDoubleHashing.ID && strategyId != CongruentialHashing.ID) {
            throw new IllegalArgumentException("index strategy id is " + strategyId + "; a " + kindName + " uses "
                    + EnhancedDoubleHashing.ID + " (enhanced double hashing) or " + CongruentialHashing.ID
                    + " (congruential hashing)");
        }
        int k = in.readUnsignedByte();
        return new StrategyAndShape(IndexStrategy.forId(strategyId), Shape.of(in.readLong(), k));
    }

    static void writeWords(DataOutputStream out, long[] words) throws IOException {
        writeWords(out, words, 0, words.length);
    }

    /** Writes {@code words[from, from + count)}. */
    static void writeWords(DataOutputStream out, long[] words, int from, int count) throws IOException {
        for (int i = from, end = from + count; i < end; i++) {
            out.writeLong(words[i]);
        }
    }

    /**
     * Reads {@code count} words in pieces that start at 1 MiB and double, so a stream that claims more words than it
     * holds (under a caller's generous bound) fails with an {@link java.io.EOFException} after allocating no more
     * than about twice what it actually sent, never the whole declared array first.
     */
    static long[] readWords(DataInputStream in, int count) throws IOException {
        return readWords(in, 0, count);
    }

    /** As {@link #readWords(DataInputStream, int)}, into an array that starts with {@code leading} zero words. */
    static long[] readWords(DataInputStream in, int leading, int count) throws IOException {
        int chunk = 1 << 17;
        int total = leading + count;
        long[] words = new long[Math.min(total, leading + chunk)];
        for (int i = leading; i < total; i++) {
            if (i == words.length) {
                words = Arrays.copyOf(words, (int) Math.min(total, 2L * words.length));
            }
            words[i] = in.readLong();
        }
        return words;
    }

    /**
     * Writes the whole form of a kind over the generic index strategy: the header, {@link #writeStrategyAndShape},
     * then {@code wordCount} words.
     */
    static void writeShapeAndWords(OutputStream out, int kind, IndexStrategy strategy, Shape shape, int wordCount,
            IntToLongFunction word) throws IOException {
        DataOutputStream data = new DataOutputStream(new BufferedOutputStream(out));
        writeHeader(data, kind);
        writeStrategyAndShape(data, strategy, shape);
        for (int i = 0; i < wordCount; i++) {
            data.writeLong(word.applyAsLong(i));
        }
        data.flush();
    }

    /** What {@link #readShapeAndWords} read. */
    record ShapeAndWords(IndexStrategy strategy, Shape shape, long[] words) {
    }

    /**
     * Reads what {@link #writeShapeAndWords} wrote for a kind whose {@code m} positions take {@code bitsPerPosition}
     * bits each, position {@code i} from bit {@code i * bitsPerPosition} of the words on. The size is checked against
     * {@code maxBytes} before the words are allocated.
     *
     * @param wordsFor the kind's word count for {@code m} positions, refusing an {@code m} the kind cannot hold
     * @param usedTailRefusal the message when bits of positions at or above {@code m} are set, {@code %d} standing
     *     for {@code m}
     * @throws IllegalArgumentException if the header, strategy or shape is not the kind's, the size is over
     *     {@code maxBytes}, or a position past the end is in use
     */
    static ShapeAndWords readShapeAndWords(InputStream in, int kind, String kindName, int bitsPerPosition,
            LongToIntFunction wordsFor, long maxBytes, String usedTailRefusal) throws IOException {
        DataInputStream data = readHeader(in, kind, kindName);
        StrategyAndShape strategyAndShape = readStrategyAndShape(data, kindName);
        Shape shape = strategyAndShape.shape();
        long m = shape.bitCount();
        int words = wordsFor.applyAsInt(m);
        checkSize(kindName, SHAPE_HEADER_BYTES + 8L * words, maxBytes);
        long[] read = readWords(data, words);
        int tailBits = (int) ((m * bitsPerPosition) & 63);
        if (tailBits != 0 && read[words - 1] >>> tailBits != 0) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, usedTailRefusal, m));
        }
        return new ShapeAndWords(strategyAndShape.strategy(), shape, read);
    }

    /**
     * Writes the form of a chain of filters: the header, the rate bound {@code P} (8-byte IEEE double), the initial
     * capacity (8 bytes), the member count (1 byte), then each member's own binary form.
     */
    static void writeChain(OutputStream out, int kind, double rateBound, long initialCapacity,
            List<? extends MembershipFilter<?>> members) throws IOException {
        DataOutputStream data = new DataOutputStream(new BufferedOutputStream(out));
        writeHeader(data, kind);
        data.writeDouble(rateBound);
        data.writeLong(initialCapacity);
        data.writeByte(members.size());
        for (MembershipFilter<?> member : members) {
            member.writeTo(data);
        }
        data.flush();
    }

    /** The fields {@link #readChainHeader} read; {@code data} is positioned at the first member. */
    record ChainHeader(DataInputStream data, double rateBound, long initialCapacity, int memberCount) {
    }

    /**
     * Reads a chain's header and fields up to its first member. The kind checks the rate bound and the capacity.
     *
     * @param memberNoun what a member is called in messages ("stage", "table")
     * @throws IllegalArgumentException if the header is not the kind's or the member count is not 1 to
     *     {@code maxMembers}
     */
    static ChainHeader readChainHeader(InputStream in, int kind, String kindName, String memberNoun, int maxMembers)
            throws IOException {
        return readChainHeader(in, kind, kindName, memberNoun, maxMembers, rateBound -> { });
    }

    /** As above, with {@code checkRate} applied to the rate bound as soon as it is read, before the other fields. */
    static ChainHeader readChainHeader(InputStream in, int kind, String kindName, String memberNoun, int maxMembers,
            DoubleConsumer checkRate) throws IOException {
        DataInputStream data = readHeader(in, kind, kindName);
        double rateBound = data.readDouble();
        checkRate.accept(rateBound);
        long initialCapacity = data.readLong();
        int memberCount = data.readUnsignedByte();
        if (memberCount < 1 || memberCount > maxMembers) {
            throw new IllegalArgumentException(
                    memberNoun + " count is " + memberCount + "; it must be 1 to " + maxMembers);
        }
        return new ChainHeader(data, rateBound, initialCapacity, memberCount);
    }
}
