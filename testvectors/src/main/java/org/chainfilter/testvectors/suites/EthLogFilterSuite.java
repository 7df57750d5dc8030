package org.chainfilter.testvectors.suites;

import org.chainfilter.ethbloom.LogFilter;
import org.chainfilter.ethbloom.LogsBloom;
import org.chainfilter.testvectors.Expect;
import org.chainfilter.testvectors.Mismatch;
import org.chainfilter.testvectors.SuiteExecutor;
import org.chainfilter.testvectors.Suites;
import org.chainfilter.testvectors.Vector;

/**
 * {@code eth-log-filter}: {@link LogFilter#couldMatch} of the filter ({@code addresses}, {@code topics} in the
 * JSON-RPC shape) against {@code bloom} answers {@code couldMatch}.
 */
public final class EthLogFilterSuite implements SuiteExecutor {
    @Override
    public String suite() {
        return Suites.ETH_LOG_FILTER;
    }

    @Override
    public void check(Vector vector) throws Mismatch {
        LogsBloom bloom = LogsBloom.fromBytes(vector.hex("bloom", LogsBloom.BYTE_COUNT));
        LogFilter filter = LogFilter.of(vector.hexList("addresses"), vector.nullableHexLists("topics"));
        Expect.equal("couldMatch", vector.bool("couldMatch"), filter.couldMatch(bloom));
    }
}
