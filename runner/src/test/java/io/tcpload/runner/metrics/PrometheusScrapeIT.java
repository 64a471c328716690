package io.tcpload.runner.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.tcpload.runner.endpoint.LiveStatsTracker;
import io.tcpload.runner.endpoint.RunnerEndpoint;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.Target;
import io.tcpload.runner.serve.DemoServer;
import io.tcpload.runner.serve.ServeOptions;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.testing.Corpus;
import io.tcpload.runner.testing.EngineRun;
import io.tcpload.runner.testing.Prometheus;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Prometheus scrapes the runner's endpoint while the engine loads the demo target; its rate
 * and {@code histogram_quantile} must agree with the run's own figures within 10%. Skipped where
 * Prometheus is not installed.
 */
class PrometheusScrapeIT {
    private static final long RUN_MS = 12_000;
    private static final String PROFILE =
            "[common]\nhost = 127.0.0.1\nport = 1\nkeepalive = true\n"
                    + "[request]\nreq_body = this is a test\n[response]\n";

    @Test
    void prometheusRatesAndQuantilesAgreeWithTheRunsOwnFigures(@TempDir Path dir) throws Exception {
        assumeTrue(
                Prometheus.installed(),
                "Prometheus is not installed at "
                        + Prometheus.BINARY
                        + " (apt-get install prometheus)");
        Profile profile = Corpus.parse(PROFILE);
        MetricsBridge bridge =
                new MetricsBridge(new MetricLabels("scrape", "it", "0"), OptionalDouble.empty());
        // A fixed 2 ms service delay keeps the latency distribution steady from second to second.
        try (DemoServer target = DemoServer.start(profile, ServeOptions.defaults().withDelayMs(2));
                RunnerEndpoint metrics =
                        RunnerEndpoint.start(
                                "127.0.0.1", 0, bridge, new LiveStatsTracker("test"), null);
                Prometheus prometheus = Prometheus.start(dir, Map.of("tcpload", metrics.port()))) {
            Awaitility.await("prometheus up and scraping the runner")
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> instant(prometheus, "up{job=\"tcpload\"}") == 1.0);

            double startS = System.currentTimeMillis() / 1000.0;
            RunSummary summary =
                    EngineRun.run(
                            profile.withTarget(new Target("127.0.0.1", target.port())),
                            EngineRun.config(1, 4, RUN_MS, 5_000, true),
                            bridge);
            double endS = System.currentTimeMillis() / 1000.0;
            long requests = summary.counts().requests();
            assertThat(requests).isPositive();
            Awaitility.await("prometheus has scraped the final counts")
                    .atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> instant(prometheus, "sum(tcpload_requests_total)") == requests);

            // Windows wholly inside the steady part of the run, one per second.
            double from = startS + 6;
            double to = endS - 1;
            double rate =
                    median(range(prometheus, "sum(rate(tcpload_requests_total[5s]))", from, to));
            // The whole run's p99 from the buckets, against the whole run's own p99: a
            // window-by-window median would also measure how steady this machine was.
            double p99Seconds =
                    instant(
                            prometheus,
                            "histogram_quantile(0.99, sum by (le)"
                                    + " (increase(tcpload_latency_seconds_bucket[5m])))");

            double runRate = requests / (summary.runtimeUs() / 1e6);
            double runP99Seconds = summary.latencyUs().getValueAtPercentile(99) / 1e6;
            System.out.printf(
                    Locale.ROOT,
                    "prometheus rate %.1f/s vs run %.1f/s; p99 %.6fs vs run %.6fs%n",
                    rate,
                    runRate,
                    p99Seconds,
                    runP99Seconds);
            assertThat(rate).isCloseTo(runRate, within(runRate * 0.10));
            assertThat(p99Seconds).isCloseTo(runP99Seconds, within(runP99Seconds * 0.10));
        }
    }

    /** The value of an instant query with one result, or NaN when there is none yet. */
    private static double instant(Prometheus prometheus, String query) {
        try {
            JsonNode result = prometheus.query(query).at("/data/result");
            return result.size() == 1 ? result.get(0).at("/value/1").asDouble() : Double.NaN;
        } catch (IOException e) {
            return Double.NaN; // not listening yet
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Double.NaN;
        }
    }

    private static List<Double> range(Prometheus prometheus, String query, double fromS, double toS)
            throws Exception {
        JsonNode result =
                prometheus
                        .get(
                                String.format(
                                        Locale.ROOT,
                                        "/api/v1/query_range?query=%s&start=%.3f&end=%.3f&step=1",
                                        URLEncoder.encode(query, StandardCharsets.UTF_8),
                                        fromS,
                                        toS))
                        .at("/data/result");
        assertThat(result.size()).as("series of %s", query).isEqualTo(1);
        List<Double> values = new ArrayList<>();
        for (JsonNode point : result.get(0).get("values")) {
            values.add(point.get(1).asDouble());
        }
        assertThat(values).as("points of %s", query).hasSizeGreaterThanOrEqualTo(3);
        return values;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(Double::compare);
        return sorted.get(sorted.size() / 2);
    }
}
