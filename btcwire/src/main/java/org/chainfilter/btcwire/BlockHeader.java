package org.chainfilter.btcwire;

import java.util.Objects;
import org.chainfilter.common.Hex;

/**
 * An 80-byte block header (Core {@code CBlockHeader}): nVersion, hashPrevBlock, hashMerkleRoot, nTime, nBits, nNonce.
 * The block hash is dSHA256 of the 80 bytes. Immutable.
 */
public final class BlockHeader {
    /** Bytes in a serialized header. */
    public static final int LENGTH = 80;

    private final int version;
    private final Hash256 previousBlockHash;
    private final Hash256 merkleRoot;
    private final long time;
    private final long bits;
    private final long nonce;
    private final Hash256 hash;

    /**
     * @param time  nTime, seconds since the Unix epoch (uint32)
     * @param bits  nBits, the compact target (uint32)
     * @param nonce nNonce (uint32)
     */
    public BlockHeader(int version, Hash256 previousBlockHash, Hash256 merkleRoot, long time, long bits, long nonce) {
        this.version = version;
        this.previousBlockHash = Objects.requireNonNull(previousBlockHash, "previousBlockHash");
        this.merkleRoot = Objects.requireNonNull(merkleRoot, "merkleRoot");
        this.time = uint32(time, "nTime");
        this.bits = uint32(bits, "nBits");
        this.nonce = uint32(nonce, "nNonce");
        this.hash = Sha256d.hash(serialize());
    }

    private static long uint32(long value, String name) {
        if (value < 0 || value > 0xffffffffL) {
            throw new IllegalArgumentException(name + " " + value + " is outside the uint32 range");
        }
        return value;
    }

    /** Reads 80 bytes at the reader's position. */
    public static BlockHeader read(ByteReader reader) {
        if (reader.remaining() < LENGTH) {
            throw new WireFormatException("block header needs " + LENGTH + " bytes but " + reader.remaining()
                    + " are left");
        }
        return new BlockHeader(reader.readInt32LE("header nVersion"), Hash256.read(reader, "header hashPrevBlock"),
                Hash256.read(reader, "header hashMerkleRoot"), reader.readUInt32LE("header nTime"),
                reader.readUInt32LE("header nBits"), reader.readUInt32LE("header nNonce"));
    }

    /** Parses exactly 80 bytes. */
    public static BlockHeader parse(byte[] bytes) {
        if (bytes.length != LENGTH) {
            throw new WireFormatException("block header is " + bytes.length + " bytes; it must be exactly " + LENGTH);
        }
        return read(new ByteReader(bytes));
    }

    /** {@link #parse} of 160 hex digits ({@code 0x} allowed). */
    public static BlockHeader fromHex(String hex) {
        return parse(Hex.decode(hex));
    }

    public void writeTo(ByteWriter writer) {
        writer.writeInt32LE(version);
        previousBlockHash.writeTo(writer);
        merkleRoot.writeTo(writer);
        writer.writeInt32LE(time).writeInt32LE(bits).writeInt32LE(nonce);
    }

    /** The 80 bytes. */
    public byte[] serialize() {
        ByteWriter writer = new ByteWriter(LENGTH);
        writeTo(writer);
        return writer.toByteArray();
    }

    /** dSHA256 of the 80 bytes. */
    public Hash256 hash() {
        return hash;
    }

    public int version() {
        return version;
    }

    public Hash256 previousBlockHash() {
        return previousBlockHash;
    }

    public Hash256 merkleRoot() {
        return merkleRoot;
    }

    /** nTime: seconds since 1970-01-01 UTC, as the miner set it (uint32). */
    public long time() {
        return time;
    }

    /** nBits: the proof-of-work target in Core's compact form (uint32); not checked by this library. */
    public long bits() {
        return bits;
    }

    /** nNonce (uint32). */
    public long nonce() {
        return nonce;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BlockHeader h && h.hash.equals(hash);
    }

    @Override
    public int hashCode() {
        return hash.hashCode();
    }

    @Override
    public String toString() {
        return "BlockHeader{" + hash + ", prev " + previousBlockHash + ", merkle root " + merkleRoot + "}";
    }
}
