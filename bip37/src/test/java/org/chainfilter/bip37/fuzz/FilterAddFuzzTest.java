package org.chainfilter.bip37.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Arrays;
import org.chainfilter.bip37.Bip37Messages;
import org.chainfilter.testkit.ParserContract;

/**
 * Fuzzes a peer's {@code filteradd} payload ({@link Bip37Messages#parseFilterAdd(byte[])}): only
 * {@link IllegalArgumentException}s escape, allocation is bounded, an accepted element has at most 520 bytes
 * ({@code MAX_SCRIPT_ELEMENT_SIZE}) and re-serializes to the start of the input (bytes after the element are ignored,
 * as Core's {@code vRecv >> vData} ignores them).
 *
 * <p>Seeds ({@code FilterAddFuzzTestInputs/parse}), hand-made after Bitcoin Core {@code test/functional/p2p_filter.py}
 * and btcd {@code wire/msgfilteradd_test.go} TestFilterAddMaxDataSize: 520 and 521 bytes, empty, a non-canonical
 * length, a trailing byte.
 */
class FilterAddFuzzTest {
    private static final ParserContract<byte[]> FILTERADD =
            ParserContract.refusing("Bip37Messages.parseFilterAdd", IllegalArgumentException.class);

    @FuzzTest(maxDuration = "5m")
    void parse(byte[] input) {
        FILTERADD.parse(input.length, () -> Bip37Messages.parseFilterAdd(input)).ifPresent(element -> {
            if (element.length > Bip37Messages.MAX_FILTERADD_BYTES) {
                throw new AssertionError("accepted a " + element.length + "-byte filteradd element");
            }
            byte[] serialized = Bip37Messages.filterAdd(element);
            ParserContract.assertCanonical("filteradd", Arrays.copyOf(input, serialized.length), serialized);
        });
    }
}
