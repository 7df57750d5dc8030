package org.chainfilter.testvectors.suites;

import org.chainfilter.bip37.Bip37BloomFilter;
import org.chainfilter.testvectors.Expect;
import org.chainfilter.testvectors.Mismatch;
import org.chainfilter.testvectors.SuiteExecutor;
import org.chainfilter.testvectors.Suites;
import org.chainfilter.testvectors.Vector;

/**
 * {@code bip37-filter}: {@link Bip37BloomFilter#fromElementsAndRate} of the four parameters, after the inserts,
 * serializes to {@code filterload} and answers {@code contains} / {@code absent}.
 */
public final class Bip37FilterSuite implements SuiteExecutor {
    @Override
    public String suite() {
        return Suites.BIP37_FILTER;
    }

    @Override
    public void check(Vector vector) throws Mismatch {
        Bip37BloomFilter filter = Bip37Vectors.fromParameters(vector);
        Expect.bytes("filterload", vector.hex("filterload"), filter.toFilterLoad());
        Bip37Vectors.checkMembership(vector, filter, "contains", "absent");
    }
}
