package org.chainfilter.bip158;

import java.util.Objects;
import org.chainfilter.btcwire.ByteReader;
import org.chainfilter.btcwire.ByteWriter;
import org.chainfilter.btcwire.Hash256;

/**
 * A BIP157 {@code getcfilters} or {@code getcfheaders} request, immutable: {@code FilterType (u8) || StartHeight (u32
 * LE) || StopHash (32 bytes)}. The two differ only in their command and their limit on the range: at most
 * {@link Bip157#MAX_GETCFILTERS_SIZE} filters, {@link Bip157#MAX_GETCFHEADERS_SIZE} headers.
 *
 * <p>The message carries no stop height; a server resolves StopHash to a height in its chain and then applies
 * {@link #checkRange(long)}, which refuses what Core's {@code PrepareBlockFilterRequest} refuses.
 */
public final class FilterRangeRequest {
    /** The two commands of this shape. */
    public enum Command {
        GETCFILTERS("getcfilters", Bip157.MAX_GETCFILTERS_SIZE),
        GETCFHEADERS("getcfheaders", Bip157.MAX_GETCFHEADERS_SIZE);

        private final String wireName;
        private final int maxBlocks;

        Command(String wireName, int maxBlocks) {
            this.wireName = wireName;
            this.maxBlocks = maxBlocks;
        }

        /** The command string of the P2P message header. */
        public String wireName() {
            return wireName;
        }

        /** The most blocks one request may cover. */
        public int maxBlocks() {
            return maxBlocks;
        }
    }

    /** Serialized length: type, start height, stop hash. */
    public static final int LENGTH = 1 + 4 + Hash256.LENGTH;

    private final Command command;
    private final long startHeight;
    private final Hash256 stopHash;

    private FilterRangeRequest(Command command, long startHeight, Hash256 stopHash) {
        if (startHeight < 0 || startHeight > 0xffffffffL) {
            throw new IllegalArgumentException(command.wireName + " start height " + startHeight
                    + " is outside the uint32 range");
        }
        this.command = Objects.requireNonNull(command, "command");
        this.startHeight = startHeight;
        this.stopHash = Objects.requireNonNull(stopHash, "stopHash");
    }

    /** A {@code getcfilters} for basic filters from {@code startHeight} up to the block {@code stopHash}. */
    public static FilterRangeRequest getCFilters(long startHeight, Hash256 stopHash) {
        return new FilterRangeRequest(Command.GETCFILTERS, startHeight, stopHash);
    }

    /** A {@code getcfheaders} for basic filter hashes from {@code startHeight} up to the block {@code stopHash}. */
    public static FilterRangeRequest getCFHeaders(long startHeight, Hash256 stopHash) {
        return new FilterRangeRequest(Command.GETCFHEADERS, startHeight, stopHash);
    }

    /**
     * Parses the payload of a {@code command} message.
     *
     * @throws IllegalArgumentException when the payload is not exactly {@value #LENGTH} bytes or the type is not basic
     */
    public static FilterRangeRequest parse(Command command, byte[] payload) {
        ByteReader reader = new ByteReader(payload);
        Bip157.readFilterType(reader, command.wireName);
        long start = reader.readUInt32LE(command.wireName + " start height");
        Hash256 stop = Hash256.read(reader, command.wireName + " stop hash");
        reader.requireEnd(command.wireName);
        return new FilterRangeRequest(command, start, stop);
    }

    public byte[] serialize() {
        ByteWriter writer = new ByteWriter(LENGTH);
        writer.writeUInt8(BasicFilter.FILTER_TYPE).writeInt32LE(startHeight);
        stopHash.writeTo(writer);
        return writer.toByteArray();
    }

    /**
     * Checks the range once the server knows the stop block's height, as Core does before serving: the start may not
     * lie above the stop, and the range may hold at most {@link Command#maxBlocks()} blocks.
     *
     * @return the number of blocks in the range, {@code stopHeight - startHeight + 1}
     * @throws IllegalArgumentException naming the heights and the limit
     */
    public int checkRange(long stopHeight) {
        if (startHeight > stopHeight) {
            throw new IllegalArgumentException(command.wireName + " start height " + startHeight
                    + " is above the stop height " + stopHeight);
        }
        // Core's own test, stop - start >= max: the count stop - start + 1 overflowed for a stop near Long.MAX_VALUE.
        long span = stopHeight - startHeight;
        if (span >= command.maxBlocks) {
            throw new IllegalArgumentException(command.wireName + " asks for "
                    + (span == Long.MAX_VALUE ? "2^63" : String.valueOf(span + 1)) + " blocks (heights " + startHeight
                    + " to " + stopHeight + "); BIP157 allows at most " + command.maxBlocks);
        }
        return (int) (span + 1);
    }

    public Command command() {
        return command;
    }

    public int filterType() {
        return BasicFilter.FILTER_TYPE;
    }

    public long startHeight() {
        return startHeight;
    }

    public Hash256 stopHash() {
        return stopHash;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FilterRangeRequest other && command == other.command && startHeight == other.startHeight
                && stopHash.equals(other.stopHash);
    }

    @Override
    public int hashCode() {
        return Objects.hash(command, startHeight, stopHash);
    }

    @Override
    public String toString() {
        return command.wireName + "[type=basic, startHeight=" + startHeight + ", stopHash=" + stopHash + "]";
    }
}
