package org.chainfilter.testvectors.suites;

import java.util.List;
import org.chainfilter.testvectors.ConformanceRunner;
import org.chainfilter.testvectors.SuiteExecutor;

/** The executors that check chainfilter's own code, one per suite. */
public final class ChainfilterSuites {
    private ChainfilterSuites() {
    }

    /** One executor per suite of {@code conformance/SCHEMA.md}, each calling chainfilter's own code. */
    public static List<SuiteExecutor> all() {
        return List.of(new Murmur3Suite(), new SipHashSuite(),
                new Bip37FilterSuite(), new Bip37TxMatchSuite(), new Bip37MerkleBlockSuite(),
                new Bip37MerkleBlockVerifySuite(), new Bip37FilterLoadParseSuite(),
                new Bip158BasicSuite(), new GcsSuite(),
                new EthBloomSuite(), new EthBloomContainsSuite(), new EthLogFilterSuite());
    }

    /** A runner over {@link #all()}. */
    public static ConformanceRunner runner() {
        return new ConformanceRunner(all());
    }
}
