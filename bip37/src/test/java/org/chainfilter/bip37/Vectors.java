package org.chainfilter.bip37;

import org.chainfilter.btcwire.Block;
import org.chainfilter.btcwire.Hash256;
import org.chainfilter.btcwire.Transaction;
import org.chainfilter.common.Hex;
import org.chainfilter.testkit.bitcoin.BitcoinData;

/**
 * The published blocks and transactions the BIP37 tests use. Each resource's {@code #} lines cite repository, path,
 * test and commit; {@code key=value} lines hold the figures.
 */
final class Vectors {
    private Vectors() {
    }

    /** The {@code raw} field of a resource: a block's or transaction's serialization in hex. */
    static String raw(String name) {
        return BitcoinData.raw(name);
    }

    /** Core test/util/setup_common.cpp getBlock13b8a(), bloom_tests.cpp blocks: see the resource files. */
    static Block block(String name) {
        return Block.fromHex(raw(name));
    }

    static Transaction tx(String name) {
        return Transaction.fromHex(raw(name));
    }

    static byte[] hex(String hex) {
        return Hex.decode(hex);
    }

    /** Core's {@code uint256{"..."}}: display hex, inserted in internal order. */
    static Hash256 uint256(String displayHex) {
        return Hash256.fromDisplayHex(displayHex);
    }
}
