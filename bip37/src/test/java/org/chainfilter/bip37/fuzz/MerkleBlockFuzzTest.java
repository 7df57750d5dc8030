package org.chainfilter.bip37.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.List;
import org.chainfilter.bip37.MatchedTransaction;
import org.chainfilter.bip37.MerkleBlock;
import org.chainfilter.bip37.PartialMerkleTree;
import org.chainfilter.testkit.ParserContract;

/**
 * Fuzzes a peer's {@code merkleblock} ({@link MerkleBlock#parse(byte[])}) and the extraction of its partial Merkle
 * tree ({@link PartialMerkleTree#extractMatches()}, Core's {@code ExtractMatches}). Checks: parsing and extraction
 * refuse only with {@link IllegalArgumentException}s ({@code WireFormatException}, {@code InvalidMerkleBlockException})
 * and allocate within the bound; an accepted payload re-serializes to exactly the input; a tree that extracts gives
 * matches at strictly increasing positions below total_transactions (at most 16,666), each match one of the tree's
 * hashes, and every flag byte used.
 *
 * <p>Seeds ({@code MerkleBlockFuzzTestInputs/parse}): the published serializations of Bitcoin Core
 * {@code src/test/bloom_tests.cpp} merkle_block_3_and_serialize (commit e3f416dbf7633b2fb19c933e5508bd231cc7e9cf) and
 * btcd {@code wire/msgmerkleblock_test.go} merkleBlockOne (commit 2c67bc29cedf391baf5e2d453855256432bb2006); and
 * ({@code built-*}) trees built with Core's TraverseAndBuild by the seed generator over the legacy blocks of those
 * vectors and of {@code src/test/data/blockfilters.json} (c7efb652f3543b001b4dd22186a354605b14f47e), matching none,
 * the first, the last, every odd or every transaction.
 */
class MerkleBlockFuzzTest {
    private static final ParserContract<MerkleBlock> MERKLEBLOCK =
            ParserContract.refusing("MerkleBlock.parse", IllegalArgumentException.class);
    private static final ParserContract<PartialMerkleTree.Extraction> EXTRACTION =
            ParserContract.refusing("PartialMerkleTree.extractMatches", IllegalArgumentException.class);

    @FuzzTest(maxDuration = "5m")
    void parse(byte[] input) {
        MERKLEBLOCK.parse(input.length, () -> MerkleBlock.parse(input)).ifPresent(merkleBlock -> {
            ParserContract.assertCanonical("merkleblock", input, merkleBlock.serialize());
            PartialMerkleTree tree = merkleBlock.tree();
            EXTRACTION.parse(input.length, tree::extractMatches).ifPresent(extraction -> {
                List<MatchedTransaction> matches = extraction.matches();
                int previous = -1;
                for (MatchedTransaction match : matches) {
                    if (match.index() <= previous || match.index() >= tree.transactionCount()
                            || !tree.hashes().contains(match.txid())) {
                        throw new AssertionError("extraction gave " + match + " after position " + previous
                                + " from " + tree);
                    }
                    previous = match.index();
                }
                if (tree.transactionCount() > PartialMerkleTree.MAX_TRANSACTIONS
                        || (extraction.flagBitsUsed() + 7) / 8 != tree.flagBytes().length) {
                    throw new AssertionError("extraction accepted " + tree);
                }
            });
        });
    }
}
