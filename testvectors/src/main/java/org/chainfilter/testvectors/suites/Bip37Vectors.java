package org.chainfilter.testvectors.suites;

import java.util.ArrayList;
import java.util.List;
import org.chainfilter.bip37.Bip37BloomFilter;
import org.chainfilter.bip37.MatchedTransaction;
import org.chainfilter.common.Hex;
import org.chainfilter.testvectors.Expect;
import org.chainfilter.testvectors.Fields;
import org.chainfilter.testvectors.Mismatch;
import org.chainfilter.testvectors.Vector;

/** The fields the BIP37 suites share: a filter given by parameters or by its filterload, and the after-checks. */
final class Bip37Vectors {
    private Bip37Vectors() {
    }

    /**
     * The vector's filter: {@code filter} (an object: {@code elements}, {@code fpRate}, {@code tweak}, {@code flags},
     * {@code insert}) built as Core's {@code CBloomFilter(nElements, nFPRate, nTweak, nFlags)} and then inserted into,
     * or {@code filterload} parsed as a peer's payload.
     */
    static Bip37BloomFilter filter(Vector vector) {
        if (vector.oneOf("filter", "filterload").equals("filter")) {
            return fromParameters(vector.object("filter"));
        }
        return Bip37BloomFilter.parseFilterLoad(vector.hex("filterload"));
    }

    /** A filter from {@code elements}, {@code fpRate}, {@code tweak}, {@code flags}, then every {@code insert}. */
    static Bip37BloomFilter fromParameters(Fields fields) {
        int flags = fields.count("flags");
        if (flags > 255) {
            throw fields.error("flags", "must be a byte (0 .. 255); it is " + flags);
        }
        Bip37BloomFilter filter = Bip37BloomFilter.fromElementsAndRate(fields.count("elements"),
                fields.number("fpRate"), (int) fields.uint32("tweak"), flags);
        for (byte[] item : fields.hexList("insert")) {
            filter.insert(item);
        }
        return filter;
    }

    /** {@code contains} items must all test positive, {@code absent} items all negative. */
    static void checkMembership(Vector vector, Bip37BloomFilter filter, String containsField, String absentField)
            throws Mismatch {
        Expect.membership(vector, containsField, absentField, filter::contains, "the filter");
    }

    /**
     * The optional state of the filter after matching: {@code filterloadAfter}, {@code containsAfter},
     * {@code absentAfter}.
     */
    static void checkAfter(Vector vector, Bip37BloomFilter filter) throws Mismatch {
        if (vector.has("filterloadAfter")) {
            Expect.bytes("filterloadAfter", vector.hex("filterloadAfter"), filter.toFilterLoad());
        }
        checkMembership(vector, filter, "containsAfter", "absentAfter");
    }

    /** {@code matched}: a list of {@code {index, txid}} (txid in display order) as {@code index:txid} strings. */
    static List<String> expectedMatches(Vector vector) {
        List<String> out = new ArrayList<>();
        for (Fields entry : vector.objects("matched")) {
            out.add(entry.count("index") + ":" + Hex.encode(entry.hex("txid", 32)));
        }
        return out;
    }

    static List<String> describe(List<MatchedTransaction> matches) {
        List<String> out = new ArrayList<>(matches.size());
        for (MatchedTransaction m : matches) {
            out.add(m.index() + ":" + m.txid().toDisplayHex());
        }
        return out;
    }
}
