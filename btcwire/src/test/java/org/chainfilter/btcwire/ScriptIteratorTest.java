package org.chainfilter.btcwire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.chainfilter.common.Hex;
import org.junit.jupiter.api.Test;

/** Core's GetScriptOp semantics (script/script.cpp). */
class ScriptIteratorTest {

    /** "opcode:datahex" per operation, plus "ERROR" if the iteration stopped on a bad push. */
    private static List<String> ops(String scriptHex) {
        ScriptIterator it = new ScriptIterator(Hex.decode(scriptHex));
        List<String> out = new ArrayList<>();
        while (it.next()) {
            out.add(Integer.toHexString(it.opcode()) + ":" + (it.isPush() ? Hex.encode(it.data()) : "-"));
        }
        if (it.failed()) {
            out.add("ERROR");
        }
        return out;
    }

    @Test
    void p2pkhYieldsOnlyTheHashAsData() {
        assertEquals(List.of("76:-", "a9:-", "14:" + "11".repeat(20), "88:-", "ac:-"),
                ops("76a914" + "11".repeat(20) + "88ac"));
    }

    @Test
    void op0IsAnEmptyPushAndSmallIntegersCarryNoData() {
        assertEquals(List.of("0:", "4f:-", "51:-", "60:-", "50:-"), ops("004f516050"));
    }

    @Test
    void pushDataFormsReadTheirLittleEndianLengths() {
        assertEquals(List.of("4c:aabb", "4d:cc", "4e:dd", "4c:"),
                ops("4c02aabb" + "4d0100cc" + "4e01000000dd" + "4c00"));
    }

    /**
     * Every byte of an OP_PUSHDATA length counts, unsigned: a PUSHDATA1 length of 200, a PUSHDATA2 length of 258 and a
     * PUSHDATA4 length of 256 push that many bytes, and a PUSHDATA4 length of 2^16 or 2^24 runs past the script. The
     * lengths tried before were all below 128 and one byte wide, so a signed PUSHDATA1 length, a PUSHDATA2 that read its
     * low byte alone, a PUSHDATA4 that shifted its second byte by 9, and one that dropped its top byte each passed every
     * test (the last took 4e00000001 for an empty push: found by a mutation review).
     */
    @Test
    void pushDataLengthsUseEveryByteUnsigned() {
        assertEquals(List.of("4c:" + "ab".repeat(200)), ops("4cc8" + "ab".repeat(200)));
        assertEquals(List.of("4d:" + "cd".repeat(258)), ops("4d0201" + "cd".repeat(258)));
        assertEquals(List.of("4e:" + "ef".repeat(256)), ops("4e00010000" + "ef".repeat(256)));
        assertEquals(List.of("ERROR"), ops("4e00000100" + "aa"));
        assertEquals(List.of("ERROR"), ops("4e00000001" + "aa"));
    }

    @Test
    void truncatedPushStopsButKeepsTheOpsBefore() {
        assertEquals(List.of("1:aa", "ac:-", "ERROR"), ops("01aaac" + "05aabb"));
        assertEquals(List.of("ERROR"), ops("4c"));
        assertEquals(List.of("51:-", "ERROR"), ops("51" + "4d01"));
        assertEquals(List.of("ERROR"), ops("4e0100"));
        assertEquals(List.of("ERROR"), ops("4effffffff00"));
    }

    /**
     * Each OP_PUSHDATA length cut one byte short stops the iteration: the truncated cases above left the 4-byte length
     * 2 or more bytes short, and a check of {@code < 3} for it passed every test (it then read past the script: found
     * by a mutation review).
     */
    @Test
    void aLengthOneByteShortOfItsWidthStops() {
        assertEquals(List.of("ERROR"), ops("4c"));
        assertEquals(List.of("ERROR"), ops("4d01"));
        assertEquals(List.of("ERROR"), ops("4e010000"));
        assertEquals(List.of("51:-", "ERROR"), ops("51" + "4e000000"));
        ScriptIterator slice = new ScriptIterator().reset(Hex.decode("4e00000000"), 0, 4);
        assertFalse(slice.next());
        assertTrue(slice.failed());
    }

    /**
     * A cursor that holds no operation, after a reset and after a push that stopped the iteration, has opcode -1: it
     * is not a push and has no data. Keeping the last opcode there passed every test, so a reused cursor reported the
     * previous script's push, or the push before the truncated one, as an empty push (found by a mutation review).
     */
    @Test
    void aCursorWithoutAnOperationIsNotAPush() {
        ScriptIterator it = new ScriptIterator(Hex.decode("02aabb"));
        assertTrue(it.next());
        assertTrue(it.isPush());
        it.reset(Hex.decode("51"));
        assertEquals(-1, it.opcode());
        assertFalse(it.isPush());
        assertEquals(0, it.dataLength());
        it.reset(Hex.decode("01aa" + "4c05aa"));
        assertTrue(it.next());
        assertFalse(it.next());
        assertTrue(it.failed());
        assertEquals(-1, it.opcode());
        assertFalse(it.isPush());
        assertEquals(0, it.dataLength());
    }

    /**
     * A range that is not inside the script is refused by reset: without the check a cursor over {@code [1, 5)} of a
     * 2-byte script was made, and its first push threw ArrayIndexOutOfBoundsException instead of stopping (found by a
     * mutation review).
     */
    @Test
    void aRangeOutsideTheScriptIsRefused() {
        byte[] script = Hex.decode("0102");
        ScriptIterator it = new ScriptIterator();
        assertThrows(IndexOutOfBoundsException.class, () -> it.reset(script, 1, 4));
        assertThrows(IndexOutOfBoundsException.class, () -> it.reset(script, -1, 1));
        assertThrows(IndexOutOfBoundsException.class, () -> it.reset(script, 0, -1));
        assertFalse(it.reset(script, 2, 0).next());
        assertFalse(it.failed());
    }

