package org.chainfilter.testvectors.suites;

import org.chainfilter.bip158.BasicFilter;
import org.chainfilter.btcwire.Block;
import org.chainfilter.btcwire.Hash256;
import org.chainfilter.btcwire.Opcodes;
import org.chainfilter.btcwire.ScriptIterator;
import org.chainfilter.common.Hex;
import org.chainfilter.testvectors.Expect;
import org.chainfilter.testvectors.Mismatch;
import org.chainfilter.testvectors.SuiteExecutor;
import org.chainfilter.testvectors.Suites;
import org.chainfilter.testvectors.Vector;

/**
 * {@code bip158-basic}: {@link BasicFilter#build} of the block and its spent scripts is {@code filter}, and its header
 * chained on {@code prevHeader} is {@code header} (both hashes in display order). {@code height}, when it reads as a
 * whole number (an integer, {@code 180480.0}, or digits in a string; anything else is a label), from height {@value #BIP34_EVERYWHERE} on, where BIP34 holds on mainnet and testnet3
 * alike, a block must carry it as the first push of its coinbase; below that a block need not state its height (BIP34
 * began at 21,111 on testnet3, and a mainnet block of version 2 could lack it until 224,413), so there it is a label.
 */
public final class Bip158BasicSuite implements SuiteExecutor {
    /** Mainnet's BIP34 height (testnet3's is 21,111): from here on every block states its height in its coinbase. */
    static final int BIP34_EVERYWHERE = 227_931;

    @Override
    public String suite() {
        return Suites.BIP158_BASIC;
    }

    @Override
    public void check(Vector vector) throws Mismatch {
        Block block = Block.parse(vector.hex("block"));
        if (vector.has("blockHash")) {
            Expect.equal("blockHash", Hex.encode(vector.hex("blockHash", 32)), block.hash().toDisplayHex());
        }
        Long height = vector.has("height") ? heightOf(vector) : null;
        if (height != null) {
            if (height >= BIP34_EVERYWHERE && block.header().version() >= 2) {
                Expect.equal("height (BIP34, the coinbase's first push)", height, coinbaseHeight(block));
            }
        }
        BasicFilter filter = BasicFilter.build(block, vector.hexList("prevoutScripts"));
        Expect.bytes("filter", vector.hex("filter"), filter.encoded());
        Hash256 previous = Hash256.fromDisplayHex(Hex.encode(vector.hex("prevHeader", 32)));
        Expect.equal("header", Hex.encode(vector.hex("header", 32)), filter.header(previous).toDisplayHex());
    }

    /**
     * The vector's height as a whole number: an integer, a whole number written with a fraction ({@code 180480.0}), or
     * decimal digits in a string; null for anything else, which the schema does not forbid (it gives the field no
     * type), so it is a label and not checked.
     */
    private static Long heightOf(Vector vector) {
        try {
            double value = vector.number("height");
            return value >= 0 && value == Math.rint(value) && value <= Integer.MAX_VALUE ? (long) value : null;
        } catch (RuntimeException notANumber) {
            try {
                String text = vector.text("height").strip();
                return text.matches("[0-9]{1,9}") ? Long.parseLong(text) : null;
            } catch (RuntimeException notText) {
                return null;
            }
        }
    }

    /**
     * The number the coinbase's scriptSig starts with, as BIP34 writes the height ({@code CScript() << nHeight}):
     * {@code OP_0}, {@code OP_1}..{@code OP_16}, or a push of up to 8 bytes, little-endian with a sign bit; -1 when it
     * starts otherwise, or when the block has no coinbase input to state it (no transaction, or a first transaction
     * without inputs: both parse, and looking for the push threw an ArrayIndexOutOfBoundsException).
     */
    private static long coinbaseHeight(Block block) {
        if (block.transactions().isEmpty() || block.transactions().get(0).inputs().isEmpty()) {
            return -1;
        }
        ScriptIterator script = new ScriptIterator();
        block.transactions().get(0).inputs().get(0).iterateScriptSig(script);
        if (!script.next()) {
            return -1;
        }
        int opcode = script.opcode();
        if (opcode >= Opcodes.OP_1 && opcode <= Opcodes.OP_16) {
            return opcode - Opcodes.OP_1 + 1;
        }
        int length = script.dataLength();
        if (!script.isPush() || length > 8) {
            return -1;
        }
        long value = 0;
        for (int i = 0; i < length; i++) {
            value |= (long) (script.script()[script.dataOffset() + i] & 0xff) << (8 * i);
        }
        if (length > 0 && (value & (0x80L << (8 * (length - 1)))) != 0) {
            value = -(value & ~(0x80L << (8 * (length - 1))));
        }
        return value;
    }
}
