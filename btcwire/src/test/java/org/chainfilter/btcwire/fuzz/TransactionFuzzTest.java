package org.chainfilter.btcwire.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.chainfilter.btcwire.Sha256d;
import org.chainfilter.btcwire.Transaction;
import org.chainfilter.testkit.ParserContract;

/**
 * Fuzzes {@link Transaction#parse(byte[])} (legacy and BIP144 serializations). Only
 * {@link IllegalArgumentException}s ({@code WireFormatException}) may escape, allocation stays bounded by the input,
 * and an accepted transaction serializes back to exactly the input (the parser refuses non-canonical CompactSizes and
 * trailing bytes, so there is one encoding per transaction) with txid = dSHA256 of the non-witness form.
 *
 * <p>Seeds ({@code TransactionFuzzTestInputs/parse}): every transaction of the four blocks of Bitcoin Core
 * {@code src/test/bloom_tests.cpp} (merkle_block_1..4) at commit e3f416dbf7633b2fb19c933e5508bd231cc7e9cf and of the
 * ten testnet blocks of {@code src/test/data/blockfilters.json} at commit c7efb652f3543b001b4dd22186a354605b14f47e
 * (four of them segwit), one file per transaction; the two transactions of {@code bloom_tests.cpp} bloom_match, one
 * with the stray trailing byte of Core's C array; and hand-made edge cases ({@code edge-*}: an empty vin with a zero
 * flags byte, a count claiming 65535 inputs, a non-canonical count).
 */
class TransactionFuzzTest {
    private static final ParserContract<Transaction> TX =
            ParserContract.refusing("Transaction.parse", IllegalArgumentException.class);

    @FuzzTest(maxDuration = "5m")
    void parse(byte[] input) {
        TX.parse(input.length, () -> Transaction.parse(input)).ifPresent(tx -> {
            ParserContract.assertCanonical("transaction", input, tx.serialize(true));
            if (!tx.txid().equals(Sha256d.hash(tx.serialize(false)))) {
                throw new AssertionError("txid is not dSHA256 of the non-witness serialization: " + tx);
            }
            if (tx.hasWitness() && tx.txid().equals(tx.wtxid())) {
                throw new AssertionError("a witness transaction has wtxid == txid: " + tx);
            }
        });
    }
}
