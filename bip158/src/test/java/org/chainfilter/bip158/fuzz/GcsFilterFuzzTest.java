package org.chainfilter.bip158.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.chainfilter.bip158.BasicFilter;
import org.chainfilter.bip158.GcsFilter;
import org.chainfilter.bip158.GcsParams;
import org.chainfilter.bip158.GcsQuery;
import org.chainfilter.testkit.ParserContract;

/**
 * Fuzzes {@link GcsFilter#parse(GcsParams, byte[])} and matching over whatever it accepts. The input's last byte
 * chooses P ({@code byte % 33}, so 0..32 including BIP158's 19), the rest is the serialized set. Checks:
 * <ul>
 *   <li>only {@link IllegalArgumentException} escapes the parser, and allocation stays bounded by the input (N is
 *       checked against the bits present before anything is sized by it);</li>
 *   <li>an accepted set keeps exactly the input bytes, and re-parses equal;</li>
 *   <li>matching a hostile set never throws and never hangs; {@code matchAny} of several items equals the OR of
 *       {@code match} of each, {@code matchAll} the AND (the merge walk and the single walk agree);</li>
 *   <li>when the decoded values ascend (every honestly built set), an item matches exactly when its hash-to-range is
 *       one of the values.</li>
 * </ul>
 * Seeds ({@code GcsFilterFuzzTestInputs/parse}): the ten basic filters of Bitcoin Core
 * {@code src/test/data/blockfilters.json} at commit c7efb652f3543b001b4dd22186a354605b14f47e, each followed by the
 * byte 19 (P); and hand-made edges ({@code edge-*}): N = 0, N claiming 2^25, a non-canonical N, excess bytes.
 */
class GcsFilterFuzzTest {
    private static final ParserContract<GcsFilter> GCS =
            ParserContract.refusing("GcsFilter.parse", IllegalArgumentException.class);
    private static final byte[] KEY = new byte[16];

    @FuzzTest(maxDuration = "5m")
    void parse(byte[] input) {
        if (input.length == 0) {
            return;
        }
        GcsParams params = GcsParams.of(KEY, (input[input.length - 1] & 0xff) % (GcsParams.MAX_P + 1), BasicFilter.M);
        byte[] encoded = Arrays.copyOf(input, input.length - 1);
        GCS.parse(encoded.length, () -> GcsFilter.parse(params, encoded)).ifPresent(filter -> {
            ParserContract.assertCanonical("GCS filter", encoded, filter.encoded());
            if (!GcsFilter.parse(params, filter.encoded()).equals(filter)) {
                throw new AssertionError("a GCS filter re-parsed from its own bytes differs: " + filter);
            }
            checkMatching(filter, encoded);
        });
    }

    private static void checkMatching(GcsFilter filter, byte[] encoded) {
        List<byte[]> items = new ArrayList<>();
        for (int i = 0; i + 4 <= encoded.length && items.size() < 8; i += 4) {
            items.add(Arrays.copyOfRange(encoded, i, i + 4));
        }
        items.add(new byte[0]);
        long[] values = filter.values();
        boolean ascending = true;
        for (int i = 1; i < values.length; i++) {
            ascending &= Long.compareUnsigned(values[i - 1], values[i]) <= 0;
        }
        boolean any = false;
        boolean all = true;
        for (byte[] item : items) {
            boolean match = filter.match(item);
            any |= match;
            all &= match;
            if (ascending) {
                long target = filter.params().hashToRange(item, filter.range());
                boolean member = Arrays.stream(values).anyMatch(v -> v == target);
                if (match != member) {
                    throw new AssertionError("match says " + match + " but the value " + Long.toUnsignedString(target)
                            + (member ? " is" : " is not") + " in the ascending set " + filter);
                }
            }
        }
        if (filter.matchAny(GcsQuery.of(items)) != any) {
            throw new AssertionError("matchAny disagrees with match over " + items.size() + " items on " + filter);
        }
        if (filter.matchAll(GcsQuery.of(items)) != all) {
            throw new AssertionError("matchAll disagrees with match over " + items.size() + " items on " + filter);
        }
    }
}
