/**
 * Ethereum's {@code logsBloom}: the 2048-bit Bloom filter of receipts and block headers (Yellow Paper, transaction
 * receipt section, M3:2048; go-ethereum {@code core/types/bloom9.go}), and {@code eth_getLogs}-style log filters.
 *
 * <ul>
 *   <li>{@link org.chainfilter.ethbloom.LogsBloom}: the immutable 256-byte value and its builder (allocation-free:
 *   a reusable {@link org.chainfilter.ethbloom.Keccak256} sponge with the original Keccak padding, not NIST
 *   SHA3-256).</li>
 *   <li>{@link org.chainfilter.ethbloom.LogFilter}: addresses and topic positions with go-ethereum's wildcard and
 *   exact-match rules; {@code couldMatch} is the block-skip test with probes computed once per filter.</li>
 *   <li>{@link org.chainfilter.ethbloom.index}: go-ethereum's bloombits section index on disk.</li>
 *   <li>{@link org.chainfilter.ethbloom.web3j}: web3j types in and out.</li>
 * </ul>
 * Only the first six bytes of an item's Keccak-256 matter, an item sets one to three bits, and the bloom keeps neither
 * the topic position nor which log a value came from: a pass is a candidate, the exact match decides. Recent mainnet
 * headers are 50 to 100% full, where a pass says little ({@link org.chainfilter.ethbloom.LogsBloom#saturation()}).
 */
package org.chainfilter.ethbloom;
