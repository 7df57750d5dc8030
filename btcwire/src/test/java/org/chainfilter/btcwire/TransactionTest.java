package org.chainfilter.btcwire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.chainfilter.common.Hex;
import org.chainfilter.testkit.bitcoin.BitcoinData;
import org.junit.jupiter.api.Test;

class TransactionTest {

    @Test
    void publishedTransactionsHaveTheirPublishedTxids() {
        for (String name : List.of("tx_b4749f", "tx_e2769b")) {
            Map<String, String> v = BitcoinData.load(name);
            Transaction tx = Transaction.fromHex(v.get("raw"));
            assertEquals(v.get("txid"), tx.txid().toDisplayHex());
            assertEquals(tx.txid(), tx.wtxid());
            assertFalse(tx.hasWitness());
            assertEquals(v.get("raw"), Hex.encode(tx.serialize(true)));
            assertEquals(v.get("raw"), Hex.encode(tx.serialize(false)));
        }
    }

    /** The spending tx of bloom_match spends output 0 of tx b4749f…: its prevout is that txid in internal order. */
    @Test
    void fieldsOfThePublishedSpendingTransaction() {
        Transaction spent = Transaction.fromHex(raw("tx_b4749f"));
        Transaction tx = Transaction.fromHex(raw("tx_e2769b"));
        assertEquals(1, tx.version());
        assertEquals(1, tx.inputs().size());
        assertEquals(new OutPoint(spent.txid(), 0), tx.inputs().get(0).outPoint());
        assertEquals("6bff7fcd4f8565ef406dd5d63d4ff94f318fe82027fd4dc451b04474019f74b400000000",
                Hex.encode(tx.inputs().get(0).outPoint().toBytes()));
        assertEquals(0xffffffffL, tx.inputs().get(0).sequence());
        assertEquals(0, tx.lockTime());
        assertFalse(tx.isCoinbase());
    }

    /** Adding a witness changes the wtxid and the BIP144 bytes but never the txid. */
    @Test
    void witnessChangesWtxidButNotTxid() {
        Transaction legacy = Transaction.fromHex(raw("tx_b4749f"));
        List<TxInput> inputs = new ArrayList<>();
        for (TxInput in : legacy.inputs()) {
            inputs.add(new TxInput(in.outPoint(), in.scriptSig(), in.sequence(),
                    List.of(Hex.decode("3044"), new byte[0])));
        }
        Transaction segwit = new Transaction(legacy.version(), inputs, legacy.outputs(), legacy.lockTime());
        assertTrue(segwit.hasWitness());
        assertEquals(legacy.txid(), segwit.txid());
        assertNotEquals(segwit.txid(), segwit.wtxid());
        byte[] bip144 = segwit.serialize(true);
        assertEquals("0100000000010", Hex.encode(bip144).substring(0, 13));
        Transaction reparsed = Transaction.parse(bip144);
        assertEquals(segwit, reparsed);
        assertEquals(segwit.wtxid(), reparsed.wtxid());
        assertArrayEquals(Hex.decode("3044"), reparsed.inputs().get(0).witness().get(0));
        assertEquals(0, reparsed.inputs().get(0).witness().get(1).length);
        assertNotEquals(legacy, segwit);
    }

    @Test
    void coinbaseIsRecognised() {
        Block block = Block.fromHex(raw("block_13b8a"));
        assertTrue(block.transactions().get(0).isCoinbase());
        assertFalse(block.transactions().get(1).isCoinbase());
    }

    /** Core reads an empty vin then flags 0 as a transaction with no inputs and no outputs. */
    @Test
    void emptyVinWithZeroFlagsIsAnEmptyTransaction() {
        Transaction tx = Transaction.fromHex("01000000" + "00" + "00" + "00000000");
        assertEquals(0, tx.inputs().size());
        assertEquals(0, tx.outputs().size());
        assertEquals("01000000000000000000", Hex.encode(tx.serialize(false)));
    }

