package io.tcpload.runner.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tcpload.runner.client.ProgressListener.Progress;
import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.Histograms;
import io.tcpload.runner.stats.NamedStats;
import io.tcpload.runner.stats.RunSummary.ErrorCount;
import io.tcpload.runner.stats.SecondSample;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The snapshot-to-meter bridge, fed by hand-made seconds. */
class MetricsBridgeTest {
    private static final String LABELS = "namespace=\"load\",runner=\"1\",test=\"nightly\"";

    private final MetricsBridge bridge =
            new MetricsBridge(new MetricLabels("nightly", "load", "1"), OptionalDouble.empty());

    private static Counts counts(
            long successes,
            long failures,
            long connect,
            long read,
            long write,
            long timeouts,
            long bytesRead,
            long bytesWritten) {
        return new Counts(
                successes + failures,
                successes,
                failures,
                connect,
                read,
                write,
                timeouts,
                bytesRead,
                bytesWritten,
                0);
    }

    private static Histogram histogram(long... valueCountPairs) {
        Histogram histogram = Histograms.create();
        for (int i = 0; i < valueCountPairs.length; i += 2) {
            histogram.recordValueWithCount(valueCountPairs[i], valueCountPairs[i + 1]);
        }
        return histogram;
    }

    private static Progress progress(
            int second, Counts counts, Counts cumulative, Histogram latency, Histogram connect) {
        return new Progress(
                new SecondSample(second, counts, 0, 0, 0, 0),
                cumulative,
                latency,
                connect,
                List.of(new ErrorCount("connect: connection refused", counts.connectErrors())),
                4);
    }

    private Map<String, Double> scrape() {
        return Exposition.samples(bridge.registry().scrape(MetricsBridge.TEXT_FORMAT));
    }

    @Test
    void aMixLabelsItsRequestCountsByRequestSoThatTheirSumIsTheTotal() {
        MetricsBridge mix =
                new MetricsBridge(
                        new MetricLabels("nightly", "load", "1"),
                        OptionalDouble.empty(),
                        List.of("pay", "ask"));
        NamedStats named = new NamedStats(2);
        for (int i = 0; i < 7; i++) {
            named.record(0, true, 1_000);
        }
        named.record(0, false, 1_000);
        named.record(1, true, 2_000);
        Counts counts = counts(8, 1, 0, 0, 0, 0, 0, 0);
        Progress base = progress(1, counts, counts, histogram(1_000, 9), histogram());
        mix.onSecond(
                new Progress(
                        base.second(),
                        base.cumulative(),
                        base.latencyUs(),
                        base.connectUs(),
                        base.errors(),
                        base.openConnections(),
                        null,
                        named));

        Map<String, Double> samples =
                Exposition.samples(mix.registry().scrape(MetricsBridge.TEXT_FORMAT));
        String prefix = "tcpload_requests_total{namespace=\"load\",request=\"";
        String suffix = "\",runner=\"1\",test=\"nightly\"}";
        assertThat(samples)
                .containsEntry(prefix + "pay\",result=\"success" + suffix, 7.0)
                .containsEntry(prefix + "pay\",result=\"failure" + suffix, 1.0)
                .containsEntry(prefix + "ask\",result=\"success" + suffix, 1.0)
                .containsEntry(prefix + "ask\",result=\"failure" + suffix, 0.0);
        assertThat(samples.keySet())
                .filteredOn(k -> k.startsWith("tcpload_requests_total"))
                .allMatch(k -> k.contains("request=\""));
    }

    @Test
    void countersAddEverySecondByResultAndKind() {
        Counts first = counts(90, 10, 1, 2, 3, 4, 1_000, 500);
        Counts second = counts(110, 5, 0, 1, 0, 2, 2_000, 700);
        bridge.onSecond(progress(1, first, first, histogram(), histogram()));
        bridge.onSecond(progress(2, second, first.plus(second), histogram(), histogram()));

        Map<String, Double> samples = scrape();
        String success =
                "tcpload_requests_total{namespace=\"load\",result=\"success\",runner=\"1\",test=\"nightly\"}";
        String failure =
                "tcpload_requests_total{namespace=\"load\",result=\"failure\",runner=\"1\",test=\"nightly\"}";
        assertThat(samples)
                .containsEntry(success, 200.0)
                .containsEntry(failure, 15.0)
                .containsEntry(errors("connect"), 1.0)
                .containsEntry(errors("read"), 3.0)
                .containsEntry(errors("write"), 3.0)
                .containsEntry(errors("timeout"), 6.0)
                .containsEntry("tcpload_bytes_read_total{" + LABELS + "}", 3_000.0)
                .containsEntry("tcpload_bytes_written_total{" + LABELS + "}", 1_200.0)
                .containsEntry("tcpload_connections_open{" + LABELS + "}", 4.0);
    }

