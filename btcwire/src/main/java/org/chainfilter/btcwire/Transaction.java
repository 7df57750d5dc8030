package org.chainfilter.btcwire;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A Bitcoin transaction (Core {@code CTransaction}), immutable, read from and written to its wire serialization.
 *
 * <p>Both serializations are read as Core's {@code UnserializeTransaction} reads them: legacy
 * {@code nVersion | vin | vout | nLockTime}, and BIP144 {@code nVersion | 0x00 marker | flags | vin | vout | witness
 * | nLockTime}. As in Core, an empty vin followed by a flags byte of 0 means "no inputs, no outputs"; flag bit 0 means
 * witnesses follow, and a witness record whose stacks are all empty ("Superfluous witness record") or any other flag
 * bit ("Unknown transaction optional data") is refused.
 *
 * <p>{@link #txid()} is dSHA256 of the serialization without witness; {@link #wtxid()} of the one with witness (equal
 * to the txid when there is none).
 */
public final class Transaction {
    /** The smallest possible serialized transaction: version, two empty counts, locktime. */
    public static final int MIN_SERIALIZED_LENGTH = 10;
    /** The smallest serialized input: outpoint, empty script length, nSequence. */
    static final int MIN_INPUT_LENGTH = OutPoint.LENGTH + 1 + 4;
    /** The smallest serialized output: value, empty script length. */
    static final int MIN_OUTPUT_LENGTH = 8 + 1;

    private final int version;
    private final List<TxInput> inputs;
    private final List<TxOutput> outputs;
    private final long lockTime;
    private final Hash256 txid;
    private final Hash256 wtxid;

    /**
     * @param version  nVersion (int32)
     * @param lockTime nLockTime (uint32)
     */
    public Transaction(int version, List<TxInput> inputs, List<TxOutput> outputs, long lockTime) {
        this.version = version;
        this.inputs = List.copyOf(inputs);
        this.outputs = List.copyOf(outputs);
        if (lockTime < 0 || lockTime > 0xffffffffL) {
            throw new IllegalArgumentException("nLockTime " + lockTime + " is outside the uint32 range");
        }
        this.lockTime = lockTime;
        this.txid = Sha256d.hash(serialize(false));
        this.wtxid = hasWitness() ? Sha256d.hash(serialize(true)) : txid;
    }

    /** Parses one transaction that must fill all of {@code bytes}. */
    public static Transaction parse(byte[] bytes) {
        ByteReader reader = new ByteReader(bytes);
        Transaction tx = read(reader);
        reader.requireEnd("transaction");
        return tx;
    }

    /** Parses one transaction from hex. */
    public static Transaction fromHex(String hex) {
        return parse(org.chainfilter.common.Hex.decode(hex));
    }

    /** Reads one transaction (legacy or BIP144) at the reader's position. */
    public static Transaction read(ByteReader reader) {
        int version = reader.readInt32LE("transaction nVersion");
        List<TxInput> inputs = readInputs(reader);
        List<TxOutput> outputs;
        int flags = 0;
        if (inputs.isEmpty()) {
            flags = reader.readUInt8("transaction segwit flags");
            if (flags != 0) {
                inputs = readInputs(reader);
                outputs = readOutputs(reader);
            } else {
                outputs = List.of();
            }
        } else {
            outputs = readOutputs(reader);
        }
        if ((flags & 1) != 0) {
            flags ^= 1;
            boolean anyWitness = false;
            for (int i = 0; i < inputs.size(); i++) {
                int items = reader.readCount("witness item count of input " + i, (int) CompactSize.MAX_SIZE, 1);
                List<byte[]> stack = new ArrayList<>(items);
                for (int j = 0; j < items; j++) {
                    stack.add(readWitnessItem(reader, i, j));
                }
                anyWitness |= items > 0;
                inputs.set(i, inputs.get(i).withOwnWitness(stack));
            }
            if (!anyWitness) {
                throw new WireFormatException("transaction has a witness flag but every witness stack is empty"
                        + " (Core: Superfluous witness record)");
            }
        }
        if (flags != 0) {
            throw new WireFormatException("transaction has unknown segwit flag bits 0x" + Integer.toHexString(flags)
                    + " (Core: Unknown transaction optional data)");
        }
        long lockTime = reader.readUInt32LE("transaction nLockTime");
        return new Transaction(version, inputs, outputs, lockTime);
    }

