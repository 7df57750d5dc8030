package org.chainfilter.ethbloom.index;

import java.util.Arrays;
import java.util.Objects;
import java.util.function.LongConsumer;

import org.chainfilter.ethbloom.LogFilter;

/**
 * The section matcher of go-ethereum's bloombits ({@code core/bloombits/matcher.go}, removed in v1.15.6): for every
 * section, a value's vector is the AND of the vectors of its bloom bits, a clause's vector is the OR of its values'
 * vectors, and the section's candidates are the AND of the clauses' vectors. Clauses are evaluated in order and a
 * section whose result is already empty fetches no further vectors (geth's daisy chain).
 *
 * <p>Clauses are {@code [clause][alternative][bits]}. As in geth's {@code NewMatcher}, a clause that is empty or has a
 * null alternative is a wildcard and is dropped; with no clause left every block is a candidate.
 *
 * <p>Immutable and thread-safe; the working buffers belong to each call.
 */
public final class BloomBitsMatcher {
    /** Blocks per section: go-ethereum's {@code BloomBitsBlocks}. */
    public static final int SECTION_SIZE = 4096;
    static final int WORDS_PER_VECTOR = SECTION_SIZE / 64;

    private final int[][][] clauses;

    private BloomBitsMatcher(int[][][] clauses) {
        this.clauses = clauses;
    }

    /** The matcher of a log filter's address set and non-wildcard topic positions. */
    public static BloomBitsMatcher of(LogFilter filter) {
        return new BloomBitsMatcher(filter.bloomBitClauses());
    }

    /**
     * A matcher over raw bit indexes, as geth's matcher tests write them. Bits may exceed 2047 when the source
     * supports them (geth's synthetic vectors do).
     *
     * @throws IllegalArgumentException on a negative bit or an alternative with no bit
     */
    public static BloomBitsMatcher ofBits(int[][][] clauses) {
        Objects.requireNonNull(clauses, "clauses");
        return new BloomBitsMatcher(Arrays.stream(clauses)
                .filter(clause -> clause != null && clause.length > 0 && Arrays.stream(clause).allMatch(Objects::nonNull))
                .map(clause -> Arrays.stream(clause).map(BloomBitsMatcher::checkBits).toArray(int[][]::new))
                .toArray(int[][][]::new));
    }

    private static int[] checkBits(int[] bits) {
        if (bits.length == 0) {
            throw new IllegalArgumentException("an alternative has no bloom bit");
        }
        for (int bit : bits) {
            if (bit < 0) {
                throw new IllegalArgumentException("bloom bit " + bit + " is negative");
            }
        }
        return bits.clone();
    }

    /** Whether every block is a candidate (no clause). */
    public boolean isMatchAll() {
        return clauses.length == 0;
    }

    /**
     * Reports, in ascending order, every block {@code b} in {@code [fromBlock, toBlockInclusive]} whose bit vectors
     * pass the clauses; block {@code b} is bit {@code b - firstBlock} of the sections counted from {@code firstBlock}.
     * The caller checks that the range lies inside what {@code source} covers.
     */
    public void candidates(BitVectorSource source, long firstBlock, long fromBlock, long toBlockInclusive,
                           LongConsumer sink) {
        if (fromBlock > toBlockInclusive) {
            return;
        }
        long[] result = new long[WORDS_PER_VECTOR];
        long[] clauseVector = new long[WORDS_PER_VECTOR];
        long[] valueVector = new long[WORDS_PER_VECTOR];
        long[] bitVector = new long[WORDS_PER_VECTOR];
        long firstSection = (fromBlock - firstBlock) / SECTION_SIZE;
        long lastSection = (toBlockInclusive - firstBlock) / SECTION_SIZE;
        for (long section = firstSection; section <= lastSection; section++) {
            if (!matchSection(source, section, result, clauseVector, valueVector, bitVector)) {
                continue;
            }
            long sectionStart = firstBlock + section * SECTION_SIZE;
            for (int w = 0; w < WORDS_PER_VECTOR; w++) {
                long word = result[w];
                while (word != 0) {
                    int lead = Long.numberOfLeadingZeros(word);
                    long block = sectionStart + 64L * w + lead;
                    if (block >= fromBlock && block <= toBlockInclusive) {
                        sink.accept(block);
                    }
                    word &= ~(Long.MIN_VALUE >>> lead);
                }
            }
        }
    }

    /** Fills {@code result} with the section's candidate vector; false when it is empty. */
    private boolean matchSection(BitVectorSource source, long section, long[] result, long[] clauseVector,
                                 long[] valueVector, long[] bitVector) {
        Arrays.fill(result, -1L);
        for (int[][] clause : clauses) {
            Arrays.fill(clauseVector, 0L);
            for (int[] bits : clause) {
                if (loadValue(source, section, bits, valueVector, bitVector)) {
                    for (int w = 0; w < WORDS_PER_VECTOR; w++) {
                        clauseVector[w] |= valueVector[w];
                    }
                }
            }
            long any = 0;
            for (int w = 0; w < WORDS_PER_VECTOR; w++) {
                any |= result[w] &= clauseVector[w];
            }
            if (any == 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * The AND of the value's bit vectors into {@code valueVector}; false (stopping early) once it is empty. Each
     * further vector is ANDed in place, so the source reads only the words still non-zero.
     */
    private static boolean loadValue(BitVectorSource source, long section, int[] bits, long[] valueVector,
                                     long[] scratch) {
        if (!source.load(bits[0], section, valueVector)) {
            return false;
        }
        for (int i = 1; i < bits.length; i++) {
            if (!source.andInto(bits[i], section, valueVector, scratch)) {
                return false;
            }
        }
        return true;
    }
}
