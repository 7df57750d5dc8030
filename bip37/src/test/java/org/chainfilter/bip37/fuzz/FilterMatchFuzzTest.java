package org.chainfilter.bip37.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Arrays;
import java.util.Optional;
import org.chainfilter.bip37.Bip37BloomFilter;
import org.chainfilter.bip37.Bip37UpdateMode;
import org.chainfilter.btcwire.Transaction;
import org.chainfilter.testkit.ParserContract;

/**
 * Fuzzes {@link Bip37BloomFilter#isRelevantAndUpdate(Transaction)} with a hostile filter and a hostile transaction:
 * the input is a 2-byte big-endian length L, a {@code filterload} payload of L bytes, then a transaction. Matching
 * walks every script with Core's GetOp and, under P2PUBKEY_ONLY, runs the Solver's pay-to-pubkey and bare-multisig
 * templates over arbitrary scripts: none of it may throw. Invariants: the filter only grows (a match stays a match on
 * a second call, the set-bit count never falls), and under BLOOM_UPDATE_NONE it does not change at all.
 *
 * <p>Seeds ({@code FilterMatchFuzzTestInputs/match}) pair filters with transactions of the shared BIP37 vectors
 * (Bitcoin Core {@code src/test/bloom_tests.cpp} at e3f416dbf7633b2fb19c933e5508bd231cc7e9cf): the bloom_match
 * transaction and spending transaction and the transactions of merkle_block_4 (P2PK coinbase, P2PKH), each against
 * an all-ones filter under each update mode and against the empty (match-all) filter. Sparse filters, so that the
 * growth checks start from a filter with clear bits, are paired with the transaction each was made for; the
 * filters are built as Core builds them ({@code Bip37BloomFilter.fromElementsAndRate}, Core's
 * {@code CBloomFilter(10, 0.000001, 0, nFlags)}, then the items inserted) from the project's conformance vectors
 * ({@code testvectors}, from the same Core test file and commit):
 * <ul>
 *   <li>{@code core-bloom_match-*--bloom_match-*} ({@code bip37-tx-match.core.json}, bloom_match): the hash160 of
 *       the tx's output 0 under UPDATE_ALL (matching adds the outpoint: 19 of 280 bits set, then 35) and under
 *       UPDATE_NONE (unchanged); the same UPDATE_ALL filter after matching the tx, against the spending tx (the
 *       update case's second step); the spent outpoint (case #7, matches); a random txid (case #9, no match);</li>
 *   <li>{@code core-merkle_block_4-*} ({@code bip37-merkleblock.core.json}, merkle_block_4_test_p2pubkey_only and
 *       _update_none: the coinbase's P2PK key and tx 3's P2PKH hash): under P2PUBKEY_ONLY against the coinbase tx0
 *       (adds its outpoint: 34 bits, then 50) and tx3 (matches, adds nothing); under UPDATE_NONE against tx0.</li>
 * </ul>
 * {@code bitcoinj-walletTest-p2pubkey_only--walletTest-tx} is the published filterload of bitcoinj's
 * {@code BloomFilterTest.walletTest} (@ 13e137ec1deefbc709d7a958906c56d89c084ba8, in
 * {@code bip37-filter.bitcoinj.json}) with the coinbase tx 3ce8339e... that test reads (its hex as transcribed in
 * the shared BIP37 vectors, key_insert bitcoinj_walletTest), whose P2PK output pays a key in the filter.
 */
class FilterMatchFuzzTest {
    private static final ParserContract<Bip37BloomFilter> FILTERLOAD =
            ParserContract.refusing("Bip37BloomFilter.parseFilterLoad", IllegalArgumentException.class);
    private static final ParserContract<Transaction> TX =
            ParserContract.refusing("Transaction.parse", IllegalArgumentException.class);

    @FuzzTest(maxDuration = "5m")
    void match(byte[] input) {
        if (input.length < 2) {
            return;
        }
        int filterLength = Math.min(input.length - 2, (input[0] & 0xff) << 8 | input[1] & 0xff);
        byte[] filterBytes = Arrays.copyOfRange(input, 2, 2 + filterLength);
        byte[] txBytes = Arrays.copyOfRange(input, 2 + filterLength, input.length);
        Optional<Bip37BloomFilter> parsedFilter =
                FILTERLOAD.parse(filterBytes.length, () -> Bip37BloomFilter.parseFilterLoad(filterBytes));
        Optional<Transaction> parsedTx = TX.parse(txBytes.length, () -> Transaction.parse(txBytes));
        if (parsedFilter.isEmpty() || parsedTx.isEmpty()) {
            return;
        }
        Bip37BloomFilter filter = parsedFilter.get();
        Transaction tx = parsedTx.get();
        Bip37BloomFilter before = filter.copy();
        boolean relevant = filter.isRelevantAndUpdate(tx);
        if (filter.setBitCount() < before.setBitCount()) {
            throw new AssertionError("matching cleared bits of " + before);
        }
        if (filter.updateMode() == Bip37UpdateMode.NONE && !filter.equals(before)) {
            throw new AssertionError("BLOOM_UPDATE_NONE filter changed while matching " + tx);
        }
        if (relevant && !filter.isRelevantAndUpdate(tx)) {
            throw new AssertionError("a relevant transaction stopped matching the filter it updated: " + tx);
        }
    }
}
