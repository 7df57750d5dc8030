package org.chainfilter.ethbloom.scan;

import java.util.Locale;
import org.chainfilter.ethbloom.LogsBloom;

/**
 * What a scan did. Blocks are counted once each: {@code blocksScanned = blocksSkippedByBloom + candidateBlocks}; a
 * candidate block either yielded logs or is a false positive (its bloom said "maybe", no log matched) or had an
 * unknown bloom. Saturation is over the blocks whose bloom was known: {@code bloomBitsSet / (2048 · known blooms)}.
 *
 * @param firstBlock            the first block of this run (the checkpoint's next block when resumed)
 * @param lastBlock             the last block scanned, {@code firstBlock - 1} when none was
 * @param requestedToBlock      the end the caller asked for ({@code Long.MAX_VALUE}: the safe head)
 * @param headBlock             the head reported by the node when the scan started
 * @param confirmations         how many blocks the scan stayed behind the head
 * @param resumed               whether the scan started from a checkpoint
 * @param matchAllFilter        whether the filter passes every bloom (no address, only wildcard positions)
 * @param blocksScanned         blocks decided in this run
 * @param blocksSkippedByBloom  blocks whose bloom proved that no log matches: no logs were fetched
 * @param blocksSkippedByIndex  of those, the blocks a section index ruled out (their headers were not even read)
 * @param candidateBlocks       blocks whose logs were fetched (bloom said "maybe", or the bloom was unknown)
 * @param falsePositiveBlocks   candidates with a known bloom where no log matched
 * @param unknownBloomBlocks    blocks with a missing, empty or malformed {@code logsBloom} (never skipped)
 * @param logsEmitted           logs handed to the consumer
 * @param bloomsSeen            headers read whose bloom was known (saturation is measured over these)
 * @param bloomBitsSet          the sum of the bits set in the known blooms
 * @param saturatedBlocks       known blooms with at least {@value #SATURATED_FRACTION} of their bits set
 * @param retries               calls sent again after a transient failure
 * @param rangeSplits           {@code eth_getLogs} ranges split because the provider refused them or they timed out
 *                              twice on this client's side
 * @param batchHalvings         times the JSON-RPC batch size was halved because the provider refused a batch (geth's
 *                              -32600 "batch too large", -32003 "response too large") or this client's timeout cut a
 *                              batch of headers off twice ({@link ScanListener#onBatchHalved})
 */
