package org.chainfilter.bip37;

import static org.chainfilter.bip37.Vectors.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.chainfilter.btcwire.Hash256;
import org.chainfilter.btcwire.OutPoint;
import org.chainfilter.btcwire.Transaction;
import org.chainfilter.btcwire.TxInput;
import org.chainfilter.btcwire.TxOutput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TransactionMatchTest {

    private static Bip37BloomFilter fresh(int flags) {
        return Bip37BloomFilter.fromElementsAndRate(10, 0.000001, 0, flags);
    }

    /**
     * bitcoin/bitcoin src/test/bloom_tests.cpp bloom_match (e3f416dbf7): each item in a fresh (10, 1e-6, 0,
     * UPDATE_ALL) filter, then IsRelevantAndUpdate on tx b4749f…ff6b. Items are the inserted bytes (uint256 and
     * COutPoint already in their serialized, internal order).
     */
    @ParameterizedTest(name = "{2}")
    @CsvSource({
        "6bff7fcd4f8565ef406dd5d63d4ff94f318fe82027fd4dc451b04474019f74b4, true, txid via uint256",
        "30450220070aca44506c5cef3a16ed519d7c3c39f8aab192c4e1c90d065f37b8a4af6141022100a8e160b856c2d43d27d8fba71e5aef6405b8643ac4cb7cb3c462aced7f14711a01, true, input signature",
        "046d11fee51b0e60666d5049a9101a72741df480b96ee26488a4d3466b95c9a40ac5eeef87e10a5cd336c19a84565f80fa6c547957b7700ff4dfbdefe76036c339, true, input pubkey",
        "04943fdd508053c75000106d3bc6e2754dbcff19, true, output 0 address",
        "a266436d2965547608b9e15d9032a7b9d64fa431, true, output 1 address",
        "0b26e9b7735eb6aabdf358bab62f9816a21ba9ebdb719d5299e88607d722c19000000000, true, spent outpoint",
        "3604112b83ff15b943736458a67be0985bf4d4639784ef622ff384e709000000, false, random tx hash",
        "0000006d2965547608b9e15d9032a7b9d64fa431, false, random address",
        "0b26e9b7735eb6aabdf358bab62f9816a21ba9ebdb719d5299e88607d722c19001000000, false, outpoint wrong index",
        "0b26e9b7735eb6aabdf358bab62f9816a21ba9ebdb719d5299e88607d700000000000000, false, outpoint wrong txid"
    })
    void publishedBloomMatchCases(String item, boolean expected, String what) {
        Bip37BloomFilter filter = fresh(1);
        filter.insert(hex(item));
        assertEquals(expected, filter.isRelevantAndUpdate(Vectors.tx("tx_b4749f")), what);
    }

    /** bloom_match: uint256 and COutPoint forms give the same bytes as the manual serializations above. */
    @Test
    void typedInsertsEqualTheManualSerializations() {
        Bip37BloomFilter typed = fresh(1);
        typed.insert(Vectors.uint256("b4749f017444b051c44dfd2720e88f314ff94f3dd6d56d40ef65854fcd7fff6b"));
        typed.insertOutPoint(new OutPoint(
                Vectors.uint256("90c122d70786e899529d71dbeba91ba216982fb6ba58f3bdaab65e73b7e9260b"), 0));
        Bip37BloomFilter manual = fresh(1);
        manual.insert(hex("6bff7fcd4f8565ef406dd5d63d4ff94f318fe82027fd4dc451b04474019f74b4"));
        manual.insert(hex("0b26e9b7735eb6aabdf358bab62f9816a21ba9ebdb719d5299e88607d722c19000000000"));
        assertEquals(manual, typed);
    }

    /** bloom_match "didn't add output": UPDATE_ALL inserts (tx, 0), so the spending tx then matches. */
    @Test
    void publishedUpdateCase() {
        Bip37BloomFilter filter = fresh(1);
        filter.insert(hex("04943fdd508053c75000106d3bc6e2754dbcff19"));
        assertTrue(filter.isRelevantAndUpdate(Vectors.tx("tx_b4749f")));
        assertTrue(filter.isRelevantAndUpdate(Vectors.tx("tx_e2769b")));
        Bip37BloomFilter none = fresh(0);
        none.insert(hex("04943fdd508053c75000106d3bc6e2754dbcff19"));
        assertTrue(none.isRelevantAndUpdate(Vectors.tx("tx_b4749f")));
        assertFalse(none.isRelevantAndUpdate(Vectors.tx("tx_e2769b")));
    }

    /** Core keeps scanning outputs after a txid hit (bitcoinj returns at once): the outpoint is still inserted. */
    @Test
    void txidHitStillUpdatesOutpoints() {
        Transaction tx = Vectors.tx("tx_b4749f");
        Bip37BloomFilter filter = fresh(1);
        filter.insert(tx.txid());
        filter.insert(hex("a266436d2965547608b9e15d9032a7b9d64fa431"));
        assertTrue(filter.isRelevantAndUpdate(tx));
        assertTrue(filter.containsOutPoint(new OutPoint(tx.txid(), 1)));
    }

    private static Transaction payingTo(byte[] scriptPubKey, byte[] scriptSig) {
        return new Transaction(1, List.of(new TxInput(new OutPoint(Hash256.ZERO, 0), scriptSig, 0xffffffffL, List.of())),
                List.of(new TxOutput(1000, scriptPubKey)), 0);
    }

    /**
     * Core returns true after the outputs when the txid alone matched, before it looks at any input: a transaction
     * without outputs whose txid is in the filter matches, although its one input is not in the filter.
     */
    @Test
    void aTxidHitMatchesEvenWithoutOutputs() {
        Transaction tx = new Transaction(1, List.of(new TxInput(new OutPoint(Hash256.ZERO, 0), hex("01aa"),
                0xffffffffL, List.of())), List.of(), 0);
        Bip37BloomFilter filter = fresh(1);
        assertFalse(filter.copy().isRelevantAndUpdate(tx));
        filter.insert(tx.txid());
        assertTrue(filter.isRelevantAndUpdate(tx));
    }

    /** Core skips empty pushes: OP_0 never matches, even though an empty item is in the filter. */
    @Test
    void emptyPushesNeverMatch() {
        Bip37BloomFilter filter = fresh(1);
        filter.insert(new byte[0]);
        assertFalse(filter.isRelevantAndUpdate(payingTo(hex("00"), hex("004c00"))));
    }

    /** OP_1..OP_16 carry no data; the push after them still matches (bitcoinj's pushData() would be null here). */
    @Test
    void smallIntegerOpsAreSkippedAndTaprootProgramsMatch() {
        byte[] program = hex("11".repeat(32));
        Bip37BloomFilter filter = fresh(1);
        filter.insert(program);
        Transaction tx = payingTo(hex("5120" + "11".repeat(32)), new byte[0]);
        assertTrue(filter.isRelevantAndUpdate(tx));
        assertTrue(filter.containsOutPoint(new OutPoint(tx.txid(), 0)));
    }

    /**
     * A push running past the end stops the scan, but the pushes before it still count (Core's GetOp loop); the bytes
     * of the truncated push itself are never tested, even when the filter holds them.
     */
    @Test
    void malformedScriptsKeepTheirEarlierPushes() {
        Bip37BloomFilter filter = fresh(0);
        filter.insert(hex("aabb"));
        assertTrue(filter.isRelevantAndUpdate(payingTo(hex("02aabb" + "4c05cc"), new byte[0])));
        assertFalse(filter.isRelevantAndUpdate(payingTo(hex("4c05aabb"), new byte[0])));
        assertFalse(filter.isRelevantAndUpdate(payingTo(hex("51"), hex("4c05aabb"))));
        Bip37BloomFilter input = fresh(0);
        input.insert(hex("cc"));
        assertTrue(input.isRelevantAndUpdate(payingTo(hex("51"), hex("01cc" + "4d"))));
    }

    private static final String KEY33 = "021111111111111111111111111111111111111111111111111111111111111111";
    private static final String KEY65 = "0422222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222";

    /**
     * P2PUBKEY_ONLY inserts the outpoint only for Solver's PUBKEY and MULTISIG (spec §3.1). The filter holds a push of
     * every script, so each one matches and the outpoint answer is the classifier's alone.
     */
    @ParameterizedTest(name = "{2}")
    @CsvSource({
        "21" + KEY33 + "ac, true, compressed P2PK",
        "41" + KEY65 + "ac, true, uncompressed P2PK",
        "21051111111111111111111111111111111111111111111111111111111111111111ac, false, P2PK shape with a 0x05 key prefix",
        "410222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222ac, false, 65-byte push with a compressed prefix",
        "03" + "051111" + "ac, false, a 3-byte push where the key goes",
        "76a914333333333333333333333333333333333333333388ac, false, P2PKH",
        "5121" + KEY33 + "51ae, true, 1-of-1 multisig",
        "5221" + KEY33 + "41" + KEY65 + "52ae, true, 2-of-2 multisig",
        "0101" + "21" + KEY33 + "0101" + "ae, false, m as non-minimal push",
        "5121" + KEY33 + "52ae, false, n not equal to key count",
        "5221" + KEY33 + "51ae, false, n below m",
        "5121" + KEY33 + "51" + "51ae, false, two ops after n",
        "5121" + KEY33 + "51af, false, CHECKMULTISIGVERIFY",
        "0021" + KEY33 + "51ae, false, m zero"
    })
    void solverPubKeyAndMultisig(String script, boolean expected, String what) {
        assertEquals(expected, StandardScripts.isPayToPubKeyOrBareMultisig(hex(script)), what);
        Bip37BloomFilter filter = fresh(2);
        filter.insert(hex(KEY33));
        filter.insert(hex(KEY65));
        filter.insert(hex("33".repeat(20)));
        filter.insert(hex("11"));
        filter.insert(hex("05" + "11".repeat(32)));
        filter.insert(hex("02" + "22".repeat(64)));
        filter.insert(hex("051111"));
        Transaction tx = payingTo(hex(script), new byte[0]);
        assertTrue(filter.isRelevantAndUpdate(tx), what);
        assertEquals(expected, filter.containsOutPoint(new OutPoint(tx.txid(), 0)), what);
    }

    private static String keys(int count) {
        return ("21" + KEY33).repeat(count);
    }

    /**
     * The edges of Core's Solver (script/solver.cpp MatchPayToPubkey, MatchMultisig, GetScriptNumber): up to
     * MAX_PUBKEYS_PER_MULTISIG = 20 keys; m and n as OP_n or a minimal push (CheckMinimalPush, so not OP_PUSHDATA1 for
     * one byte) of a minimal CScriptNum, a negative one out of range; CPubKey::ValidSize takes 03 as well as 02 for 33
     * bytes and the hybrid prefixes 06 and 07 for 65 bytes; PUBKEY needs the script's first byte to be the key's push.
     */
    @ParameterizedTest(name = "{2}")
    @CsvSource({
        "0114" + "KEYS20" + "0114ae, true, 20-of-20",
        "51" + "KEYS20" + "0114ae, true, 1-of-20",
        "51" + "KEYS21" + "0115ae, false, 1-of-21",
        "0115" + "KEYS21" + "0115ae, false, 21-of-21",
        "4c0111" + "KEYS17" + "0111ae, false, m as OP_PUSHDATA1",
        "0111" + "KEYS17" + "4c0111ae, false, n as OP_PUSHDATA1",
        "60" + "KEYS17" + "0111ae, true, 16-of-17",
        "0110" + "KEYS17" + "0111ae, false, m of 16 as a one-byte push, not OP_16",
        "0191" + "KEYS17" + "0111ae, false, m of -17",
        "51" + "KEYS17" + "0191ae, false, n of -17",
        "41" + "KEY65:06" + "ac, true, P2PK with a hybrid 06 key",
        "41" + "KEY65:07" + "ac, true, P2PK with a hybrid 07 key",
        "41" + "KEY65:05" + "ac, false, P2PK with a 65-byte 05 key",
        "5141" + "KEY65:07" + "51ae, true, 1-of-1 multisig with a hybrid key",
        "21" + "KEY33:03" + "ac, true, P2PK with a 03 key",
        "5121" + "KEY33:03" + "51ae, true, 1-of-1 multisig with a 03 key",
        "5121" + KEY33 + "51aeae, false, 1-of-1 multisig followed by a second OP_CHECKMULTISIG",
        "51" + KEY33 + "ac, false, P2PK shape without the 0x21 push",
        "51" + KEY65 + "ac, false, P2PK shape without the 0x41 push",
        "21" + KEY33 + "ad, false, P2PK shape ending in OP_CHECKSIGVERIFY"
    })
    void solverEdges(String template, boolean expected, String what) {
        String script = template.replace("KEYS20", keys(20)).replace("KEYS21", keys(21)).replace("KEYS17", keys(17));
        for (String prefix : new String[] {"05", "06", "07"}) {
            script = script.replace("KEY65:" + prefix, prefix + KEY65.substring(2));
        }
        script = script.replace("KEY33:03", "03" + KEY33.substring(2));
        assertEquals(expected, StandardScripts.isPayToPubKeyOrBareMultisig(hex(script)), what);
    }

    /**
     * Core scans every output, also after one matched: under UPDATE_ALL each output with a pushed element in the
     * filter has its outpoint inserted, under P2PUBKEY_ONLY each such output that is PUBKEY or MULTISIG.
     */
    @Test
    void everyMatchingOutputIsUpdated() {
        String p2pkh = "76a914" + "33".repeat(20) + "88ac";
        Transaction tx = new Transaction(1, List.of(new TxInput(new OutPoint(Hash256.ZERO, 0), new byte[0],
                0xffffffffL, List.of())), List.of(new TxOutput(1, hex("21" + KEY33 + "ac")),
                new TxOutput(2, hex(p2pkh)), new TxOutput(3, hex("76a914" + "44".repeat(20) + "88ac")),
                new TxOutput(4, hex("5121" + KEY33 + "51ae"))), 0);
        boolean[][] expected = {{true, true, false, true}, {true, false, false, true}};
        for (int flags = 1; flags <= 2; flags++) {
            Bip37BloomFilter filter = fresh(flags);
            filter.insert(hex(KEY33));
            filter.insert(hex("33".repeat(20)));
            assertTrue(filter.isRelevantAndUpdate(tx));
            for (int i = 0; i < 4; i++) {
                assertEquals(expected[flags - 1][i], filter.containsOutPoint(new OutPoint(tx.txid(), i)),
                        "flags " + flags + ", output " + i);
            }
        }
    }

    /** Core's MatchMultisig starts with {@code script.size() < 1}: an empty script is no multisig, not an error. */
    @Test
    void anEmptyScriptIsNeitherPubKeyNorMultisig() {
        assertFalse(StandardScripts.isBareMultisig(new byte[0]));
        assertFalse(StandardScripts.isPayToPubKeyOrBareMultisig(new byte[0]));
    }

    @Test
    void multisigWithAMinimalPushForTheNumbers() {
        StringBuilder keys = new StringBuilder();
        for (int i = 0; i < 17; i++) {
            keys.append("21").append(KEY33);
        }
        assertTrue(StandardScripts.isBareMultisig(hex("0111" + keys + "0111ae")));
        assertFalse(StandardScripts.isBareMultisig(hex("0111" + keys + "0112ae")));
        assertFalse(StandardScripts.isBareMultisig(hex("51" + "21" + KEY33 + "0201" + "00ae")));
    }
}
