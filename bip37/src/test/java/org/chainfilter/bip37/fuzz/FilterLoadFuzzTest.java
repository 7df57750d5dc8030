package org.chainfilter.bip37.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Arrays;
import org.chainfilter.bip37.Bip37BloomFilter;
import org.chainfilter.testkit.ParserContract;

/**
 * Fuzzes a peer's {@code filterload} payload ({@link Bip37BloomFilter#parseFilterLoad(byte[])}). Checks: only
 * {@link IllegalArgumentException}s escape; allocation is bounded by the input (vData's length is checked against
 * 36,000 and the bytes left before it is allocated); an accepted filter has at most 36,000 bytes and 50 hash
 * functions, its {@code filterload} serialization is the start of the input (Core ignores what follows nFlags) and
 * parses back equal; and using it never fails: an item inserted is then contained (including the empty-vData
 * match-all filter, whose divide-by-zero was CVE-2013-5700, and nHashFuncs = 0).
 *
 * <p>Seeds ({@code FilterLoadFuzzTestInputs/parse}): the published filter serializations of Bitcoin Core
 * {@code src/test/bloom_tests.cpp} (bloom_create_insert_serialize, _with_tweak, bloom_create_insert_key) at commit
 * e3f416dbf7633b2fb19c933e5508bd231cc7e9cf, bitcoinj {@code BloomFilterTest} at 3e072a1a004c321818e0201918f3bc63b422e535
 * and btcd {@code btcutil/bloom/filter_test.go} / {@code wire/msgfilterload_test.go} (61 hash functions) at
 * 2c67bc29cedf391baf5e2d453855256432bb2006, as transcribed in the shared BIP37 vectors; hand-made edges ({@code edge-*}):
 * Core's p2p_filter.py limits (36,000 / 36,001 bytes, 50 hash functions), empty vData, a length claiming 32 MiB.
 */
class FilterLoadFuzzTest {
    private static final ParserContract<Bip37BloomFilter> FILTERLOAD =
            ParserContract.refusing("Bip37BloomFilter.parseFilterLoad", IllegalArgumentException.class);

    @FuzzTest(maxDuration = "5m")
    void parse(byte[] input) {
        FILTERLOAD.parse(input.length, () -> Bip37BloomFilter.parseFilterLoad(input)).ifPresent(filter -> {
            if (filter.byteLength() > Bip37BloomFilter.MAX_FILTER_BYTES
                    || filter.hashFunctionCount() > Bip37BloomFilter.MAX_HASH_FUNCS) {
                throw new AssertionError("accepted a filter over Core's limits: " + filter);
            }
            byte[] serialized = filter.toFilterLoad();
            ParserContract.assertCanonical("filterload", Arrays.copyOf(input, Math.min(input.length,
                    serialized.length)), serialized);
            if (!Bip37BloomFilter.parseFilterLoad(serialized).equals(filter)) {
                throw new AssertionError("filterload read back from its own serialization differs: " + filter);
            }
            byte[] item = Arrays.copyOfRange(input, input.length / 2, input.length);
            Bip37BloomFilter grown = filter.copy();
            grown.insert(item);
            if (!grown.contains(item)) {
                throw new AssertionError("an inserted item is not contained (false negative) in " + grown);
            }
        });
    }
}
