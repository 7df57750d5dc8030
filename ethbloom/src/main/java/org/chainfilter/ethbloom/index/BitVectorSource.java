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

    /**
     * ANDs the vector of bloom bit {@code bit} for section {@code section} into {@code accumulator} (64 words, same
     * layout as {@link #load}). A source may skip reading the words where the accumulator is already zero. The
     * default loads the vector into {@code scratch} first. Allocates nothing.
     *
     * @return whether any bit of the accumulator is still set
     */
    default boolean andInto(int bit, long section, long[] accumulator, long[] scratch) {
        if (!load(bit, section, scratch)) {
            java.util.Arrays.fill(accumulator, 0L);
            return false;
        }
        long any = 0;
        for (int w = 0; w < accumulator.length; w++) {
            any |= accumulator[w] &= scratch[w];
        }
        return any != 0;
    }
}
