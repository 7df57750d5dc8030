package org.chainfilter.bip158;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.chainfilter.btcwire.ByteReader;
import org.chainfilter.btcwire.ByteWriter;
import org.chainfilter.btcwire.Hash256;

/**
 * A BIP157 {@code cfheaders} message, immutable: {@code FilterType (u8) || StopHash (32) || PreviousFilterHeader (32)
 * || FilterHashesLength (CompactSize) || FilterHashes (32 each)}, at most {@link Bip157#MAX_GETCFHEADERS_SIZE}
 * hashes. The client rebuilds the headers from the previous header and the filter hashes ({@link #headers()}).
 */
public final class CFHeaders {
    private static final String NAME = "cfheaders";

    private final Hash256 stopHash;
    private final Hash256 previousFilterHeader;
    private final List<Hash256> filterHashes;

    /**
     * @throws IllegalArgumentException when there are more than {@value Bip157#MAX_GETCFHEADERS_SIZE} filter hashes
     */
    public CFHeaders(Hash256 stopHash, Hash256 previousFilterHeader, List<Hash256> filterHashes) {
        this.stopHash = Objects.requireNonNull(stopHash, "stopHash");
        this.previousFilterHeader = Objects.requireNonNull(previousFilterHeader, "previousFilterHeader");
        this.filterHashes = Bip157.checkedHashes(filterHashes, NAME + " filter hash list",
                Bip157.MAX_GETCFHEADERS_SIZE);
    }

    /** Parses a payload; the hash count is checked against the limit and the bytes left before allocation. */
    public static CFHeaders parse(byte[] payload) {
        ByteReader reader = new ByteReader(payload);
        Bip157.readFilterType(reader, NAME);
        Hash256 stop = Hash256.read(reader, NAME + " stop hash");
        Hash256 previous = Hash256.read(reader, NAME + " previous filter header");
        List<Hash256> hashes = Bip157.readHashes(reader, NAME + " filter hash", Bip157.MAX_GETCFHEADERS_SIZE);
        reader.requireEnd(NAME);
        return new CFHeaders(stop, previous, hashes);
    }

    public byte[] serialize() {
        ByteWriter writer = new ByteWriter(1 + 2 * Hash256.LENGTH + 3 + filterHashes.size() * Hash256.LENGTH)
                .writeUInt8(BasicFilter.FILTER_TYPE);
        stopHash.writeTo(writer);
        previousFilterHeader.writeTo(writer);
        Bip157.writeHashes(writer, filterHashes);
        return writer.toByteArray();
    }

    /** The filter headers the message commits to, one per filter hash, each chained on the one before. */
    public List<Hash256> headers() {
        List<Hash256> headers = new ArrayList<>(filterHashes.size());
        Hash256 previous = previousFilterHeader;
        for (Hash256 filterHash : filterHashes) {
            previous = FilterHeaders.header(filterHash, previous);
            headers.add(previous);
        }
        return headers;
    }

    public Hash256 stopHash() {
        return stopHash;
    }

    public Hash256 previousFilterHeader() {
        return previousFilterHeader;
    }

    /** The filter hashes, in height order. */
    public List<Hash256> filterHashes() {
        return filterHashes;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CFHeaders other && stopHash.equals(other.stopHash)
                && previousFilterHeader.equals(other.previousFilterHeader) && filterHashes.equals(other.filterHashes);
    }

    @Override
    public int hashCode() {
        return Objects.hash(stopHash, previousFilterHeader, filterHashes);
    }

    @Override
    public String toString() {
        return NAME + "[type=basic, stopHash=" + stopHash + ", previousFilterHeader=" + previousFilterHeader + ", "
                + filterHashes.size() + " filter hashes]";
    }
}
