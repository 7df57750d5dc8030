package org.chainfilter.common.filter;

import java.util.Arrays;

/**
 * The cuckoo filter's table: {@code bucketCount} buckets of {@link #SLOTS_PER_BUCKET} slots, each slot an
 * {@code f}-bit fingerprint packed back to back in a {@code long[]} (slot {@code s} occupies bits
 * {@code s*f .. s*f+f-1}, a slot may straddle two words). Fingerprint 0 marks an empty slot, so stored fingerprints
 * are in {@code [1, 2^f)}. No allocation per call.
 */
final class FingerprintTable {
    static final int SLOTS_PER_BUCKET = 4;
    static final int MIN_FINGERPRINT_BITS = 2;
    static final int MAX_FINGERPRINT_BITS = 32;

    final int fingerprintBits;
    final long bucketCount;
    private final long slotMask;
    final long[] words;

    FingerprintTable(long bucketCount, int fingerprintBits) {
        this(bucketCount, fingerprintBits, new long[wordsFor(bucketCount, fingerprintBits)]);
    }

    FingerprintTable(long bucketCount, int fingerprintBits, long[] words) {
        this.bucketCount = bucketCount;
        this.fingerprintBits = fingerprintBits;
        this.slotMask = (1L << fingerprintBits) - 1;
        this.words = words;
    }

    /**
     * The number of words for the table, checked against Java's array limit.
     *
     * @throws IllegalArgumentException if the table would not fit one array
     */
    static int wordsFor(long bucketCount, int fingerprintBits) {
        long bits = Math.multiplyExact(Math.multiplyExact(bucketCount, SLOTS_PER_BUCKET), fingerprintBits);
        long words = (bits + 63) >>> 6;
        if (words > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(bucketCount + " buckets of " + SLOTS_PER_BUCKET + " x " + fingerprintBits
                    + "-bit slots need " + words + " words; a table holds at most " + (Integer.MAX_VALUE - 8));
        }
        return (int) words;
    }

    long read(long bucket, int slot) {
        long bit = (bucket * SLOTS_PER_BUCKET + slot) * fingerprintBits;
        int w = (int) (bit >>> 6);
        int offset = (int) (bit & 63);
        long value = words[w] >>> offset;
        if (offset + fingerprintBits > 64) {
            value |= words[w + 1] << (64 - offset);
        }
        return value & slotMask;
    }

    void write(long bucket, int slot, long fingerprint) {
        long bit = (bucket * SLOTS_PER_BUCKET + slot) * fingerprintBits;
        int w = (int) (bit >>> 6);
        int offset = (int) (bit & 63);
        words[w] = (words[w] & ~(slotMask << offset)) | (fingerprint << offset);
        if (offset + fingerprintBits > 64) {
            int spilled = 64 - offset;
            words[w + 1] = (words[w + 1] & ~(slotMask >>> spilled)) | (fingerprint >>> spilled);
        }
    }

    /** Whether {@code bucket} holds {@code fingerprint} in any slot. */
    boolean contains(long bucket, long fingerprint) {
        for (int s = 0; s < SLOTS_PER_BUCKET; s++) {
            if (read(bucket, s) == fingerprint) {
                return true;
            }
        }
        return false;
    }

    /** Whether every slot of {@code bucket} holds {@code fingerprint} (0: whether the bucket is empty). */
    boolean holdsOnly(long bucket, long fingerprint) {
        for (int s = 0; s < SLOTS_PER_BUCKET; s++) {
            if (read(bucket, s) != fingerprint) {
                return false;
            }
        }
        return true;
    }

    /** Whether every slot of {@code bucket} holds a fingerprint. */
    boolean isFull(long bucket) {
        for (int s = 0; s < SLOTS_PER_BUCKET; s++) {
            if (read(bucket, s) == 0) {
                return false;
            }
        }
        return true;
    }

    /** Puts {@code fingerprint} in the first empty slot of {@code bucket}; false if the bucket is full. */
    boolean insert(long bucket, long fingerprint) {
        for (int s = 0; s < SLOTS_PER_BUCKET; s++) {
            if (read(bucket, s) == 0) {
                write(bucket, s, fingerprint);
                return true;
            }
        }
        return false;
    }

    /** Empties one slot of {@code bucket} that holds {@code fingerprint}; false if none does. */
    boolean remove(long bucket, long fingerprint) {
        for (int s = 0; s < SLOTS_PER_BUCKET; s++) {
            if (read(bucket, s) == fingerprint) {
                write(bucket, s, 0);
                return true;
            }
        }
        return false;
    }

    /** Replaces slot {@code slot} of {@code bucket} with {@code fingerprint} and returns what was there. */
    long swap(long bucket, int slot, long fingerprint) {
        long old = read(bucket, slot);
        write(bucket, slot, fingerprint);
        return old;
    }

    /** How many slots hold a fingerprint. */
    long occupiedSlots() {
        long occupied = 0;
        for (long bucket = 0; bucket < bucketCount; bucket++) {
            for (int s = 0; s < SLOTS_PER_BUCKET; s++) {
                if (read(bucket, s) != 0) {
                    occupied++;
                }
            }
        }
        return occupied;
    }

    void clear() {
        Arrays.fill(words, 0L);
    }

    FingerprintTable copy() {
        return new FingerprintTable(bucketCount, fingerprintBits, words.clone());
    }
}
