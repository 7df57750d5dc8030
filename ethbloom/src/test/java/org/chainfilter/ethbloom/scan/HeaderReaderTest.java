package org.chainfilter.ethbloom.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.web3j.protocol.http.HttpService;

/** Argument checks; reading through batch refusals is tested on anvil by the CLI's eth index build tests. */
class HeaderReaderTest {
    private static final HttpService NOWHERE = new HttpService("http://127.0.0.1:1");

    @Test
    void refusesBatchSizesOutsideTheScannersRange() {
        var e = assertThrows(IllegalArgumentException.class,
                () -> new HeaderReader(NOWHERE, RetryPolicy.DEFAULT, 0, ScanListener.NONE));
        assertEquals("header batch size is 0; it must be 1..1000", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new HeaderReader(NOWHERE, RetryPolicy.DEFAULT, 1001, ScanListener.NONE));
        assertEquals("header batch size is 1001; it must be 1..1000", e.getMessage());
    }

    @Test
    void refusesRangesThatAreNotRanges() {
        HeaderReader reader = new HeaderReader(NOWHERE, RetryPolicy.DEFAULT, 10, ScanListener.NONE);
        var e = assertThrows(IllegalArgumentException.class, () -> reader.blocks(5, 4));
        assertEquals("block range 5..4 is not a range of 1 to 2147483647 blocks from 0 on", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> reader.blocks(-1, 4));
        assertEquals("block range -1..4 is not a range of 1 to 2147483647 blocks from 0 on", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> reader.blocks(0, Integer.MAX_VALUE));
        assertEquals("block range 0..2147483647 is not a range of 1 to 2147483647 blocks from 0 on", e.getMessage());
    }
}
