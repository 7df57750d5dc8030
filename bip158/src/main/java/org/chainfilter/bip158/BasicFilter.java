package org.chainfilter.bip158;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.chainfilter.btcwire.Block;
import org.chainfilter.btcwire.Hash256;
import org.chainfilter.btcwire.Transaction;
import org.chainfilter.btcwire.TxOutput;
import org.chainfilter.common.hash.SipHash24;

/**
 * A BIP158 basic block filter (filter type {@code 0x00}; Core {@code BlockFilter} with {@code BlockFilterType::BASIC}),
 * immutable: a {@link GcsFilter} with {@code P = 19}, {@code M = 784931} and the SipHash key taken from the first 16
 * bytes of the block hash in internal byte order ({@code k0 = LE64(hash[0..8))}, {@code k1 = LE64(hash[8..16))}).
 *
 * <p>Elements (BIP158 "Contents"; Core {@code BasicFilterElements}): every output script of every transaction,
 * coinbase included, except empty scripts and scripts whose first byte is {@code OP_RETURN} (0x6a; the test is on
 * byte 0 only, no script parsing); and every non-empty script spent by the block's inputs (no OP_RETURN test there, as
 * in Core). The elements form a set of byte strings: byte-equal scripts count once.
 */
public final class BasicFilter {
    /** The filter type byte of "basic" filters. */
    public static final int FILTER_TYPE = 0x00;
    /** Golomb-Rice parameter of basic filters (Core {@code BASIC_FILTER_P}). */
    public static final int P = 19;
    /** Inverse false-positive rate of basic filters (Core {@code BASIC_FILTER_M}). */
    public static final long M = 784931;

    private static final int OP_RETURN = 0x6a;

    private final Hash256 blockHash;
    private final GcsFilter filter;

    private BasicFilter(Hash256 blockHash, GcsFilter filter) {
        this.blockHash = blockHash;
        this.filter = filter;
    }

    /**
     * Builds the basic filter of {@code block}.
     *
     * @param spentScripts the scriptPubKeys spent by the block's inputs, one per input of every transaction after the
     *                     first, in block order (the block's undo data; empty scripts included as empty arrays)
     * @throws IllegalArgumentException when the block, the list of spent scripts or one of them is null, when the
     *                                  number of spent scripts is not the number of spending inputs, or as
     *                                  {@link GcsFilter#build(GcsParams, Collection)} does (more than
     *                                  {@link GcsFilter#MAX_ELEMENT_COUNT} distinct scripts)
     */
    public static BasicFilter build(Block block, List<byte[]> spentScripts) {
        List<byte[]> elements = elements(block, spentScripts);
        return new BasicFilter(block.hash(), GcsFilter.build(params(block.hash()), elements));
    }

    /**
     * The elements of the basic filter of {@code block}, duplicates not yet merged (the GCS merges byte-equal ones).
     *
     * @throws IllegalArgumentException as {@link #build(Block, List)} does for the block and the spent scripts
     * @see #build(Block, List)
     */
    public static List<byte[]> elements(Block block, List<byte[]> spentScripts) {
        if (block == null) {
            throw new IllegalArgumentException("block is null");
        }
        if (spentScripts == null) {
            throw new IllegalArgumentException("spent scripts are null; a block with only a coinbase spends an empty"
                    + " list");
        }
        int index = 0;
        for (byte[] script : spentScripts) {
            if (script == null) {
                throw new IllegalArgumentException("spent script " + index + " of block " + block.hash() + " is null"
                        + " (an empty script is an empty array)");
            }
            index++;
        }
        List<Transaction> transactions = block.transactions();
        int spendingInputs = 0;
        for (int i = 1; i < transactions.size(); i++) {
            spendingInputs += transactions.get(i).inputs().size();
        }
        if (spentScripts.size() != spendingInputs) {
            throw new IllegalArgumentException("block " + block.hash() + " has " + spendingInputs
                    + " inputs after its coinbase but " + spentScripts.size() + " spent scripts were given");
        }
        List<byte[]> elements = new ArrayList<>(spendingInputs + 2 * transactions.size());
        for (Transaction tx : transactions) {
            for (TxOutput output : tx.outputs()) {
                byte[] script = output.scriptPubKey();
                if (script.length > 0 && (script[0] & 0xff) != OP_RETURN) {
                    elements.add(script);
                }
            }
        }
        for (byte[] script : spentScripts) {
            if (script.length > 0) {
                elements.add(script);
            }
        }
        return elements;
    }

    /**
     * Parses a served basic filter (e.g. the payload of a {@code cfilter} message) for the block {@code blockHash}.
     *
     * @throws IllegalArgumentException as {@link GcsFilter#parse} does
     */
    public static BasicFilter parse(Hash256 blockHash, byte[] encoded) {
        return new BasicFilter(blockHash, GcsFilter.parse(params(blockHash), encoded));
    }

    /** The GCS parameters of the basic filter of the block {@code blockHash}: P = 19, M = 784931, its key. */
    public static GcsParams params(Hash256 blockHash) {
        byte[] internal = blockHash.internalBytes();
        return GcsParams.of(SipHash24.readLongLE(internal, 0), SipHash24.readLongLE(internal, 8), P, M);
    }

    public Hash256 blockHash() {
        return blockHash;
    }

    /** The underlying Golomb-coded set. */
    public GcsFilter gcs() {
        return filter;
    }

    /** A copy of the serialization: CompactSize N, then the Golomb-Rice bit stream. */
    public byte[] encoded() {
        return filter.encoded();
    }

    /** BIP157 filter hash: dSHA256 of the whole serialization (N prefix included). */
    public Hash256 filterHash() {
        return FilterHeaders.filterHash(filter.encoded());
    }

    /** BIP157 filter header chained on {@code previousHeader}: dSHA256(filterHash || previousHeader). */
    public Hash256 header(Hash256 previousHeader) {
        return FilterHeaders.header(filterHash(), previousHeader);
    }

    /** Whether the script may be in the block (paid to or spent); allocates nothing. */
    public boolean match(byte[] script) {
        return filter.match(script);
    }

    /** Whether any of the wallet's scripts may be in the block; allocates nothing per call. */
    public boolean matchAny(GcsQuery scripts) {
        return filter.matchAny(scripts);
    }

    /** {@link #matchAny(GcsQuery)} for a one-off collection (allocates the query). */
    public boolean matchAny(Collection<byte[]> scripts) {
        return filter.matchAny(scripts);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BasicFilter other && blockHash.equals(other.blockHash) && filter.equals(other.filter);
    }

    @Override
    public int hashCode() {
        return 31 * blockHash.hashCode() + filter.hashCode();
    }

    @Override
    public String toString() {
        return "BasicFilter[block " + blockHash + ", " + filter + "]";
    }
}
