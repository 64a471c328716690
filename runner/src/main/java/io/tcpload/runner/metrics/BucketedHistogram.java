package io.tcpload.runner.metrics;

import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.Exemplars;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * A cumulative Prometheus histogram in seconds, with the {@link LatencyBuckets} bounds, fed from
 * HdrHistograms in microseconds.
 *
 * <p>Micrometer's timers take one observation per call; this adds a whole interval histogram at
 * once, one step per distinct recorded value, so a second with a million responses costs as much as
 * one with a thousand. Each value counts as HdrHistogram reports it (the highest value equivalent
 * to it, at most 0.1% above the measured one, as the runner's own percentiles do), so every bucket
 * holds exactly the responses the runner's histogram puts at or below its bound. The sum uses each
 * value's midpoint equivalent, as HdrHistogram's mean does.
 *
 * <p>Threading: {@link #add} from one thread at a time; {@link #collect} from any thread, which
 * sees the state after some completed {@code add} (never a half-added one).
 */
final class BucketedHistogram implements Collector {
    private static final double[] UPPER_BOUNDS_SECONDS = LatencyBuckets.upperBoundsSeconds();

    private final MetricMetadata metadata;
    private final Labels labels;
    private final long[] bucketCounts = new long[LatencyBuckets.count()];
    private double sumSeconds;
    private volatile State published;

    /**
     * @param name the Prometheus name, ending in {@code _seconds}
     * @param help the help text
     * @param labels labels of the one series
     */
    BucketedHistogram(String name, String help, Labels labels) {
        this.metadata = new MetricMetadata(name, help, Unit.SECONDS);
        this.labels = labels;
        this.published = new State(bucketCounts.clone(), 0);
    }

    /** Adds every value of {@code histogramUs} (microseconds). */
    void add(Histogram histogramUs) {
        if (histogramUs.getTotalCount() == 0) {
            return;
        }
        for (HistogramIterationValue value : histogramUs.recordedValues()) {
            long count = value.getCountAtValueIteratedTo();
            long valueUs = value.getValueIteratedTo();
            bucketCounts[LatencyBuckets.indexOf(valueUs)] += count;
            sumSeconds += histogramUs.medianEquivalentValue(valueUs) * (double) count / 1e6;
        }
        published = new State(bucketCounts.clone(), sumSeconds);
    }

    /** Observations so far, per bucket (not cumulative), +Inf last; a copy. */
    long[] bucketCounts() {
        return published.counts.clone();
    }

    /** The sum of the observations so far, in seconds. */
    double sumSeconds() {
        return published.sumSeconds;
    }

    @Override
    public MetricSnapshot collect() {
        State state = published;
        HistogramDataPointSnapshot point =
                new HistogramDataPointSnapshot(
                        ClassicHistogramBuckets.of(UPPER_BOUNDS_SECONDS, state.counts),
                        state.sumSeconds,
                        labels,
                        Exemplars.EMPTY,
                        0L);
        return new HistogramSnapshot(metadata, List.of(point));
    }

    @Override
    public String getPrometheusName() {
        return metadata.getPrometheusName();
    }

    private record State(long[] counts, double sumSeconds) {}
}
