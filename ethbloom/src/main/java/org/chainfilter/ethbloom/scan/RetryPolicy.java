package org.chainfilter.ethbloom.scan;

import java.time.Duration;
import java.util.Objects;

/**
 * Bounded retries with exponential backoff: the delay before retry {@code n} (n = 1 for the first retry) is
 * {@code min(initialBackoff · 2^(n-1), maxBackoff)}; after {@code maxAttempts} failed attempts in a row the call
 * fails. No jitter: one scanner makes one call at a time, so there is no herd to spread.
 */
public final class RetryPolicy {
    /**
     * 7 attempts, 250 ms doubling up to 8 s: 15.75 s of waiting before giving up, more than one 12 s slot, so a
     * load-balanced backend a block behind the head does not end a scan at confirmations 0. (It was 6 attempts,
     * 7.75 s, short of what this comment promised.)
     */
    public static final RetryPolicy DEFAULT = of(7, Duration.ofMillis(250), Duration.ofSeconds(8));

    private final int maxAttempts;
    private final Duration initialBackoff;
    private final Duration maxBackoff;

    private RetryPolicy(int maxAttempts, Duration initialBackoff, Duration maxBackoff) {
        this.maxAttempts = maxAttempts;
        this.initialBackoff = initialBackoff;
        this.maxBackoff = maxBackoff;
    }

    /**
     * @param maxAttempts    total attempts of one call, at least 1 (1 = no retry)
     * @param initialBackoff delay before the first retry, not negative
     * @param maxBackoff     cap on any delay, not less than {@code initialBackoff}
     */
    public static RetryPolicy of(int maxAttempts, Duration initialBackoff, Duration maxBackoff) {
        Objects.requireNonNull(initialBackoff, "initialBackoff");
        Objects.requireNonNull(maxBackoff, "maxBackoff");
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts is " + maxAttempts + "; it must be at least 1");
        }
        if (initialBackoff.isNegative()) {
            throw new IllegalArgumentException("initialBackoff is " + initialBackoff + "; it must not be negative");
        }
        if (maxBackoff.compareTo(initialBackoff) < 0) {
            throw new IllegalArgumentException(
                    "maxBackoff is " + maxBackoff + "; it must be at least initialBackoff " + initialBackoff);
        }
        return new RetryPolicy(maxAttempts, initialBackoff, maxBackoff);
    }

    public int maxAttempts() {
        return maxAttempts;
    }

    /** The delay before retry {@code retry} (1-based): {@code min(initialBackoff · 2^(retry-1), maxBackoff)}. */
    public Duration backoffBeforeRetry(int retry) {
        if (retry < 1) {
            throw new IllegalArgumentException("retry is " + retry + "; retries are numbered from 1");
        }
        Duration delay = initialBackoff;
        for (int i = 1; i < retry && delay.compareTo(maxBackoff) < 0; i++) {
            delay = delay.multipliedBy(2);
        }
        return delay.compareTo(maxBackoff) > 0 ? maxBackoff : delay;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RetryPolicy other && maxAttempts == other.maxAttempts
                && initialBackoff.equals(other.initialBackoff) && maxBackoff.equals(other.maxBackoff);
    }

    @Override
    public int hashCode() {
        return Objects.hash(maxAttempts, initialBackoff, maxBackoff);
    }

    @Override
    public String toString() {
        return "RetryPolicy[maxAttempts=" + maxAttempts + ", initialBackoff=" + initialBackoff
                + ", maxBackoff=" + maxBackoff + "]";
    }
}
