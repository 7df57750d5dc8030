package org.chainfilter.bip37;

import java.util.Objects;
import org.chainfilter.btcwire.ByteReader;
import org.chainfilter.btcwire.ByteWriter;
import org.chainfilter.btcwire.CompactSize;

/**
 * The payloads of BIP37's {@code filteradd} and {@code filterclear} messages ({@code filterload} is
 * {@link Bip37BloomFilter#toFilterLoad()} / {@link Bip37BloomFilter#parseFilterLoad}, {@code merkleblock} is
 * {@link MerkleBlock}).
 */
public final class Bip37Messages {
    /** {@code MAX_SCRIPT_ELEMENT_SIZE}: the largest element a {@code filteradd} may carry. */
    public static final int MAX_FILTERADD_BYTES = 520;

    private Bip37Messages() {
    }

    /** The {@code filteradd} payload: CompactSize length, then the element (at most 520 bytes). */
    public static byte[] filterAdd(byte[] element) {
        checkElement(element.length);
        return new ByteWriter(element.length + 3).writeVarBytes(element).toByteArray();
    }

    /**
     * The element of a {@code filteradd} payload, in Core's order: a non-canonical length or a truncated payload is a
     * {@link org.chainfilter.btcwire.WireFormatException} (Core drops it as a deserialization failure); a whole
     * element of more than 520 bytes is then refused as a limit (Core: Misbehaving, "bad filteradd message"), skipped
     * rather than allocated. Like Core's {@code vRecv >> vData}, bytes after the element are ignored.
     */
    public static byte[] parseFilterAdd(byte[] payload) {
        ByteReader reader = new ByteReader(payload);
        long length = reader.readCompactSize("filteradd length", CompactSize.MAX_SIZE);
        if (length > MAX_FILTERADD_BYTES) {
            reader.skip((int) length, "filteradd data");
            checkElement(length);
        }
        return reader.readBytes((int) length, "filteradd data");
    }

    private static void checkElement(long length) {
        if (length > MAX_FILTERADD_BYTES) {
            throw new IllegalArgumentException("filteradd element is " + length + " bytes; BIP37 allows at most "
                    + MAX_FILTERADD_BYTES);
        }
    }

    /** The {@code filterclear} payload: empty. */
    public static byte[] filterClear() {
        return new byte[0];
    }

    /**
     * Accepts a {@code filterclear} payload. The message defines none, and Core's handler never reads one: a
     * filterclear with bytes attached still clears the filter (as bytes after filterload's nFlags or after the
     * filteradd element are ignored), so any payload is accepted and ignored here too.
     */
    public static void parseFilterClear(byte[] payload) {
        Objects.requireNonNull(payload, "filterclear payload");
    }
}
