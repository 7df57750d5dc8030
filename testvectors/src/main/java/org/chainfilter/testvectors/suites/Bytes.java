package org.chainfilter.testvectors.suites;

/** Big-endian renderings of hash outputs, the form the schema states them in. */
final class Bytes {
    private Bytes() {
    }

    static byte[] uint32BigEndian(int value) {
        return new byte[] {(byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value};
    }

    static byte[] uint64BigEndian(long value) {
        byte[] out = new byte[8];
        for (int i = 0; i < 8; i++) {
            out[i] = (byte) (value >>> (56 - 8 * i));
        }
        return out;
    }
}
