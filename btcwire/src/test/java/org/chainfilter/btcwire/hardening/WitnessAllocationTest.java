package org.chainfilter.btcwire.hardening;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import org.chainfilter.btcwire.ByteWriter;
import org.chainfilter.btcwire.Transaction;
import org.chainfilter.btcwire.WireFormatException;
import org.junit.jupiter.api.Test;

/**
 * A witness of a million empty items (one byte each) is parsed with allocation in proportion to its input: a label
 * string per item and a second copy of every item made it 160 to 180 bytes a byte, and 1.6 MB of input ran a 64 MiB
 * heap out of memory (found by a review).
 */
class WitnessAllocationTest {
    private static byte[] manyEmptyWitnessItems(int items) {
        ByteWriter w = new ByteWriter(items + 64);
        w.writeInt32LE(1).writeUInt8(0).writeUInt8(1).writeCompactSize(1).writeBytes(new byte[36]).writeCompactSize(0)
                .writeInt32LE(0xffffffffL).writeCompactSize(0).writeCompactSize(items).writeBytes(new byte[items]);
        return w.writeInt32LE(0).toByteArray();
    }

    @Test
    void aMillionEmptyWitnessItemsAllocateInProportionToTheInput() {
        byte[] tx = manyEmptyWitnessItems(1_000_000);
        Transaction.parse(manyEmptyWitnessItems(1_000)); // the classes loaded outside the measurement
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
        Transaction parsed = Transaction.parse(tx);
        long allocated = threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
        assertEquals(1_000_000, parsed.inputs().get(0).witnessSize());
        assertTrue(allocated < 16L * tx.length, allocated + " bytes allocated for a " + tx.length + "-byte input");
    }

    /** The refusal of a witness item still names it, and its input. */
    @Test
    void aTruncatedWitnessItemIsNamed() {
        byte[] tx = manyEmptyWitnessItems(3);
        tx[tx.length - 5] = 5; // the last item claims 5 bytes; 4 (the locktime) are left
        WireFormatException e = assertThrows(WireFormatException.class, () -> Transaction.parse(tx));
        assertEquals("witness item 2 of input 0 length is 5 but at 1 bytes or more each they cannot fit in the 4 bytes"
                + " left", e.getMessage());
    }
}
