package org.chainfilter.common.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.chainfilter.common.bloom.KeyEncoder;
import org.chainfilter.common.filter.BlockedBloomFilter;
import org.chainfilter.common.filter.BloomFilter;
import org.chainfilter.common.filter.ConcurrentBloomFilter;
import org.chainfilter.common.filter.CountingBloomFilter;
import org.chainfilter.common.filter.CuckooFilter;
import org.chainfilter.common.filter.FilterFullException;
import org.chainfilter.common.filter.GrowableCuckooFilter;
import org.chainfilter.common.filter.MembershipFilter;
import org.chainfilter.common.filter.ScalableBloomFilter;
import org.chainfilter.testkit.ParserContract;

/**
 * Fuzzes the versioned binary-form readers of every filter kind in {@code common}: the input's first byte chooses
 * the kind ({@code byte % 7}: Bloom, counting, scalable, blocked, concurrent, cuckoo, growable cuckoo), the rest is
 * the stream, read with a caller bound of 1 MiB. Checks: only {@link IllegalArgumentException} and
 * {@link IOException} (a stream ending early) escape; allocation stays bounded by the input, whatever size a header
 * declares; an accepted filter writes a form that reads back and writes the same bytes again (a stable round trip),
 * and after an item is put (when the kind accepts it) the filter contains it.
 *
 * <p>Seeds ({@code FilterBinaryFormFuzzTestInputs/read}): made by the seed generator in each kind's documented form:
 * small filters of each kind, empty and with a few items, a wrong magic, and {@code *-edge-huge-header}, whose header
 * fields are overwritten with {@code 0x7f} bytes (of the Bloom kinds these are of index strategy 1; only the Bloom
 * filter's reaches the size check, the others are refused at their strategy id, {@code k}, bucket count or rate). The
 * four kinds over the generic index strategy (Bloom, counting, scalable, concurrent) also have seeds of strategy 2,
 * the form new filters write: {@code *-congruential-N-items} are the contract tests' golden forms;
 * {@code *-congruential-empty} are written by the current code for empty filters of the same shapes
 * ({@code BloomFilter.create} m = 70, k = 5; counting and concurrent {@code withShape} m = 37, k = 3 and m = 100,
 * k = 17; {@code ScalableBloomFilter.create} n0 = 2, P = 0.1), each after its kind byte; and
 * {@code *-congruential-edge-huge-header} are those forms with m (n0 for the scalable filter) set to 2^32, so that
 * the regression run reaches each kind's check of the declared size against the caller's bound. The other three
 * kinds reach theirs through {@code *-edge-max-*}: {@code blocked-empty} with the block count set to
 * {@code BlockedBloomFilter.MAX_BLOCKS}, {@code cuckoo-empty} with the bucket count set to
 * {@code CuckooFilter.MAX_BUCKETS} (2^30), and {@code growable-cuckoo-empty} with the initial capacity set to
 * floor(2^30 * 4 * {@code DESIGN_LOAD}) = 4101693767, the largest whose first table has 2^30 buckets; each header is
 * otherwise valid, and the reader refuses it at the size check ("... is N bytes; the caller allows at most 1048576")
 * before allocating.
 */
class FilterBinaryFormFuzzTest {
    private static final long MAX_BYTES = 1 << 20;
    private static final KeyEncoder<byte[]> BYTES = KeyEncoder.bytes();
    private static final ParserContract<MembershipFilter<byte[]>> READER = ParserContract.refusing(
            "filter binary-form reader", IllegalArgumentException.class, IOException.class);

    @FuzzTest(maxDuration = "5m")
    void read(byte[] input) {
        if (input.length == 0) {
            return;
        }
        int kind = (input[0] & 0xff) % 7;
        byte[] form = Arrays.copyOfRange(input, 1, input.length);
        READER.parse(form.length, () -> read(kind, new ByteArrayInputStream(form))).ifPresent(filter -> {
            byte[] written = filter.toByteArray();
            byte[] again = READER.parse(written.length, () -> read(kind, new ByteArrayInputStream(written)))
                    .orElseThrow(() -> new AssertionError("kind " + kind + " cannot read its own binary form"))
                    .toByteArray();
            ParserContract.assertCanonical("kind " + kind + " written twice", written, again);
            byte[] item = Arrays.copyOfRange(input, input.length / 2, input.length);
            boolean stored;
            try {
                stored = filter.put(item) || filter.mightContain(item);
            } catch (FilterFullException full) {
                stored = false;
            }
            if (stored && !filter.mightContain(item)) {
                throw new AssertionError("kind " + kind + " lost an item just put");
            }
        });
    }

    private static MembershipFilter<byte[]> read(int kind, InputStream in) throws IOException {
        switch (kind) {
            case 0:
                return BloomFilter.readFrom(in, BYTES, MAX_BYTES);
            case 1:
                return CountingBloomFilter.readFrom(in, BYTES, MAX_BYTES);
            case 2:
                return ScalableBloomFilter.readFrom(in, BYTES, MAX_BYTES);
            case 3:
                return BlockedBloomFilter.readFrom(in, BYTES, MAX_BYTES);
            case 4:
                return ConcurrentBloomFilter.readFrom(in, BYTES, MAX_BYTES);
            case 5:
                return CuckooFilter.readFrom(in, BYTES, MAX_BYTES);
            default:
                return GrowableCuckooFilter.readFrom(in, BYTES, MAX_BYTES);
        }
    }
}
