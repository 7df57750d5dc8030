package org.chainfilter.bip37;

import static org.chainfilter.bip37.Vectors.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.chainfilter.btcwire.Hash256;
import org.chainfilter.btcwire.OutPoint;
import org.chainfilter.btcwire.Transaction;
import org.chainfilter.btcwire.TxInput;
import org.chainfilter.btcwire.TxOutput;
import org.junit.jupiter.api.Test;

/**
 * {@link Bip37BloomFilter#isRelevantAndUpdate} allocates nothing per call, as its javadoc says, also on the
 * BLOOM_UPDATE_P2PUBKEY_ONLY path that runs Core's Solver over a matched bare-multisig output. Counted in a JVM
 * without a compiler ({@code -Xint}), where escape analysis cannot hide a per-call object: one of 16 bytes would show
 * as 16 bytes per call, so the bound is under one byte per call.
 */
class MatchAllocationTest {
    private static final String KEY33 = "02" + "11".repeat(32);

    @Test
    void matchingAllocatesNothingPerCallInTheInterpreter() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(java.toString(), "-Xint", "-Xmx64m", "-cp",
                System.getProperty("java.class.path"), Probe.class.getName()).redirectErrorStream(true).start();
        try {
            assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the -Xint JVM did not finish in 120 s");
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            assertEquals(0, process.exitValue(), output);
            String[] bytes = output.split(" ");
            assertEquals(2, bytes.length, output);
            assertTrue(Long.parseLong(bytes[0]) < Probe.CALLS, "P2PKH output, no match: " + bytes[0] + " bytes");
            assertTrue(Long.parseLong(bytes[1]) < Probe.CALLS,
                    "matched bare multisig under P2PUBKEY_ONLY: " + bytes[1] + " bytes over " + Probe.CALLS + " calls");
        } finally {
            process.destroyForcibly();
        }
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
            com.sun.management.ThreadMXBean threads =
                    (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            StringBuilder out = new StringBuilder();
            for (int t = 0; t < txs.length; t++) {
                boolean expected = t == 1;
                for (int i = 0; i < 50; i++) {
                    filter.isRelevantAndUpdate(txs[t]);
                }
                long before = threads.getCurrentThreadAllocatedBytes();
                int hits = 0;
                for (int i = 0; i < CALLS; i++) {
                    hits += filter.isRelevantAndUpdate(txs[t]) ? 1 : 0;
                }
                long allocated = threads.getCurrentThreadAllocatedBytes() - before;
                if (hits != (expected ? CALLS : 0)) {
                    throw new AssertionError("transaction " + t + " matched " + hits + " times of " + CALLS);
                }
                out.append(t == 0 ? "" : " ").append(allocated);
            }
            System.out.println(out);
        }
    }
}
