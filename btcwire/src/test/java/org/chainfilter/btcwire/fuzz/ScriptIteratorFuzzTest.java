package org.chainfilter.btcwire.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.chainfilter.btcwire.ScriptIterator;

/**
 * Differential fuzzing of {@link ScriptIterator} against a reference written here from Bitcoin Core's
 * {@code GetScriptOp} ({@code src/script/script.cpp}): for any bytes, over the whole array and over an inner slice,
 * both walk the same operations (opcode, data offset, data length) and stop in the same state (end or truncated push).
 * Nothing may be thrown: the iterator has no refusal, a truncated push only ends the walk.
 *
 * <p>Seeds ({@code ScriptIteratorFuzzTestInputs/walk}): hand-made scripts, one per push form: P2PKH, a 33-byte key
 * push, PUSHDATA1/2/4 with and without enough data, OP_0/OP_1NEGATE/OP_16, and a PUSHDATA4 claiming 4 GiB.
 */
class ScriptIteratorFuzzTest {
    private static final int OP_PUSHDATA1 = 0x4c;
    private static final int OP_PUSHDATA2 = 0x4d;
    private static final int OP_PUSHDATA4 = 0x4e;

    private final ScriptIterator iterator = new ScriptIterator();

    @FuzzTest(maxDuration = "5m")
    void walk(byte[] script) {
        compare(script, 0, script.length);
        if (script.length >= 2) {
            compare(script, 1, script.length - 2);
        }
    }

    private void compare(byte[] script, int offset, int length) {
        iterator.reset(script, offset, length);
        int end = offset + length;
        int pc = offset;
        int step = 0;
        while (true) {
            // The reference step, as GetScriptOp: read the opcode, then for a push its size and its data.
            boolean referenceHasOp;
            int opcode = -1;
            int dataOffset = 0;
            long dataLength = 0;
            boolean referenceFailed = false;
            if (pc >= end) {
                referenceHasOp = false;
            } else {
                opcode = script[pc++] & 0xff;
                referenceHasOp = true;
                if (opcode <= OP_PUSHDATA4) {
                    int sizeBytes = opcode < OP_PUSHDATA1 ? 0 : opcode == OP_PUSHDATA1 ? 1 : opcode == OP_PUSHDATA2 ? 2 : 4;
                    if (end - pc < sizeBytes) {
                        referenceFailed = true;
                    } else {
                        dataLength = sizeBytes == 0 ? opcode : littleEndian(script, pc, sizeBytes);
                        pc += sizeBytes;
                        if (end - pc < dataLength) {
                            referenceFailed = true;
                        } else {
                            dataOffset = pc;
                            pc += (int) dataLength;
                        }
                    }
                }
                if (referenceFailed) {
                    referenceHasOp = false;
                }
            }
            boolean hasOp = iterator.next();
            if (hasOp != referenceHasOp || iterator.failed() != referenceFailed) {
                throw new AssertionError("step " + step + " of [" + offset + ", " + end + "): iterator says next="
                        + hasOp + " failed=" + iterator.failed() + ", GetScriptOp says next=" + referenceHasOp
                        + " failed=" + referenceFailed);
            }
            if (!hasOp) {
                if (iterator.next()) {
                    throw new AssertionError("the iterator went on after it stopped");
                }
                return;
            }
            boolean push = opcode <= OP_PUSHDATA4;
            if (iterator.opcode() != opcode || iterator.isPush() != push
                    || iterator.dataLength() != dataLength || (push && iterator.dataOffset() != dataOffset)) {
                throw new AssertionError("step " + step + ": iterator gives opcode " + iterator.opcode() + " data ["
                        + iterator.dataOffset() + ", +" + iterator.dataLength() + "), GetScriptOp gives opcode "
                        + opcode + " data [" + dataOffset + ", +" + dataLength + ")");
            }
            step++;
        }
    }

    private static long littleEndian(byte[] bytes, int at, int size) {
        long value = 0;
        for (int i = size - 1; i >= 0; i--) {
            value = value << 8 | (bytes[at + i] & 0xff);
        }
        return value;
    }
}
