package org.chainfilter.testvectors.suites;

import java.util.List;
import org.chainfilter.bip37.Bip37BloomFilter;
import org.chainfilter.bip37.MerkleBlock;
import org.chainfilter.btcwire.Block;
import org.chainfilter.testvectors.Expect;
import org.chainfilter.testvectors.Mismatch;
import org.chainfilter.testvectors.SuiteExecutor;
import org.chainfilter.testvectors.Suites;
import org.chainfilter.testvectors.Vector;

/**
 * {@code bip37-merkleblock}: {@link MerkleBlock#fromBlockAndFilter} (Core's {@code CMerkleBlock(block, filter)})
 * serializes to {@code merkleblock} and matches {@code matched}; besides, the merkle block it built must verify on
 * the client side to the same matches, as an SPV client would check it.
 */
public final class Bip37MerkleBlockSuite implements SuiteExecutor {
    @Override
    public String suite() {
        return Suites.BIP37_MERKLEBLOCK;
    }

    @Override
    public void check(Vector vector) throws Mismatch {
        Bip37BloomFilter filter = Bip37Vectors.filter(vector);
        Block block = Block.parse(vector.hex("block"));
        MerkleBlock built = MerkleBlock.fromBlockAndFilter(block, filter);
        if (vector.has("merkleblock")) {
            Expect.bytes("merkleblock", vector.hex("merkleblock"), built.serialize());
        }
        List<String> matches = Bip37Vectors.describe(built.builtMatches());
        // Required by the schema: read without has(), so a vector without it is refused as malformed.
        Expect.equal("matched", Bip37Vectors.expectedMatches(vector), matches);
        Expect.equal("matches verified from the built merkleblock", matches,
                Bip37Vectors.describe(MerkleBlock.parse(built.serialize()).verify()));
        Bip37Vectors.checkAfter(vector, filter);
    }
}
