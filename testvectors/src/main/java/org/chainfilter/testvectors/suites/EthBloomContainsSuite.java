package org.chainfilter.testvectors.suites;

import org.chainfilter.ethbloom.LogsBloom;
import org.chainfilter.testvectors.Expect;
import org.chainfilter.testvectors.Mismatch;
import org.chainfilter.testvectors.SuiteExecutor;
import org.chainfilter.testvectors.Suites;
import org.chainfilter.testvectors.Vector;

/** {@code eth-bloom-contains}: {@link LogsBloom#mightContain} of raw byte strings answers as listed. */
public final class EthBloomContainsSuite implements SuiteExecutor {
    @Override
    public String suite() {
        return Suites.ETH_BLOOM_CONTAINS;
    }

    @Override
    public void check(Vector vector) throws Mismatch {
        LogsBloom bloom = LogsBloom.fromBytes(vector.hex("bloom", LogsBloom.BYTE_COUNT));
        Expect.membershipOfSomeItem(vector, suite(), "present", "absent", bloom::mightContain, "the bloom");
    }
}
