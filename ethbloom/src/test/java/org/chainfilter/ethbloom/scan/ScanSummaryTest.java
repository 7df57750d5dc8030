package org.chainfilter.ethbloom.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The summary's arithmetic and the sentences a user reads (golden text: a change must fail here). */
class ScanSummaryTest {
    /** 100 blocks 0..99 with the given counts; blooms 400 bits full unless said otherwise. */
    private static ScanSummary summary(long skipped, long candidates, long falsePositives, long unknown,
                                       long bloomsSeen, long bitsSet, long saturated, boolean matchAll) {
        return new ScanSummary(0, 99, 99, 120, 12, false, matchAll, 100, skipped, 0, candidates, falsePositives,
                unknown, 7, bloomsSeen, bitsSet, saturated, 1, 2, 3);
    }

    @Test
    void sparseBloomsSaySkippingHelped() {
        ScanSummary s = summary(90, 10, 4, 0, 100, 100 * 400, 0, false);
        assertEquals(400.0 / 2048, s.meanSaturation(), 1e-12);
        assertEquals(0.9, s.skippedFraction(), 1e-12);
        assertTrue(s.reachedRequestedEnd());
        assertEquals("Bloom skipping saved 90 of 100 blocks (90.0 %). The blooms are 20 % full on average, and 4 of 10"
                + " candidate blocks were false positives.", s.verdict());
        assertEquals("blocks 0..99 scanned (100 blocks); head 120, 12 confirmations\n"
                + "skipped by bloom 90 (by the index 0), candidates 10, false positives 4, unknown blooms 0, logs"
                + " emitted 7\n"
                + "bloom saturation over 100 headers read: mean 19.5 % of 2048 bits, 0 blocks at least 80 % full;"
                + " retries 1, range splits 2, batch halvings 3\n" + s.verdict(),
                s.report().replace(System.lineSeparator(), "\n"));
    }

    @Test
    void saturatedBloomsSaySkippingDidNotHelp() {
        ScanSummary s = summary(2, 98, 95, 0, 100, 100 * 1843, 60, false);
        assertEquals("Bloom skipping saved 2 of 100 blocks (2.0 %). The blooms are saturated (90 % of the 2048 bits set"
                + " on average, 60 of 100 blocks at least 80 % full): an absent value still passes a bloom with"
                + " probability about 0.73, so skipping did not help much and most blocks were fetched anyway.",
                s.verdict());
    }

    @Test
    void nothingToSkipIsSaidPlainly() {
        assertEquals("The filter matches every log (no address, no topic), so no bloom can skip a block: every block's"
                + " logs were fetched.", summary(0, 100, 0, 0, 100, 0, 0, true).verdict());
        assertEquals("No block carried a usable logsBloom, so none could be skipped: every block's logs were fetched.",
                summary(0, 100, 0, 100, 0, 0, 0, false).verdict());
        ScanSummary none = new ScanSummary(50, 49, 99, 60, 12, true, false, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        assertEquals("No block was scanned.", none.verdict());
        assertEquals(0, none.meanSaturation());
        assertFalse(none.reachedRequestedEnd());
        assertTrue(none.report().contains("resumed from checkpoint"), none.report());
        assertTrue(none.report().contains("stopped short of the requested block 99 (not yet confirmed)"));
        ScanSummary beyondTheHead = new ScanSummary(90, 89, Long.MAX_VALUE, 60, 12, false, false, 0, 0, 0, 0, 0, 0, 0,
                0, 0, 0, 0, 0, 0);
        assertTrue(beyondTheHead.report().startsWith("blocks 90..89 scanned (0 blocks); head 60, 12 confirmations;"
                + " nothing to scan: block 90 is past the confirmed head, block 48\n"), beyondTheHead.report());
        ScanSummary atTheHead = new ScanSummary(49, 48, Long.MAX_VALUE, 60, 12, false, false, 0, 0, 0, 0, 0, 0, 0,
                0, 0, 0, 0, 0, 0);
        assertTrue(atTheHead.report().contains("nothing to scan: block 49 is past the confirmed head, block 48"));
        ScanSummary youngChain = new ScanSummary(0, -1, Long.MAX_VALUE, 5, 12, false, false, 0, 0, 0, 0, 0, 0, 0,
                0, 0, 0, 0, 0, 0);
        assertTrue(youngChain.report().startsWith("blocks 0..-1 scanned (0 blocks); head 5, 12 confirmations; nothing"
                + " to scan: no block has 12 confirmations yet\n"), youngChain.report());
        assertTrue(new ScanSummary(0, -1, Long.MAX_VALUE, -1, 1, false, false, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
                .report().contains("nothing to scan: no block has 1 confirmation yet\n"));
        ScanSummary scanned = summary(0, 100, 0, 0, 100, 0, 0, false);
        assertFalse(scanned.report().contains("nothing to scan"), scanned.report());
    }
}
