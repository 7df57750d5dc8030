package org.chainfilter.bip37;

import java.security.SecureRandom;
import java.util.List;
import java.util.Objects;
import org.chainfilter.btcwire.ByteReader;
import org.chainfilter.btcwire.ByteWriter;
import org.chainfilter.btcwire.CompactSize;
import org.chainfilter.btcwire.Hash256;
import org.chainfilter.btcwire.OutPoint;
import org.chainfilter.btcwire.ScriptIterator;
import org.chainfilter.btcwire.Transaction;
import org.chainfilter.btcwire.TxInput;
import org.chainfilter.btcwire.TxOutput;
import org.chainfilter.common.Hex;
import org.chainfilter.common.bits.ByteLayout;
import org.chainfilter.common.bits.LongArrayBitStore;

/**
 * A BIP37 connection Bloom filter, bit for bit Bitcoin Core's {@code CBloomFilter} ({@code common/bloom.cpp}).
 *
 * <p>State: vData (the bits, {@code 8 · vData.length} of them, LSB-first: bit {@code i} is byte {@code i >> 3}, mask
 * {@code 1 << (i & 7)}), nHashFuncs, nTweak and nFlags. Hash function {@code i} of an item is
 * {@code MurmurHash3_x86_32(i · 0xFBA4C795 + nTweak, item) mod (8 · vData.length)}, a plain unsigned modulo (BIP37,
 * "Bloom filter format").
 *
 * <p>Degenerate filters behave as in current Core: an empty vData matches everything ({@link #contains} and
 * {@link #isRelevantAndUpdate} are true, {@link #insert} does nothing; the fix of CVE-2013-5700), and so does a
 * non-empty filter with nHashFuncs 0. {@link #insert}, {@link #contains} and {@link #containsOutPoint} allocate
 * nothing per call. Not thread-safe: one filter per peer connection, as in Core.
 */
public final class Bip37BloomFilter {
    /** {@code MAX_BLOOM_FILTER_SIZE}: the largest vData a peer may load, in bytes. */
    public static final int MAX_FILTER_BYTES = 36_000;
    /** {@code MAX_HASH_FUNCS}: the most hash functions a peer may ask for. */
    public static final int MAX_HASH_FUNCS = 50;
    /** Core's seed step between hash functions: {@code seed_i = i · 0xFBA4C795 + nTweak}. */
    public static final int SEED_STEP = 0xFBA4C795;

    private static final double LN2SQUARED = 0.4804530139182014246671025263266649717305529515945455;
    private static final double LN2 = 0.6931471805599453094172321214581765680755001343602552;

    /** The vData bits; null for the empty (match-all) filter, since a bit store has at least one bit. */
    private final LongArrayBitStore bits;
    private final int byteLength;
    private final long bitLength;
    private final int hashFunctionCount;
    private final int tweak;
    private final int flags;
    private final byte[] scratch = new byte[OutPoint.LENGTH];
    private final ScriptIterator scriptIterator = new ScriptIterator();
    /** Null for the empty filter, which never hashes. */
    private final Bip37Probes probes;
    private final long[] indices = new long[MAX_HASH_FUNCS];

    private Bip37BloomFilter(byte[] data, int hashFunctionCount, int tweak, int flags) {
        this.bits = data.length == 0 ? null : LongArrayBitStore.fromBytes(data, ByteLayout.LSB_FIRST);
        this.byteLength = data.length;
        this.bitLength = 8L * data.length;
        this.hashFunctionCount = hashFunctionCount;
        this.tweak = tweak;
        this.flags = flags;
        this.probes = data.length == 0 ? null : new Bip37Probes(bitLength);
    }

    private Bip37BloomFilter(Bip37BloomFilter other) {
        this.bits = other.bits == null ? null : other.bits.copy();
        this.byteLength = other.byteLength;
        this.bitLength = other.bitLength;
        this.hashFunctionCount = other.hashFunctionCount;
        this.tweak = other.tweak;
        this.flags = other.flags;
        this.probes = other.probes == null ? null : new Bip37Probes(bitLength);
    }

