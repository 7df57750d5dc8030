package org.chainfilter.bip158;

import org.chainfilter.btcwire.Hash256;
import org.chainfilter.btcwire.Sha256d;

/**
 * BIP157 filter hashes and the filter-header chain.
 *
 * <p>{@code filter_hash = dSHA256(filter)} over the whole serialization (N prefix included), and
 * {@code header_n = dSHA256(filter_hash_n || header_(n-1))} with both hashes in internal byte order; the genesis
 * block chains on 32 zero bytes. RPC ({@code getblockfilter}) and the BIP158 vector file show both in display
 * (reversed) order.
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
}
