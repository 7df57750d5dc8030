package org.chainfilter.common.filter;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import org.chainfilter.common.bloom.KeyEncoder;

/**
 * A cuckoo filter that grows instead of refusing: a chain of {@link CuckooFilter} tables, where table {@code i} has
 * {@code 2^i} times the first table's buckets and {@code i} more fingerprint bits. A cuckoo table cannot be resized in
 * place (its fingerprints do not keep the hash bits a larger table would need), so growth adds a table, as the
 * scalable Bloom filter adds a stage.
 *
 * <p>Table {@code i}'s rate at full load is about {@code 8 α / 2^(f_0 + i)}: each extra bit halves it, so the
 * compound rate is at most {@code Σ_i p_0 2^-i = 2 p_0}. The first table's fingerprint is sized for {@code p_0 = P/2}
 * ({@link CuckooFilter#fingerprintBitsFor}), so the compound rate stays at most {@code P} as the filter grows.
 *
 * <p>A new table is opened when the current one reports {@linkplain CuckooFilter#isFull() full} (its kicks ran out
 * and it stashed a victim), so no put is refused until the limits of {@link #MAX_TABLES} tables, 32-bit fingerprints
 * or {@link CuckooFilter#MAX_BUCKETS} buckets are reached; then {@link FilterFullException}. The one exception is a
 * ninth copy of an item in the newest table ({@link CuckooFilter}'s multiset rule: an item's two buckets hold at
 * most 8 copies, or 8 items sharing its fingerprint and buckets, which the table cannot tell apart from copies),
 * refused with {@link FilterFullException} and no change: growing for it would double the memory every eight puts
 * of one item. {@link #remove} deletes
 * only when exactly one table matches (see there); as with one table, remove only items that were put.
 *
 * <p>{@link #put}, {@link #mightContain} and {@link #remove} allocate nothing for the built-in encoders, except when a
 * put opens a table. Not thread-safe.
 *
 * @param <T> the element type
 */
public final class GrowableCuckooFilter<T> implements RemovableFilter<T> {
    static final String KIND = "growable cuckoo filter";
    /** The most tables: 21 doublings of the bucket count. */
    public static final int MAX_TABLES = 22;

    private final KeyEncoder<? super T> encoder;
    private final long initialCapacity;
    private final double falsePositiveRate;
    private final List<CuckooFilter<T>> tables;
    private CuckooFilter<T> current;

    private GrowableCuckooFilter(KeyEncoder<? super T> encoder, long initialCapacity, double falsePositiveRate,
            List<CuckooFilter<T>> tables) {
        this.encoder = encoder;
        this.initialCapacity = initialCapacity;
        this.falsePositiveRate = falsePositiveRate;
        this.tables = tables;
        this.current = tables.get(tables.size() - 1);
    }

    /**
     * An empty filter whose first table holds about {@code initialCapacity} items and whose compound rate stays at
     * most {@code falsePositiveRate} as it grows.
     *
     * @throws IllegalArgumentException if the capacity is below 1 or too large for one table, or the rate is outside
     *     [2e-8, 0.5]
     */
    public static <T> GrowableCuckooFilter<T> create(
            KeyEncoder<? super T> encoder, long initialCapacity, double falsePositiveRate) {
        Objects.requireNonNull(encoder, "encoder");
        checkRate(falsePositiveRate);
        List<CuckooFilter<T>> tables = new ArrayList<>();
        tables.add(CuckooFilter.withShape(encoder, CuckooFilter.bucketCountFor(initialCapacity),
                CuckooFilter.fingerprintBitsFor(falsePositiveRate / 2)));
        return new GrowableCuckooFilter<>(encoder, initialCapacity, falsePositiveRate, tables);
    }

    private static void checkRate(double falsePositiveRate) {
        if (!(falsePositiveRate >= 2e-8 && falsePositiveRate <= 0.5)) {
            throw new IllegalArgumentException("false-positive rate is " + falsePositiveRate
                    + "; a growable cuckoo filter supports rates in [2e-8, 0.5]");
        }
    }

