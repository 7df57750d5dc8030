package org.chainfilter.bip158;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.chainfilter.btcwire.ByteReader;
import org.chainfilter.btcwire.ByteWriter;
import org.chainfilter.btcwire.Hash256;

/**
 * BIP157 ("Client Side Block Filtering") constants shared by the messages, with the values Bitcoin Core uses
 * (src/net_processing.cpp, src/protocol.h).
 */
public final class Bip157 {
    /** {@code NODE_COMPACT_FILTERS}: the service bit of a peer that serves filters (bit 6, value 64). */
    public static final long NODE_COMPACT_FILTERS = 1L << 6;
    /** Most filters one {@code getcfilters} may ask for (Core {@code MAX_GETCFILTERS_SIZE}). */
    public static final int MAX_GETCFILTERS_SIZE = 1000;
    /** Most filter hashes one {@code getcfheaders} may ask for (Core {@code MAX_GETCFHEADERS_SIZE}). */
    public static final int MAX_GETCFHEADERS_SIZE = 2000;
    /** {@code cfcheckpt} carries the filter header of every height that is a positive multiple of this. */
    public static final int CFCHECKPT_INTERVAL = 1000;
    /** Core's {@code MAX_PROTOCOL_MESSAGE_LENGTH}: no P2P message payload may be longer, so no cfilter either. */
    public static final int MAX_PROTOCOL_MESSAGE_LENGTH = 4_000_000;

    private Bip157() {
    }

    /**
     * Reads the FilterType byte of a BIP157 message and refuses any type but basic (0x00), as Core refuses a request
     * for a type it does not serve.
     */
    static int readFilterType(ByteReader reader, String message) {
        int type = reader.readUInt8(message + " filter type");
        checkFilterType(type, message);
        return type;
    }

    static void checkFilterType(int type, String message) {
        if (type != BasicFilter.FILTER_TYPE) {
            throw new IllegalArgumentException(message + " filter type is 0x"
                    + String.format(Locale.ROOT, "%02x", type)
                    + "; BIP158 defines only basic (0x00)");
        }
    }

    /** A CompactSize count of at most {@code max} hashes, checked against the bytes left, then the hashes. */
    static List<Hash256> readHashes(ByteReader reader, String what, int max) {
        int count = reader.readCount(what + " count", max, Hash256.LENGTH);
        List<Hash256> hashes = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            hashes.add(Hash256.read(reader, what));
        }
        return List.copyOf(hashes);
    }

    static void writeHashes(ByteWriter writer, List<Hash256> hashes) {
        writer.writeCompactSize(hashes.size());
        for (Hash256 hash : hashes) {
            hash.writeTo(writer);
        }
    }

    static List<Hash256> checkedHashes(List<Hash256> hashes, String what, int max) {
        if (hashes.size() > max) {
            throw new IllegalArgumentException(what + " holds " + hashes.size() + " hashes; at most " + max
                    + " are allowed");
        }
        return List.copyOf(hashes);
    }
}
