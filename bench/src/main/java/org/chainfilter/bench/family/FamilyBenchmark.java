package org.chainfilter.bench.family;

import com.google.common.hash.Funnels;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.commons.collections4.bloomfilter.ArrayCountingBloomFilter;
import org.apache.commons.collections4.bloomfilter.CellExtractor;
import org.apache.commons.collections4.bloomfilter.LayerManager;
import org.apache.commons.collections4.bloomfilter.LayeredBloomFilter;
import org.apache.commons.collections4.bloomfilter.Shape;
import org.apache.commons.collections4.bloomfilter.SimpleBloomFilter;
import org.chainfilter.bench.core.CommonsBloom;
import org.chainfilter.common.bloom.EnhancedDoubleHashing;
import org.chainfilter.common.bloom.KeyEncoder;
import org.chainfilter.common.filter.BlockedBloomFilter;
import org.chainfilter.common.filter.BloomFilter;
import org.chainfilter.common.filter.ConcurrentBloomFilter;
import org.chainfilter.common.filter.CountingBloomFilter;
import org.chainfilter.common.filter.CuckooFilter;
import org.chainfilter.common.filter.MembershipFilter;
import org.chainfilter.common.filter.RemovableFilter;
import org.chainfilter.common.filter.ScalableBloomFilter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The filter family's {@code mightContain} and {@code put} at 10^7 items and p = 1% on 32-byte keys, side by side with
 * Guava's {@code BloomFilter}, Apache Commons Collections' Bloom filters (4.5) and the one-cache-miss floor: one read
 * of a random word of a {@code long[]} as large as the blocked filter (index from an xorshift generator, no hashing),
 * which no filter that must touch its memory once can beat. Half the probes are members, half are not. Each kind runs
 * in its own fork, so every call site sees one implementation.
 *
 * <p>{@code put} puts fresh keys into a filter of its own that starts empty and is emptied after every 10^7 puts
 * ({@link Filter#cycling}), so every put lands in a filter between empty and full, as in use (until this session the
 * queried filter, full already, kept filling: a fuller filter is cheaper per put, Guava's skipping its
 * compare-and-swap for a bit already set, and the faster side, filled further, gained most); for the cuckoo and
 * counting filters one operation is a put and the remove of the same key, which keeps the table at its load (a
 * cuckoo filter would otherwise fill up).
 *
 * <p>The Commons kinds take keys through {@link CommonsBloom#hasher} (MurmurHash3 x64_128 into an
 * {@code EnhancedDoubleHasher}), hashed anew for every call as our filters hash the key in every call:
 * <ul>
 *   <li>{@code commons-simple}: {@code SimpleBloomFilter} on {@code Shape.fromNP(10^7, 0.01)}, beside
 *       {@code classic} and {@code blocked}; {@code put} is {@code merge}.</li>
 *   <li>{@code commons-counting}: {@code ArrayCountingBloomFilter} (a 32-bit count per cell) on the same shape, beside
 *       {@code counting}; {@code put} is {@code add} and {@code subtract} of the key's cells (a lambda over
 *       {@code hasher.indices(shape)}, each index with count 1). Its {@code merge(Hasher)} and
 *       {@code remove(Hasher)} are not usable at this size: they make the indices unique through a
 *       {@code java.util.BitSet} spanning the largest index and scan it from bit 0, milliseconds per call at
 *       {@code m} = 96 million bits.</li>
 *   <li>{@code commons-layered}: {@code LayeredBloomFilter} of {@code SimpleBloomFilter} layers sized for
 *       {@link #LAYER_ELEMENTS} items each, a new layer after every {@link #LAYER_ELEMENTS} merges
 *       ({@code ExtendCheck.advanceOnCount}, no cleanup), each layer at the rate that keeps ten layers' compound
 *       rate at 1%; queried with its own {@code contains(Hasher)}, which builds a filter of the layer's full size
 *       for the key and compares it with every layer, bit map by bit map. {@code commons-layered-per-layer} is the
 *       same filter asked layer by layer ({@code processBloomFilters} with each layer's {@code contains(Hasher)}),
 *       the cheaper way the same public API allows. Both sit beside {@code scalable}: our
 *       {@link ScalableBloomFilter} whose first stage holds {@link #LAYER_ELEMENTS} items (stages of 1, 2, 4 and 8
 *       million at 10^7), whose {@code put} asks every stage first. In the put benchmark both grow up to 10^7
 *       items, then are emptied.</li>
 * </ul>
 * The setup checks every filter with {@link CommonsBloom#requireWorking}: every key put is found, and the rate on
 * keys never put is near 1% (for ours at most 2%: a scalable or cuckoo filter may stay well under it), our batch
 * readers answer as {@code mightContain} does, and for the kinds whose {@code put} is a put and a remove, the remove
 * undoes the put (until a review found it, remove was timed but never checked), so neither a misuse of an API nor a
 * broken filter can pass for speed.
 *
 * <p>Run (one command; about 25 minutes on 2 free cores for every kind, each fork about 45 s; choose kinds with
 * {@code -p kind=...}):
 * <pre>
 *   mvn -B -q -pl bench -am package -Dmaven.test.skip=true
 *   java -jar bench/target/benchmarks.jar 'family.FamilyBenchmark' -f 1 -wi 2 -i 3 -w 1s -r 1s -prof gc
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx6g"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class FamilyBenchmark {
    static final long ELEMENTS = 10_000_000;
    static final double RATE = 0.01;
    /** Keys from here on are never put nor probed; the setup's rate check uses them. */
    static final long ABSENT_CHECK_FROM = 1L << 45;
    /** Keys from here on are put and removed by the setup's check of the put-and-remove kinds, never probed. */
    static final long REMOVE_CHECK_FROM = 1L << 47;
    /** How many keys that check puts and removes, and how many members it asks for afterwards. */
    static final int REMOVE_CHECKS = 10_000;
    /** Keys per {@link #mightContainBatch} operation. */
    static final int BATCH = 64;
    /** Items per Commons layer, and in the first stage of our scalable filter: ten layers at 10^7. */
    static final int LAYER_ELEMENTS = 1_000_000;
    /** Empty Guava filters made for the put benchmark (Guava's has no clear): one per 10^7 puts. */
    static final int GUAVA_SPARES = 6;

    /** Tests {@link #BATCH} pool keys from {@code from} into {@code results}; returns how many may be members. */
    interface BatchQuery {
        int test(byte[][] keys, int from, boolean[] results);
    }

    /** One filter kind, filled with keys 0 .. 10^7-1, seen through two predicates (query, and put or put+remove). */
    @State(Scope.Benchmark)
    public static class Filter {
        @Param({"blocked", "classic", "concurrent", "cuckoo", "counting", "scalable", "guava", "commons-simple",
                "commons-counting", "commons-layered", "commons-layered-per-layer"})
        String kind;

        Predicate<byte[]> mightContain;
        Predicate<byte[]> put;
        /**
         * Tests {@link #BATCH} keys from a pool offset: the kind's {@code batchReader()}; for Guava and Commons, one
         * call per key.
         */
        BatchQuery batch;

        @Setup(Level.Trial)
        public void build() {
            if (kind.equals("guava")) {
                com.google.common.hash.BloomFilter<byte[]> guava = newGuava();
                fill(guava::put);
                // Guava's filter has no clear: empty ones made now, outside the measured window, one per 10^7 puts.
                java.util.ArrayDeque<com.google.common.hash.BloomFilter<byte[]>> spares = new java.util.ArrayDeque<>();
                for (int i = 0; i < GUAVA_SPARES; i++) {
                    spares.add(newGuava());
                }
                List<com.google.common.hash.BloomFilter<byte[]>> target = new ArrayList<>(List.of(newGuava()));
                useLibrary(guava::mightContain, cycling(key -> target.get(0).put(key),
                        () -> target.set(0, spares.isEmpty() ? newGuava() : spares.poll())));
                requireWorking(ELEMENTS);
                return;
            }
            if (kind.startsWith("commons-")) {
                buildCommons();
                return;
            }
            MembershipFilter<byte[]> filter = create(kind);
            fill(filter::put);
            mightContain = filter::mightContain;
            MembershipFilter.BatchReader<byte[]> reader = filter.batchReader();
            batch = (keys, from, results) -> reader.mightContain(keys, from, BATCH, results, 0);
            // Every key put is found, and keys never put at most twice the rate asked for (a scalable or cuckoo
            // filter may stay well under it); the batch reader answers as mightContain does.
            CommonsBloom.requireWorking(kind, mightContain, (i, key) -> ProbeKeys.fill(key, i), ELEMENTS,
                    ABSENT_CHECK_FROM, 100_000, 0, 2 * RATE);
            requireBatchAgrees();
            if (filter instanceof RemovableFilter) {
                RemovableFilter<byte[]> removable = (RemovableFilter<byte[]>) filter;
                put = key -> removable.put(key) & removable.remove(key);
                requirePutRemoveUndoes();
            } else {
                MembershipFilter<byte[]> target = create(kind);
                put = cycling(target::put, target::clear);
            }
        }

        private static com.google.common.hash.BloomFilter<byte[]> newGuava() {
            return com.google.common.hash.BloomFilter.create(Funnels.byteArrayFunnel(), ELEMENTS, RATE);
        }

        /**
         * {@code put}, emptying its filter with {@code empty} after every {@link #ELEMENTS} calls: the put benchmark's
         * filter stays between empty and full.
         */
        static Predicate<byte[]> cycling(Predicate<byte[]> put, Runnable empty) {
            long[] sinceEmpty = {0};
            return key -> {
                boolean changed = put.test(key);
                if (++sinceEmpty[0] == ELEMENTS) {
                    sinceEmpty[0] = 0;
                    empty.run();
                }
                return changed;
            };
        }

        /** An empty filter of the family for 10^7 items at 1%. */
        static MembershipFilter<byte[]> create(String kind) {
            switch (kind) {
                case "blocked":
                    return BlockedBloomFilter.create(KeyEncoder.bytes(), ELEMENTS, RATE);
                case "classic":
                    return BloomFilter.create(KeyEncoder.bytes(), ELEMENTS, RATE);
                case "concurrent":
                    return ConcurrentBloomFilter.create(KeyEncoder.bytes(), ELEMENTS, RATE);
                case "cuckoo":
                    return CuckooFilter.create(KeyEncoder.bytes(), ELEMENTS, RATE);
                case "counting":
                    return CountingBloomFilter.create(KeyEncoder.bytes(), ELEMENTS, RATE);
                case "scalable":
                    return ScalableBloomFilter.create(KeyEncoder.bytes(), LAYER_ELEMENTS, RATE);
                default:
                    throw new IllegalArgumentException("unknown kind " + kind);
            }
        }

        /** A library filter, already filled: queried one key per call, also in batches. */
        private void useLibrary(Predicate<byte[]> query, Predicate<byte[]> benchmarkPut) {
            mightContain = query;
            put = benchmarkPut;
            batch = (keys, from, results) -> {
                int maybe = 0;
                for (int i = 0; i < BATCH; i++) {
                    results[i] = query.test(keys[from + i]);
                    maybe += results[i] ? 1 : 0;
                }
                return maybe;
            };
        }

        private void buildCommons() {
            Shape shape = Shape.fromNP((int) ELEMENTS, RATE);
            switch (kind) {
                case "commons-simple": {
                    SimpleBloomFilter simple = new SimpleBloomFilter(shape);
                    Predicate<byte[]> merge = key -> simple.merge(CommonsBloom.hasher(key));
                    fill(merge);
                    SimpleBloomFilter target = new SimpleBloomFilter(shape);
                    useLibrary(key -> simple.contains(CommonsBloom.hasher(key)),
                            cycling(key -> target.merge(CommonsBloom.hasher(key)), target::clear));
                    requireWorking(ELEMENTS);
                    return;
                }
                case "commons-counting": {
                    // add/subtract of the hasher's cells, not merge/remove(Hasher): those first make the indices
                    // unique through a java.util.BitSet as long as the largest index and walk it from bit 0, so at
                    // this shape each call allocates and scans up to 12 MB (filling 10^7 keys would take hours).
                    ArrayCountingBloomFilter counting = new ArrayCountingBloomFilter(shape);
                    Predicate<byte[]> add = key -> counting.add(cells(key, shape));
                    fill(add);
                    useLibrary(key -> counting.contains(CommonsBloom.hasher(key)),
                            key -> add.test(key) & counting.subtract(cells(key, shape)));
                    requireWorking(ELEMENTS);
                    requirePutRemoveUndoes();
                    return;
                }
                case "commons-layered":
                case "commons-layered-per-layer": {
                    LayeredBloomFilter<SimpleBloomFilter> layered = layered();
                    fill(key -> layered.merge(CommonsBloom.hasher(key)));
                    LayeredBloomFilter<SimpleBloomFilter> target = layered();
                    Predicate<byte[]> merge = cycling(key -> target.merge(CommonsBloom.hasher(key)), target::clear);
                    Predicate<byte[]> perLayer = key -> {
                        org.apache.commons.collections4.bloomfilter.Hasher hasher = CommonsBloom.hasher(key);
                        return !layered.processBloomFilters(layer -> !layer.contains(hasher));
                    };
                    if (kind.equals("commons-layered-per-layer")) {
                        useLibrary(perLayer, merge);
                        requireWorking(ELEMENTS);
                        return;
                    }
                    useLibrary(key -> layered.contains(CommonsBloom.hasher(key)), merge);
                    // contains(Hasher) takes about a millisecond here, too slow to ask for all 10^7 members: a
                    // sample of members, and for keys never put the answers of the per-layer query (which the
                    // commons-layered-per-layer kind checks on every member).
                    requireWorking(2_000);
                    byte[] key = new byte[32];
                    for (long i = ABSENT_CHECK_FROM; i < ABSENT_CHECK_FROM + 2_000; i++) {
                        ProbeKeys.fill(key, i);
                        if (mightContain.test(key) != perLayer.test(key)) {
                            throw new IllegalStateException(
                                    "LayeredBloomFilter.contains(Hasher) and its layers disagree on key " + i);
                        }
                    }
                    return;
                }
                default:
                    throw new IllegalArgumentException("unknown kind " + kind);
            }
        }

        /**
         * The key's cells for Commons' counting filter: its {@code k} indices, one count each, a repeated index
         * counted as often as it comes, so {@code subtract} undoes {@code add} exactly. A lambda over the hasher's
         * indices, as the API allows: {@code CellExtractor.from} would build a {@code TreeMap} of the cells in every
         * call (1,280 B and about half the time of a put and remove), which a user need not pay.
         */
        private static CellExtractor cells(byte[] key, Shape shape) {
            org.apache.commons.collections4.bloomfilter.IndexExtractor indices =
                    CommonsBloom.hasher(key).indices(shape);
            return cell -> indices.processIndices(index -> cell.test(index, 1));
        }

        /**
         * Commons' layered filter: {@code SimpleBloomFilter} layers for {@link #LAYER_ELEMENTS} items, a new one every
         * {@link #LAYER_ELEMENTS} merges, each at {@code 1 - (1 - p)^(1/10)} so ten layers stay within {@code p}.
         */
        private static LayeredBloomFilter<SimpleBloomFilter> layered() {
            Shape layerShape = Shape.fromNP(LAYER_ELEMENTS, 1 - Math.pow(1 - RATE, 1.0 / (ELEMENTS / LAYER_ELEMENTS)));
            LayerManager<SimpleBloomFilter> layers = LayerManager.<SimpleBloomFilter>builder()
                    .setSupplier(() -> new SimpleBloomFilter(layerShape))
                    .setExtendCheck(LayerManager.ExtendCheck.advanceOnCount(LAYER_ELEMENTS))
                    .setCleanup(LayerManager.Cleanup.noCleanup())
                    .get();
            return new LayeredBloomFilter<>(layerShape, layers);
        }

        /** The Commons filter holds keys {@code 0 .. members-1} and has about the rate it was built for. */
        private void requireWorking(long members) {
            CommonsBloom.requireWorking(kind, mightContain, (i, key) -> ProbeKeys.fill(key, i), members,
                    ABSENT_CHECK_FROM, members < ELEMENTS ? 2_000 : 100_000, RATE);
        }

        /**
         * For the kinds whose {@code put} benchmark times a put and the remove of the same key: the remove undoes the
         * put. Keys put and removed are then answered as keys never put (at most twice the rate; a remove that did
         * nothing, and so cost nothing, would leave every one of them found), and a sample of the members is still
         * found (a remove that took more than its key would lose some).
         */
        private void requirePutRemoveUndoes() {
            byte[] key = new byte[32];
            int stillFound = 0;
            for (long i = REMOVE_CHECK_FROM; i < REMOVE_CHECK_FROM + REMOVE_CHECKS; i++) {
                put.test(ProbeKeys.fill(key, i));
                stillFound += mightContain.test(key) ? 1 : 0;
            }
            if (stillFound > 2 * RATE * REMOVE_CHECKS) {
                throw new IllegalStateException(kind + ": " + stillFound + " of " + REMOVE_CHECKS
                        + " keys put and removed are still found; remove does not undo put");
            }
            CommonsBloom.requireWorking(kind + " after puts and removes", mightContain,
                    (i, k) -> ProbeKeys.fill(k, i), REMOVE_CHECKS, ABSENT_CHECK_FROM, REMOVE_CHECKS, 0, 2 * RATE);
        }

        /** The batch reader's answers for members and keys never put are mightContain's, key for key. */
        private void requireBatchAgrees() {
            byte[][] keys = new byte[2 * BATCH][];
            for (int i = 0; i < BATCH; i++) {
                keys[2 * i] = ProbeKeys.fill(new byte[32], i * 1_000L);
                keys[2 * i + 1] = ProbeKeys.fill(new byte[32], ABSENT_CHECK_FROM + i);
            }
            boolean[] results = new boolean[BATCH];
            for (int from = 0; from < keys.length; from += BATCH) {
                batch.test(keys, from, results);
                for (int i = 0; i < BATCH; i++) {
                    if (results[i] != mightContain.test(keys[from + i])) {
                        throw new IllegalStateException(kind + ": the batch reader and mightContain disagree on key "
                                + (from + i));
                    }
                }
            }
        }

        private static void fill(Predicate<byte[]> put) {
            byte[] key = new byte[32];
            for (long i = 0; i < ELEMENTS; i++) {
                put.test(ProbeKeys.fill(key, i));
            }
        }
    }

    /** A {@code long[]} with as many words as the blocked filter, and an xorshift state for random indices. */
    @State(Scope.Thread)
    public static class Floor {
        long[] words;
        long state = 0x9e3779b97f4a7c15L;
        long steps;

        @Setup(Level.Trial)
        public void build() {
            BlockedBloomFilter<byte[]> shape = BlockedBloomFilter.create(KeyEncoder.bytes(), ELEMENTS, RATE);
            words = new long[shape.blockCount() * 8];
            long x = 0x2545f4914f6cdd1dL;
            for (int i = 0; i < words.length; i++) {
                x ^= x << 13;
                x ^= x >>> 7;
                x ^= x << 17;
                words[i] = x; // random values, so the dependent floor jumps to random words
            }
        }
    }

    /** Fresh 32-byte keys for the put benchmark, written into one reused array. */
    @State(Scope.Thread)
    public static class FreshKeys {
        final byte[] key = new byte[32];
        long next = 1L << 50;

        byte[] next() {
            return ProbeKeys.fill(key, next++);
        }
    }

    @Benchmark
    public boolean mightContain(Filter filter, ProbeKeys keys) {
        return filter.mightContain.test(keys.next());
    }

    /**
     * {@link #BATCH} keys per operation, reported per key: each kind's {@code batchReader()} (the blocked filter's
     * hashes sixteen keys before it reads their blocks; the others call {@code mightContain} per key), and for Guava,
     * which has no batch form, one {@code mightContain} call per key.
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int mightContainBatch(Filter filter, ProbeKeys keys) {
        return filter.batch.test(keys.pool(), keys.nextBatch(BATCH), keys.results());
    }

    @Benchmark
    public boolean put(Filter filter, FreshKeys keys) {
        return filter.put.test(keys.next());
    }

    /**
     * Commons' counting filter of the {@code commons-counting} shape, empty: the cost of the API's own
     * {@code merge(Hasher)} and {@code remove(Hasher)}, which the {@code commons-counting} kind avoids. It does not
     * depend on the fill: the {@code BitSet} that makes the indices unique spans the largest of them.
     */
    @State(Scope.Thread)
    public static class CommonsCountingByHasher {
        ArrayCountingBloomFilter filter;

        @Setup(Level.Trial)
        public void build() {
            filter = new ArrayCountingBloomFilter(Shape.fromNP((int) ELEMENTS, RATE));
        }
    }

    /** {@code merge(Hasher)} then {@code remove(Hasher)} of one fresh key on Commons' counting filter. */
    @Benchmark
    public boolean commonsCountingMergeRemoveByHasher(CommonsCountingByHasher state, FreshKeys keys) {
        byte[] key = keys.next();
        return state.filter.merge(CommonsBloom.hasher(key)) & state.filter.remove(CommonsBloom.hasher(key));
    }

    /**
     * One random read of a {@code long[]} the size of the blocked filter: the one-cache-miss floor. It walks the same
     * key pool as the filters and reads the key's bytes, as every filter must (2^20 keys of 32 bytes, streamed), so
     * that only the filter's work differs; the key does not feed the index, which stays independent of it. (Until
     * this session the key was taken from the pool but never read, and the compiler dropped the load: that floor ran
     * about twice as fast as one a filter could reach.)
     */
    @Benchmark
    public long oneRandomReadFloor(Floor s, ProbeKeys keys) {
        byte[] key = keys.next();
        long x = s.state;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        s.state = x;
        return s.words[(int) EnhancedDoubleHashing.reduce(x, s.words.length)] ^ readKey(key);
    }

    /** The key's four words, folded: the reads of the key every filter makes. */
    static long readKey(byte[] key) {
        return (long) LONG_LE.get(key, 0) ^ (long) LONG_LE.get(key, 8) ^ (long) LONG_LE.get(key, 16)
                ^ (long) LONG_LE.get(key, 24);
    }

    private static final java.lang.invoke.VarHandle LONG_LE = java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
            long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

    /**
     * One random read whose index is the previous read's value: the misses cannot overlap, so this is the latency of
     * one cache miss, where {@link #oneRandomReadFloor} lets the processor overlap independent misses as it may for
     * independent lookups.
     */
    @Benchmark
    public long oneDependentReadFloor(Floor s, ProbeKeys keys) {
        long keyWords = readKey(keys.next());
        // A step counter joins the word in the index, or the walk would soon fall into a short, cached cycle.
        long step = ++s.steps;
        long x = s.words[(int) EnhancedDoubleHashing.reduce(s.state ^ step * 0x9e3779b97f4a7c15L, s.words.length)];
        s.state = x;
        return x ^ keyWords;
    }
}
