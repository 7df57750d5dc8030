package org.chainfilter.testvectors.suites;

import org.chainfilter.bip158.GcsFilter;
import org.chainfilter.bip158.GcsParams;
import org.chainfilter.testvectors.Expect;
import org.chainfilter.testvectors.Mismatch;
import org.chainfilter.testvectors.SuiteExecutor;
import org.chainfilter.testvectors.Suites;
import org.chainfilter.testvectors.Vector;

/**
 * {@code gcs}: {@link GcsFilter#build} of the distinct elements under {@code key}, {@code p}, {@code m} serializes to
 * {@code filter}; the parsed {@code filter} matches every {@code present} item and no {@code absent} item.
 */
public final class GcsSuite implements SuiteExecutor {
    @Override
    public String suite() {
        return Suites.GCS;
    }

    @Override
    public void check(Vector vector) throws Mismatch {
        GcsParams params = GcsParams.of(vector.hex("key", 16), vector.count("p"), vector.uint32("m"));
        byte[] expected = vector.hex("filter");
        Expect.bytes("filter", expected, GcsFilter.build(params, vector.hexList("elements")).encoded());
        GcsFilter parsed = GcsFilter.parse(params, expected);
        Expect.membership(vector, "present", "absent", parsed::match, "the filter");
    }
}