    /** Table {@code i}'s fingerprint bits: the first table's plus {@code i}. */
    private static int tableFingerprintBits(double falsePositiveRate, int table) {
        return CuckooFilter.fingerprintBitsFor(falsePositiveRate / 2) + table;
    }

    /**
     * Stores one copy of the item's fingerprint in the newest table, opening a larger table first if that one is full.
     *
     * @return {@code true}
     * @throws FilterFullException if the filter is full and cannot grow further; it is then unchanged
     */
    @Override
    public boolean put(T element) {
        if (current.isFull()) {
            addTable();
        }
        return current.put(element);
    }

    private void addTable() {
        int next = tables.size();
        long buckets = tables.get(0).bucketCount() << next;
        int bits = tableFingerprintBits(falsePositiveRate, next);
        if (next >= MAX_TABLES || buckets > CuckooFilter.MAX_BUCKETS || bits > FingerprintTable.MAX_FINGERPRINT_BITS) {
            throw new FilterFullException("growable cuckoo filter is full: " + next + " tables; the next would need "
                    + buckets + " buckets of " + bits + "-bit fingerprints, past the limits of " + MAX_TABLES
                    + " tables, " + CuckooFilter.MAX_BUCKETS + " buckets and 32 bits");
        }
        current = CuckooFilter.withShape(encoder, buckets, bits);
        tables.add(current);
    }

