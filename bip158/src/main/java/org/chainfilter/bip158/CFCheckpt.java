package org.chainfilter.bip158;

import java.util.List;
import java.util.Objects;
import org.chainfilter.btcwire.ByteReader;
import org.chainfilter.btcwire.ByteWriter;
import org.chainfilter.btcwire.Hash256;

/**
 * A BIP157 {@code cfcheckpt} message, immutable: {@code FilterType (u8) || StopHash (32) || FilterHeadersLength
 * (CompactSize) || FilterHeaders (32 each)}: the filter header at every height that is a positive multiple of
 * {@link Bip157#CFCHECKPT_INTERVAL} up to the stop block, so header {@code i} (from 0) is that of height
 * {@code (i + 1) * 1000}. The count is bounded by what fits a P2P message.
 */
public final class CFCheckpt {
    private static final String NAME = "cfcheckpt";
    /**
     * The most headers a P2P message can carry beside the fixed fields (type, stop hash and the 5-byte CompactSize
     * such a count takes): {@code (4,000,000 - 38) / 32 = 124,998}.
     */
    public static final int MAX_HEADERS =
            (Bip157.MAX_PROTOCOL_MESSAGE_LENGTH - 1 - Hash256.LENGTH - 5) / Hash256.LENGTH;

    private final Hash256 stopHash;
    private final List<Hash256> filterHeaders;

    public CFCheckpt(Hash256 stopHash, List<Hash256> filterHeaders) {
        this.stopHash = Objects.requireNonNull(stopHash, "stopHash");
        this.filterHeaders = Bip157.checkedHashes(filterHeaders, NAME + " filter header list", MAX_HEADERS);
    }

    /** Parses a payload; the header count is checked against the bytes left before allocation. */
    public static CFCheckpt parse(byte[] payload) {
        ByteReader reader = new ByteReader(payload);
        Bip157.readFilterType(reader, NAME);
        Hash256 stop = Hash256.read(reader, NAME + " stop hash");
        List<Hash256> headers = Bip157.readHashes(reader, NAME + " filter header", MAX_HEADERS);
        reader.requireEnd(NAME);
        return new CFCheckpt(stop, headers);
    }

    public byte[] serialize() {
        ByteWriter writer = new ByteWriter(1 + Hash256.LENGTH + 5 + filterHeaders.size() * Hash256.LENGTH)
                .writeUInt8(BasicFilter.FILTER_TYPE);
        stopHash.writeTo(writer);
        Bip157.writeHashes(writer, filterHeaders);
        return writer.toByteArray();
    }

    public Hash256 stopHash() {
        return stopHash;
    }

    /** The checkpoint headers: index {@code i} is the filter header of height {@code (i + 1) * 1000}. */
    public List<Hash256> filterHeaders() {
        return filterHeaders;
    }

    /** The height of checkpoint {@code index}: {@code (index + 1) * 1000}. */
    public static long heightOf(int index) {
        return (index + 1L) * Bip157.CFCHECKPT_INTERVAL;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CFCheckpt other && stopHash.equals(other.stopHash)
                && filterHeaders.equals(other.filterHeaders);
    }

    @Override
    public int hashCode() {
        return 31 * stopHash.hashCode() + filterHeaders.hashCode();
    }

    @Override
    public String toString() {
        return NAME + "[type=basic, stopHash=" + stopHash + ", " + filterHeaders.size() + " checkpoints]";
    }
}