    /**
     * An empty filter sized as Core's {@code CBloomFilter(nElements, nFPRate, nTweak, nFlags)} sizes it:
     * <pre>
     *   vData bytes = min((uint32)(-1 / ln²2 · nElements · ln nFPRate), 36000 · 8) / 8
     *   nHashFuncs  = min((uint32)(((8 · bytes) / nElements) · ln 2), 50)      (integer division first)
     * </pre>
     * Both truncate, so tiny parameters give Core's 0-byte match-all filter, e.g. (1, 0.1). bitcoinj and btcd divide
     * in floating point for nHashFuncs and can get one more (n = 9, p = 0.01: Core 5, they 6); we follow Core.
     *
     * @param elementCount    nElements, at least 1 (Core divides by it)
     * @param falsePositiveRate nFPRate in (0, 1] (Core's cast of anything else is undefined behaviour)
     * @param tweak           nTweak, any 32-bit value (values above 2^31 as negative ints)
     * @param flags           nFlags byte, 0..255; only {@code & 3} selects the {@link Bip37UpdateMode}
     */
    public static Bip37BloomFilter fromElementsAndRate(long elementCount, double falsePositiveRate, int tweak,
                                                       int flags) {
        if (elementCount < 1 || elementCount > 0xffffffffL) {
            throw new IllegalArgumentException("nElements is " + elementCount
                    + "; it must be 1..4294967295 (Core divides by it)");
        }
        if (!(falsePositiveRate > 0 && falsePositiveRate <= 1)) {
            throw new IllegalArgumentException("nFPRate is " + falsePositiveRate + "; it must be in (0, 1]");
        }
        long bitCount = (long) ((-1 / LN2SQUARED) * elementCount * Math.log(falsePositiveRate));
        int bytes = (int) (Math.min(bitCount, MAX_FILTER_BYTES * 8L) / 8);
        int hashFunctions = (int) Math.min((long) ((bytes * 8L / elementCount) * LN2), MAX_HASH_FUNCS);
        return new Bip37BloomFilter(new byte[bytes], hashFunctions, tweak, checkFlags(flags));
    }

    /** As {@link #fromElementsAndRate} with nTweak drawn from {@code random} (pass a {@link SecureRandom}). */
    public static Bip37BloomFilter withRandomTweak(long elementCount, double falsePositiveRate, Bip37UpdateMode mode,
                                                   SecureRandom random) {
        return fromElementsAndRate(elementCount, falsePositiveRate, random.nextInt(), mode.flagValue());
    }

    /** As {@link #fromElementsAndRate} with nTweak from a new {@link SecureRandom}: what a wallet should use. */
    public static Bip37BloomFilter withRandomTweak(long elementCount, double falsePositiveRate,
                                                   Bip37UpdateMode mode) {
        return withRandomTweak(elementCount, falsePositiveRate, mode, new SecureRandom());
    }

    /**
     * A filter from its raw parts, as a {@code filterload} carries them. The limits are those Core enforces on a
     * peer's filter ({@code IsWithinSizeConstraints}).
     *
     * @param data          vData, copied; at most {@value #MAX_FILTER_BYTES} bytes
     * @param hashFunctions nHashFuncs, 0..{@value #MAX_HASH_FUNCS}
     */
    public static Bip37BloomFilter fromParts(byte[] data, long hashFunctions, int tweak, int flags) {
        checkSize(data.length);
        checkHashFunctions(hashFunctions);
        return new Bip37BloomFilter(data.clone(), (int) hashFunctions, tweak, checkFlags(flags));
    }

    private static void checkSize(long bytes) {
        if (bytes > MAX_FILTER_BYTES) {
            throw new IllegalArgumentException("filter is " + bytes + " bytes; BIP37 allows at most "
                    + MAX_FILTER_BYTES);
        }
    }

    private static void checkHashFunctions(long hashFunctions) {
        if (hashFunctions < 0) {
            throw new IllegalArgumentException("filter has " + hashFunctions + " hash functions; the count is 0 or more");
        }
        if (hashFunctions > MAX_HASH_FUNCS) {
            throw new IllegalArgumentException("filter has " + hashFunctions + " hash functions; BIP37 allows at most "
                    + MAX_HASH_FUNCS);
        }
    }

    private static int checkFlags(int flags) {
        if (flags < 0 || flags > 0xff) {
            throw new IllegalArgumentException("nFlags is " + flags + "; it is one byte, 0..255");
        }
        return flags;
    }

    /**
     * Parses a peer's {@code filterload} payload: CompactSize length, vData, nHashFuncs (uint32 LE), nTweak (uint32
     * LE), nFlags (uint8). In Core's order: first the bytes (a non-canonical CompactSize or a truncated payload is a
     * {@link org.chainfilter.btcwire.WireFormatException}, which Core drops as a deserialization failure), then, on a
     * whole message, its limits ({@code IsWithinSizeConstraints}, for which Core punishes the peer): more than
     * {@value #MAX_FILTER_BYTES} bytes, then more than {@value #MAX_HASH_FUNCS} hash functions. vData longer than the
     * limit is skipped, never allocated. Like Core, bytes after nFlags are ignored.
     *
     * @throws IllegalArgumentException a limit broken (a {@link org.chainfilter.btcwire.WireFormatException} for
     *                                  malformed bytes)
     */
    public static Bip37BloomFilter parseFilterLoad(byte[] payload) {
        ByteReader reader = new ByteReader(payload);
        long length = reader.readCompactSize("filterload vData length", CompactSize.MAX_SIZE);
        byte[] data = null;
        if (length <= MAX_FILTER_BYTES) {
            data = reader.readBytes((int) length, "filterload vData");
        } else {
            reader.skip((int) length, "filterload vData");
        }
        long hashFunctions = reader.readUInt32LE("filterload nHashFuncs");
        int tweak = reader.readInt32LE("filterload nTweak");
        int flags = reader.readUInt8("filterload nFlags");
        checkSize(length);
        checkHashFunctions(hashFunctions);
        return new Bip37BloomFilter(data, (int) hashFunctions, tweak, flags);
    }

