package org.chainfilter.ethbloom.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.chainfilter.common.Hex;
import org.chainfilter.ethbloom.LogFilter;
import org.chainfilter.ethbloom.scan.BlockScanner;
import org.chainfilter.ethbloom.scan.RetryPolicy;
import org.chainfilter.ethbloom.scan.ScanException;
import org.web3j.protocol.Service;
import org.web3j.protocol.core.methods.response.Log;

/**
 * Fuzzes everything the block scanner reads from a JSON-RPC provider: {@code eth_blockNumber}, batched
 * {@code eth_getBlockByNumber} headers (their {@code logsBloom}, number, hash) and batched {@code eth_getLogs} answers,
 * as bytes off the wire through web3j's own deserialization. The input is the sequence of HTTP bodies the provider
 * answers, separated by NUL bytes; a body may say {@code @ID0@}, {@code @ID1@}, ... where the JSON-RPC ids of the
 * request it answers go (so that mutated answers can still reach the matching code). When the bodies run out the
 * provider fails like a dropped connection.
 *
 * <p>A scan of blocks 0..3 for one contract address must end either normally or with a {@link ScanException} that
 * says why; anything else escaping (a web3j {@code MessageDecodingException}, NullPointerException,
 * ArithmeticException...) is a finding, and so is a scan that does not end (the retry policy is bounded and does not
 * sleep; a scan still calling {@link #MAX_CALLS_AFTER_SCRIPT} times after the script ran out fails). What it emitted
 * must be the scanner's contract: logs of the filter's address only, from blocks 0..3, in strictly increasing
 * (block, log index) order, no log twice.
 *
 * <p>Seeds ({@code ScannerRpcFuzzTestInputs/scan}): hand-written conversations (a query by hash answered with its
 * witness header first, as the scanner asks for them) in the shapes anvil and public
 * providers answer (a correct scan with two matching blocks; -32005 and -32602 range refusals; HTTP-level garbage; a
 * malformed bloom; a duplicated log index; a log from a block that was not asked for; an unparsable quantity; a
 * batch of a header and a range query answered in reverse order, once with null results, which let a
 * ClassCastException out when web3j still decoded batch answers by position).
 */
class ScannerRpcFuzzTest {
    static final String ADDRESS = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
    private static final long LAST_BLOCK = 3;
    private static final Pattern REQUEST_ID = Pattern.compile("\"id\"\\s*:\\s*(\\d+)");

    /** One provider for all runs: web3j's JSON mapper is costly to build, so only the script changes per input. */
    private final ScriptedProvider provider = new ScriptedProvider();
    private final LogFilter filter = LogFilter.builder().address(Hex.decode(ADDRESS)).build();

    @FuzzTest(maxDuration = "5m")
    void scan(byte[] input) {
        // Each conversation twice: logs asked for by block hash (the default for short runs), then by block range,
        // where a range query goes in one batch with the header of its last block (answers of two types).
        for (boolean byRange : new boolean[] {false, true}) {
            provider.load(input);
            BlockScanner.Builder builder = BlockScanner.builder(provider)
                    .headerBatchSize(4)
                    .maxLogRangeBlocks(4)
                    .retryPolicy(RetryPolicy.of(3, Duration.ZERO, Duration.ZERO));
            BlockScanner scanner = (byRange ? builder.byHashMaxRun(0) : builder).build();
            List<Log> emitted = new ArrayList<>();
            try {
                scanner.scan(filter, 0, LAST_BLOCK, emitted::add);
            } catch (ScanException refused) {
                if (refused.getMessage() == null || refused.getMessage().isBlank()) {
                    throw new AssertionError("the scanner stopped without saying why", refused);
                }
            }
            checkEmitted(emitted);
        }
    }

    private static void checkEmitted(List<Log> emitted) {
        BigInteger previousBlock = BigInteger.valueOf(-1);
        BigInteger previousIndex = BigInteger.valueOf(-1);
        for (Log log : emitted) {
            BigInteger block = log.getBlockNumber();
            BigInteger index = log.getLogIndex();
            if (!ADDRESS.equalsIgnoreCase(log.getAddress()) || block.signum() < 0
                    || block.compareTo(BigInteger.valueOf(LAST_BLOCK)) > 0) {
                throw new AssertionError("emitted a log the filter does not select: " + log);
            }
            int order = block.compareTo(previousBlock);
            if (order < 0 || order == 0 && index.compareTo(previousIndex) <= 0) {
                throw new AssertionError("emitted block " + block + " log " + index + " after block " + previousBlock
                        + " log " + previousIndex);
            }
            previousBlock = block;
            previousIndex = index;
        }
    }

    /**
     * Calls a scan may make once its script has run out: every one of them fails, and the bounded retry policy must
     * end the scan after a handful. A scan that goes on calling (retries that never run out, a range split that
     * never shrinks) is a finding, reported here at once rather than as a hang of the build.
     */
    static final int MAX_CALLS_AFTER_SCRIPT = 1_000;

    /** A provider whose answers are the input's NUL-separated bodies, in order. */
    private static final class ScriptedProvider extends Service {
        private final ArrayDeque<String> bodies = new ArrayDeque<>();
        private int callsAfterScript;

        ScriptedProvider() {
            super(false);
        }

        void load(byte[] input) {
            bodies.clear();
            callsAfterScript = 0;
            int start = 0;
            for (int i = 0; i <= input.length; i++) {
                if (i == input.length || input[i] == 0) {
                    bodies.add(new String(input, start, i - start, StandardCharsets.UTF_8));
                    start = i + 1;
                }
            }
        }

        @Override
        protected InputStream performIO(String request) throws IOException {
            String body = bodies.poll();
            if (body == null) {
                if (++callsAfterScript > MAX_CALLS_AFTER_SCRIPT) {
                    throw new AssertionError("the scan did not end: " + MAX_CALLS_AFTER_SCRIPT
                            + " calls after the provider's last answer, each of them failed");
                }
                throw new IOException("connection reset: the scripted provider has no more answers");
            }
            Matcher ids = REQUEST_ID.matcher(request);
            for (int i = 0; ids.find(); i++) {
                body = body.replace("@ID" + i + "@", ids.group(1));
            }
            return new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public void close() {
        }
    }
}
