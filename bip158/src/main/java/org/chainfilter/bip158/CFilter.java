package org.chainfilter.bip158;

import java.util.Arrays;
import java.util.Objects;
import org.chainfilter.btcwire.ByteReader;
import org.chainfilter.btcwire.ByteWriter;
import org.chainfilter.btcwire.Hash256;
import org.chainfilter.common.Hex;

/**
 * A BIP157 {@code cfilter} message, immutable: {@code FilterType (u8) || BlockHash (32) || NumFilterBytes
 * (CompactSize) || FilterBytes}. The filter bytes are kept as served; {@link #basicFilter()} parses and validates them,
 * and {@link #filterHash()} is what the client checks against the filter header chain before trusting them.
 */
public final class CFilter {
    private static final String NAME = "cfilter";
    /** The largest filter that fits a P2P message: {@link Bip157#MAX_PROTOCOL_MESSAGE_LENGTH} less the fixed fields. */
    public static final int MAX_FILTER_BYTES = Bip157.MAX_PROTOCOL_MESSAGE_LENGTH - 1 - Hash256.LENGTH - 5;

    private final Hash256 blockHash;
    private final byte[] filterBytes;

    /** A message for a block's basic filter; the bytes are copied. */
    public CFilter(Hash256 blockHash, byte[] filterBytes) {
        this.blockHash = Objects.requireNonNull(blockHash, "blockHash");
        if (filterBytes.length > MAX_FILTER_BYTES) {
            throw new IllegalArgumentException(NAME + " filter is " + filterBytes.length + " bytes; at most "
                    + MAX_FILTER_BYTES + " fit a P2P message");
        }
        this.filterBytes = filterBytes.clone();
    }

    /** The message carrying {@code filter}. */
    public static CFilter of(BasicFilter filter) {
        return new CFilter(filter.blockHash(), filter.encoded());
    }

    /** Parses a payload; the filter length is checked against the limit and the bytes left before it is allocated. */
    public static CFilter parse(byte[] payload) {
        ByteReader reader = new ByteReader(payload);
        Bip157.readFilterType(reader, NAME);
        Hash256 hash = Hash256.read(reader, NAME + " block hash");
        byte[] filter = reader.readVarBytes(NAME + " filter", MAX_FILTER_BYTES);
        reader.requireEnd(NAME);
        return new CFilter(hash, filter);
    }

    public byte[] serialize() {
        ByteWriter writer = new ByteWriter(1 + Hash256.LENGTH + 5 + filterBytes.length)
                .writeUInt8(BasicFilter.FILTER_TYPE);
        blockHash.writeTo(writer);
        return writer.writeVarBytes(filterBytes).toByteArray();
    }

    public Hash256 blockHash() {
        return blockHash;
    }

    /** A copy of the filter bytes as served. */
    public byte[] filterBytes() {
        return filterBytes.clone();
    }

    /** dSHA256 of the filter bytes: must equal the filter hash committed to by the header chain. */
    public Hash256 filterHash() {
        return FilterHeaders.filterHash(filterBytes);
    }

    /**
     * The served filter, parsed and validated as a basic filter of {@link #blockHash()}.
     *
     * @throws IllegalArgumentException when the bytes are not a valid Golomb-coded set
     */
    public BasicFilter basicFilter() {
        return BasicFilter.parse(blockHash, filterBytes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CFilter other && blockHash.equals(other.blockHash)
                && Arrays.equals(filterBytes, other.filterBytes);
    }

    @Override
    public int hashCode() {
        return 31 * blockHash.hashCode() + Arrays.hashCode(filterBytes);
    }

    @Override
    public String toString() {
        String hex = filterBytes.length <= 32 ? Hex.encode(filterBytes) : Hex.encode(filterBytes, 0, 32) + "...";
        return NAME + "[type=basic, block=" + blockHash + ", " + filterBytes.length + " bytes: " + hex + "]";
    }
}
