package org.chainfilter.ethbloom.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.chainfilter.ethbloom.LogFilter;
import org.junit.jupiter.api.Test;
import org.web3j.protocol.http.HttpService;

/**
 * Argument checks, and a header of another block refused; reading through batch refusals is tested on anvil by the
 * CLI's eth index build tests.
 */
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

    /**
     * A node that answers eth_getBlockByNumber(5) with block 6 (a backend off by one, a cache keyed wrongly) is refused
     * by its number. Without that check a header reader passed every test returning block 6 as block 5, the header an
     * index is built from, and a one-block scan failed with an ArrayIndexOutOfBoundsException (a mutation review).
     */
    @Test
    void aHeaderOfAnotherBlockIsRefused() {
        String block6 = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"number\":\"0x6\",\"hash\":\""
                + FakeProvider.hash(6, 0) + "\",\"parentHash\":\"" + FakeProvider.hash(5, 0)
                + "\",\"transactions\":[]}}";
        try (FakeProvider provider = new FakeProvider(FakeProvider.chain(10, 1))) {
            provider.script.add(new FakeProvider.Scripted(200, block6));
            HeaderReader reader = new HeaderReader(new HttpService(provider.url()), RetryPolicy.DEFAULT, 1,
                    ScanListener.NONE);
            var e = assertThrows(ScanException.class, () -> reader.blocks(5, 5));
            assertEquals("eth_getBlockByNumber(5) answered block 0x6", e.getMessage());

            // The scanner, one header per request: eth_blockNumber, then block 5 answered with block 6.
            provider.script.add(new FakeProvider.Scripted(200, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"0x9\"}"));
            provider.script.add(new FakeProvider.Scripted(200, block6));
            List<Object> logs = new ArrayList<>();
            e = assertThrows(ScanException.class, () -> BlockScanner.builder(new HttpService(provider.url()))
                    .headerBatchSize(1).build().scan(LogFilter.matchAll(), 5, 5, logs::add));
            assertEquals("eth_getBlockByNumber(5) answered block 0x6", e.getMessage());
            assertEquals(List.of(), logs);
        }
    }
}
