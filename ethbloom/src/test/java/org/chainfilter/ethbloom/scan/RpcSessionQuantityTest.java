package org.chainfilter.ethbloom.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.web3j.utils.Numeric;

class RpcSessionQuantityTest {
    private static long quantity(String raw) {
        return RpcSession.quantity(raw, () -> Numeric.decodeQuantity(raw), "the eth_blockNumber answer");
    }

    @Test
    void readsQuantitiesAsLongs() {
        assertEquals(0x1234, quantity("0x1234"));
        assertEquals(2748, quantity("0x0abc"), "leading zeros tolerated, as web3j reads them");
        assertEquals(Long.MAX_VALUE, quantity("0x7fffffffffffffff"));
        assertEquals("the eth_blockNumber answer is not a block-sized quantity: BigInteger out of long range",
                assertThrows(ScanException.class, () -> quantity("0x8000000000000000")).getMessage());
    }

    /**
     * A quantity of a million digits is refused at once by its length: web3j's decoding (BigInteger's parse, quadratic
     * in the digits) took 21 s on it, and a 64 MiB answer would have taken hours of CPU (found by a review).
     */
    @Test
    void aHugeQuantityIsRefusedByItsLengthAtOnce() {
        String raw = "0x1" + "0".repeat(1_000_000);
        ScanException e = assertTimeoutPreemptively(Duration.ofSeconds(1),
                () -> assertThrows(ScanException.class, () -> quantity(raw)));
        assertEquals("the eth_blockNumber answer is 1000003 characters long ('0x100000000000000000…'); a quantity has"
                + " at most 66 (0x and 64 hex digits)", e.getMessage());
        assertEquals(1L << 60, quantity("0x" + "0".repeat(48) + "1000000000000000"), "66 characters are read");
    }
}
