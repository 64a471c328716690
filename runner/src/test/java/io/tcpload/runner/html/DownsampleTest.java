package io.tcpload.runner.html;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class DownsampleTest {
    private static double[] ramp(int n) {
        double[] values = new double[n];
        for (int i = 0; i < n; i++) {
            values[i] = i;
        }
        return values;
    }

    @Test
    void aTenMinuteRunKeepsEverySecond() {
        List<Downsample.Bucket> buckets = Downsample.of(ramp(600), 600);

        assertThat(buckets).hasSize(600);
        for (int i = 0; i < 600; i++) {
            assertThat(buckets.get(i)).isEqualTo(new Downsample.Bucket(i, i, i, i, i));
        }
    }

    @Test
    void aTenHourRunBecomesEqualBucketsThatCoverEverySecondOnce() {
        List<Downsample.Bucket> buckets = Downsample.of(ramp(36_000), 600);

        assertThat(buckets).hasSize(600);
        int next = 0;
        for (Downsample.Bucket bucket : buckets) {
            assertThat(bucket.first()).isEqualTo(next);
            assertThat(bucket.last() - bucket.first() + 1).isEqualTo(60);
            assertThat(bucket.min()).isEqualTo(bucket.first());
            assertThat(bucket.max()).isEqualTo(bucket.last());
            assertThat(bucket.mean()).isEqualTo((bucket.first() + bucket.last()) / 2.0);
            next = bucket.last() + 1;
        }
        assertThat(next).isEqualTo(36_000);
    }

    @Test
    void aOneSecondSpikeSurvivesAsItsBucketsMaximum() {
        double[] flat = new double[36_000];
        java.util.Arrays.fill(flat, 100);
        flat[17_345] = 90_000;

        List<Downsample.Bucket> buckets = Downsample.of(flat, 600);

        Downsample.Bucket spiked = buckets.get(17_345 / 60);
        assertThat(spiked.max()).isEqualTo(90_000);
        assertThat(spiked.min()).isEqualTo(100);
        assertThat(spiked.mean()).isEqualTo((59 * 100 + 90_000) / 60.0);
        assertThat(buckets).filteredOn(b -> b.max() > 100).hasSize(1);
    }

    @Test
    void unevenLengthsGiveBucketSizesThatDifferByAtMostOne() {
        List<Downsample.Bucket> buckets = Downsample.of(ramp(1_001), 7);

        assertThat(buckets).hasSize(7);
        assertThat(buckets)
                .allSatisfy(b -> assertThat(b.last() - b.first() + 1).isBetween(143, 144));
        assertThat(buckets.get(6).last()).isEqualTo(1_000);
    }

    @Test
    void emptySeriesGiveNoBucketsAndABadLimitIsRefused() {
        assertThat(Downsample.of(new double[0], 10)).isEmpty();
        assertThatThrownBy(() -> Downsample.of(ramp(3), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxBuckets");
    }
}
