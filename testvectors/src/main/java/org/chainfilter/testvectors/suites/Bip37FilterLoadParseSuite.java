package org.chainfilter.testvectors.suites;

import org.chainfilter.bip37.Bip37BloomFilter;
import org.chainfilter.testvectors.Expect;
import org.chainfilter.testvectors.Mismatch;
import org.chainfilter.testvectors.SuiteExecutor;
import org.chainfilter.testvectors.Suites;
import org.chainfilter.testvectors.Vector;

/**
 * {@code bip37-filterload-parse}: {@link Bip37BloomFilter#parseFilterLoad} accepts or refuses the payload as Core's
 * {@code filterload} handler does (at most 36000 bytes of vData, at most 50 hash functions).
 */
public final class Bip37FilterLoadParseSuite implements SuiteExecutor {
    @Override
    public String suite() {
        return Suites.BIP37_FILTERLOAD_PARSE;
    }

    @Override
    public void check(Vector vector) throws Mismatch {
        byte[] payload = vector.hex("filterload");
        Expect.validity(vector.bool("valid"), () -> Bip37BloomFilter.parseFilterLoad(payload),
                IllegalArgumentException.class,
                f -> f.byteLength() + " bytes, " + f.hashFunctionCount() + " hash functions accepted");
    }
}