    private static String errors(String kind) {
        return "tcpload_errors_total{kind=\"" + kind + "\"," + LABELS + "}";
    }

    @Test
    void histogramBucketsHoldExactlyTheValuesAtOrBelowTheirBound() {
        // 50 us is a bound; 51 us belongs to the next (56 us); 20 s is above every bound.
        bridge.onSecond(
                progress(
                        1,
                        counts(13, 0, 0, 0, 0, 0, 0, 0),
                        counts(13, 0, 0, 0, 0, 0, 0, 0),
                        histogram(50, 2, 51, 1, 1_000, 7),
                        histogram(120, 3)));
        bridge.onSecond(
                progress(
                        2,
                        counts(3, 0, 0, 0, 0, 0, 0, 0),
                        counts(16, 0, 0, 0, 0, 0, 0, 0),
                        histogram(1_000, 2, 20_000_000, 1),
                        histogram()));

        Map<String, Double> samples = scrape();
        assertThat(samples)
                .containsEntry(bucket("latency", "5.0E-5"), 2.0)
                .containsEntry(bucket("latency", "5.6E-5"), 3.0)
                .containsEntry(bucket("latency", "9.0E-4"), 3.0)
                .containsEntry(bucket("latency", "0.001"), 12.0)
                .containsEntry(bucket("latency", "10.0"), 12.0)
                .containsEntry(bucket("latency", "+Inf"), 13.0)
                .containsEntry("tcpload_latency_seconds_count{" + LABELS + "}", 13.0)
                .containsEntry(bucket("connect", "1.12E-4"), 0.0)
                .containsEntry(bucket("connect", "1.25E-4"), 3.0)
                .containsEntry("tcpload_connect_seconds_count{" + LABELS + "}", 3.0);
        // 2 x 50 us + 51 us + 9 x 1 ms + about 20 s; 20 s is kept within 0.1%.
        assertThat(samples.get("tcpload_latency_seconds_sum{" + LABELS + "}"))
                .isCloseTo(0.000151 + 0.009 + 20.0, within(0.02));
        assertThat(Exposition.types(bridge.registry().scrape(MetricsBridge.TEXT_FORMAT)))
                .containsEntry("tcpload_latency_seconds", "histogram")
                .containsEntry("tcpload_connect_seconds", "histogram");
    }

    private static String bucket(String metric, String le) {
        return "tcpload_" + metric + "_seconds_bucket{" + LABELS + ",le=\"" + le + "\"}";
    }

    @Test
    void everySeriesExistsAtZeroBeforeTheFirstSecond() {
        Map<String, Double> samples = scrape();

        assertThat(samples)
                .containsEntry(errors("timeout"), 0.0)
                .containsEntry("tcpload_latency_seconds_count{" + LABELS + "}", 0.0)
                .containsEntry(bucket("latency", "+Inf"), 0.0);
        assertThat(samples.keySet()).noneMatch(series -> series.startsWith("tcpload_target_rate"));
        assertThat(samples.keySet())
                .noneMatch(series -> series.startsWith("tcpload_behind_schedule"));
        assertThat(bridge.rateMode()).isFalse();
    }

    @Test
    void aWarmupShowsItsOpenConnectionsAndCountsNothing() {
        bridge.onWarmingUp(3);

        assertThat(scrape())
                .containsEntry("tcpload_connections_open{" + LABELS + "}", 3.0)
                .containsEntry("tcpload_latency_seconds_count{" + LABELS + "}", 0.0)
                .containsEntry(errors("timeout"), 0.0);
    }

    @Test
    void aTargetRateAddsTheRateModeSeries() {
        MetricsBridge rated = new MetricsBridge(MetricLabels.NONE, OptionalDouble.of(250.0));
        rated.addBehindSchedule(3);

        Map<String, Double> samples =
                Exposition.samples(rated.registry().scrape(MetricsBridge.TEXT_FORMAT));
        assertThat(samples)
                .containsEntry("tcpload_target_rate", 250.0)
                .containsEntry("tcpload_behind_schedule_total", 3.0);
    }

    @Test
    void aSearchShowsItsCurrentStepAndTheBestRateSoFar() {
        assertThat(scrape().keySet()).noneMatch(name -> name.startsWith("tcpload_search"));
        bridge.searchStep(1, 100, 0);
        bridge.searchStep(4, 1600, 400);

        Map<String, Double> samples = scrape();
        assertThat(samples).containsEntry("tcpload_search_step{" + LABELS + "}", 4.0);
        assertThat(samples).containsEntry("tcpload_search_step_rate{" + LABELS + "}", 1600.0);
        assertThat(samples).containsEntry("tcpload_search_best_rate{" + LABELS + "}", 400.0);
    }
}
