package org.chainfilter.bip37.bitcoinj;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import org.bitcoinj.core.BloomFilter;
import org.chainfilter.bip37.Bip37BloomFilter;
import org.chainfilter.btcwire.Hash256;
import org.chainfilter.btcwire.OutPoint;
import org.chainfilter.btcwire.Transaction;
import org.chainfilter.btcwire.TxInput;
import org.chainfilter.btcwire.TxOutput;
import org.chainfilter.common.Hex;
import org.junit.jupiter.api.Test;

/**
 * Where bitcoinj 0.17.1's BIP37 code departs from Bitcoin Core (spec digest §6), each run against bitcoinj itself. A
 * test asserts what bitcoinj really does next to what Core (and chainfilter) does; where bitcoinj turns out to agree,
 * the test says so. The transaction of Core's bloom_match (bitcoin/bitcoin src/test/bloom_tests.cpp,
 * e3f416dbf7633b2fb19c933e5508bd231cc7e9cf) serves where a real transaction is needed.
 */
class BitcoinjDeviationsTest {

    private static Bip37BloomFilter core(int flags) {
        return Bip37BloomFilter.fromElementsAndRate(10, 0.000001, 0, flags);
    }

    private static Transaction payingTo(String scriptPubKeyHex) {
        return new Transaction(1, List.of(new TxInput(new OutPoint(Hash256.fromDisplayHex("11".repeat(32)), 0),
                Hex.decode("51"), 0xffffffffL, List.of())),
                List.of(new TxOutput(1000, Hex.decode(scriptPubKeyHex))), 0);
    }

    /** §6.1: bitcoinj tests the txid in display order; Core in internal order. */
    @Test
    void txidIsTestedInDisplayOrderByBitcoinj() {
        Transaction tx = Transaction.fromHex(Blocks.raw("tx_b4749f"));
        Bip37BloomFilter internal = core(0);
        internal.insert(tx.txid().internalBytes());
        assertTrue(internal.isRelevantAndUpdate(tx), "Core matches the internal-order txid");
        assertFalse(BitcoinjAdapters.toBitcoinj(core(0)).applyAndUpdate(BitcoinjAdapters.toBitcoinj(tx)));
        BloomFilter theirsInternal = BitcoinjAdapters.toBitcoinj(internalOnly(tx));
        assertFalse(theirsInternal.applyAndUpdate(BitcoinjAdapters.toBitcoinj(tx)),
                "bitcoinj misses Core's vector 'didn't match manually serialized tx hash'");
        Bip37BloomFilter display = core(0);
        display.insert(tx.txid().displayBytes());
        assertTrue(BitcoinjAdapters.toBitcoinj(display).applyAndUpdate(BitcoinjAdapters.toBitcoinj(tx)));
        assertFalse(display.isRelevantAndUpdate(tx), "Core does not match the display-order bytes");
    }

    private static Bip37BloomFilter internalOnly(Transaction tx) {
        Bip37BloomFilter filter = core(0);
        filter.insert(tx.txid());
        return filter;
    }

    /** §6.2: after a txid hit bitcoinj returns at once, so a matching output's outpoint is not inserted. */
    @Test
    void noOutpointUpdateAfterATxidHitInBitcoinj() {
        Transaction tx = Transaction.fromHex(Blocks.raw("tx_b4749f"));
        byte[] outputPush = Hex.decode("04943fdd508053c75000106d3bc6e2754dbcff19");
        OutPoint firstOutput = new OutPoint(tx.txid(), 0);

        Bip37BloomFilter ours = core(1);
        ours.insert(tx.txid());
        ours.insert(outputPush);
        assertTrue(ours.isRelevantAndUpdate(tx));
        assertTrue(ours.containsOutPoint(firstOutput), "Core keeps scanning outputs and inserts the outpoint");

        Bip37BloomFilter forBitcoinj = core(1);
        forBitcoinj.insert(tx.txid().displayBytes());
        forBitcoinj.insert(outputPush);
        BloomFilter theirs = BitcoinjAdapters.toBitcoinj(forBitcoinj);
        assertTrue(theirs.applyAndUpdate(BitcoinjAdapters.toBitcoinj(tx)));
        assertFalse(theirs.contains(firstOutput.toBytes()), "bitcoinj returned before updating");
    }

    /**
     * §6.3: outputs with OP_1..OP_16 (P2TR {@code OP_1 <32>}, bare multisig). Run, bitcoinj throws the
     * NullPointerException the digest predicted from its code ({@code isPushData()} is true for OP_1..OP_16 but
     * {@code pushData()} is null); Core skips the small integer and matches the program.
     */
    @Test
    void smallIntegerOutputsThrowInBitcoinj() {
        Transaction taproot = payingTo("5120" + "22".repeat(32));
        Bip37BloomFilter ours = core(1);
        ours.insert(Hex.decode("22".repeat(32)));
        BloomFilter theirs = BitcoinjAdapters.toBitcoinj(ours);
        assertTrue(ours.isRelevantAndUpdate(taproot));
        assertThrows(NullPointerException.class, () -> theirs.applyAndUpdate(BitcoinjAdapters.toBitcoinj(taproot)));
        Transaction multisig = payingTo("5121" + "02" + "33".repeat(32) + "51ae");
        Bip37BloomFilter key = core(2);
        key.insert(Hex.decode("02" + "33".repeat(32)));
        BloomFilter theirKey = BitcoinjAdapters.toBitcoinj(key);
        assertTrue(key.isRelevantAndUpdate(multisig));
        assertTrue(key.containsOutPoint(new OutPoint(multisig.txid(), 0)), "Core: MULTISIG, outpoint inserted");
        assertThrows(NullPointerException.class,
                () -> theirKey.applyAndUpdate(BitcoinjAdapters.toBitcoinj(multisig)));
    }

