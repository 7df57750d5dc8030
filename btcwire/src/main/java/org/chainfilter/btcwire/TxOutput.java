package org.chainfilter.btcwire;

import java.util.Arrays;
import org.chainfilter.common.Hex;

/** A transaction output (Core {@code CTxOut}): the value in satoshis and the scriptPubKey. */
public final class TxOutput {
    private final long valueSatoshis;
    private final byte[] scriptPubKey;

    /** @param valueSatoshis nValue as on the wire (int64; not range-checked, the wire layer does no consensus checks) */
    public TxOutput(long valueSatoshis, byte[] scriptPubKey) {
        this.valueSatoshis = valueSatoshis;
        this.scriptPubKey = scriptPubKey.clone();
    }

    public long valueSatoshis() {
        return valueSatoshis;
    }

    /** A copy of the scriptPubKey. */
    public byte[] scriptPubKey() {
        return scriptPubKey.clone();
    }

    byte[] scriptPubKeyArray() {
        return scriptPubKey;
    }

    /** Points {@code iterator} at this output's scriptPubKey (no allocation). */
    public void iterateScriptPubKey(ScriptIterator iterator) {
        iterator.reset(scriptPubKey);
    }

    void writeTo(ByteWriter writer) {
        writer.writeInt64LE(valueSatoshis);
        writer.writeVarBytes(scriptPubKey);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TxOutput t && t.valueSatoshis == valueSatoshis && Arrays.equals(t.scriptPubKey, scriptPubKey);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(valueSatoshis) * 31 + Arrays.hashCode(scriptPubKey);
    }

    @Override
    public String toString() {
        return "TxOutput{" + valueSatoshis + " sat, scriptPubKey " + Hex.encode(scriptPubKey) + "}";
    }
}
