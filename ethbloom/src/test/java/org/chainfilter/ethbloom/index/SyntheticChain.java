package org.chainfilter.ethbloom.index;

import java.nio.ByteBuffer;

import org.chainfilter.ethbloom.LogsBloom;

/** Block hashes of a synthetic chain for index tests: block n's hash holds n, and names block n - 1 as its parent. */
public final class SyntheticChain {
    private SyntheticChain() {
    }

    /** The hash of block {@code n}: {@code 0xc4a1} then zeros then n as 8 big-endian bytes. */
    public static byte[] hash(long n) {
        return ByteBuffer.allocate(32).putShort((short) 0xc4a1).putLong(24, n).array();
    }

    /** Appends block {@code n} of the synthetic chain with {@code bloom}. */
    public static void append(SectionIndexWriter writer, long n, LogsBloom bloom) {
        writer.append(n, hash(n), hash(n - 1), bloom);
    }
}