    @Override
    public boolean mightContain(T element) {
        for (int i = tables.size() - 1; i >= 0; i--) {
            if (tables.get(i).mightContain(element)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Deletes one copy of the item's fingerprint from the one table that holds it.
     *
     * <p>If two or more tables match, the item is in one and a false positive in the others, and the filter cannot tell
     * which: deleting from the wrong table would remove another item's fingerprint and make that item a false
     * negative. So an ambiguous remove deletes nothing and returns {@code false}; the item stays (it only costs a little
     * false-positive rate). The chance is about the compound rate per remove.
     *
     * @return {@code true} if a copy was deleted; {@code false} if no table matches (the item is certainly absent) or
     *     more than one does
     */
    @Override
    public boolean remove(T element) {
        int holder = -1;
        for (int i = 0; i < tables.size(); i++) {
            if (tables.get(i).mightContain(element)) {
                if (holder >= 0) {
                    return false;
                }
                holder = i;
            }
        }
        return holder >= 0 && tables.get(holder).remove(element);
    }

    /** {@code 1 - Π_i (1 - p_i)} with {@code p_i} each table's rate at its load. */
    @Override
    public double expectedFpp() {
        return FamilyEstimates.compoundFpp(tables);
    }

    /** The stored fingerprints of all tables. */
    @Override
    public long approximateElementCount() {
        return FamilyEstimates.summedElementCount(tables);
    }

    /** The number of tables so far. */
    public int tableCount() {
        return tables.size();
    }

    /** Table {@code i} (0 is the first and smallest). */
    public CuckooFilter<T> table(int i) {
        return tables.get(i);
    }

    @Override
    public void clear() {
        tables.subList(1, tables.size()).clear();
        current = tables.get(0);
        current.clear();
    }

    @Override
    public GrowableCuckooFilter<T> copy() {
        return new GrowableCuckooFilter<>(encoder, initialCapacity, falsePositiveRate,
                tables.stream().map(CuckooFilter::copy).collect(Collectors.toCollection(ArrayList::new)));
    }

    /**
     * Writes the binary form: the family header (kind 6, see {@link FamilyBinaryForm}), the rate bound {@code P}
     * (8-byte IEEE double), the initial capacity (8 bytes), the table count (1 byte), then each table in
     * {@link CuckooFilter}'s binary form. The tables' shapes follow from {@code P} and the capacity, so a reader knows
     * the total size from the first 23 bytes.
     */
    @Override
    public void writeTo(OutputStream out) throws IOException {
        FamilyBinaryForm.writeChain(out, FamilyBinaryForm.GROWABLE_CUCKOO, falsePositiveRate, initialCapacity, tables);
    }

    /**
     * Reads a filter written by {@link #writeTo}, refusing one larger than {@code maxBytes} before allocating it.
     *
     * @throws IllegalArgumentException if the header is not this kind's, a field is out of range, a table's shape is
     *     not the one {@code P} and the capacity give, or the filter is larger than {@code maxBytes}
     * @throws IOException if the stream fails, or ends early (an {@link java.io.EOFException} naming the kind)
     */
    public static <T> GrowableCuckooFilter<T> readFrom(InputStream in, KeyEncoder<? super T> encoder, long maxBytes)
            throws IOException {
        return FamilyBinaryForm.namingTruncation(KIND, () -> read(in, encoder, maxBytes));
    }

    private static <T> GrowableCuckooFilter<T> read(InputStream in, KeyEncoder<? super T> encoder, long maxBytes)
            throws IOException {
        Objects.requireNonNull(encoder, "encoder");
        FamilyBinaryForm.ChainHeader header =
                FamilyBinaryForm.readChainHeader(in, FamilyBinaryForm.GROWABLE_CUCKOO, KIND, "table", MAX_TABLES,
                        GrowableCuckooFilter::checkRate);
        DataInputStream data = header.data();
        double rate = header.rateBound();
        long initialCapacity = header.initialCapacity();
        int tableCount = header.memberCount();
        long firstBuckets = CuckooFilter.bucketCountFor(initialCapacity);
        long[] tableBytes = new long[tableCount];
        long size = FamilyBinaryForm.CHAIN_HEADER_BYTES;
        for (int i = 0; i < tableCount; i++) {
            long buckets = firstBuckets << i;
            int bits = tableFingerprintBits(rate, i);
            if (buckets > CuckooFilter.MAX_BUCKETS || bits > FingerprintTable.MAX_FINGERPRINT_BITS) {
                throw new IllegalArgumentException("table " + i + " would have " + buckets + " buckets of " + bits
                        + "-bit fingerprints, past the limits of " + CuckooFilter.MAX_BUCKETS + " buckets and 32 bits");
            }
            tableBytes[i] = CuckooFilter.serializedSize(buckets, bits);
            size += tableBytes[i];
        }
        FamilyBinaryForm.checkSize(KIND, size, maxBytes);
        List<CuckooFilter<T>> tables = new ArrayList<>(tableCount);
        for (int i = 0; i < tableCount; i++) {
            CuckooFilter<T> table = CuckooFilter.readFrom(data, encoder, tableBytes[i]);
            if (table.bucketCount() != firstBuckets << i || table.fingerprintBits() != tableFingerprintBits(rate, i)) {
                throw new IllegalArgumentException("table " + i + " has " + table.bucketCount() + " buckets of "
                        + table.fingerprintBits() + " bits; P = " + rate + " and capacity " + initialCapacity + " give "
                        + (firstBuckets << i) + " of " + tableFingerprintBits(rate, i));
            }
            tables.add(table);
        }
        return new GrowableCuckooFilter<>(encoder, initialCapacity, rate, tables);
    }

    /** Equal when the first table's capacity, the rate bound, the key encoder and every table are equal. */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof GrowableCuckooFilter)) {
            return false;
        }
        GrowableCuckooFilter<?> other = (GrowableCuckooFilter<?>) o;
        return initialCapacity == other.initialCapacity
                && Double.compare(falsePositiveRate, other.falsePositiveRate) == 0
                && encoder.equals(other.encoder) && tables.equals(other.tables);
    }

    @Override
    public int hashCode() {
        return tables.hashCode();
    }

    @Override
    public String toString() {
        return "GrowableCuckooFilter[P=" + falsePositiveRate + ", capacity=" + initialCapacity + ", tables="
                + tables.size() + "]";
    }
}
