package org.chainfilter.testvectors.suites;

import org.chainfilter.ethbloom.LogsBloom;
import org.chainfilter.testvectors.Expect;
import org.chainfilter.testvectors.Mismatch;
import org.chainfilter.testvectors.SuiteExecutor;
import org.chainfilter.testvectors.Suites;
import org.chainfilter.testvectors.Vector;
import org.chainfilter.testvectors.VectorFormatException;

/** {@code eth-bloom-contains}: {@link LogsBloom#mightContain} of raw byte strings answers as listed. */
public final class EthBloomContainsSuite implements SuiteExecutor {
    @Override
    public String suite() {
        return Suites.ETH_BLOOM_CONTAINS;
    }

    @Override
    public void check(Vector vector) throws Mismatch {
        if (!vector.has("present") && !vector.has("absent")) {
            // A vector of a bloom alone would check nothing and still count as passed.
            throw new VectorFormatException("an eth-bloom-contains vector lists present or absent items, or both;"
                    + " this one lists neither");
        }
        LogsBloom bloom = LogsBloom.fromBytes(vector.hex("bloom", LogsBloom.BYTE_COUNT));
        Expect.membership(vector, "present", "absent", bloom::mightContain, "the bloom");
    }
}
