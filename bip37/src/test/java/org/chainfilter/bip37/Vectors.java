package org.chainfilter.bip37;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.chainfilter.btcwire.Block;
import org.chainfilter.btcwire.Hash256;
import org.chainfilter.btcwire.Transaction;
import org.chainfilter.common.Hex;

/**
 * The published blocks and transactions the BIP37 tests use. Each resource's {@code #} lines cite repository, path,
 * test and commit; {@code key=value} lines hold the figures.
 */
final class Vectors {
    private Vectors() {
    }

    static Map<String, String> load(String name) {
        InputStream in = Vectors.class.getResourceAsStream(name + ".txt");
        if (in == null) {
            throw new IllegalArgumentException("no vector resource " + name + ".txt");
        }
        Map<String, String> fields = new LinkedHashMap<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line; (line = reader.readLine()) != null; ) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    int eq = line.indexOf('=');
                    fields.put(line.substring(0, eq), line.substring(eq + 1));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return fields;
    }

    /** Core test/util/setup_common.cpp getBlock13b8a(), bloom_tests.cpp blocks: see the resource files. */
    static Block block(String name) {
        return Block.fromHex(load(name).get("raw"));
    }

    static Transaction tx(String name) {
        return Transaction.fromHex(load(name).get("raw"));
    }

    static byte[] hex(String hex) {
        return Hex.decode(hex);
    }

    /** Core's {@code uint256{"..."}}: display hex, inserted in internal order. */
    static Hash256 uint256(String displayHex) {
        return Hash256.fromDisplayHex(displayHex);
    }
}