    @Test
    void superfluousWitnessRecordIsRefused() {
        String tx = "01000000" + "0001" + "01" + "00".repeat(32) + "00000000" + "00" + "ffffffff" + "00" + "00"
                + "00000000";
        WireFormatException e = assertThrows(WireFormatException.class, () -> Transaction.fromHex(tx));
        assertEquals("transaction has a witness flag but every witness stack is empty (Core: Superfluous witness"
                + " record)", e.getMessage());
    }

    @Test
    void unknownFlagBitsAreRefused() {
        String tx = "01000000" + "0002" + "01" + "00".repeat(32) + "00000000" + "00" + "ffffffff" + "00"
                + "00000000";
        WireFormatException e = assertThrows(WireFormatException.class, () -> Transaction.fromHex(tx));
        assertEquals("transaction has unknown segwit flag bits 0x2 (Core: Unknown transaction optional data)",
                e.getMessage());
    }

    /**
     * Core reads vin and vout after any non-zero flags byte, then the witnesses when bit 0 is set, and only then refuses
     * the other bits: flags 0x03 with a real witness is "Unknown transaction optional data". Reading vin and vout only
     * for flags 0x01 passed every test (0x03 then read no inputs and was refused as a superfluous witness record: found
     * by a mutation review).
     */
    @Test
    void otherFlagBitsBesideTheWitnessBitAreRefusedAfterTheWitness() {
        String tx = "01000000" + "0003" + "01" + "00".repeat(32) + "00000000" + "00" + "ffffffff" + "01"
                + "0000000000000000" + "00" + "01" + "01aa" + "00000000";
        WireFormatException e = assertThrows(WireFormatException.class, () -> Transaction.fromHex(tx));
        assertEquals("transaction has unknown segwit flag bits 0x2 (Core: Unknown transaction optional data)",
                e.getMessage());
    }

    @Test
    void truncatedAndTrailingBytesAreRefused() {
        String raw = raw("tx_b4749f");
        WireFormatException e = assertThrows(WireFormatException.class,
                () -> Transaction.fromHex(raw.substring(0, raw.length() - 2)));
        assertEquals("reading transaction nLockTime: wanted 4 bytes but 3 are left (at offset "
                + (raw.length() / 2 - 4) + ")", e.getMessage());
        e = assertThrows(WireFormatException.class, () -> Transaction.fromHex(raw + "00"));
        assertEquals("transaction has 1 trailing bytes after its end (at offset " + raw.length() / 2 + ")",
                e.getMessage());
    }

    @Test
    void hugeCountsAreRefusedBeforeAllocation() {
        WireFormatException e = assertThrows(WireFormatException.class,
                () -> Transaction.fromHex("01000000" + "fe00000002" + "00".repeat(20)));
        assertEquals("transaction input count is 33554432 but at 41 bytes or more each they cannot fit in the 20"
                + " bytes left", e.getMessage());
        e = assertThrows(WireFormatException.class,
                () -> Transaction.fromHex("01000000" + "ffffffffffffffff7f"));
        assertEquals("transaction input count is 9223372036854775807; at most 33554432 is allowed", e.getMessage());
        e = assertThrows(WireFormatException.class, () -> Transaction.fromHex("01000000" + "fd0300"));
        assertEquals("transaction input count: non-canonical CompactSize (value 3 encoded with prefix 0xfd)",
                e.getMessage());
    }

    /**
     * A witness stack's item count is checked against the bytes left (an item takes one byte at least) before the stack
     * is sized by it: counting items as free passed every test, and a count of 2^25 allocated a 128 MiB list, then
     * failed at the first item the bytes did not hold (found by a mutation review).
     */
    @Test
    void aWitnessItemCountBeyondTheBytesLeftIsRefusedBeforeAllocation() {
        String head = "01000000" + "0001" + "01" + "00".repeat(32) + "00000000" + "00" + "ffffffff" + "00";
        WireFormatException e = assertThrows(WireFormatException.class,
                () -> Transaction.fromHex(head + "fe00000002" + "00000000"));
        assertEquals("witness item count of input 0 is 33554432 but at 1 bytes or more each they cannot fit in the 4"
                + " bytes left", e.getMessage());
        e = assertThrows(WireFormatException.class, () -> Transaction.fromHex(head + "05" + "00000000"));
        assertEquals("witness item count of input 0 is 5 but at 1 bytes or more each they cannot fit in the 4 bytes"
                + " left", e.getMessage());
    }

