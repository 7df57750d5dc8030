package org.chainfilter.testvectors.suites;

import org.chainfilter.common.hash.SipHash24;
import org.chainfilter.testvectors.Expect;
import org.chainfilter.testvectors.Mismatch;
import org.chainfilter.testvectors.SuiteExecutor;
import org.chainfilter.testvectors.Suites;
import org.chainfilter.testvectors.Vector;

/** {@code siphash-2-4}: {@link SipHash24#hash(byte[], byte[])} of {@code key} and {@code data} equals {@code hash}. */
public final class SipHashSuite implements SuiteExecutor {
    @Override
    public String suite() {
        return Suites.SIPHASH_2_4;
    }

    @Override
    public void check(Vector vector) throws Mismatch {
        byte[] key = vector.hex("key", 16);
        byte[] expected = vector.hex("hash", 8);
        long hash = SipHash24.hash(key, vector.hex("data"));
        Expect.bytes("hash", expected, Bytes.uint64BigEndian(hash));
    }
}