    /** §6.3: OP_0 is an empty push; Core skips empty data, bitcoinj tests it. */
    @Test
    void emptyPushMatchesInBitcoinjOnly() {
        Transaction p2wpkh = payingTo("0014" + "44".repeat(20));
        Bip37BloomFilter ours = core(0);
        ours.insert(new byte[0]);
        BloomFilter theirs = BitcoinjAdapters.toBitcoinj(ours);
        assertFalse(ours.isRelevantAndUpdate(p2wpkh), "Core skips the empty push of OP_0");
        assertTrue(theirs.applyAndUpdate(BitcoinjAdapters.toBitcoinj(p2wpkh)), "bitcoinj matches the empty item");
    }

    /** §6 "Other differences": floating-point division in the hash count, e.g. (9, 0.01) and (5, 0.05). */
    @Test
    void floatingPointHashCountInBitcoinj() {
        assertEquals(5, Bip37BloomFilter.fromElementsAndRate(9, 0.01, 0, 0).hashFunctionCount());
        assertEquals(6, BitcoinjAdapters.fromBitcoinj(new BloomFilter(9, 0.01, 0)).hashFunctionCount());
        assertEquals(2, Bip37BloomFilter.fromElementsAndRate(5, 0.05, 0, 0).hashFunctionCount());
        assertEquals(3, BitcoinjAdapters.fromBitcoinj(new BloomFilter(5, 0.05, 0)).hashFunctionCount());
        assertEquals(0, Bip37BloomFilter.fromElementsAndRate(1, 0.1, 0, 0).byteLength());
        assertEquals(1, BitcoinjAdapters.fromBitcoinj(new BloomFilter(1, 0.1, 0)).byteLength(),
                "bitcoinj clamps to 1 byte where Core builds the 0-byte match-all filter");
    }

    /** §6.6: bitcoinj does not mask nFlags; Core reads 0x05 as UPDATE_ALL. */
    @Test
    void unmaskedFlagsThrowInBitcoinj() {
        Bip37BloomFilter ours = Bip37BloomFilter.fromParts(new byte[] {0}, 1, 0, 0x05);
        BloomFilter theirs = BitcoinjAdapters.toBitcoinj(ours);
        IllegalStateException e = assertThrows(IllegalStateException.class, theirs::getUpdateFlag);
        assertEquals("Unknown flag combination", e.getMessage());
        assertEquals(org.chainfilter.bip37.Bip37UpdateMode.ALL, ours.updateMode());
    }

    /** §6 "Missing": a 0-byte filter read by bitcoinj divides by zero; Core matches everything. */
    @Test
    void emptyFilterDividesByZeroInBitcoinj() {
        BloomFilter theirs = BloomFilter.read(ByteBuffer.wrap(Hex.decode("00010000000000000001")));
        assertThrows(ArithmeticException.class, () -> theirs.contains(new byte[] {1}));
        assertTrue(Bip37BloomFilter.parseFilterLoadHex("00010000000000000001").contains(new byte[] {1}));
    }

    /** §6.5: bitcoinj's P2PK test takes any push of 2+ bytes before OP_CHECKSIG; Core's Solver wants a valid key. */
    @Test
    void looseP2pkUnderP2PubKeyOnlyInBitcoinj() {
        Transaction odd = payingTo("02abcdac");
        Bip37BloomFilter ours = core(2);
        ours.insert(Hex.decode("abcd"));
        BloomFilter theirs = BitcoinjAdapters.toBitcoinj(ours);
        assertTrue(ours.isRelevantAndUpdate(odd));
        assertTrue(theirs.applyAndUpdate(BitcoinjAdapters.toBitcoinj(odd)));
        byte[] outPoint = new OutPoint(odd.txid(), 0).toBytes();
        assertFalse(ours.contains(outPoint), "Core: not PUBKEY, no update");
        assertTrue(theirs.contains(outPoint), "bitcoinj: inserted the outpoint");
    }

    /** §6.7: a push running past the end: Core still tests the pushes before it; bitcoinj throws for the script. */
    @Test
    void malformedScriptInBitcoinj() {
        Transaction tx = payingTo("02abcd" + "4c05");
        Bip37BloomFilter ours = core(0);
        ours.insert(Hex.decode("abcd"));
        BloomFilter theirs = BitcoinjAdapters.toBitcoinj(ours);
        assertTrue(ours.isRelevantAndUpdate(tx));
        assertThrows(org.bitcoinj.script.ScriptException.class,
                () -> theirs.applyAndUpdate(BitcoinjAdapters.toBitcoinj(tx)));
    }
}
