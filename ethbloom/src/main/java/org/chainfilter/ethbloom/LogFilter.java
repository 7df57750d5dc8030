package org.chainfilter.ethbloom;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

import org.chainfilter.common.Hex;

/**
 * An immutable {@code eth_getLogs} / {@code eth_newFilter} style log filter: a set of addresses (OR; empty = any
 * address) and up to four topic positions, each an OR set of 32-byte topics or a wildcard.
 *
 * <p>Wildcards follow go-ethereum: a position given as {@code null}, as an empty set, or as a set that contains
 * {@code null} matches any topic (geth {@code args.Topics[i] = nil; break}; its bloombits {@code NewMatcher} drops such
 * clauses). The null is turned into a wildcard before any bloom probe is built, so the bloom test is never stricter
 * than the exact match (the Besu / ethrex flattening bug).
 *
 * <p>Two tests:
 * <ul>
 *   <li>{@link #couldMatch(LogsBloom)}, the block-skip predicate of geth {@code eth/filters/filter.go: bloomFilter}:
 *   {@code (no address OR ∃ a: test(bloom, a)) AND ∀ non-wildcard position p: ∃ t ∈ T_p: test(bloom, t)}. The three
 *   M3:2048 bits of every value are computed once when the filter is built; the test hashes nothing and allocates
 *   nothing per bloom.</li>
 *   <li>{@link #matches(byte[], List)}, the exact test of geth {@code filterLogs}: the address is in the set (or the set
 *   is empty), the log has at least as many topics as the filter has positions (trailing wildcards included: geth,
 *   Besu and Nethermind reject a one-topic log for {@code [A, null]}, alloy/reth ignore trailing wildcards; we follow
 *   geth), and every non-wildcard position holds one of its topics.</li>
 * </ul>
 */
public final class LogFilter {
    /** The most topic positions a filter may have: the EVM's LOG4 (geth {@code maxTopics}). */
    public static final int MAX_TOPICS = 4;
    /**
     * The most addresses, or alternatives in one topic position: go-ethereum's {@code maxSubTopics} and the default
     * of {@code --rpc.logquerylimit}, both 1000.
     */
    public static final int MAX_ALTERNATIVES = 1000;

    private static final LogFilter MATCH_ALL = new LogFilter(List.of(), List.of());

    /** Addresses, each 20 bytes; empty means any address. */
    private final List<byte[]> addresses;
    /** Topic positions; a null entry is a wildcard position. */
    private final List<List<byte[]>> topics;

    /*
     * The bloom probes, flattened so that couldMatch walks primitive arrays. A clause is the address set or one
     * non-wildcard topic position; it passes when one of its alternatives has all three bits set. Alternative a of
     * the filter occupies probeWord[3a .. 3a+2] and probeMask[3a .. 3a+2]; clause c owns alternatives
     * clauseStart[c] .. clauseStart[c+1]-1.
     */
    private final int[] clauseStart;
    private final int[] probeWord;
    private final long[] probeMask;

    private LogFilter(List<byte[]> addresses, List<List<byte[]>> topics) {
        this.addresses = addresses;
        this.topics = topics;
        List<List<byte[]>> clauses = new ArrayList<>();
        if (!addresses.isEmpty()) {
            clauses.add(addresses);
        }
        for (List<byte[]> position : topics) {
            if (position != null) {
                clauses.add(position);
            }
        }
        int alternatives = clauses.stream().mapToInt(List::size).sum();
        clauseStart = new int[clauses.size() + 1];
        probeWord = new int[3 * alternatives];
        probeMask = new long[3 * alternatives];
        Keccak256 keccak = new Keccak256();
        int alternative = 0;
        for (int c = 0; c < clauses.size(); c++) {
            clauseStart[c] = alternative;
            for (byte[] value : clauses.get(c)) {
                long hash = keccak.firstEightBytes(value, 0, value.length);
                for (int pair = 0; pair < 3; pair++) {
                    int k = LogsBloom.bitOf(hash, pair);
                    probeWord[3 * alternative + pair] = k >>> 6;
                    probeMask[3 * alternative + pair] = 1L << k;
                }
                alternative++;
            }
        }
        clauseStart[clauses.size()] = alternative;
    }

