package org.chainfilter.ethbloom.index;

/**
 * Where a {@link BloomBitsMatcher} gets its bit vectors: for a bloom bit and a section, the 4,096-bit vector whose bit
 * {@code j} is bit {@code k} of the bloom of the section's block {@code j} (go-ethereum bloombits). {@link SectionIndex}
 * is the on-disk source; tests plug in go-ethereum's synthetic vectors.
 */
public interface BitVectorSource {

    /**
     * Writes the vector of bloom bit {@code bit} for section {@code section} into {@code into}: 64 words, block
     * {@code j} of the section at bit {@code 63 - (j & 63)} of word {@code j >>> 6} (the 512 bytes read MSB-first, as
     * big-endian words). Allocates nothing.
     *
     * @return false when the vector is all zero (then {@code into} is zero too), so the caller may stop early
     */
    boolean load(int bit, long section, long[] into);
}
