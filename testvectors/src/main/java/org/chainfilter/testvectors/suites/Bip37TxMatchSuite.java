package org.chainfilter.testvectors.suites;

import org.chainfilter.bip37.Bip37BloomFilter;
import org.chainfilter.btcwire.Transaction;
import org.chainfilter.testvectors.Expect;
import org.chainfilter.testvectors.Mismatch;
import org.chainfilter.testvectors.SuiteExecutor;
import org.chainfilter.testvectors.Suites;
import org.chainfilter.testvectors.Vector;

/**
 * {@code bip37-tx-match}: {@link Bip37BloomFilter#isRelevantAndUpdate} of {@code tx} answers {@code match}, and the
 * filter's state afterwards is as listed.
 */
public final class Bip37TxMatchSuite implements SuiteExecutor {
    @Override
    public String suite() {
        return Suites.BIP37_TX_MATCH;
    }

    @Override
    public void check(Vector vector) throws Mismatch {
        Bip37BloomFilter filter = Bip37Vectors.filter(vector);
        Transaction tx = Transaction.parse(vector.hex("tx"));
        Expect.equal("match", vector.bool("match"), filter.isRelevantAndUpdate(tx));
        Bip37Vectors.checkAfter(vector, filter);
    }
}
