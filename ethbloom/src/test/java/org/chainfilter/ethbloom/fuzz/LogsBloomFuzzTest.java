package org.chainfilter.ethbloom.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.chainfilter.ethbloom.LogsBloom;
import org.chainfilter.testkit.ParserContract;

/**
 * Fuzzes {@link LogsBloom#fromHex(String)}, which reads every header's and receipt's {@code logsBloom} from JSON-RPC.
 * Checks: only {@link IllegalArgumentException}s escape; an accepted string is exactly 512 hex digits (with an
 * optional {@code 0x}) and {@link LogsBloom#toHex()} gives it back in lower case; the bloom round-trips through
 * {@link LogsBloom#toBytes()}, contains itself, is unchanged by OR with the empty bloom, and counts its set bits as
 * its bytes do.
 *
 * <p>Seeds ({@code LogsBloomFuzzTestInputs/parse}): header and receipt blooms of the shared Ethereum vectors (mainnet
 * receipts and blocks via ethers.js, portal-spec-tests and indexsupply/shovel; the execution-apis test chain), as JSON
 * strings; hand-made edges ({@code edge-*}): 510 and 514 digits, upper case, {@code 0X}, a non-hex digit.
 */
class LogsBloomFuzzTest {
    private static final ParserContract<LogsBloom> BLOOM =
            ParserContract.refusing("LogsBloom.fromHex", IllegalArgumentException.class);

    @FuzzTest(maxDuration = "5m")
    void parse(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        BLOOM.parse(text.length(), () -> LogsBloom.fromHex(text)).ifPresent(bloom -> {
            String digits = text.startsWith("0x") || text.startsWith("0X") ? text.substring(2) : text;
            if (!bloom.toHex().equals("0x" + digits.toLowerCase(Locale.ROOT))) {
                throw new AssertionError("'" + text + "' reads as " + bloom.toHex());
            }
            byte[] bytes = bloom.toBytes();
            int bits = 0;
            for (byte b : bytes) {
                bits += Integer.bitCount(b & 0xff);
            }
            if (!LogsBloom.fromBytes(bytes).equals(bloom) || !bloom.containsAll(bloom)
                    || !bloom.or(LogsBloom.EMPTY).equals(bloom) || bloom.bitsSet() != bits) {
                throw new AssertionError("inconsistent bloom read from '" + text + "'");
            }
        });
    }
}
