package org.chainfilter.bip158.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Arrays;
import org.chainfilter.bip158.BasicFilter;
import org.chainfilter.bip158.CFCheckpt;
import org.chainfilter.bip158.CFHeaders;
import org.chainfilter.bip158.CFilter;
import org.chainfilter.bip158.FilterRangeRequest;
import org.chainfilter.bip158.GetCFCheckpt;
import org.chainfilter.testkit.ParserContract;

/**
 * Fuzzes the six BIP157 message parsers. The input's first byte chooses the message ({@code byte % 6}: cfilter,
 * cfheaders, cfcheckpt, getcfilters, getcfheaders, getcfcheckpt), the rest is its payload. Checks: only
 * {@link IllegalArgumentException}s escape, allocation is bounded (hash counts checked against 1000 / 2000 and the
 * bytes left), an accepted payload re-serializes to exactly the input; a {@code cfilter}'s filter then goes through
 * {@link BasicFilter#parse} under the same contract, and a {@code cfheaders} rebuilds its header chain.
 *
 * <p>Seeds ({@code Bip157MessageFuzzTestInputs/parse}), made by the seed generator from the ten rows of Bitcoin Core
 * {@code src/test/data/blockfilters.json} at commit c7efb652f3543b001b4dd22186a354605b14f47e: a {@code cfilter} per
 * row (block hash, basic filter), one {@code cfheaders} and one {@code cfcheckpt} over the rows' filter hashes and
 * headers, and the three requests with the last row's block hash; plus a {@code cfheaders} claiming 2001 hashes.
 */
class Bip157MessageFuzzTest {
    private static final ParserContract<Object> MESSAGE =
            ParserContract.refusing("BIP157 message parser", IllegalArgumentException.class);
    private static final ParserContract<BasicFilter> FILTER =
            ParserContract.refusing("BasicFilter.parse", IllegalArgumentException.class);

    @FuzzTest(maxDuration = "5m")
    void parse(byte[] input) {
        if (input.length == 0) {
            return;
        }
        int kind = (input[0] & 0xff) % 6;
        byte[] payload = Arrays.copyOfRange(input, 1, input.length);
        MESSAGE.parse(payload.length, () -> parse(kind, payload)).ifPresent(message -> {
            ParserContract.assertCanonical("BIP157 message " + kind, payload, serialize(message));
            if (message instanceof CFilter cfilter) {
                byte[] filterBytes = cfilter.filterBytes();
                FILTER.parse(filterBytes.length, () -> BasicFilter.parse(cfilter.blockHash(), filterBytes));
            } else if (message instanceof CFHeaders cfheaders
                    && cfheaders.headers().size() != cfheaders.filterHashes().size()) {
                throw new AssertionError("cfheaders rebuilt " + cfheaders.headers().size() + " headers from "
                        + cfheaders.filterHashes().size() + " filter hashes");
            }
        });
    }

    private static Object parse(int kind, byte[] payload) {
        switch (kind) {
            case 0:
                return CFilter.parse(payload);
            case 1:
                return CFHeaders.parse(payload);
            case 2:
                return CFCheckpt.parse(payload);
            case 3:
                return FilterRangeRequest.parse(FilterRangeRequest.Command.GETCFILTERS, payload);
            case 4:
                return FilterRangeRequest.parse(FilterRangeRequest.Command.GETCFHEADERS, payload);
            default:
                return GetCFCheckpt.parse(payload);
        }
    }

    private static byte[] serialize(Object message) {
        if (message instanceof CFilter m) {
            return m.serialize();
        }
        if (message instanceof CFHeaders m) {
            return m.serialize();
        }
        if (message instanceof CFCheckpt m) {
            return m.serialize();
        }
        if (message instanceof FilterRangeRequest m) {
            return m.serialize();
        }
        return ((GetCFCheckpt) message).serialize();
    }
}
