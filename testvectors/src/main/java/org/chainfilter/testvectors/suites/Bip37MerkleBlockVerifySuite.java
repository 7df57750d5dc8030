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
        boolean expectValid = vector.bool("valid");
        PartialMerkleTree.Extraction extraction;
        try {
            extraction = MerkleBlock.parse(vector.hex("merkleblock")).tree().extractMatches();
        } catch (IllegalArgumentException refused) {
            Expect.that(!expectValid, "valid: expected true got false (" + refused.getMessage() + ")");
            return;
        }
        Expect.that(expectValid, "valid: expected false got true (root " + extraction.root().toDisplayHex()
                + ", " + extraction.matches().size() + " matches)");
        if (vector.has("root")) {
            Expect.equal("root", Hex.encode(vector.hex("root", 32)), extraction.root().toDisplayHex());
        }
        if (vector.has("matched")) {
            Expect.equal("matched", Bip37Vectors.expectedMatches(vector), Bip37Vectors.describe(extraction.matches()));
        }
    }
}