public record ScanSummary(long firstBlock, long lastBlock, long requestedToBlock, long headBlock, int confirmations,
                          boolean resumed, boolean matchAllFilter, long blocksScanned, long blocksSkippedByBloom,
                          long blocksSkippedByIndex, long candidateBlocks, long falsePositiveBlocks,
                          long unknownBloomBlocks, long logsEmitted, long bloomsSeen, long bloomBitsSet,
                          long saturatedBlocks, long retries, long rangeSplits, long batchHalvings) {
    /**
     * The fill from which a bloom counts as saturated: a filter of one value (three bits) passes such a bloom about half
     * the time by chance (busy mainnet blocks are half full or more; the bundled block 22263622 of 2025 is 50.7 %).
     */
    public static final double SATURATED_FRACTION = 0.8;

    /** This summary with {@code retries} in place of its own count (a caller that also counted failed scans). */
    public ScanSummary withRetries(long retries) {
        return new ScanSummary(firstBlock, lastBlock, requestedToBlock, headBlock, confirmations, resumed,
                matchAllFilter, blocksScanned, blocksSkippedByBloom, blocksSkippedByIndex, candidateBlocks,
                falsePositiveBlocks, unknownBloomBlocks, logsEmitted, bloomsSeen, bloomBitsSet, saturatedBlocks,
                retries, rangeSplits, batchHalvings);
    }

    /** Mean bits set / 2048 over the known blooms read; 0 when none was. */
    public double meanSaturation() {
        return bloomsSeen == 0 ? 0 : (double) bloomBitsSet / ((double) bloomsSeen * LogsBloom.BIT_COUNT);
    }

    /** Skipped blocks / scanned blocks; 0 when nothing was scanned. */
    public double skippedFraction() {
        return blocksScanned == 0 ? 0 : (double) blocksSkippedByBloom / blocksScanned;
    }

    /** Whether the scan reached the end the caller asked for (false when it stopped at the safe head). */
    public boolean reachedRequestedEnd() {
        return lastBlock >= requestedToBlock;
    }

    /**
     * One plain sentence on whether bloom skipping helped. With a mean fill f the chance that an absent value passes a
     * bloom is about f³ (three bits), so saturated blooms skip almost nothing; this says so rather than pretend.
     */
    public String verdict() {
        if (blocksScanned == 0) {
            return "No block was scanned.";
        }
        if (matchAllFilter) {
            return "The filter matches every log (no address, no topic), so no bloom can skip a block: every block's"
                    + " logs were fetched.";
        }
        long known = bloomsSeen;
        if (known == 0 && blocksSkippedByIndex == 0) {
            return "No block carried a usable logsBloom, so none could be skipped: every block's logs were fetched.";
        }
        String skipped = String.format(Locale.ROOT, "Bloom skipping saved %d of %d blocks (%.1f %%%s).",
                blocksSkippedByBloom, blocksScanned, 100 * skippedFraction(),
                blocksSkippedByIndex == 0 ? "" : ", " + blocksSkippedByIndex + " of them by the section index");
        double f = meanSaturation();
        if (known > 0 && (f >= 0.5 || saturatedBlocks * 2 >= known)) {
            return skipped + String.format(Locale.ROOT, " The blooms are saturated (%.0f %% of the 2048 bits set on"
                    + " average, %d of %d blocks at least %.0f %% full): an absent value still passes a bloom with"
                    + " probability about %.2f, so skipping did not help much and most blocks were fetched anyway.",
                    100 * f, saturatedBlocks, known, 100 * SATURATED_FRACTION, f * f * f);
        }
        return skipped + String.format(Locale.ROOT, " The blooms are %.0f %% full on average, and %d of %d candidate"
                + " blocks were false positives.", 100 * f, falsePositiveBlocks, candidateBlocks);
    }

    /** A few lines for a person: the range, the counts, the saturation, then the {@link #verdict()}. */
    /**
     * For a scan to the safe head that had nothing to scan: that its first block is past the confirmed head (a
     * {@code fromBlock} beyond the chain, or a checkpoint at the head), so the report does not read as a scan of
     * nothing for no reason.
     */
    private String pastTheConfirmedHead() {
        long confirmedHead = headBlock - confirmations;
        if (blocksScanned != 0 || firstBlock <= confirmedHead) {
            return "";
        }
        return confirmedHead < 0 ? "; nothing to scan: no block has " + confirmations
                + (confirmations == 1 ? " confirmation" : " confirmations") + " yet"
                : "; nothing to scan: block " + firstBlock + " is past the confirmed head, block " + confirmedHead;
    }

    public String report() {
        StringBuilder text = new StringBuilder();
        text.append(String.format(Locale.ROOT, "blocks %d..%d scanned (%d blocks%s); head %d, %d confirmations%s%n",
                firstBlock, lastBlock, blocksScanned, resumed ? ", resumed from checkpoint" : "", headBlock,
                confirmations, reachedRequestedEnd() || requestedToBlock == Long.MAX_VALUE ? pastTheConfirmedHead()
                        : "; stopped short of the requested block " + requestedToBlock + " (not yet confirmed)"));
        text.append(String.format(Locale.ROOT, "skipped by bloom %d (by the index %d), candidates %d, false"
                        + " positives %d, unknown blooms %d, logs emitted %d%n", blocksSkippedByBloom,
                blocksSkippedByIndex, candidateBlocks, falsePositiveBlocks, unknownBloomBlocks, logsEmitted));
        text.append(String.format(Locale.ROOT, "bloom saturation over %d headers read: mean %.1f %% of 2048 bits,"
                        + " %d blocks at least %.0f %% full; retries %d, range splits %d, batch halvings %d%n",
                bloomsSeen, 100 * meanSaturation(), saturatedBlocks, 100 * SATURATED_FRACTION, retries, rangeSplits,
                batchHalvings));
        return text.append(verdict()).toString();
    }
}
