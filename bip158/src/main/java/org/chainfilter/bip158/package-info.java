/**
 * BIP158 compact block filters and the BIP157 messages that carry them.
 *
 * <ul>
 *   <li>{@link org.chainfilter.bip158.GcsParams}, {@link org.chainfilter.bip158.GcsFilter},
 *       {@link org.chainfilter.bip158.GcsQuery}: the Golomb-coded set, generic in key, P and M (BIP158 "Golomb-Coded
 *       Sets"; Bitcoin Core src/blockfilter.cpp).</li>
 *   <li>{@link org.chainfilter.bip158.BasicFilter}: filter type 0x00 (P = 19, M = 784931, keyed by the block hash),
 *       built from a block and the scripts its inputs spend.</li>
 *   <li>{@link org.chainfilter.bip158.FilterHeaders}: filter hash, filter-header chain, checks against checkpoints.</li>
 *   <li>{@link org.chainfilter.bip158.FilterRangeRequest} ({@code getcfilters}, {@code getcfheaders}),
 *       {@link org.chainfilter.bip158.GetCFCheckpt}, {@link org.chainfilter.bip158.CFilter},
 *       {@link org.chainfilter.bip158.CFHeaders}, {@link org.chainfilter.bip158.CFCheckpt}: the BIP157 messages with
 *       Core's limits.</li>
 * </ul>
 *
 * <p>A light client, per block: check the served filter against its header chain, then match its wallet.
 * <pre>{@code
 * GcsQuery wallet = GcsQuery.of(myScripts);                    // once; reused for every block
 * CFilter message = CFilter.parse(payload);
 * if (!message.filterHash().equals(filterHashFromCfheaders)) { ... ban the peer ... }
 * if (message.basicFilter().matchAny(wallet)) { ... download the block ... }
 * }</pre>
 * Transactions, blocks, hashes and CompactSize come from {@code org.chainfilter.btcwire}.
 */
package org.chainfilter.bip158;