    /** A new empty builder: no address restriction, no topic position. */
    public static Builder builder() {
        return new Builder();
    }

    /** The filter that every log matches: no address, no topic position. */
    public static LogFilter matchAll() {
        return MATCH_ALL;
    }

    /**
     * A filter from the JSON-RPC shape. {@code addresses} null or empty means any address. {@code topics} may be null
     * (no positions); an inner list that is null, empty, or contains a null is a wildcard position.
     *
     * @throws IllegalArgumentException on an address that is not 20 bytes, a topic that is not 32 bytes, more than 4
     *                                  positions or more than 1000 alternatives
     */
    public static LogFilter of(List<byte[]> addresses, List<List<byte[]>> topics) {
        Builder builder = builder();
        if (addresses != null) {
            builder.address(addresses.toArray(new byte[0][]));
        }
        if (topics != null) {
            if (topics.size() > MAX_TOPICS) {
                throw new IllegalArgumentException(
                        "filter has " + topics.size() + " topic positions; at most " + MAX_TOPICS + " are allowed");
            }
            for (int p = 0; p < topics.size(); p++) {
                List<byte[]> position = topics.get(p);
                if (position == null) {
                    builder.anyTopic(p);
                } else {
                    builder.topic(p, position.toArray(new byte[0][]));
                }
            }
        }
        return builder.build();
    }

    /**
     * The block-skip test: false means no log of a block (or receipt) with this bloom can match. Probe bits were
     * computed at build time; this hashes nothing and allocates nothing. A filter with no address and only wildcard
     * positions passes every bloom.
     */
    public boolean couldMatch(LogsBloom bloom) {
        int clauseCount = clauseStart.length - 1;
        for (int c = 0; c < clauseCount; c++) {
            if (!clausePasses(bloom, clauseStart[c], clauseStart[c + 1])) {
                return false;
            }
        }
        return true;
    }

