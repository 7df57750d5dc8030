package org.chainfilter.btcwire;

/** The script opcodes the wire layer and the filters need (values from Core {@code script/script.h}). */
public final class Opcodes {
    public static final int OP_0 = 0x00;
    /** The largest direct push: opcodes 0x01..0x4b push that many bytes. */
    public static final int MAX_DIRECT_PUSH = 0x4b;
    public static final int OP_PUSHDATA1 = 0x4c;
    public static final int OP_PUSHDATA2 = 0x4d;
    public static final int OP_PUSHDATA4 = 0x4e;
    public static final int OP_1NEGATE = 0x4f;
    public static final int OP_1 = 0x51;
    public static final int OP_16 = 0x60;
    public static final int OP_RETURN = 0x6a;
    public static final int OP_DUP = 0x76;
    public static final int OP_EQUAL = 0x87;
    public static final int OP_EQUALVERIFY = 0x88;
    public static final int OP_HASH160 = 0xa9;
    public static final int OP_CHECKSIG = 0xac;
    public static final int OP_CHECKMULTISIG = 0xae;

    private Opcodes() {
    }

    /** The small integer of {@code OP_1}..{@code OP_16} (1..16), 0 for {@code OP_0}; -1 for any other opcode. */
    public static int smallInteger(int opcode) {
        if (opcode == OP_0) {
            return 0;
        }
        return opcode >= OP_1 && opcode <= OP_16 ? opcode - OP_1 + 1 : -1;
    }
}