    /**
     * Witness item {@code j} of input {@code i}. Its label is made only when the item is refused: a witness of a
     * million empty items (one byte each) allocated a label string each, 180 bytes for every byte read.
     */
    private static byte[] readWitnessItem(ByteReader reader, int i, int j) {
        try {
            return reader.readVarBytes(WITNESS_ITEM, (int) CompactSize.MAX_SIZE);
        } catch (WireFormatException e) {
            throw new WireFormatException(ByteReader.relabel(e.getMessage(), WITNESS_ITEM, WITNESS_ITEM + " " + j
                    + " of input " + i));
        }
    }

    private static final String WITNESS_ITEM = "witness item";

    private static List<TxInput> readInputs(ByteReader reader) {
        int count = reader.readCount("transaction input count", (int) CompactSize.MAX_SIZE, MIN_INPUT_LENGTH);
        List<TxInput> inputs = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            OutPoint prevout = OutPoint.read(reader);
            byte[] scriptSig = reader.readVarBytes("scriptSig of input " + i, (int) CompactSize.MAX_SIZE);
            long sequence = reader.readUInt32LE("nSequence of input " + i);
            inputs.add(new TxInput(prevout, scriptSig, sequence, List.of()));
        }
        return inputs;
    }

    private static List<TxOutput> readOutputs(ByteReader reader) {
        int count = reader.readCount("transaction output count", (int) CompactSize.MAX_SIZE, MIN_OUTPUT_LENGTH);
        List<TxOutput> outputs = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long value = reader.readInt64LE("value of output " + i);
            outputs.add(new TxOutput(value, reader.readVarBytes("scriptPubKey of output " + i,
                    (int) CompactSize.MAX_SIZE)));
        }
        return outputs;
    }

    /** Whether any input carries a witness (the BIP144 serialization is then used for the wtxid). */
    public boolean hasWitness() {
        for (TxInput input : inputs) {
            if (input.witnessSize() > 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The wire serialization.
     *
     * @param withWitness BIP144 form (marker, flags, witnesses) when true and the transaction has a witness; the legacy
     *                    form otherwise (the form hashed for the txid, and the form BIP37 peers send)
     */
    public byte[] serialize(boolean withWitness) {
        ByteWriter writer = new ByteWriter(256);
        writeTo(writer, withWitness);
        return writer.toByteArray();
    }

    /** Writes the serialization; see {@link #serialize(boolean)}. */
    public void writeTo(ByteWriter writer, boolean withWitness) {
        boolean witness = withWitness && hasWitness();
        writer.writeInt32LE(version);
        if (witness) {
            writer.writeUInt8(0).writeUInt8(1);
        }
        writer.writeCompactSize(inputs.size());
        for (TxInput input : inputs) {
            input.writeTo(writer);
        }
        writer.writeCompactSize(outputs.size());
        for (TxOutput output : outputs) {
            output.writeTo(writer);
        }
        if (witness) {
            for (TxInput input : inputs) {
                writer.writeCompactSize(input.witnessSize());
                for (byte[] item : input.witnessArrays()) {
                    writer.writeVarBytes(item);
                }
            }
        }
        writer.writeInt32LE(lockTime);
    }

    public int version() {
        return version;
    }

    public List<TxInput> inputs() {
        return inputs;
    }

    public List<TxOutput> outputs() {
        return outputs;
    }

    public long lockTime() {
        return lockTime;
    }

    /** dSHA256 of the serialization without witness. */
    public Hash256 txid() {
        return txid;
    }

    /** dSHA256 of the BIP144 serialization; the txid when there is no witness. */
    public Hash256 wtxid() {
        return wtxid;
    }

    /** Whether this is a coinbase: one input spending the null outpoint (zero txid, index 0xffffffff). */
    public boolean isCoinbase() {
        return inputs.size() == 1 && inputs.get(0).outPoint().index() == 0xffffffffL
                && inputs.get(0).outPoint().txid().isZero();
    }

    /** Equal when the full (witness) serializations are equal. */
    @Override
    public boolean equals(Object o) {
        return o instanceof Transaction t && t.wtxid.equals(wtxid) && t.txid.equals(txid);
    }

    @Override
    public int hashCode() {
        return wtxid.hashCode();
    }

    @Override
    public String toString() {
        return "Transaction{txid " + txid + ", " + inputs.size() + " in, " + outputs.size() + " out"
                + (hasWitness() ? ", witness" : "") + "}";
    }

    static List<Hash256> txids(List<Transaction> transactions) {
        List<Hash256> out = new ArrayList<>(transactions.size());
        for (Transaction tx : transactions) {
            out.add(Objects.requireNonNull(tx).txid());
        }
        return Collections.unmodifiableList(out);
    }
}
