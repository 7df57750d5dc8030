package org.chainfilter.bip37;

import org.chainfilter.btcwire.Opcodes;
import org.chainfilter.btcwire.ScriptIterator;

/**
 * The part of Bitcoin Core's {@code Solver} ({@code script/solver.cpp}) that {@code BLOOM_UPDATE_P2PUBKEY_ONLY}
 * needs: whether an output script is {@code PUBKEY} or {@code MULTISIG}, with Core's strict checks.
 *
 * <p>Core classifies P2SH, witness programs and {@code OP_RETURN} data before PUBKEY; none of those shapes can also
 * satisfy the PUBKEY or MULTISIG rules below (they start with {@code OP_HASH160}, a witness version followed by a
 * single push that fills the script, or {@code OP_RETURN}), so testing the two rules directly gives Core's answer.
 * bitcoinj's {@code ScriptPattern.isP2PK}/{@code isSentToMultisig} are looser (any push of 2+ bytes as a key, no key
 * validation); we follow Core.
 */
public final class StandardScripts {
    /** {@code MAX_PUBKEYS_PER_MULTISIG}. */
    public static final int MAX_PUBKEYS_PER_MULTISIG = 20;

    private StandardScripts() {
    }

    /** Core's {@code CPubKey::ValidSize}: 33 bytes starting 02/03, or 65 bytes starting 04/06/07. */
    public static boolean isValidPubKeySize(byte[] script, int offset, int length) {
        if (length == 0) {
            return false;
        }
        int header = script[offset] & 0xff;
        int expected = header == 2 || header == 3 ? 33 : header == 4 || header == 6 || header == 7 ? 65 : 0;
        return expected == length;
    }

    /**
     * {@code PUBKEY}: exactly {@code 0x41 <65-byte key> OP_CHECKSIG} or {@code 0x21 <33-byte key> OP_CHECKSIG}, the
     * key passing {@link #isValidPubKeySize}.
     */
    public static boolean isPayToPubKey(byte[] script) {
        int n = script.length;
        if ((n == 67 || n == 35) && (script[0] & 0xff) == n - 2 && (script[n - 1] & 0xff) == Opcodes.OP_CHECKSIG) {
            return isValidPubKeySize(script, 1, n - 2);
        }
        return false;
    }

    /**
     * {@code MULTISIG} (Core's {@code MatchMultisig}): ends with {@code OP_CHECKMULTISIG}; the first op is a number m in
     * 1..20 ({@code OP_1}..{@code OP_16} or a minimally encoded push); then pushes that pass
     * {@link #isValidPubKeySize}; then a number n with m ≤ n ≤ 20 equal to the key count; then exactly one last op.
     */
    public static boolean isBareMultisig(byte[] script) {
        return isBareMultisig(script, new ScriptIterator());
    }

    /** {@link #isBareMultisig(byte[])} walking the script with {@code cursor}, which it resets: no allocation. */
    static boolean isBareMultisig(byte[] script, ScriptIterator cursor) {
        int n = script.length;
        if (n < 1 || (script[n - 1] & 0xff) != Opcodes.OP_CHECKMULTISIG) {
            return false;
        }
        ScriptIterator it = cursor.reset(script);
        if (!it.next()) {
            return false;
        }
        int required = scriptNumber(it, 1, MAX_PUBKEYS_PER_MULTISIG);
        if (required < 0) {
            return false;
        }
        int keys = 0;
        boolean more;
        while ((more = it.next()) && isValidPubKeySize(script, it.dataOffset(), it.dataLength())) {
            keys++;
        }
        if (!more) {
            // Core's GetOp leaves OP_INVALIDOPCODE at the end or on an error, which is not a number.
            return false;
        }
        int declared = scriptNumber(it, required, MAX_PUBKEYS_PER_MULTISIG);
        if (declared < 0 || declared != keys) {
            return false;
        }
        int afterNumber = it.dataOffset() + it.dataLength();
        return afterNumber + 1 == n;
    }

    /** PUBKEY or MULTISIG: the outputs whose outpoint {@code BLOOM_UPDATE_P2PUBKEY_ONLY} inserts. */
    public static boolean isPayToPubKeyOrBareMultisig(byte[] script) {
        return isPayToPubKey(script) || isBareMultisig(script);
    }

    /** {@link #isPayToPubKeyOrBareMultisig(byte[])} with a reused {@code cursor} (reset here): no allocation. */
    static boolean isPayToPubKeyOrBareMultisig(byte[] script, ScriptIterator cursor) {
        return isPayToPubKey(script) || isBareMultisig(script, cursor);
    }

    /**
     * Core's {@code GetScriptNumber}: the value of {@code OP_1..OP_16}, or of a push that is minimal
     * ({@code CheckMinimalPush}) and a minimal {@code CScriptNum} of at most 4 bytes, when within [min, max]; else -1.
     */
    private static int scriptNumber(ScriptIterator it, int min, int max) {
        int opcode = it.opcode();
        long value;
        if (opcode >= Opcodes.OP_1 && opcode <= Opcodes.OP_16) {
            value = opcode - Opcodes.OP_1 + 1;
        } else if (opcode > Opcodes.OP_0 && opcode <= Opcodes.OP_PUSHDATA4) {
            byte[] s = it.script();
            int off = it.dataOffset();
            int len = it.dataLength();
            if (!isMinimalPush(s, off, len, opcode) || len > 4) {
                return -1;
            }
            if (len > 0 && (s[off + len - 1] & 0x7f) == 0 && (len <= 1 || (s[off + len - 2] & 0x80) == 0)) {
                return -1;
            }
            value = 0;
            for (int i = 0; i < len; i++) {
                value |= (long) (s[off + i] & 0xff) << (8 * i);
            }
            if (len > 0 && (s[off + len - 1] & 0x80) != 0) {
                value = -(value & ~(0x80L << (8 * (len - 1))));
            }
        } else {
            return -1;
        }
        return value < min || value > max ? -1 : (int) value;
    }

    /** Core's {@code CheckMinimalPush}: the shortest push opcode for the data. */
    private static boolean isMinimalPush(byte[] s, int off, int len, int opcode) {
        if (len == 0) {
            return opcode == Opcodes.OP_0;
        }
        int first = s[off] & 0xff;
        if (len == 1 && first >= 1 && first <= 16) {
            return false;
        }
        if (len == 1 && first == 0x81) {
            return false;
        }
        if (len <= Opcodes.MAX_DIRECT_PUSH) {
            return opcode == len;
        }
        if (len <= 255) {
            return opcode == Opcodes.OP_PUSHDATA1;
        }
        if (len <= 65535) {
            return opcode == Opcodes.OP_PUSHDATA2;
        }
        return true;
    }
}
