package org.chainfilter.bip37;

import java.util.Objects;
import org.chainfilter.btcwire.Hash256;

/** A transaction a merkle block proves: its position in the block (0 = coinbase) and its txid. Immutable. */
public final class MatchedTransaction {
    private final int index;
    private final Hash256 txid;

    public MatchedTransaction(int index, Hash256 txid) {
        if (index < 0) {
            throw new IllegalArgumentException("transaction index " + index + " is negative");
        }
        this.index = index;
        this.txid = Objects.requireNonNull(txid, "txid");
    }

    /** The position in the block, from 0. */
    public int index() {
        return index;
    }

    public Hash256 txid() {
        return txid;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MatchedTransaction m && m.index == index && m.txid.equals(txid);
    }

    @Override
    public int hashCode() {
        return index * 31 + txid.hashCode();
    }

    /** {@code index:txid} with the txid in display hex. */
    @Override
    public String toString() {
        return index + ":" + txid;
    }
}
