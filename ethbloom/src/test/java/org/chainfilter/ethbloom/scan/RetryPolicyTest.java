package org.chainfilter.ethbloom.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {
    @Test
    void backoffDoublesUpToTheCap() {
        RetryPolicy policy = RetryPolicy.of(10, Duration.ofMillis(250), Duration.ofSeconds(2));
        long[] expectedMillis = {250, 500, 1000, 2000, 2000, 2000};
        for (int retry = 1; retry <= expectedMillis.length; retry++) {
            assertEquals(Duration.ofMillis(expectedMillis[retry - 1]), policy.backoffBeforeRetry(retry));
        }
        assertEquals(Duration.ofSeconds(2), policy.backoffBeforeRetry(Integer.MAX_VALUE));
        assertEquals(10, policy.maxAttempts());
    }

    @Test
    void theDefaultWaitsAboutSixteenSecondsInAll() {
        Duration total = Duration.ZERO;
        for (int retry = 1; retry < RetryPolicy.DEFAULT.maxAttempts(); retry++) {
            total = total.plus(RetryPolicy.DEFAULT.backoffBeforeRetry(retry));
        }
        assertEquals(Duration.ofMillis(250 + 500 + 1000 + 2000 + 4000 + 8000), total);
    }

    @Test
    void refusesNonsense() {
        assertEquals("maxAttempts is 0; it must be at least 1", assertThrows(IllegalArgumentException.class,
                () -> RetryPolicy.of(0, Duration.ZERO, Duration.ZERO)).getMessage());
        assertEquals("initialBackoff is PT-1S; it must not be negative", assertThrows(IllegalArgumentException.class,
                () -> RetryPolicy.of(1, Duration.ofSeconds(-1), Duration.ZERO)).getMessage());
        assertEquals("maxBackoff is PT1S; it must be at least initialBackoff PT2S",
                assertThrows(IllegalArgumentException.class,
                        () -> RetryPolicy.of(1, Duration.ofSeconds(2), Duration.ofSeconds(1))).getMessage());
        assertEquals("retry is 0; retries are numbered from 1", assertThrows(IllegalArgumentException.class,
                () -> RetryPolicy.DEFAULT.backoffBeforeRetry(0)).getMessage());
    }

    @Test
    void isAValue() {
        RetryPolicy a = RetryPolicy.of(3, Duration.ofMillis(1), Duration.ofMillis(2));
        assertEquals(a, RetryPolicy.of(3, Duration.ofMillis(1), Duration.ofMillis(2)));
        assertEquals(a.hashCode(), RetryPolicy.of(3, Duration.ofMillis(1), Duration.ofMillis(2)).hashCode());
        assertNotEquals(a, RetryPolicy.of(4, Duration.ofMillis(1), Duration.ofMillis(2)));
        assertEquals("RetryPolicy[maxAttempts=3, initialBackoff=PT0.001S, maxBackoff=PT0.002S]", a.toString());
    }
}
