package io.tcpload.runner.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LatencyBucketsTest {
    @Test
    void boundsRunFromFiftyMicrosecondsToTenSecondsWithStepsOfAtMostFifteenPercent() {
        long[] bounds = LatencyBuckets.boundsUs();

        assertThat(bounds[0]).isEqualTo(50);
        assertThat(bounds[bounds.length - 1]).isEqualTo(10_000_000);
        assertThat(bounds).contains(100, 1_000, 10_000, 100_000, 1_000_000, 112, 2_240, 7_100_000);
        for (int i = 1; i < bounds.length; i++) {
            assertThat((double) bounds[i] / bounds[i - 1])
                    .as("step to %d", bounds[i])
                    .isGreaterThan(1.0)
                    .isLessThanOrEqualTo(1.15);
        }
        assertThat(LatencyBuckets.count()).isEqualTo(bounds.length + 1);
    }

    @Test
    void aValueBelongsToTheFirstBucketWhoseBoundIsAtLeastIt() {
        long[] bounds = LatencyBuckets.boundsUs();

        assertThat(LatencyBuckets.indexOf(0)).isZero();
        assertThat(LatencyBuckets.indexOf(50)).isZero();
        assertThat(LatencyBuckets.indexOf(51)).isEqualTo(1);
        assertThat(bounds[LatencyBuckets.indexOf(1_000)]).isEqualTo(1_000);
        assertThat(bounds[LatencyBuckets.indexOf(1_001)]).isEqualTo(1_120);
        assertThat(LatencyBuckets.indexOf(10_000_000)).isEqualTo(bounds.length - 1);
        assertThat(LatencyBuckets.indexOf(10_000_001)).isEqualTo(bounds.length);
    }

    @Test
    void secondsBoundsEndWithInfinity() {
        double[] seconds = LatencyBuckets.upperBoundsSeconds();

        assertThat(seconds[0]).isEqualTo(0.00005);
        assertThat(seconds[seconds.length - 2]).isEqualTo(10.0);
        assertThat(seconds[seconds.length - 1]).isInfinite();
    }
}
