package org.chainfilter.testvectors.peer;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.BloomFilter;
import org.bitcoinj.core.FilteredBlock;
import org.bitcoinj.core.Transaction;
import org.chainfilter.common.Hex;
import org.chainfilter.testvectors.ConformanceRunner;
import org.chainfilter.testvectors.Expect;
import org.chainfilter.testvectors.Fields;
import org.chainfilter.testvectors.Mismatch;
import org.chainfilter.testvectors.NotCheckable;
import org.chainfilter.testvectors.SuiteExecutor;
import org.chainfilter.testvectors.Suites;
import org.chainfilter.testvectors.Vector;

/**
 * The BIP37 suites run against bitcoinj 0.17 ({@code org.bitcoinj.core.BloomFilter}, {@code FilteredBlock},
 * {@code PartialMerkleTree}) instead of chainfilter. The vectors state Bitcoin Core's behaviour, so every failure
 * here is a place where bitcoinj departs from Core (or cannot express the check); none is hidden.
 *
 * <p>bitcoinj's partial-tree extraction returns matched txids without their positions, so the
 * {@code bip37-merkleblock-verify} check compares txids only; its filters have no parse-from-parameters for flags
 * above 2, which no vector uses.
 */
public final class BitcoinjSuites {
    /**
     * How bitcoinj refuses a payload: a {@code ProtocolException} or another {@code VerificationException} (a bad
     * partial tree), or a {@code BufferUnderflowException} (read past the end). Any other exception is a crash, never
     * taken for a refusal.
     */
    static final List<Class<? extends RuntimeException>> REFUSALS = List.of(
            org.bitcoinj.core.VerificationException.class, java.nio.BufferUnderflowException.class);

    private BitcoinjSuites() {
    }

    /** Executors for the five BIP37 suites. */
    public static List<SuiteExecutor> all() {
        return List.of(new FilterSuite(), new TxMatchSuite(), new MerkleBlockSuite(), new MerkleBlockVerifySuite(),
                new FilterLoadParseSuite());
    }

    public static ConformanceRunner runner() {
        return new ConformanceRunner(all());
    }

    static BloomFilter fromParameters(Fields f) {
        int flags = f.count("flags");
        if (flags >= BloomFilter.BloomUpdate.values().length) {
            throw f.error("flags", "is " + flags + "; bitcoinj knows only the update modes 0, 1 and 2");
        }
        BloomFilter filter = new BloomFilter(f.count("elements"), f.number("fpRate"), (int) f.uint32("tweak"),
                BloomFilter.BloomUpdate.values()[flags]);
        for (byte[] item : f.hexList("insert")) {
            filter.insert(item);
        }
        return filter;
    }

    static BloomFilter filter(Vector vector) {
        if (vector.oneOf("filter", "filterload").equals("filter")) {
            return fromParameters(vector.object("filter"));
        }
        return BloomFilter.read(ByteBuffer.wrap(vector.hex("filterload")));
    }

    static void membership(Vector vector, BloomFilter filter, String containsField, String absentField)
            throws Mismatch {
        Expect.membership(vector, containsField, absentField, filter::contains, "bitcoinj's filter");
    }

    static void after(Vector vector, BloomFilter filter) throws Mismatch {
        if (vector.has("filterloadAfter")) {
            Expect.bytes("filterloadAfter", vector.hex("filterloadAfter"), filter.serialize());
        }
        membership(vector, filter, "containsAfter", "absentAfter");
    }

    static List<String> expectedTxids(Vector vector) {
        List<String> out = new ArrayList<>();
        for (Fields entry : vector.objects("matched")) {
            out.add(Hex.encode(entry.hex("txid", 32)));
        }
        return out;
    }

    static List<String> txids(List<Sha256Hash> hashes) {
        List<String> out = new ArrayList<>(hashes.size());
        for (Sha256Hash h : hashes) {
            out.add(h.toString());
        }
        return out;
    }

