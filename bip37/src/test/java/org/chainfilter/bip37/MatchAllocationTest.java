package org.chainfilter.bip37;

import static org.chainfilter.bip37.Vectors.hex;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.chainfilter.btcwire.Hash256;
import org.chainfilter.btcwire.OutPoint;
import org.chainfilter.btcwire.Transaction;
import org.chainfilter.btcwire.TxInput;
import org.chainfilter.btcwire.TxOutput;
import org.chainfilter.testkit.InterpretedAllocation;
import org.junit.jupiter.api.Test;

/**
 * {@link Bip37BloomFilter#isRelevantAndUpdate} allocates nothing per call, as its javadoc says, also on the
 * BLOOM_UPDATE_P2PUBKEY_ONLY path that runs Core's Solver over a matched bare-multisig output, counted in an
 * interpreted JVM ({@link InterpretedAllocation}): the bound is under one byte per call.
 */
class MatchAllocationTest {
    private static final String KEY33 = "02" + "11".repeat(32);

    @Test
    void matchingAllocatesNothingPerCallInTheInterpreter() throws Exception {
        long[] bytes = InterpretedAllocation.run(Probe.class, 2);
        assertTrue(bytes[0] < Probe.CALLS, "P2PKH output, no match: " + bytes[0] + " bytes");
        assertTrue(bytes[1] < Probe.CALLS,
                "matched bare multisig under P2PUBKEY_ONLY: " + bytes[1] + " bytes over " + Probe.CALLS + " calls");
    }

    private static Transaction paying(String scriptPubKey, int prevIndex) {
        return new Transaction(1, List.of(new TxInput(new OutPoint(Hash256.ZERO, prevIndex), new byte[0], 0xffffffffL,
                List.of())), List.of(new TxOutput(1000, hex(scriptPubKey))), 0);
    }

    /** The forked JVM: bytes allocated over {@link #CALLS} calls for a non-matching and a multisig transaction. */
    static final class Probe {
        static final int CALLS = 1_000;

        public static void main(String[] args) {
            Bip37BloomFilter filter = Bip37BloomFilter.fromElementsAndRate(10, 0.000001, 0,
                    Bip37UpdateMode.P2PUBKEY_ONLY.flagValue());
            filter.insert(hex(KEY33));
            Transaction[] txs = {paying("76a914" + "33".repeat(20) + "88ac", 1), paying("5121" + KEY33 + "51ae", 0)};
            StringBuilder out = new StringBuilder();
            for (int t = 0; t < txs.length; t++) {
                Transaction tx = txs[t];
                for (int i = 0; i < 50; i++) {
                    filter.isRelevantAndUpdate(tx);
                }
                int[] hits = {0};
                long allocated = InterpretedAllocation.allocatedBytes(() -> {
                    for (int i = 0; i < CALLS; i++) {
                        hits[0] += filter.isRelevantAndUpdate(tx) ? 1 : 0;
                    }
                });
                if (hits[0] != (t == 1 ? CALLS : 0)) {
                    throw new AssertionError("transaction " + t + " matched " + hits[0] + " times of " + CALLS);
                }
                out.append(t == 0 ? "" : " ").append(allocated);
            }
            System.out.println(out);
        }
    }
}
