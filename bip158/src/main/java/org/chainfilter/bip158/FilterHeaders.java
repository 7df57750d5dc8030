package org.chainfilter.bip158;

import java.util.List;
import java.util.OptionalLong;
import org.chainfilter.btcwire.Hash256;
import org.chainfilter.btcwire.Sha256d;

/**
 * BIP157 filter hashes, the filter-header chain and its verification against checkpoints.
 *
 * <p>{@code filter_hash = dSHA256(filter)} over the whole serialization (N prefix included), and
 * {@code header_n = dSHA256(filter_hash_n || header_(n-1))} with both hashes in internal byte order; the genesis
 * block chains on 32 zero bytes. RPC ({@code getblockfilter}) and the BIP158 vector file show both in display
 * (reversed) order.
 *
 * <p>A client (BIP157 "Client Operation") takes {@code cfcheckpt} from several peers, fills each 1000-block interval
 * with {@code cfheaders} and checks that the rebuilt chain meets the checkpoints; where two sources disagree it looks
 * for the first height that differs, fetches that block and computes the filter itself. The {@code firstDisagreement}
 * methods give that height.
 */
public final class FilterHeaders {
    /** The header before the genesis block's: 32 zero bytes. */
    public static final Hash256 GENESIS_PREVIOUS_HEADER = Hash256.ZERO;

    private FilterHeaders() {
    }

    /** dSHA256 of a serialized filter. */
    public static Hash256 filterHash(byte[] encodedFilter) {
        return Sha256d.hash(encodedFilter);
    }

    /** dSHA256(filterHash || previousHeader). */
    public static Hash256 header(Hash256 filterHash, Hash256 previousHeader) {
        return Sha256d.hashPair(filterHash, previousHeader);
    }

    /**
     * The first height at which a run of filter headers disagrees with the checkpoints, if any.
     *
     * @param firstHeight    the height of {@code headers.get(0)}
     * @param previousHeader the header of {@code firstHeight - 1} the run was chained on (checked too when that height
     *                       is a checkpoint; for {@code firstHeight == 0} it must be 32 zero bytes, else height 0 is
     *                       reported)
     * @param headers        filter headers of consecutive heights from {@code firstHeight}
     * @return the lowest checkpoint height in {@code [firstHeight - 1, firstHeight + headers.size())} whose header
     *         differs from the checkpoint, or empty when every covered checkpoint agrees
     */
    public static OptionalLong firstDisagreement(long firstHeight, Hash256 previousHeader, List<Hash256> headers,
            CFCheckpt checkpoints) {
        if (firstHeight < 0) {
            throw new IllegalArgumentException("first height is " + firstHeight + "; it must be >= 0");
        }
        if (firstHeight == 0 && !previousHeader.equals(GENESIS_PREVIOUS_HEADER)) {
            return OptionalLong.of(0);
        }
        List<Hash256> expected = checkpoints.filterHeaders();
        long interval = Bip157.CFCHECKPT_INTERVAL;
        long lastHeight = firstHeight + headers.size() - 1;
        // The smallest positive multiple of the interval at or above firstHeight - 1.
        long height = Math.max(interval, (firstHeight - 1 + interval - 1) / interval * interval);
        for (; height <= lastHeight && height / interval <= expected.size(); height += interval) {
            Hash256 have = height == firstHeight - 1 ? previousHeader : headers.get((int) (height - firstHeight));
            if (!have.equals(expected.get((int) (height / interval - 1)))) {
                return OptionalLong.of(height);
            }
        }
        return OptionalLong.empty();
    }

    /**
     * {@link #firstDisagreement(long, Hash256, List, CFCheckpt)} for the headers a {@code cfheaders} message commits
     * to, its first filter hash being that of {@code startHeight}.
     */
    public static OptionalLong firstDisagreement(long startHeight, CFHeaders message, CFCheckpt checkpoints) {
        return firstDisagreement(startHeight, message.previousFilterHeader(), message.headers(), checkpoints);
    }

    /**
     * The first checkpoint height at which two peers' {@code cfcheckpt} answers differ (a header differs, or one list
     * ends before the other), or empty when they are equal.
     */
    public static OptionalLong firstDisagreement(CFCheckpt a, CFCheckpt b) {
        List<Hash256> left = a.filterHeaders();
        List<Hash256> right = b.filterHeaders();
        int common = Math.min(left.size(), right.size());
        for (int i = 0; i < common; i++) {
            if (!left.get(i).equals(right.get(i))) {
                return OptionalLong.of(CFCheckpt.heightOf(i));
            }
        }
        return left.size() == right.size() ? OptionalLong.empty() : OptionalLong.of(CFCheckpt.heightOf(common));
    }

    /**
     * Checks a {@code cfheaders} answer against the checkpoints it covers: the checkpoint heights from
     * {@code startHeight - 1} to its last header. A range that covers none (inside one 1,000-block interval and not
     * starting right after a checkpoint) passes unchecked: the caller must also check that
     * {@code message.previousFilterHeader()} is the header it holds for {@code startHeight - 1}, which chains the
     * range onto headers already verified.
     *
     * @return the rebuilt headers, from {@code startHeight}
     * @throws IllegalArgumentException naming the first height that disagrees, the header found and the checkpoint
     */
    public static List<Hash256> verify(long startHeight, CFHeaders message, CFCheckpt checkpoints) {
        List<Hash256> headers = message.headers();
        OptionalLong bad = firstDisagreement(startHeight, message.previousFilterHeader(), headers, checkpoints);
        if (bad.isPresent()) {
            long height = bad.getAsLong();
            if (startHeight == 0 && height == 0) {
                throw new IllegalArgumentException("cfheaders from height 0 chains on " + message.previousFilterHeader()
                        + "; the genesis filter header chains on 32 zero bytes");
            }
            Hash256 have = height == startHeight - 1 ? message.previousFilterHeader()
                    : headers.get((int) (height - startHeight));
            throw new IllegalArgumentException("filter header at height " + height + " is " + have
                    + " but the checkpoint says " + checkpoints.filterHeaders().get(
                            (int) (height / Bip157.CFCHECKPT_INTERVAL - 1)));
        }
        return headers;
    }
}
