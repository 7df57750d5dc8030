package org.chainfilter.testvectors.suites;

import org.chainfilter.common.hash.Murmur3;
import org.chainfilter.testvectors.Expect;
import org.chainfilter.testvectors.Mismatch;
import org.chainfilter.testvectors.SuiteExecutor;
import org.chainfilter.testvectors.Suites;
import org.chainfilter.testvectors.Vector;

/** {@code murmur3-x86-32}: {@link Murmur3#x86_32(int, byte[])} of {@code seed} and {@code data} equals {@code hash}. */
public final class Murmur3Suite implements SuiteExecutor {
    @Override
    public String suite() {
        return Suites.MURMUR3_X86_32;
    }

    @Override
    public void check(Vector vector) throws Mismatch {
        int seed = (int) vector.uint32("seed");
        byte[] expected = vector.hex("hash", 4);
        int hash = Murmur3.x86_32(seed, vector.hex("data"));
        Expect.bytes("hash", expected, Bytes.uint32BigEndian(hash));
    }
}
