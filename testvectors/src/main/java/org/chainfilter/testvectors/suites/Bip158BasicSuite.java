package org.chainfilter.testvectors.suites;

import org.chainfilter.bip158.BasicFilter;
import org.chainfilter.btcwire.Block;
import org.chainfilter.btcwire.Hash256;
import org.chainfilter.common.Hex;
import org.chainfilter.testvectors.Expect;
import org.chainfilter.testvectors.Mismatch;
import org.chainfilter.testvectors.SuiteExecutor;
import org.chainfilter.testvectors.Suites;
import org.chainfilter.testvectors.Vector;

/**
 * {@code bip158-basic}: {@link BasicFilter#build} of the block and its spent scripts is {@code filter}, and its header
 * chained on {@code prevHeader} is {@code header} (both hashes in display order).
 */
public final class Bip158BasicSuite implements SuiteExecutor {
    @Override
    public String suite() {
        return Suites.BIP158_BASIC;
    }

    @Override
    public void check(Vector vector) throws Mismatch {
        Block block = Block.parse(vector.hex("block"));
        if (vector.has("blockHash")) {
            Expect.equal("blockHash", Hex.encode(vector.hex("blockHash", 32)), block.hash().toDisplayHex());
        }
        BasicFilter filter = BasicFilter.build(block, vector.hexList("prevoutScripts"));
        Expect.bytes("filter", vector.hex("filter"), filter.encoded());
        Hash256 previous = Hash256.fromDisplayHex(Hex.encode(vector.hex("prevHeader", 32)));
        Expect.equal("header", Hex.encode(vector.hex("header", 32)), filter.header(previous).toDisplayHex());
    }
}
