package org.chainfilter.common.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import org.chainfilter.common.Hex;
import org.chainfilter.testkit.ParserContract;

/**
 * Fuzzes {@link Hex#decode(CharSequence)}, the entry of every hex parser (bloom strings from JSON-RPC, CLI
 * arguments). Refusals must be {@link IllegalArgumentException}s; an accepted string must be exactly the lower- or
 * upper-case hex of what it decoded to, with an optional {@code 0x}. Seeds: prefixed, mixed-case, odd-length and
 * non-ASCII digit strings (Arabic-Indic digits, which {@link Character#digit} would accept).
 */
class HexDecodeFuzzTest {
    private static final ParserContract<byte[]> HEX = ParserContract.refusing("Hex.decode", IllegalArgumentException.class);

    @FuzzTest(maxDuration = "5m")
    void decode(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        Optional<byte[]> decoded = HEX.parse(text.length(), () -> Hex.decode(text));
        if (decoded.isPresent()) {
            String digits = text.startsWith("0x") || text.startsWith("0X") ? text.substring(2) : text;
            String encoded = Hex.encode(decoded.get());
            if (!encoded.equals(digits.toLowerCase(Locale.ROOT))) {
                throw new AssertionError("'" + text + "' decoded to bytes whose hex is " + encoded);
            }
        }
    }
}