    /**
     * An output takes 9 bytes at least (value and an empty script's length): five outputs with empty scripts and the
     * locktime (49 bytes) are read, and an output count the bytes left cannot hold is refused naming 9 bytes. A minimum
     * of 10 (refusing those five) or of 8 passed every test (found by a mutation review).
     */
    @Test
    void outputsTakeNineBytesAtLeast() {
        Transaction tx = Transaction.fromHex(ONE_INPUT + "05" + ("0000000000000000" + "00").repeat(5) + "00000000");
        assertEquals(5, tx.outputs().size());
        assertEquals(0, tx.outputs().get(4).scriptPubKey().length);
        WireFormatException e = assertThrows(WireFormatException.class,
                () -> Transaction.fromHex(ONE_INPUT + "06" + ("0000000000000000" + "00").repeat(5) + "00000000"));
        assertEquals("transaction output count is 6 but at 9 bytes or more each they cannot fit in the 49 bytes left",
                e.getMessage());
    }

    @Test
    void outOfRangeFieldsAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new OutPoint(Hash256.ZERO, 1L << 32));
        assertEquals("output index 4294967296 is outside the uint32 range 0..4294967295", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new Transaction(1, List.of(), List.of(), -1));
        assertEquals("nLockTime -1 is outside the uint32 range", e.getMessage());
    }

    /**
     * nLockTime is a uint32: 0xffffffff is taken and written back, 2^32 is refused. Refusing 0xffffffff (a {@code >=}
     * at the top of the range) passed every test (found by a mutation review).
     */
    @Test
    void theLargestLockTimeIsAccepted() {
        Transaction tx = new Transaction(1, List.of(), List.of(), 0xffffffffL);
        assertEquals(0xffffffffL, tx.lockTime());
        assertEquals("01000000" + "00" + "00" + "ffffffff", Hex.encode(tx.serialize(false)));
        assertEquals(0xffffffffL, Transaction.parse(tx.serialize(false)).lockTime());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Transaction(1, List.of(), List.of(), 1L << 32));
        assertEquals("nLockTime 4294967296 is outside the uint32 range", e.getMessage());
    }

    /**
     * The constructors copy what they are given, as TxInput's javadoc says of the witness arrays: keeping the caller's
     * witness arrays passed every test, and a caller reusing its buffer then changed the input (found by a mutation
     * review). The scriptSig it hands out is a copy too: handing out its own array passed every test.
     */
    @Test
    void anInputKeepsItsOwnCopyOfTheWitness() {
        byte[] item = Hex.decode("3044");
        byte[] scriptSig = Hex.decode("51");
        TxInput input = new TxInput(new OutPoint(Hash256.ZERO, 0), scriptSig, 0, List.of(item));
        Transaction tx = new Transaction(2, List.of(input), List.of(), 0);
        Hash256 wtxid = tx.wtxid();
        item[0] = 0;
        scriptSig[0] = 0;
        assertArrayEquals(Hex.decode("3044"), input.witness().get(0));
        assertArrayEquals(Hex.decode("51"), input.scriptSig());
        assertEquals(wtxid, Sha256d.hash(tx.serialize(true)));
        input.witness().get(0)[0] = 0;
        assertArrayEquals(Hex.decode("3044"), input.witness().get(0));
        input.scriptSig()[0] = 0;
        assertArrayEquals(Hex.decode("51"), input.scriptSig());
        assertEquals(wtxid, Sha256d.hash(tx.serialize(true)));
    }

    /**
     * Core's {@code IsCoinBase}: one input whose prevout {@code IsNull()}, that is a zero hash and index 0xffffffff;
     * both halves count (a coinbase test that looked at the index alone passed every test before).
     */
    @Test
    void onlyTheNullOutpointMakesACoinbase() {
        TxInput coinbaseInput = Block.fromHex(raw("block_13b8a")).transactions().get(0).inputs().get(0);
        assertTrue(new Transaction(1, List.of(coinbaseInput), List.of(), 0).isCoinbase());
        Hash256 nonZero = Hash256.fromInternalHex("01" + "00".repeat(31));
        assertFalse(new Transaction(1, List.of(new TxInput(new OutPoint(nonZero, 0xffffffffL),
                coinbaseInput.scriptSig(), coinbaseInput.sequence(), List.of())), List.of(), 0).isCoinbase());
        assertFalse(new Transaction(1, List.of(new TxInput(new OutPoint(Hash256.ZERO, 0),
                coinbaseInput.scriptSig(), coinbaseInput.sequence(), List.of())), List.of(), 0).isCoinbase());
        assertFalse(new Transaction(1, List.of(coinbaseInput, coinbaseInput), List.of(), 0).isCoinbase());
        // The index must be 0xffffffff itself: taking 0xfffffffe too passed every test (found by a mutation review).
        assertFalse(new Transaction(1, List.of(new TxInput(new OutPoint(Hash256.ZERO, 0xfffffffeL),
                coinbaseInput.scriptSig(), coinbaseInput.sequence(), List.of())), List.of(), 0).isCoinbase());
    }

    /**
     * Inputs are equal when every field is: an equals that skipped the scriptSig passed every test (Transaction.equals
     * compares hashes and did not notice: found by a mutation review).
     */
    @Test
    void inputsThatDifferOnlyInTheirScriptSigAreNotEqual() {
        OutPoint prevout = new OutPoint(Hash256.ZERO, 0);
        TxInput input = new TxInput(prevout, Hex.decode("51"), 0, List.of(Hex.decode("aa")));
        assertEquals(input, new TxInput(prevout, Hex.decode("51"), 0, List.of(Hex.decode("aa"))));
        assertEquals(input.hashCode(), new TxInput(prevout, Hex.decode("51"), 0, List.of(Hex.decode("aa"))).hashCode());
        assertNotEquals(input, new TxInput(prevout, Hex.decode("52"), 0, List.of(Hex.decode("aa"))));
        assertNotEquals(input, new TxInput(prevout, Hex.decode("51"), 0, List.of(Hex.decode("ab"))));
        assertNotEquals(input, new TxInput(prevout, Hex.decode("51"), 1, List.of(Hex.decode("aa"))));
    }

    /**
     * nSequence and an outpoint's index are uint32: -1 is refused as 2^32 is, not taken and written as 0xffffffff.
     * Checking only the top of the range passed every test for both (found by a mutation review).
     */
    @Test
    void negativeUint32FieldsAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new OutPoint(Hash256.ZERO, -1));
        assertEquals("output index -1 is outside the uint32 range 0..4294967295", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new TxInput(new OutPoint(Hash256.ZERO, 0), new byte[0], -1, List.of()));
        assertEquals("nSequence -1 is outside the uint32 range", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new TxInput(new OutPoint(Hash256.ZERO, 0), new byte[0], 1L << 32, List.of()));
        assertEquals("nSequence 4294967296 is outside the uint32 range", e.getMessage());
    }

    /**
     * Inputs, outputs and outpoints that differ in one field are not equal. An input equals that skipped the outpoint
     * or the witness item count, an output equals that skipped the value and an outpoint equals that skipped the index
     * each passed every test (Transaction.equals compares hashes and did not notice: found by a mutation review). Equal
     * outpoints made from separate but equal txids have one hash code: hashing the txid's identity passed every test.
     */
    @Test
    void valuesThatDifferInOneFieldAreNotEqual() {
        OutPoint prevout = new OutPoint(Hash256.ZERO, 0);
        assertEquals(prevout, new OutPoint(Hash256.ZERO, 0));
        OutPoint spendsOne = new OutPoint(Hash256.fromInternalHex("01".repeat(32)), 1);
        assertEquals(spendsOne, new OutPoint(Hash256.fromInternalHex("01".repeat(32)), 1));
        assertEquals(spendsOne.hashCode(), new OutPoint(Hash256.fromInternalHex("01".repeat(32)), 1).hashCode());
        assertNotEquals(prevout, new OutPoint(Hash256.ZERO, 1));
        assertNotEquals(prevout, new OutPoint(Hash256.fromInternalHex("01" + "00".repeat(31)), 0));

        TxInput input = new TxInput(prevout, Hex.decode("51"), 0, List.of(Hex.decode("aa")));
        assertNotEquals(input, new TxInput(new OutPoint(Hash256.ZERO, 1), Hex.decode("51"), 0,
                List.of(Hex.decode("aa"))));
        assertNotEquals(input, new TxInput(prevout, Hex.decode("51"), 0, List.of(Hex.decode("aa"), new byte[0])));
        assertNotEquals(new TxInput(prevout, Hex.decode("51"), 0, List.of(Hex.decode("aa"), new byte[0])), input);
        assertNotEquals(input, new TxInput(prevout, Hex.decode("51"), 0, List.of()));

        TxOutput output = new TxOutput(50, Hex.decode("51"));
        assertEquals(output, new TxOutput(50, Hex.decode("51")));
        assertEquals(output.hashCode(), new TxOutput(50, Hex.decode("51")).hashCode());
        assertNotEquals(output, new TxOutput(51, Hex.decode("51")));
        assertNotEquals(output, new TxOutput(50, Hex.decode("52")));
    }

    /**
     * An output keeps its own copy of the scriptPubKey and hands out copies: keeping the caller's array, or handing out
     * its own, passed every test, and a caller's later change then changed the output (found by a mutation review).
     */
    @Test
    void anOutputKeepsItsOwnCopyOfTheScript() {
        byte[] script = Hex.decode("51");
        TxOutput output = new TxOutput(50, script);
        script[0] = 0;
        assertArrayEquals(Hex.decode("51"), output.scriptPubKey());
        output.scriptPubKey()[0] = 0;
        assertArrayEquals(Hex.decode("51"), output.scriptPubKey());
        assertEquals(new TxOutput(50, Hex.decode("51")), output);
    }

    /**
     * An outpoint's 36 bytes are Core's {@code COutPoint} serialization, txid in internal order then the index as
     * uint32 little-endian, in both {@code toBytes} and {@code writeTo(byte[], int)}. The index-0 and 0xffffffff
     * outpoints checked before read the same in either byte order; block 13b8a's transaction 3 spends output 1, whose
     * bytes below are cut from the published block by hand.
     */
    @Test
    void outPointBytesAreTheWireBytesWithALittleEndianIndex() {
        String blockHex = raw("block_13b8a");
        Block block = Block.fromHex(blockHex);
        OutPoint spendsOne = block.transactions().get(3).inputs().get(0).outPoint();
        assertEquals(1, spendsOne.index());
        assertEquals("c40297f730dd7b5a99567eb8d27b78758f607507c52292d02d4031895b52f2ff01000000",
                Hex.encode(spendsOne.toBytes()));
        byte[] placed = new byte[OutPoint.LENGTH + 3];
        spendsOne.writeTo(placed, 3);
        assertEquals("000000c40297f730dd7b5a99567eb8d27b78758f607507c52292d02d4031895b52f2ff01000000",
                Hex.encode(placed));
        for (Transaction tx : block.transactions()) {
            for (TxInput in : tx.inputs()) {
                assertTrue(blockHex.contains(Hex.encode(in.outPoint().toBytes())), in.outPoint().toString());
            }
        }
        assertEquals("00".repeat(32) + "04030201",
                Hex.encode(new OutPoint(Hash256.ZERO, 0x01020304L).toBytes()));
    }

    /**
     * The output count has the input count's limit, Core's MAX_SIZE: a count of 2^25 is refused only as more than the
     * bytes left can hold, 2^25 + 1 as above the limit. An output count limited to 65535 passed every test (only the
     * input count's limit was checked: found by a mutation review).
     */
    @Test
    void theOutputCountIsLimitedToMaxSize() {
        WireFormatException e = assertThrows(WireFormatException.class,
                () -> Transaction.fromHex(ONE_INPUT + "fe00000002" + "00".repeat(20)));
        assertEquals("transaction output count is 33554432 but at 9 bytes or more each they cannot fit in the 20"
                + " bytes left", e.getMessage());
        e = assertThrows(WireFormatException.class,
                () -> Transaction.fromHex(ONE_INPUT + "fe01000002" + "00".repeat(20)));
        assertEquals("transaction output count is 33554433; at most 33554432 is allowed", e.getMessage());
    }

    /** Version 1, one input spending output 0 of the zero txid with an empty scriptSig and nSequence 0xffffffff. */
    private static final String ONE_INPUT = "01000000" + "01" + "00".repeat(32) + "00000000" + "00" + "ffffffff";

    /**
     * A transaction keeps its own lists of inputs and outputs: keeping read-only views of the caller's lists passed
     * every test, and a caller that then changed its lists changed the transaction under its txid (found by a mutation
     * review).
     */
    @Test
    void aTransactionKeepsItsOwnListsOfInputsAndOutputs() {
        List<TxInput> inputs = new ArrayList<>(List.of(new TxInput(new OutPoint(Hash256.ZERO, 0), Hex.decode("51"), 0,
                List.of())));
        List<TxOutput> outputs = new ArrayList<>(List.of(new TxOutput(50, Hex.decode("51"))));
        Transaction tx = new Transaction(1, inputs, outputs, 0);
        inputs.add(inputs.get(0));
        outputs.clear();
        assertEquals(1, tx.inputs().size());
        assertEquals(1, tx.outputs().size());
        assertEquals(tx.txid(), Sha256d.hash(tx.serialize(false)));
    }

    /**
     * iterateScriptSig and iterateScriptPubKey point a cursor at the whole of the script, the input's and output's own
     * array (their javadoc promises no allocation). A scriptSig iterated without its last byte, and a scriptPubKey
     * iterated over a copy, each passed every test (found by a mutation review).
     */
    @Test
    void iteratingAnInputOrOutputScriptWalksAllOfItsOwnArray() {
        TxInput input = new TxInput(new OutPoint(Hash256.ZERO, 0), Hex.decode("01aa51"), 0, List.of());
        TxOutput output = new TxOutput(50, Hex.decode("76a914" + "11".repeat(20) + "88ac"));
        ScriptIterator it = new ScriptIterator();
        input.iterateScriptSig(it);
        assertTrue(it.script() == input.scriptSigArray());
        assertEquals(List.of(0x01, Opcodes.OP_1), ScriptIteratorTest.opcodes(it));
        output.iterateScriptPubKey(it);
        assertTrue(it.script() == output.scriptPubKeyArray());
        assertEquals(List.of(Opcodes.OP_DUP, Opcodes.OP_HASH160, 0x14, Opcodes.OP_EQUALVERIFY, Opcodes.OP_CHECKSIG),
                ScriptIteratorTest.opcodes(it));
    }

    /**
     * An outpoint prints as {@code txid:index} with the txid in display order, as its javadoc says and as explorers and
     * Core's RPC show it: printing the internal order passed every test (found by a mutation review).
     */
    @Test
    void anOutPointPrintsItsTxidInDisplayOrder() {
        String display = "b4749f017444b051c44dfd2720e88f314ff94f3dd6d56d40ef65854fcd7fff6b";
        assertEquals(display + ":4294967295", new OutPoint(Hash256.fromDisplayHex(display), 0xffffffffL).toString());
    }

    private static String raw(String name) {
        return BitcoinData.raw(name);
    }
}
