package org.chainfilter.ethbloom;

import java.util.Arrays;
import java.util.Objects;

import org.chainfilter.common.hash.SipHash24;

/**
 * Keccak-256 with the ORIGINAL Keccak padding (pad10*1 with domain byte {@code 0x01}), the hash the Yellow Paper calls
 * KEC and that Ethereum uses everywhere. This is not NIST SHA3-256 ({@code MessageDigest.getInstance("SHA3-256")}),
 * which pads with {@code 0x06} and gives different blooms.
 *
 * <p>A hand-written sponge over Keccak-f[1600] (24 rounds, rate 136 bytes, capacity 512 bits; FIPS 202 section 3 for
 * the permutation, which is unchanged between Keccak and SHA-3). The state lives in this object and is reused: hashing
 * allocates nothing, which is why the bloom builder uses it instead of a fresh digest per value. It is proven equal to
 * Bouncy Castle's {@code KeccakDigest(256)} on random inputs of every length from 0 to 300 bytes (see the tests).
 *
 * <p>Not thread-safe: one instance per thread.
 */
public final class Keccak256 {
    /** The sponge rate of Keccak-256: (1600 - 2 * 256) / 8 bytes. */
    public static final int RATE_BYTES = 136;
    /** The digest length in bytes. */
    public static final int DIGEST_BYTES = 32;

    private static final int RATE_LANES = RATE_BYTES / 8;
    private static final long[] ROUND_CONSTANTS = {
        0x0000000000000001L, 0x0000000000008082L, 0x800000000000808aL, 0x8000000080008000L,
        0x000000000000808bL, 0x0000000080000001L, 0x8000000080008081L, 0x8000000000008009L,
        0x000000000000008aL, 0x0000000000000088L, 0x0000000080008009L, 0x000000008000000aL,
        0x000000008000808bL, 0x800000000000008bL, 0x8000000000008089L, 0x8000000000008003L,
        0x8000000000008002L, 0x8000000000000080L, 0x000000000000800aL, 0x800000008000000aL,
        0x8000000080008081L, 0x8000000000008080L, 0x0000000080000001L, 0x8000000080008008L,
    };

    private final long[] state = new long[25];

    /** The 32-byte Keccak-256 of {@code data} as a new array (convenience; allocates the result). */
    public static byte[] digest(byte[] data) {
        byte[] out = new byte[DIGEST_BYTES];
        new Keccak256().digest(data, 0, data.length, out, 0);
        return out;
    }

    /** Writes Keccak-256 of {@code data[offset, offset+length)} into {@code out[outOffset, outOffset+32)}. */
    public void digest(byte[] data, int offset, int length, byte[] out, int outOffset) {
        Objects.checkFromIndexSize(outOffset, DIGEST_BYTES, out.length);
        absorbAllButLastPermutation(data, offset, length);
        permute(state);
        for (int i = 0; i < DIGEST_BYTES; i++) {
            out[outOffset + i] = (byte) (state[i >>> 3] >>> ((i & 7) << 3));
        }
    }

    /**
     * The first 8 bytes of Keccak-256 of {@code data[offset, offset+length)} as a little-endian long: byte {@code i}
     * of the hash is {@code (int) (result >>> 8 * i) & 0xff}. M3:2048 reads only hash bytes 0..5, so this is all a
     * bloom needs. Allocates nothing.
     */
    public long firstEightBytes(byte[] data, int offset, int length) {
        absorbAllButLastPermutation(data, offset, length);
        return permuteToFirstLane(state);
    }