    private boolean clausePasses(LogsBloom bloom, int firstAlternative, int endAlternative) {
        for (int a = firstAlternative; a < endAlternative; a++) {
            int p = 3 * a;
            if ((bloom.word(probeWord[p]) & probeMask[p]) != 0
                    && (bloom.word(probeWord[p + 1]) & probeMask[p + 1]) != 0
                    && (bloom.word(probeWord[p + 2]) & probeMask[p + 2]) != 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The exact go-ethereum test of one log ({@code filterLogs}): address in the set (or no address given), at least
     * as many topics as the filter has positions, and each non-wildcard position holds one of its topics.
     */
    public boolean matches(byte[] address, List<byte[]> logTopics) {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(logTopics, "topics");
        if (!addresses.isEmpty() && !containsBytes(addresses, address)) {
            return false;
        }
        if (logTopics.size() < topics.size()) {
            return false;
        }
        for (int p = 0; p < topics.size(); p++) {
            List<byte[]> position = topics.get(p);
            if (position != null && !containsBytes(position, logTopics.get(p))) {
                return false;
            }
        }
        return true;
    }

    private static boolean containsBytes(List<byte[]> set, byte[] value) {
        for (byte[] candidate : set) {
            if (Arrays.equals(candidate, value)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@link #couldMatch} passes every bloom: no address and no non-wildcard topic position. A bloom index
     * cannot narrow such a query (geth's filtermaps answers {@code ErrMatchAll} and scans). {@link #matches} may still
     * reject logs with too few topics when the filter has wildcard positions.
     */
    public boolean isMatchAll() {
        return clauseStart.length == 1;
    }

    /** The address alternatives (copies); empty means any address. */
    public List<byte[]> addresses() {
        return copyOf(addresses);
    }

    /** The topic positions (copies); a null entry is a wildcard position. */
    public List<List<byte[]>> topics() {
        List<List<byte[]>> out = new ArrayList<>(topics.size());
        for (List<byte[]> position : topics) {
            out.add(position == null ? null : copyOf(position));
        }
        return out;
    }

    /**
     * The clauses as go-ethereum's bloombits {@code NewMatcher} takes them: the address set if any, then each
     * non-wildcard topic position; the outer list is AND, the inner OR. Copies.
     */
    public List<List<byte[]>> clauses() {
        List<List<byte[]>> out = new ArrayList<>();
        if (!addresses.isEmpty()) {
            out.add(copyOf(addresses));
        }
        for (List<byte[]> position : topics) {
            if (position != null) {
                out.add(copyOf(position));
            }
        }
        return out;
    }

    /**
     * The bloom bits of the clauses, as go-ethereum's bloombits matcher takes them: {@code [clause][alternative][3]},
     * each entry a bit number k (0..2047) of M3:2048. Clauses are the address set (if any) then each non-wildcard
     * topic position; outer AND, middle OR, inner AND. A new array on every call.
     */
    public int[][][] bloomBitClauses() {
        int clauseCount = clauseStart.length - 1;
        int[][][] out = new int[clauseCount][][];
        for (int c = 0; c < clauseCount; c++) {
            out[c] = new int[clauseStart[c + 1] - clauseStart[c]][3];
            for (int a = clauseStart[c]; a < clauseStart[c + 1]; a++) {
                for (int pair = 0; pair < 3; pair++) {
                    int p = 3 * a + pair;
                    out[c][a - clauseStart[c]][pair] = 64 * probeWord[p] + Long.numberOfTrailingZeros(probeMask[p]);
                }
            }
        }
        return out;
    }

    private static List<byte[]> copyOf(List<byte[]> values) {
        List<byte[]> out = new ArrayList<>(values.size());
        for (byte[] value : values) {
            out.add(value.clone());
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof LogFilter)) {
            return false;
        }
        LogFilter other = (LogFilter) o;
        return sameSets(addresses, other.addresses) && sameTopics(topics, other.topics);
    }

    private static boolean sameTopics(List<List<byte[]>> a, List<List<byte[]>> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i) == null ? b.get(i) != null : b.get(i) == null || !sameSets(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameSets(List<byte[]> a, List<byte[]> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!Arrays.equals(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        int h = 1;
        for (byte[] address : addresses) {
            h = 31 * h + Arrays.hashCode(address);
        }
        for (List<byte[]> position : topics) {
            h = 31 * h + (position == null ? 0 : position.size());
            if (position != null) {
                for (byte[] topic : position) {
                    h = 31 * h + Arrays.hashCode(topic);
                }
            }
        }
        return h;
    }

    /** {@code LogFilter[address=[0x…], topics=[[0x…], *]]}, {@code *} for a wildcard position. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("LogFilter[address=").append(hexList(addresses)).append(", topics=[");
        for (int p = 0; p < topics.size(); p++) {
            sb.append(p == 0 ? "" : ", ").append(topics.get(p) == null ? "*" : hexList(topics.get(p)));
        }
        return sb.append("]]").toString();
    }

    private static String hexList(List<byte[]> values) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < values.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append("0x").append(Hex.encode(values.get(i)));
        }
        return sb.append(']').toString();
    }

    /**
     * Builds a {@link LogFilter}. Values are copied when added. Duplicate alternatives are kept once. A call that
     * throws changes nothing: the builder is as it was before the call.
     */
    public static final class Builder {
        private final List<byte[]> addresses = new ArrayList<>();
        private final List<List<byte[]>> topics = new ArrayList<>(Collections.nCopies(MAX_TOPICS, null));
        /** Whether position p was mentioned (as a set or as a wildcard); the filter has positions up to the last. */
        private final boolean[] positionGiven = new boolean[MAX_TOPICS];
        private final boolean[] positionWildcard = new boolean[MAX_TOPICS];

        private Builder() {
        }

        /**
         * Adds address alternatives (OR). Calling it with no argument adds nothing (any address, unless other calls
         * add some).
         *
         * @throws IllegalArgumentException on a null or non-20-byte address, or more than 1000 addresses in all
         */
        public Builder address(byte[]... alternatives) {
            Objects.requireNonNull(alternatives, "alternatives");
            for (byte[] address : alternatives) {
                LogsBloom.Builder.checkLength(address, 20, "address");
            }
            List<byte[]> merged = merged(addresses, alternatives, "addresses");
            addresses.clear();
            addresses.addAll(merged);
            return this;
        }

        /**
         * Adds alternatives (OR) for topic position {@code position} (0..3). A null alternative, or no alternative,
         * makes the position a wildcard for good.
         *
         * @throws IllegalArgumentException on a position outside 0..3, a topic that is not 32 bytes, or more than 1000
         *                                  alternatives at the position
         */
        public Builder topic(int position, byte[]... alternatives) {
            checkPosition(position);
            boolean wildcard = alternatives == null || alternatives.length == 0;
            List<byte[]> set = topics.get(position);
            if (!wildcard) {
                for (byte[] topic : alternatives) {
                    if (topic == null) {
                        wildcard = true;
                    } else {
                        LogsBloom.Builder.checkLength(topic, 32, "topic");
                    }
                }
                set = merged(set == null ? List.of() : set, alternatives, "topic position " + position);
            }
            // Every alternative passed its checks: only now does the call change the builder.
            positionGiven[position] = true;
            positionWildcard[position] |= wildcard;
            topics.set(position, set);
            return this;
        }

        /** Makes position {@code position} (0..3) an explicit wildcard: any topic, but the log needs that many topics. */
        public Builder anyTopic(int position) {
            checkPosition(position);
            positionGiven[position] = true;
            positionWildcard[position] = true;
            return this;
        }

        private static void checkPosition(int position) {
            if (position < 0 || position >= MAX_TOPICS) {
                throw new IllegalArgumentException(
                        "topic position " + position + " is outside 0.." + (MAX_TOPICS - 1));
            }
        }

        /**
         * {@code set} followed by each non-null value not already in it, copied, once; the caller's list is left as it
         * is, so a call refused here changes nothing.
         */
        private static List<byte[]> merged(List<byte[]> set, byte[][] values, String what) {
            List<byte[]> out = new ArrayList<>(set);
            for (byte[] value : values) {
                if (value == null || containsBytes(out, value)) {
                    continue;
                }
                if (out.size() == MAX_ALTERNATIVES) {
                    throw new IllegalArgumentException(
                            what + " has more than " + MAX_ALTERNATIVES + " alternatives; at most " + MAX_ALTERNATIVES
                                    + " are allowed (geth maxSubTopics)");
                }
                out.add(value.clone());
            }
            return out;
        }

        /** The filter. Positions up to the last one mentioned are part of it; unmentioned earlier ones are wildcards. */
        public LogFilter build() {
            int positionCount = 0;
            for (int p = 0; p < MAX_TOPICS; p++) {
                if (positionGiven[p]) {
                    positionCount = p + 1;
                }
            }
            List<List<byte[]>> outTopics = new ArrayList<>(positionCount);
            for (int p = 0; p < positionCount; p++) {
                List<byte[]> set = topics.get(p);
                boolean wildcard = positionWildcard[p] || set == null || set.isEmpty();
                outTopics.add(wildcard ? null : Collections.unmodifiableList(copyOf(set)));
            }
            return new LogFilter(Collections.unmodifiableList(copyOf(addresses)), Collections.unmodifiableList(outTopics));
        }
    }
}
