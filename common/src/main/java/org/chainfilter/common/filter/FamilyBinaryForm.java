package org.chainfilter.common.filter;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import org.chainfilter.common.bloom.EnhancedDoubleHashing;
import org.chainfilter.common.math.Shape;

/**
 * The binary form shared by the filter family (counting, scalable, blocked, concurrent, cuckoo). All integers are
 * big-endian ({@link DataOutputStream} order):
 *
 * <pre>
 *   magic    4 bytes  "CFFM" (0x4346464d)
 *   kind     1 byte   {@link #COUNTING} 1, {@link #SCALABLE} 2, {@link #BLOCKED} 3, {@link #CONCURRENT} 4, {@link #CUCKOO} 5,
 *                     {@link #GROWABLE_CUCKOO} 6
 *   version  1 byte   {@link #VERSION} (1)
 *   then the kind's own fields, documented on its {@code writeTo}; word arrays as 64-bit big-endian words
 * </pre>
 *
 * <p>Readers take the caller's bound on the total size in bytes and refuse a header that declares more before they
 * allocate anything, so a hostile length cannot exhaust memory.
 */
final class FamilyBinaryForm {
    static final int MAGIC = 0x4346464d;
    static final int VERSION = 1;
    static final int HEADER_BYTES = 6;
    static final int COUNTING = 1;
    static final int SCALABLE = 2;
    static final int BLOCKED = 3;
    static final int CONCURRENT = 4;
    static final int CUCKOO = 5;
    static final int GROWABLE_CUCKOO = 6;

    private FamilyBinaryForm() {
    }

    static void writeHeader(DataOutputStream out, int kind) throws IOException {
        out.writeInt(MAGIC);
        out.writeByte(kind);
        out.writeByte(VERSION);
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
            throw new IllegalArgumentException(String.format(
                    "magic is 0x%08x; a chainfilter family filter starts with 0x%08x (\"CFFM\")", magic, MAGIC));
        }
        int readKind = data.readUnsignedByte();
        if (readKind != kind) {
            throw new IllegalArgumentException(
                    "filter kind is " + readKind + "; expected " + kind + " (" + kindName + ")");
        }
        int version = data.readUnsignedByte();
        if (version != VERSION) {
            throw new IllegalArgumentException(
                    kindName + " binary form version is " + version + "; this reader knows version " + VERSION);
        }
        return data;
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
     * Writes the fields of a filter over the generic index strategy: strategy id (1 byte), {@code k} (1 byte),
     * {@code m} (8 bytes).
     */
    static void writeStrategyAndShape(DataOutputStream out, Shape shape) throws IOException {
        out.writeByte(EnhancedDoubleHashing.ID);
        out.writeByte(shape.hashFunctionCount());
        out.writeLong(shape.bitCount());
    }

    /**
     * Reads what {@link #writeStrategyAndShape} wrote.
     *
     * @throws IllegalArgumentException if the strategy is not enhanced double hashing or the shape is invalid
     */
    static Shape readStrategyAndShape(DataInputStream in, String kindName) throws IOException {
        int strategyId = in.readUnsignedByte();
        if (strategyId != EnhancedDoubleHashing.ID) {
            throw new IllegalArgumentException("index strategy id is " + strategyId + "; a " + kindName + " uses "
                    + EnhancedDoubleHashing.ID + " (enhanced double hashing)");
        }
        int k = in.readUnsignedByte();
        return Shape.of(in.readLong(), k);
    }

    static void writeWords(DataOutputStream out, long[] words) throws IOException {
        for (long word : words) {
            out.writeLong(word);
        }
    }

    static long[] readWords(DataInputStream in, int count) throws IOException {
        long[] words = new long[count];
        for (int i = 0; i < count; i++) {
            words[i] = in.readLong();
        }
        return words;
    }
}
