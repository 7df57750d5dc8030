package org.chainfilter.testvectors.suites;

import org.chainfilter.ethbloom.LogsBloom;
import org.chainfilter.testvectors.Expect;
import org.chainfilter.testvectors.Fields;
import org.chainfilter.testvectors.Mismatch;
import org.chainfilter.testvectors.SuiteExecutor;
import org.chainfilter.testvectors.Suites;
import org.chainfilter.testvectors.Vector;

/**
 * {@code eth-bloom}: the M3:2048 {@link LogsBloom} of every address and topic of {@code logs} is {@code bloom}.
 * Addresses and topics are added one by one rather than as logs, because published client vectors (Nethermind's
 * {@code Produces_expected_value}) build logs with up to ten topics, which no EVM log has but the bloom is defined for.
 */
public final class EthBloomSuite implements SuiteExecutor {
    @Override
    public String suite() {
        return Suites.ETH_BLOOM;
    }

    @Override
    public void check(Vector vector) throws Mismatch {
        LogsBloom.Builder builder = LogsBloom.builder();
        for (Fields log : vector.objects("logs")) {
            builder.addAddress(log.hex("address"));
            for (byte[] topic : log.hexList("topics")) {
                builder.addTopic(topic);
            }
        }
        Expect.bytes("bloom", vector.hex("bloom", LogsBloom.BYTE_COUNT), builder.build().toBytes());
    }
}
