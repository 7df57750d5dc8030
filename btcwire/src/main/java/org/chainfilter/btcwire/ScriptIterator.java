package org.chainfilter.btcwire;

/**
 * A reusable cursor over a script's operations with Bitcoin Core's {@code GetScriptOp} semantics, for the hot paths
 * (BIP37 matching, BIP158 element extraction): it yields (opcode, data offset, data length) into the script array and
 * allocates nothing per step.
 *
 * <ul>
 *   <li>Opcodes 0x01–0x4b push that many bytes; {@code OP_PUSHDATA1/2/4} (0x4c–0x4e) read a 1/2/4-byte little-endian
 *       length first; {@code OP_0} (0x00) is a push of zero bytes.</li>
 *   <li>Every other opcode ({@code OP_1NEGATE}, {@code OP_1}..{@code OP_16}, {@code OP_CHECKSIG}, ...) carries no
 *       data: {@link #isPush()} is false.</li>
 *   <li>A push whose length byte(s) or data run past the end stops the iteration: {@link #next()} returns false and
 *       {@link #failed()} becomes true. The operations returned before stay valid, which is what Core's loops
 *       {@code while (pc < end) { if (!GetOp(pc, opcode, data)) break; ... }} rely on.</li>
 * </ul>
 *
 * <p>Not thread-safe; one cursor per thread.
 */
public final class ScriptIterator {
    private byte[] script = new byte[0];
    private int end;
    private int position;
    private int opcode;
    private int dataOffset;
    private int dataLength;
    private boolean failed;

    /** A cursor with no script; call {@link #reset(byte[])}. */
    public ScriptIterator() {
    }

    /** A cursor at the start of {@code script} (not copied). */
    public ScriptIterator(byte[] script) {
        reset(script);
    }

    /** Restarts at the beginning of {@code script} (not copied; it must not change while iterated). */
    public ScriptIterator reset(byte[] script) {
        return reset(script, 0, script.length);
    }

    /** Restarts over {@code script[offset, offset + length)}. */
    public ScriptIterator reset(byte[] script, int offset, int length) {
        java.util.Objects.checkFromIndexSize(offset, length, script.length);
        this.script = script;
        this.position = offset;
        this.end = offset + length;
        this.opcode = -1;
        this.dataOffset = 0;
        this.dataLength = 0;
        this.failed = false;
        return this;
    }

    /**
     * Advances to the next operation.
     *
     * @return true when an operation was read; false at the end of the script or on a truncated push (see
     *         {@link #failed()})
     */
    public boolean next() {
        if (failed || position >= end) {
            return false;
        }
        int op = script[position++] & 0xff;
        long length;
        if (op < Opcodes.OP_PUSHDATA1) {
            length = op;
        } else if (op == Opcodes.OP_PUSHDATA1) {
            if (end - position < 1) {
                return fail();
            }
            length = script[position] & 0xff;
            position += 1;
        } else if (op == Opcodes.OP_PUSHDATA2) {
            if (end - position < 2) {
                return fail();
            }
            length = (script[position] & 0xff) | (script[position + 1] & 0xff) << 8;
            position += 2;
        } else if (op == Opcodes.OP_PUSHDATA4) {
            if (end - position < 4) {
                return fail();
            }
            length = ((script[position] & 0xff) | (script[position + 1] & 0xff) << 8
                    | (script[position + 2] & 0xff) << 16 | (long) (script[position + 3] & 0xff) << 24);
            position += 4;
        } else {
            opcode = op;
            dataOffset = position;
            dataLength = 0;
            return true;
        }
        if (end - position < length) {
            return fail();
        }
        opcode = op;
        dataOffset = position;
        dataLength = (int) length;
        position += (int) length;
        return true;
    }

    private boolean fail() {
        failed = true;
        opcode = -1;
        dataLength = 0;
        position = end;
        return false;
    }

    /** Whether the iteration stopped on a push that runs past the end of the script. */
    public boolean failed() {
        return failed;
    }

    /** The current opcode, 0..255; -1 after a reset until {@link #next()} reads one, and after a truncated push. */
    public int opcode() {
        return opcode;
    }

    /** Whether the current operation is a data push (opcode ≤ {@code OP_PUSHDATA4}, including {@code OP_0}). */
    public boolean isPush() {
        return opcode >= 0 && opcode <= Opcodes.OP_PUSHDATA4;
    }

    /**
     * Offset of the current push's data in {@link #script()}; for an opcode that pushes nothing, the offset just after
     * it, so that {@code dataOffset() + dataLength()} is where the next operation starts.
     */
    public int dataOffset() {
        return dataOffset;
    }

    /** Length of the current push's data; 0 for {@code OP_0} and for non-push opcodes. */
    public int dataLength() {
        return dataLength;
    }

    /** A copy of the current push's data. */
    public byte[] data() {
        return java.util.Arrays.copyOfRange(script, dataOffset, dataOffset + dataLength);
    }

    /**
     * The script array being iterated (shared, not copied): read {@code [dataOffset(), dataOffset() + dataLength())}
     * from it without allocating. Callers must not modify it.
     */
    public byte[] script() {
        return script;
    }
}
