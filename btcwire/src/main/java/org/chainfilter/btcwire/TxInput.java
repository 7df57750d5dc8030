package org.chainfilter.btcwire;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/** A transaction input (Core {@code CTxIn}): the outpoint spent, the scriptSig, nSequence and the witness stack. */
public final class TxInput {
    private final OutPoint outPoint;
    private final byte[] scriptSig;
    private final long sequence;
    private final List<byte[]> witness;

    /**
     * @param sequence nSequence, an unsigned 32-bit value
     * @param witness  the witness stack items, bottom first (empty for none); the arrays are copied
     */
    public TxInput(OutPoint outPoint, byte[] scriptSig, long sequence, List<byte[]> witness) {
        this.outPoint = Objects.requireNonNull(outPoint, "outPoint");
        this.scriptSig = scriptSig.clone();
        if (sequence < 0 || sequence > 0xffffffffL) {
            throw new IllegalArgumentException("nSequence " + sequence + " is outside the uint32 range");
        }
        this.sequence = sequence;
        List<byte[]> items = new ArrayList<>(witness.size());
        for (byte[] item : witness) {
            items.add(item.clone());
        }
        this.witness = items;
    }

    /** This input with the witness {@code stack}, taken with its arrays as they are: the parser's own, shared with none. */
    TxInput withOwnWitness(List<byte[]> stack) {
        return new TxInput(this, stack);
    }

    private TxInput(TxInput input, List<byte[]> ownStack) {
        this.outPoint = input.outPoint;
        this.scriptSig = input.scriptSig;
        this.sequence = input.sequence;
        this.witness = ownStack;
    }

    public OutPoint outPoint() {
        return outPoint;
    }

    /** A copy of the scriptSig. */
    public byte[] scriptSig() {
        return scriptSig.clone();
    }

    /** The scriptSig without a copy, for the package's hot paths. */
    byte[] scriptSigArray() {
        return scriptSig;
    }

    /** Points {@code iterator} at this input's scriptSig (no allocation). */
    public void iterateScriptSig(ScriptIterator iterator) {
        iterator.reset(scriptSig);
    }

    public long sequence() {
        return sequence;
    }

    /** Copies of the witness stack items, bottom first; empty when the input has no witness. */
    public List<byte[]> witness() {
        List<byte[]> out = new ArrayList<>(witness.size());
        for (byte[] item : witness) {
            out.add(item.clone());
        }
        return out;
    }

    public int witnessSize() {
        return witness.size();
    }

    List<byte[]> witnessArrays() {
        return witness;
    }

    void writeTo(ByteWriter writer) {
        outPoint.writeTo(writer);
        writer.writeVarBytes(scriptSig);
        writer.writeInt32LE(sequence);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof TxInput t) || t.sequence != sequence || !t.outPoint.equals(outPoint)
                || !Arrays.equals(t.scriptSig, scriptSig) || t.witness.size() != witness.size()) {
            return false;
        }
        for (int i = 0; i < witness.size(); i++) {
            if (!Arrays.equals(witness.get(i), t.witness.get(i))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        int h = outPoint.hashCode() * 31 + Arrays.hashCode(scriptSig);
        for (byte[] item : witness) {
            h = h * 31 + Arrays.hashCode(item);
        }
        return h * 31 + Long.hashCode(sequence);
    }

    @Override
    public String toString() {
        return "TxInput{" + outPoint + ", scriptSig " + scriptSig.length + " bytes, nSequence " + sequence
                + ", witness items " + witness.size() + "}";
    }
}