    @Test
    void emptyScriptHasNoOpsAndNoError() {
        ScriptIterator it = new ScriptIterator(new byte[0]);
        assertFalse(it.next());
        assertFalse(it.failed());
    }

    @Test
    void offsetsPointIntoTheSharedScriptWithoutCopying() {
        byte[] script = Hex.decode("0003020304");
        ScriptIterator it = new ScriptIterator();
        it.reset(script, 1, 4);
        assertTrue(it.next());
        assertEquals(2, it.dataOffset());
        assertEquals(3, it.dataLength());
        assertTrue(it.script() == script);
        assertFalse(it.next());
        assertTrue(it.reset(script).next());
        assertEquals(0, it.dataLength());
        assertTrue(it.isPush());
    }

    /**
     * {@code dataOffset() + dataLength()} is where the next operation starts, for a push and for an opcode that pushes
     * nothing (BIP37's bare-multisig check finds the end of its OP_n that way). Leaving the previous push's offset after
     * a non-push opcode passed every test (found by a mutation review).
     */
    @Test
    void theOperationEndsWhereTheNextOneStarts() {
        byte[] script = Hex.decode("02aabb" + "ac" + "00" + "51");
        ScriptIterator it = new ScriptIterator(script);
        List<Integer> ends = new ArrayList<>();
        while (it.next()) {
            ends.add(it.dataOffset() + it.dataLength());
        }
        assertEquals(List.of(3, 4, 5, 6), ends);
    }

    /**
     * The opcode constants are Core's values (script/script.h), each checked against the byte a script carries: a
     * P2PKH, a P2SH, a bare 1-of-1 multisig, an OP_RETURN and OP_1NEGATE. OP_1NEGATE as 0x50, OP_EQUAL as 0x88 and
     * MAX_DIRECT_PUSH as 0x4c each passed every test (the filters compare opcodes by these names: found by a mutation
     * review).
     */
    @Test
    void opcodeConstantsAreCoresValues() {
        assertEquals(List.of(Opcodes.OP_DUP, Opcodes.OP_HASH160, 0x14, Opcodes.OP_EQUALVERIFY, Opcodes.OP_CHECKSIG),
                opcodes("76a914" + "11".repeat(20) + "88ac"));
        assertEquals(List.of(Opcodes.OP_HASH160, 0x14, Opcodes.OP_EQUAL), opcodes("a914" + "22".repeat(20) + "87"));
        assertEquals(List.of(Opcodes.OP_1, 0x21, Opcodes.OP_1, Opcodes.OP_CHECKMULTISIG),
                opcodes("5121" + "02" + "33".repeat(32) + "51ae"));
        assertEquals(List.of(Opcodes.OP_RETURN, Opcodes.OP_1NEGATE, Opcodes.OP_16, Opcodes.OP_0),
                opcodes("6a4f6000"));
        assertEquals(List.of(Opcodes.OP_PUSHDATA1, Opcodes.OP_PUSHDATA2, Opcodes.OP_PUSHDATA4),
                opcodes("4c00" + "4d0000" + "4e00000000"));
        assertEquals(List.of(0x00, 0x4b, 0x4c, 0x4d, 0x4e, 0x4f, 0x51, 0x60, 0x6a, 0x76, 0x87, 0x88, 0xa9, 0xac, 0xae),
                List.of(Opcodes.OP_0, Opcodes.MAX_DIRECT_PUSH, Opcodes.OP_PUSHDATA1, Opcodes.OP_PUSHDATA2,
                        Opcodes.OP_PUSHDATA4, Opcodes.OP_1NEGATE, Opcodes.OP_1, Opcodes.OP_16, Opcodes.OP_RETURN,
                        Opcodes.OP_DUP, Opcodes.OP_EQUAL, Opcodes.OP_EQUALVERIFY, Opcodes.OP_HASH160,
                        Opcodes.OP_CHECKSIG, Opcodes.OP_CHECKMULTISIG));
        // The largest direct push is the byte before OP_PUSHDATA1: 0x4b pushes 75 bytes.
        ScriptIterator it = new ScriptIterator(Hex.decode("4b" + "44".repeat(Opcodes.MAX_DIRECT_PUSH)));
        assertTrue(it.next());
        assertEquals(Opcodes.MAX_DIRECT_PUSH, it.opcode());
        assertEquals(75, it.dataLength());
        assertEquals(Opcodes.OP_PUSHDATA1, Opcodes.MAX_DIRECT_PUSH + 1);
    }

    private static List<Integer> opcodes(String scriptHex) {
        return opcodes(new ScriptIterator(Hex.decode(scriptHex)));
    }

    /** The opcodes of the rest of {@code it}'s script, which must not stop on a truncated push. */
    static List<Integer> opcodes(ScriptIterator it) {
        List<Integer> out = new ArrayList<>();
        while (it.next()) {
            out.add(it.opcode());
        }
        assertFalse(it.failed());
        return out;
    }

    @Test
    void smallIntegersOfOpcodes() {
        assertEquals(0, Opcodes.smallInteger(Opcodes.OP_0));
        assertEquals(1, Opcodes.smallInteger(Opcodes.OP_1));
        assertEquals(16, Opcodes.smallInteger(Opcodes.OP_16));
        assertEquals(-1, Opcodes.smallInteger(Opcodes.OP_1NEGATE));
        assertEquals(-1, Opcodes.smallInteger(Opcodes.OP_CHECKSIG));
    }
}