    /** Absorbs the padded message; the permutation of the last block is left to the caller. */
    private void absorbAllButLastPermutation(byte[] data, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, data.length);
        Arrays.fill(state, 0L);
        int end = offset + length;
        int pos = offset;
        while (end - pos >= RATE_BYTES) {
            for (int lane = 0; lane < RATE_LANES; lane++) {
                state[lane] ^= SipHash24.readLongLE(data, pos + 8 * lane);
            }
            permute(state);
            pos += RATE_BYTES;
        }
        int remaining = end - pos;
        int fullLanes = remaining >>> 3;
        for (int lane = 0; lane < fullLanes; lane++) {
            state[lane] ^= SipHash24.readLongLE(data, pos + 8 * lane);
        }
        int tailStart = pos + 8 * fullLanes;
        long tail = 0;
        for (int i = 0; i < (remaining & 7); i++) {
            tail |= (data[tailStart + i] & 0xffL) << (8 * i);
        }
        // Original Keccak padding: a 0x01 byte after the message, 0x80 in the last byte of the block.
        tail |= 0x01L << (8 * (remaining & 7));
        state[fullLanes] ^= tail;
        state[RATE_LANES - 1] ^= 0x80L << 56;
    }

    /**
     * Keccak-f[1600] whose result is only lane 0 (output bytes 0..7), all a bloom reads: 23 full rounds, then theta
     * and just the rho, pi, chi and iota steps that lane (0, 0) depends on. The state is left unchanged.
     *
     * <p>Its 23 rounds repeat {@link #permute}'s round body on purpose: one shared {@code rounds(state, count)} that
     * stores the lanes back for the partial last round made a receipt bloom 20% slower (JMH
     * {@code EthBloomBenchmark.receiptBloomChainfilter}, CPU time 7.42 against 5.96–6.25 µs, two runs each).
     */
    private static long permuteToFirstLane(long[] state) {
        long a00 = state[0];
        long a10 = state[1];
        long a20 = state[2];
        long a30 = state[3];
        long a40 = state[4];
        long a01 = state[5];
        long a11 = state[6];
        long a21 = state[7];
        long a31 = state[8];
        long a41 = state[9];
        long a02 = state[10];
        long a12 = state[11];
        long a22 = state[12];
        long a32 = state[13];
        long a42 = state[14];
        long a03 = state[15];
        long a13 = state[16];
        long a23 = state[17];
        long a33 = state[18];
        long a43 = state[19];
        long a04 = state[20];
        long a14 = state[21];
        long a24 = state[22];
        long a34 = state[23];
        long a44 = state[24];
        for (int round = 0; round < 23; round++) {
            long c0 = a00 ^ a01 ^ a02 ^ a03 ^ a04;
            long c1 = a10 ^ a11 ^ a12 ^ a13 ^ a14;
            long c2 = a20 ^ a21 ^ a22 ^ a23 ^ a24;
            long c3 = a30 ^ a31 ^ a32 ^ a33 ^ a34;
            long c4 = a40 ^ a41 ^ a42 ^ a43 ^ a44;
            long d0 = c4 ^ Long.rotateLeft(c1, 1);
            long d1 = c0 ^ Long.rotateLeft(c2, 1);
            long d2 = c1 ^ Long.rotateLeft(c3, 1);
            long d3 = c2 ^ Long.rotateLeft(c4, 1);
            long d4 = c3 ^ Long.rotateLeft(c0, 1);
            long b00 = a00 ^ d0;
            long b13 = Long.rotateLeft(a01 ^ d0, 36);
            long b21 = Long.rotateLeft(a02 ^ d0, 3);
            long b34 = Long.rotateLeft(a03 ^ d0, 41);
            long b42 = Long.rotateLeft(a04 ^ d0, 18);
            long b02 = Long.rotateLeft(a10 ^ d1, 1);
            long b10 = Long.rotateLeft(a11 ^ d1, 44);
            long b23 = Long.rotateLeft(a12 ^ d1, 10);
            long b31 = Long.rotateLeft(a13 ^ d1, 45);
            long b44 = Long.rotateLeft(a14 ^ d1, 2);
            long b04 = Long.rotateLeft(a20 ^ d2, 62);
            long b12 = Long.rotateLeft(a21 ^ d2, 6);
            long b20 = Long.rotateLeft(a22 ^ d2, 43);
            long b33 = Long.rotateLeft(a23 ^ d2, 15);
            long b41 = Long.rotateLeft(a24 ^ d2, 61);
            long b01 = Long.rotateLeft(a30 ^ d3, 28);
            long b14 = Long.rotateLeft(a31 ^ d3, 55);
            long b22 = Long.rotateLeft(a32 ^ d3, 25);
            long b30 = Long.rotateLeft(a33 ^ d3, 21);
            long b43 = Long.rotateLeft(a34 ^ d3, 56);
            long b03 = Long.rotateLeft(a40 ^ d4, 27);
            long b11 = Long.rotateLeft(a41 ^ d4, 20);
            long b24 = Long.rotateLeft(a42 ^ d4, 39);
            long b32 = Long.rotateLeft(a43 ^ d4, 8);
            long b40 = Long.rotateLeft(a44 ^ d4, 14);
            a00 = b00 ^ (~b10 & b20);
            a01 = b01 ^ (~b11 & b21);
            a02 = b02 ^ (~b12 & b22);
            a03 = b03 ^ (~b13 & b23);
            a04 = b04 ^ (~b14 & b24);
            a10 = b10 ^ (~b20 & b30);
            a11 = b11 ^ (~b21 & b31);
            a12 = b12 ^ (~b22 & b32);
            a13 = b13 ^ (~b23 & b33);
            a14 = b14 ^ (~b24 & b34);
            a20 = b20 ^ (~b30 & b40);
            a21 = b21 ^ (~b31 & b41);
            a22 = b22 ^ (~b32 & b42);
            a23 = b23 ^ (~b33 & b43);
            a24 = b24 ^ (~b34 & b44);
            a30 = b30 ^ (~b40 & b00);
            a31 = b31 ^ (~b41 & b01);
            a32 = b32 ^ (~b42 & b02);
            a33 = b33 ^ (~b43 & b03);
            a34 = b34 ^ (~b44 & b04);
            a40 = b40 ^ (~b00 & b10);
            a41 = b41 ^ (~b01 & b11);
            a42 = b42 ^ (~b02 & b12);
            a43 = b43 ^ (~b03 & b13);
            a44 = b44 ^ (~b04 & b14);
            a00 ^= ROUND_CONSTANTS[round];
        }
        // Round 24 computes only lane (0, 0): chi needs B[0][0], B[1][0], B[2][0], which rho and pi take from lanes
        // (0, 0), (1, 1) and (2, 2) rotated by 0, 44 and 43.
        long c0 = a00 ^ a01 ^ a02 ^ a03 ^ a04;
        long c1 = a10 ^ a11 ^ a12 ^ a13 ^ a14;
        long c2 = a20 ^ a21 ^ a22 ^ a23 ^ a24;
        long c3 = a30 ^ a31 ^ a32 ^ a33 ^ a34;
        long c4 = a40 ^ a41 ^ a42 ^ a43 ^ a44;
        long b00 = a00 ^ c4 ^ Long.rotateLeft(c1, 1);
        long b10 = Long.rotateLeft(a11 ^ c0 ^ Long.rotateLeft(c2, 1), 44);
        long b20 = Long.rotateLeft(a22 ^ c1 ^ Long.rotateLeft(c3, 1), 43);
        return b00 ^ (~b10 & b20) ^ ROUND_CONSTANTS[23];
    }

    /**
     * Keccak-f[1600]: theta, rho and pi, chi, iota for 24 rounds over 25 lanes kept in locals. Lane (x, y) is
     * {@code state[x + 5y]}, named {@code axy}; {@code bxy} is the lane after rho and pi.
     */
    private static void permute(long[] state) {
        long a00 = state[0];
        long a10 = state[1];
        long a20 = state[2];
        long a30 = state[3];
        long a40 = state[4];
        long a01 = state[5];
        long a11 = state[6];
        long a21 = state[7];
        long a31 = state[8];
        long a41 = state[9];
        long a02 = state[10];
        long a12 = state[11];
        long a22 = state[12];
        long a32 = state[13];
        long a42 = state[14];
        long a03 = state[15];
        long a13 = state[16];
        long a23 = state[17];
        long a33 = state[18];
        long a43 = state[19];
        long a04 = state[20];
        long a14 = state[21];
        long a24 = state[22];
        long a34 = state[23];
        long a44 = state[24];
        for (int round = 0; round < 24; round++) {
            long c0 = a00 ^ a01 ^ a02 ^ a03 ^ a04;
            long c1 = a10 ^ a11 ^ a12 ^ a13 ^ a14;
            long c2 = a20 ^ a21 ^ a22 ^ a23 ^ a24;
            long c3 = a30 ^ a31 ^ a32 ^ a33 ^ a34;
            long c4 = a40 ^ a41 ^ a42 ^ a43 ^ a44;
            long d0 = c4 ^ Long.rotateLeft(c1, 1);
            long d1 = c0 ^ Long.rotateLeft(c2, 1);
            long d2 = c1 ^ Long.rotateLeft(c3, 1);
            long d3 = c2 ^ Long.rotateLeft(c4, 1);
            long d4 = c3 ^ Long.rotateLeft(c0, 1);
            long b00 = a00 ^ d0;
            long b13 = Long.rotateLeft(a01 ^ d0, 36);
            long b21 = Long.rotateLeft(a02 ^ d0, 3);
            long b34 = Long.rotateLeft(a03 ^ d0, 41);
            long b42 = Long.rotateLeft(a04 ^ d0, 18);
            long b02 = Long.rotateLeft(a10 ^ d1, 1);
            long b10 = Long.rotateLeft(a11 ^ d1, 44);
            long b23 = Long.rotateLeft(a12 ^ d1, 10);
            long b31 = Long.rotateLeft(a13 ^ d1, 45);
            long b44 = Long.rotateLeft(a14 ^ d1, 2);
            long b04 = Long.rotateLeft(a20 ^ d2, 62);
            long b12 = Long.rotateLeft(a21 ^ d2, 6);
            long b20 = Long.rotateLeft(a22 ^ d2, 43);
            long b33 = Long.rotateLeft(a23 ^ d2, 15);
            long b41 = Long.rotateLeft(a24 ^ d2, 61);
            long b01 = Long.rotateLeft(a30 ^ d3, 28);
            long b14 = Long.rotateLeft(a31 ^ d3, 55);
            long b22 = Long.rotateLeft(a32 ^ d3, 25);
            long b30 = Long.rotateLeft(a33 ^ d3, 21);
            long b43 = Long.rotateLeft(a34 ^ d3, 56);
            long b03 = Long.rotateLeft(a40 ^ d4, 27);
            long b11 = Long.rotateLeft(a41 ^ d4, 20);
            long b24 = Long.rotateLeft(a42 ^ d4, 39);
            long b32 = Long.rotateLeft(a43 ^ d4, 8);
            long b40 = Long.rotateLeft(a44 ^ d4, 14);
            a00 = b00 ^ (~b10 & b20);
            a01 = b01 ^ (~b11 & b21);
            a02 = b02 ^ (~b12 & b22);
            a03 = b03 ^ (~b13 & b23);
            a04 = b04 ^ (~b14 & b24);
            a10 = b10 ^ (~b20 & b30);
            a11 = b11 ^ (~b21 & b31);
            a12 = b12 ^ (~b22 & b32);
            a13 = b13 ^ (~b23 & b33);
            a14 = b14 ^ (~b24 & b34);
            a20 = b20 ^ (~b30 & b40);
            a21 = b21 ^ (~b31 & b41);
            a22 = b22 ^ (~b32 & b42);
            a23 = b23 ^ (~b33 & b43);
            a24 = b24 ^ (~b34 & b44);
            a30 = b30 ^ (~b40 & b00);
            a31 = b31 ^ (~b41 & b01);
            a32 = b32 ^ (~b42 & b02);
            a33 = b33 ^ (~b43 & b03);
            a34 = b34 ^ (~b44 & b04);
            a40 = b40 ^ (~b00 & b10);
            a41 = b41 ^ (~b01 & b11);
            a42 = b42 ^ (~b02 & b12);
            a43 = b43 ^ (~b03 & b13);
            a44 = b44 ^ (~b04 & b14);
            a00 ^= ROUND_CONSTANTS[round];
        }
        state[0] = a00;
        state[1] = a10;
        state[2] = a20;
        state[3] = a30;
        state[4] = a40;
        state[5] = a01;
        state[6] = a11;
        state[7] = a21;
        state[8] = a31;
        state[9] = a41;
        state[10] = a02;
        state[11] = a12;
        state[12] = a22;
        state[13] = a32;
        state[14] = a42;
        state[15] = a03;
        state[16] = a13;
        state[17] = a23;
        state[18] = a33;
        state[19] = a43;
        state[20] = a04;
        state[21] = a14;
        state[22] = a24;
        state[23] = a34;
        state[24] = a44;
    }
}