    /** Parses {@code filterload} hex; see {@link #parseFilterLoad(byte[])}. */
    public static Bip37BloomFilter parseFilterLoadHex(String hex) {
        return parseFilterLoad(Hex.decode(hex));
    }

    /** The {@code filterload} payload: CompactSize length, vData, nHashFuncs, nTweak, nFlags (all bits kept). */
    public byte[] toFilterLoad() {
        ByteWriter writer = new ByteWriter(byteLength + 14);
        writer.writeVarBytes(data());
        writer.writeInt32LE(hashFunctionCount).writeInt32LE(tweak).writeUInt8(flags);
        return writer.toByteArray();
    }

    /** An independent copy (Core copies a {@code CBloomFilter} by value). */
    public Bip37BloomFilter copy() {
        return new Bip37BloomFilter(this);
    }

    /** Whether this filter matches everything: empty vData, or no hash functions. */
    public boolean matchesAll() {
        return byteLength == 0 || hashFunctionCount == 0;
    }

    /** Inserts {@code item} (Core {@code insert}); does nothing on an empty filter. No allocation. */
    public void insert(byte[] item) {
        insert(item, 0, item.length);
    }

    /** Inserts {@code item[offset, offset + length)}. No allocation. */
    public void insert(byte[] item, int offset, int length) {
        if (byteLength == 0) {
            // Nothing is hashed here, so the range is checked as the probes check it for other filters.
            Objects.checkFromIndexSize(offset, length, item.length);
            return;
        }
        probes.load(item, offset, length);
        probes.indices(tweak, SEED_STEP, hashFunctionCount, indices);
        for (int i = 0; i < hashFunctionCount; i++) {
            bits.set(indices[i]);
        }
    }

    /** Whether {@code item} may have been inserted (Core {@code contains}); true on an empty filter. No allocation. */
    public boolean contains(byte[] item) {
        return contains(item, 0, item.length);
    }

    /** Whether {@code item[offset, offset + length)} may have been inserted. No allocation. */
    public boolean contains(byte[] item, int offset, int length) {
        if (byteLength == 0 || hashFunctionCount == 0) {
            Objects.checkFromIndexSize(offset, length, item.length);
            return true;
        }
        // Most non-members fail on the first probe: hash it directly, and premix the blocks only when it passes.
        if (!bits.get(probes.firstIndex(tweak, item, offset, length))) {
            return false;
        }
        probes.load(item, offset, length);
        return probes.allSet(bits, SEED_STEP + tweak, SEED_STEP, hashFunctionCount - 1, indices);
    }

    /** Inserts a hash (a txid) in internal byte order, as Core's {@code insert(uint256)}. No allocation. */
    public void insert(Hash256 hash) {
        hash.copyInternalTo(scratch, 0);
        insert(scratch, 0, Hash256.LENGTH);
    }

    /** Tests a hash in internal byte order. No allocation. */
    public boolean contains(Hash256 hash) {
        hash.copyInternalTo(scratch, 0);
        return contains(scratch, 0, Hash256.LENGTH);
    }

    /** Inserts an outpoint as its 36-byte serialization (txid internal order, index uint32 LE). No allocation. */
    public void insertOutPoint(OutPoint outPoint) {
        outPoint.writeTo(scratch, 0);
        insert(scratch, 0, OutPoint.LENGTH);
    }

    private void insertOutPoint(Hash256 txid, int index) {
        txid.copyInternalTo(scratch, 0);
        for (int b = 0; b < 4; b++) {
            scratch[Hash256.LENGTH + b] = (byte) (index >>> (8 * b));
        }
        insert(scratch, 0, OutPoint.LENGTH);
    }

    /** Tests an outpoint's 36-byte serialization. No allocation. */
    public boolean containsOutPoint(OutPoint outPoint) {
        outPoint.writeTo(scratch, 0);
        return contains(scratch, 0, OutPoint.LENGTH);
    }

