package org.chainfilter.testvectors.peer;

import java.util.List;

/** Test access to the bitcoinj peer's refusal types. */
public final class BitcoinjSuitesAccess {
    private BitcoinjSuitesAccess() {
    }

    public static List<Class<? extends RuntimeException>> refusals() {
        return BitcoinjSuites.REFUSALS;
    }
}
