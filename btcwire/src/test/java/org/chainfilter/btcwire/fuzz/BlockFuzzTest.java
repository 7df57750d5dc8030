package org.chainfilter.btcwire.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.chainfilter.btcwire.Block;
import org.chainfilter.testkit.ParserContract;

/**
 * Fuzzes {@link Block#parse(byte[])}: only {@link IllegalArgumentException}s may escape, allocation stays bounded by
 * the input (the transaction count is checked against the bytes left), an accepted block serializes back to exactly
 * the input, and computing its Merkle root never fails.
 *
 * <p>Seeds ({@code BlockFuzzTestInputs/parse}): the four blocks of Bitcoin Core {@code src/test/bloom_tests.cpp}
 * (merkle_block_1..4) at commit e3f416dbf7633b2fb19c933e5508bd231cc7e9cf ({@code bip37-*}) and the ten testnet blocks
 * of {@code src/test/data/blockfilters.json} at commit c7efb652f3543b001b4dd22186a354605b14f47e ({@code bip158-*}).
 */
class BlockFuzzTest {
    private static final ParserContract<Block> BLOCK =
            ParserContract.refusing("Block.parse", IllegalArgumentException.class);

    @FuzzTest(maxDuration = "5m")
    void parse(byte[] input) {
        BLOCK.parse(input.length, () -> Block.parse(input)).ifPresent(block -> {
            ParserContract.assertCanonical("block", input, block.serialize(true));
            if (!block.transactions().isEmpty()) {
                block.computeMerkleRoot();
            }
            block.merkleRootMatches();
        });
    }
}