    /**
     * Core's {@code IsRelevantAndUpdate}, in Core's order (BIP37 "Filter matching algorithm"):
     * <ol>
     *   <li>an empty filter matches;</li>
     *   <li>the txid in internal byte order (bitcoinj tests display order);</li>
     *   <li>every output, even after a txid hit (bitcoinj stops): its script ops as Core's GetOp reads them, skipping
     *       empty pushes and non-push opcodes and stopping at a malformed push; on the first contained push the tx
     *       matches and the outpoint (txid, output index) is inserted under {@link Bip37UpdateMode#ALL}, or under
     *       {@link Bip37UpdateMode#P2PUBKEY_ONLY} only when {@link StandardScripts#isPayToPubKeyOrBareMultisig}
     *       holds; the rest of that output is skipped;</li>
     *   <li>only when nothing matched: each input's prevout, then its scriptSig's non-empty pushes.</li>
     * </ol>
     * Witnesses are never examined. The filter changes in place, so a later transaction can match through an outpoint
     * an earlier one inserted. No allocation.
     */
    public boolean isRelevantAndUpdate(Transaction tx) {
        if (byteLength == 0) {
            return true;
        }
        boolean found = contains(tx.txid());
        Bip37UpdateMode mode = updateMode();
        List<TxOutput> outputs = tx.outputs();
        for (int i = 0; i < outputs.size(); i++) {
            TxOutput output = outputs.get(i);
            output.iterateScriptPubKey(scriptIterator);
            if (anyPushContained()) {
                found = true;
                if (mode == Bip37UpdateMode.ALL || (mode == Bip37UpdateMode.P2PUBKEY_ONLY
                        && StandardScripts.isPayToPubKeyOrBareMultisig(scriptIterator.script(), scriptIterator))) {
                    insertOutPoint(tx.txid(), i);
                }
            }
        }
        if (found) {
            return true;
        }
        List<TxInput> inputs = tx.inputs();
        for (int i = 0; i < inputs.size(); i++) {
            TxInput input = inputs.get(i);
            if (containsOutPoint(input.outPoint())) {
                return true;
            }
            input.iterateScriptSig(scriptIterator);
            if (anyPushContained()) {
                return true;
            }
        }
        return false;
    }

    private boolean anyPushContained() {
        ScriptIterator it = scriptIterator;
        while (it.next()) {
            if (it.dataLength() != 0 && contains(it.script(), it.dataOffset(), it.dataLength())) {
                return true;
            }
        }
        return false;
    }

    /** A copy of vData. */
    public byte[] data() {
        return bits == null ? new byte[0] : bits.toBytes(ByteLayout.LSB_FIRST);
    }

    /** vData length in bytes. */
    public int byteLength() {
        return byteLength;
    }

    /** nHashFuncs. */
    public int hashFunctionCount() {
        return hashFunctionCount;
    }

    /** nTweak as the int with the same 32 bits. */
    public int tweak() {
        return tweak;
    }

    /** nTweak as its unsigned value 0..2^32-1. */
    public long tweakUnsigned() {
        return Integer.toUnsignedLong(tweak);
    }

    /** The whole nFlags byte as loaded (reserved bits kept for serialization). */
    public int flags() {
        return flags;
    }

    public Bip37UpdateMode updateMode() {
        return Bip37UpdateMode.ofFlags(flags);
    }

    /** How many bits are set: with {@link #byteLength()} gives the fill ratio. */
    public long setBitCount() {
        return bits == null ? 0 : bits.cardinality();
    }

    /**
     * The false-positive rate the filter has now, from its real fill: {@code (setBits / m)^nHashFuncs}; 1 for a
     * match-all filter (empty vData or nHashFuncs 0). A peer's filter drifts up as UPDATE_ALL inserts outpoints.
     */
    public double expectedFalsePositiveRate() {
        if (matchesAll()) {
            return 1.0;
        }
        return Math.pow((double) setBitCount() / bitLength, hashFunctionCount);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Bip37BloomFilter f && f.hashFunctionCount == hashFunctionCount && f.tweak == tweak
                && f.flags == flags && f.byteLength == byteLength && Objects.equals(f.bits, bits);
    }

    @Override
    public int hashCode() {
        return Objects.hash(bits, hashFunctionCount, tweak, flags);
    }

    @Override
    public String toString() {
        return "Bip37BloomFilter{" + byteLength + " bytes, nHashFuncs " + hashFunctionCount + ", nTweak 0x"
                + Integer.toHexString(tweak) + ", nFlags " + flags + " (" + updateMode() + ")"
                + (byteLength <= 64 ? ", vData " + Hex.encode(data()) : "") + "}";
    }
}
