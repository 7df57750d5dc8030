package org.chainfilter.bip37.bitcoinj;

import org.chainfilter.testkit.bitcoin.BitcoinData;

/**
 * The published blocks and transactions of the BIP37 vectors; each resource's {@code #} lines cite repository, path,
 * test and commit (Bitcoin Core bloom_tests.cpp / setup_common.cpp at e3f416dbf7633b2fb19c933e5508bd231cc7e9cf).
 */
final class Blocks {
    static final String[] NAMES = {"block_13b8a", "block_5a4ded", "block_dab013", "block_b731f2"};

    private Blocks() {
    }

    /** The {@code raw} field of a resource: the block or transaction serialization in hex. */
    static String raw(String name) {
        return BitcoinData.raw(name);
    }
}
