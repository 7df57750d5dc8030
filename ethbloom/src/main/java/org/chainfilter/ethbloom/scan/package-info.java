/**
 * A block scanner for Ethereum logs over JSON-RPC (web3j): reads headers in batches, skips the blocks whose
 * {@code logsBloom} cannot match a {@link org.chainfilter.ethbloom.LogFilter}, fetches logs only for the candidate
 * blocks, matches them exactly and hands them to a consumer in chain order.
 *
 * <p>What it does against real providers:
 * <ul>
 *   <li>splits an {@code eth_getLogs} range in half when the provider refuses it (Infura/Alchemy {@code -32005}
 *   "query returned more than 10000 results", {@code -32602} "range exceeds limit", "block range is too large",
 *   HTTP 413) and remembers the narrower span for the rest of the scan;</li>
 *   <li>retries transient failures (connection refused or reset, timeouts, HTTP 429/5xx, rate limits, "header not
 *   found" from a lagging backend) with exponential backoff and a bounded number of attempts ({@link
 *   org.chainfilter.ethbloom.scan.RetryPolicy});</li>
 *   <li>over {@link org.chainfilter.ethbloom.scan.BoundedHttp}'s transport, bounds every call in time and every answer
 *   in size (an answer above the limit splits the range like a provider's refusal, and so does a range that the
 *   call timeout cuts off twice in a row; a batch of headers cut off twice in a row is halved, down to one header
 *   per request);</li>
 *   <li>stays a configurable number of blocks behind the head, so that a reorganisation shallower than that depth never
 *   reaches the consumer;</li>
 *   <li>checkpoints after every block whose logs it emitted (and at the end of every header batch), in a file written
 *   atomically, and resumes from it: see {@link org.chainfilter.ethbloom.scan.BlockScanner} for the delivery
 *   contract.</li>
 * </ul>
 * A {@code logsBloom} that is missing, empty or not 256 bytes is "unknown": the block is fetched, never skipped
 * (spec digest ethbloom.md §3: EIP-7668 proposals and some non-Ethereum RPCs report empty or all-ones blooms).
 */
package org.chainfilter.ethbloom.scan;
