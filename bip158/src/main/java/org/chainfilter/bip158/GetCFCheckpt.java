package org.chainfilter.bip158;

import java.util.Objects;
import org.chainfilter.btcwire.ByteReader;
import org.chainfilter.btcwire.ByteWriter;
import org.chainfilter.btcwire.Hash256;

/** A BIP157 {@code getcfcheckpt} request, immutable: {@code FilterType (u8) || StopHash (32 bytes)}. */
public final class GetCFCheckpt {
    private static final String NAME = "getcfcheckpt";
    /** Serialized length. */
    public static final int LENGTH = 1 + Hash256.LENGTH;

    private final Hash256 stopHash;

    /** A request for the basic filter headers at every multiple of 1000 up to the block {@code stopHash}. */
    public GetCFCheckpt(Hash256 stopHash) {
        this.stopHash = Objects.requireNonNull(stopHash, "stopHash");
    }

    /** Parses a payload of exactly {@value #LENGTH} bytes with the basic filter type. */
    public static GetCFCheckpt parse(byte[] payload) {
        ByteReader reader = new ByteReader(payload);
        Bip157.readFilterType(reader, NAME);
        Hash256 stop = Hash256.read(reader, NAME + " stop hash");
        reader.requireEnd(NAME);
        return new GetCFCheckpt(stop);
    }

    public byte[] serialize() {
        ByteWriter writer = new ByteWriter(LENGTH).writeUInt8(BasicFilter.FILTER_TYPE);
        stopHash.writeTo(writer);
        return writer.toByteArray();
    }

    public Hash256 stopHash() {
        return stopHash;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GetCFCheckpt other && stopHash.equals(other.stopHash);
    }

    @Override
    public int hashCode() {
        return stopHash.hashCode();
    }

    @Override
    public String toString() {
        return NAME + "[type=basic, stopHash=" + stopHash + "]";
    }
}
