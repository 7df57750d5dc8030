package org.chainfilter.bip37;

/**
 * What {@link Bip37BloomFilter#isRelevantAndUpdate} inserts after an output matches: the low two bits of nFlags
 * ({@code BLOOM_UPDATE_MASK = 3}).
 *
 * <p>Core compares {@code nFlags & 3} with 1 and 2 only, so the reserved higher bits are ignored (0x05 acts as
 * UPDATE_ALL) and the value 3 updates nothing. btcd compares the whole byte and bitcoinj throws for values other than
 * 0, 1, 2; we follow Core.
 */
public enum Bip37UpdateMode {
    /** {@code BLOOM_UPDATE_NONE} (0): never insert outpoints. */
    NONE,
    /** {@code BLOOM_UPDATE_ALL} (1): insert the outpoint of every output with a matching push. */
    ALL,
    /**
     * {@code BLOOM_UPDATE_P2PUBKEY_ONLY} (2): insert the outpoint only when Core's Solver classifies the output as
     * pay-to-pubkey or bare multisig.
     */
    P2PUBKEY_ONLY;

    /** The wire value, 0..2. */
    public int flagValue() {
        return ordinal();
    }

    /** The mode an nFlags byte selects: {@code nFlags & 3}, where 3 behaves as {@link #NONE}. */
    public static Bip37UpdateMode ofFlags(int nFlags) {
        switch (nFlags & 3) {
            case 1:
                return ALL;
            case 2:
                return P2PUBKEY_ONLY;
            default:
                return NONE;
        }
    }
}
