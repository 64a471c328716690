package io.tcpload.runner.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ControlTokenTest {
    private static final String SECRET = "0123456789abcdef0123456789abcdef0123456789abcdef";
    private final ControlToken token = ControlToken.of(SECRET).orElseThrow();

    @Test
    void noValueIsNoToken() {
        assertThat(ControlToken.of(null)).isEmpty();
        assertThat(ControlToken.of("  ")).isEmpty();
    }

    @Test
    void onlyTheBearerOfTheWholeTokenIsAdmitted() {
        assertThat(token.admits("Bearer " + SECRET)).isTrue();
        assertThat(token.admits("bearer " + SECRET)).as("the scheme is case-insensitive").isTrue();

        assertThat(token.admits(null)).isFalse();
        assertThat(token.admits("")).isFalse();
        assertThat(token.admits("Bearer")).isFalse();
        assertThat(token.admits("Bearer ")).isFalse();
        assertThat(token.admits(SECRET)).as("no scheme").isFalse();
        assertThat(token.admits("Basic " + SECRET)).isFalse();
        assertThat(token.admits("Bearer " + SECRET.substring(0, SECRET.length() - 1)))
                .as("a prefix")
                .isFalse();
        assertThat(token.admits("Bearer " + SECRET + "0")).as("a longer one").isFalse();
        assertThat(token.admits("Bearer " + SECRET.toUpperCase())).isFalse();
    }

    @Test
    void theSecretNeverShowsInText() {
        assertThat(token.toString()).doesNotContain(SECRET);
    }

    /**
     * A guess right in all but its last character is refused as fast as one right in nothing: the
     * time says nothing about how close a guess is. Medians of interleaved rounds, so that the JIT
     * and a busy machine weigh on both alike; the bound is loose, a leak of byte-by-byte comparison
     * over 48 characters would be far outside it, as would one that stops at a length mismatch.
     */
    @Test
    void theComparisonTakesAsLongForANearGuessAsForAFarOne() {
        String near = "Bearer " + SECRET.substring(0, SECRET.length() - 1) + "X";
        String far = "Bearer " + "X".repeat(SECRET.length());
        String shorter = "Bearer X";
        int rounds = 201;
        long[] nearNs = new long[rounds];
        long[] farNs = new long[rounds];
        long[] shortNs = new long[rounds];
        for (int warm = 0; warm < 20_000; warm++) {
            token.admits(warm % 2 == 0 ? near : far);
        }
        for (int round = 0; round < rounds; round++) {
            nearNs[round] = timeNs(near);
            farNs[round] = timeNs(far);
            shortNs[round] = timeNs(shorter);
        }
        double nearMedian = median(nearNs);
        double farMedian = median(farNs);
        double shortMedian = median(shortNs);
        assertThat(nearMedian / farMedian).isBetween(0.5, 2.0);
        assertThat(shortMedian / farMedian).isBetween(0.5, 2.0);
    }

    private long timeNs(String authorization) {
        int calls = 200;
        boolean any = false;
        long began = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            any |= token.admits(authorization);
        }
        long ns = System.nanoTime() - began;
        assertThat(any).isFalse();
        return ns;
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
