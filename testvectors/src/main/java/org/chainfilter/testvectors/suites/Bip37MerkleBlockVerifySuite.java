package org.chainfilter.testvectors.suites;

import org.chainfilter.bip37.MerkleBlock;
import org.chainfilter.bip37.PartialMerkleTree;
import org.chainfilter.common.Hex;
import org.chainfilter.testvectors.Expect;
import org.chainfilter.testvectors.Mismatch;
import org.chainfilter.testvectors.SuiteExecutor;
import org.chainfilter.testvectors.Suites;
import org.chainfilter.testvectors.Vector;

/**
 * {@code bip37-merkleblock-verify}: {@link MerkleBlock#parse} then {@link PartialMerkleTree#extractMatches()}
 * (Core's {@code ExtractMatches}) succeed exactly when {@code valid}; a valid one yields {@code root} and
 * {@code matched}.
 */
public final class Bip37MerkleBlockVerifySuite implements SuiteExecutor {
    @Override
    public String suite() {
        return Suites.BIP37_MERKLEBLOCK_VERIFY;
    }

    @Override
    public void check(Vector vector) throws Mismatch {
        byte[] payload = vector.hex("merkleblock");
        PartialMerkleTree.Extraction extraction = Expect.validity(vector.bool("valid"),
                () -> MerkleBlock.parse(payload).tree().extractMatches(), IllegalArgumentException.class,
                e -> "root " + e.root().toDisplayHex() + ", " + e.matches().size() + " matches");
        if (extraction == null) {
            return;
        }
        if (vector.has("root")) {
            Expect.equal("root", Hex.encode(vector.hex("root", 32)), extraction.root().toDisplayHex());
        }
        if (vector.has("matched")) {
            Expect.equal("matched", Bip37Vectors.expectedMatches(vector), Bip37Vectors.describe(extraction.matches()));
        }
    }
}