    static final class FilterSuite implements SuiteExecutor {
        @Override
        public String suite() {
            return Suites.BIP37_FILTER;
        }

        @Override
        public void check(Vector vector) throws Mismatch {
            BloomFilter filter = fromParameters(vector);
            Expect.bytes("filterload", vector.hex("filterload"), filter.serialize());
            membership(vector, filter, "contains", "absent");
        }
    }

    static final class TxMatchSuite implements SuiteExecutor {
        @Override
        public String suite() {
            return Suites.BIP37_TX_MATCH;
        }

        @Override
        public void check(Vector vector) throws Mismatch {
            BloomFilter filter = filter(vector);
            Transaction tx = Transaction.read(ByteBuffer.wrap(vector.hex("tx")));
            Expect.equal("match", vector.bool("match"), filter.applyAndUpdate(tx));
            after(vector, filter);
        }
    }

    static final class MerkleBlockSuite implements SuiteExecutor {
        @Override
        public String suite() {
            return Suites.BIP37_MERKLEBLOCK;
        }

        @Override
        public void check(Vector vector) throws Mismatch {
            BloomFilter filter = filter(vector);
            Block block = Block.read(ByteBuffer.wrap(vector.hex("block")));
            FilteredBlock built = filter.applyAndUpdate(block);
            if (vector.has("merkleblock")) {
                Expect.bytes("merkleblock", vector.hex("merkleblock"), built.serialize());
            }
            // Required, as the chainfilter executor requires it: without it a vector could check nothing.
            List<String> expected = new ArrayList<>();
            for (Fields entry : vector.objects("matched")) {
                expected.add(entry.count("index") + ":" + Hex.encode(entry.hex("txid", 32)));
            }
            // bitcoinj gives the matched txids; their indices are their places in the vector's block.
            List<String> got = new ArrayList<>();
            List<Transaction> txs = block.getTransactions();
            List<Sha256Hash> hashes = built.getTransactionHashes();
            for (int i = 0; i < txs.size(); i++) {
                if (hashes.contains(txs.get(i).getTxId())) {
                    got.add(i + ":" + txs.get(i).getTxId());
                }
            }
            Expect.equal("matched", expected, got);
            after(vector, filter);
        }
    }

    static final class MerkleBlockVerifySuite implements SuiteExecutor {
        @Override
        public String suite() {
            return Suites.BIP37_MERKLEBLOCK_VERIFY;
        }

        @Override
        public void check(Vector vector) throws Mismatch, NotCheckable {
            byte[] payload = vector.hex("merkleblock");
            List<Sha256Hash> matched = new ArrayList<>();
            Sha256Hash root = Expect.validity(vector.bool("valid"),
                    () -> FilteredBlock.read(ByteBuffer.wrap(payload)).getPartialMerkleTree()
                            .getTxnHashAndMerkleRoot(matched),
                    REFUSALS, r -> "bitcoinj extracted root " + r);
            if (root == null) {
                return;
            }
            if (vector.has("root")) {
                Expect.equal("root", Hex.encode(vector.hex("root", 32)), root.toString());
            }
            if (vector.has("matched")) {
                Expect.equal("matched txids", expectedTxids(vector), txids(matched));
                if (!matched.isEmpty()) {
                    // The vector states each match's index in the block too, which bitcoinj does not report.
                    throw new NotCheckable("the validity, root and txids agree; bitcoinj's PartialMerkleTree reports"
                            + " no transaction indices, so matched[].index is not checked");
                }
            }
        }
    }

    static final class FilterLoadParseSuite implements SuiteExecutor {
        @Override
        public String suite() {
            return Suites.BIP37_FILTERLOAD_PARSE;
        }

        @Override
        public void check(Vector vector) throws Mismatch {
            byte[] payload = vector.hex("filterload");
            Expect.validity(vector.bool("valid"), () -> BloomFilter.read(ByteBuffer.wrap(payload)),
                    REFUSALS, f -> "bitcoinj accepted it");
        }
    }
}
