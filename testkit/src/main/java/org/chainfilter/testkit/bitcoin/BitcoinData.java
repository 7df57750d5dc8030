package org.chainfilter.testkit.bitcoin;

import java.util.Map;
import org.chainfilter.testkit.VectorResource;

/**
 * The real Bitcoin blocks and transactions the btcwire, bip37 and bip37-bitcoinj tests share, one
 * {@link VectorResource} file each in this package's resources ({@code block_13b8a}, {@code block_5a4ded},
 * {@code block_b731f2}, {@code block_dab013}, {@code tx_b4749f}, {@code tx_e2769b}, {@code testnet_0},
 * {@code testnet_926485}, {@code testnet_1263442}); every file cites where its bytes were published. Kept here once
 * so the modules cannot drift apart.
 */
public final class BitcoinData {
    private BitcoinData() {
    }

    /** The fields of {@code <name>.txt}; see {@link VectorResource#load}. */
    public static Map<String, String> load(String name) {
        return VectorResource.load(BitcoinData.class, name);
    }

    /** One field of {@code <name>.txt}; see {@link VectorResource#field}. */
    public static String field(String name, String key) {
        return VectorResource.field(BitcoinData.class, name, key);
    }

    /** The {@code raw} field (the serialized block or transaction, hex) of {@code <name>.txt}. */
    public static String raw(String name) {
        return field(name, "raw");
    }
}
