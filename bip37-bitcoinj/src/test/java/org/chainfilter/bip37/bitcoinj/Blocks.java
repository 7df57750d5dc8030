package org.chainfilter.bip37.bitcoinj;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.chainfilter.btcwire.Block;
import org.chainfilter.btcwire.Transaction;

/**
 * The published blocks and transactions of the BIP37 vectors; each resource's {@code #} lines cite repository, path,
 * test and commit (Bitcoin Core bloom_tests.cpp / setup_common.cpp at e3f416dbf7633b2fb19c933e5508bd231cc7e9cf).
 */
final class Blocks {
    static final String[] NAMES = {"block_13b8a", "block_5a4ded", "block_dab013", "block_b731f2"};

    private Blocks() {
    }

    static String raw(String name) {
        try (InputStream in = Blocks.class.getResourceAsStream(name + ".txt")) {
            if (in == null) {
                throw new IllegalArgumentException("no resource " + name + ".txt");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(l -> l.startsWith("raw=")).findFirst().orElseThrow().substring(4);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Block block(String name) {
        return Block.fromHex(raw(name));
    }

    static Transaction tx(String name) {
        return Transaction.fromHex(raw(name));
    }
}
