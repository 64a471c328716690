package io.tcpload.runner.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.Target;
import io.tcpload.runner.serve.DemoServer;
import io.tcpload.runner.serve.ServeOptions;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.testing.Corpus;
import io.tcpload.runner.testing.EngineRun;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Prometheus scrapes the runner's endpoint while the engine loads the demo target; its rate
 * and {@code histogram_quantile} must agree with the run's own figures within 10%. Skipped where
 * Prometheus is not installed.
 */
class PrometheusScrapeTest {
    private static final Path PROMETHEUS = Path.of("/usr/bin/prometheus");
    private static final long RUN_MS = 12_000;
    private static final String PROFILE =
            "[common]\nhost = 127.0.0.1\nport = 1\nkeepalive = true\n"
                    + "[request]\nreq_body = this is a test\n[response]\n";

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void prometheusRatesAndQuantilesAgreeWithTheRunsOwnFigures(@TempDir Path dir) throws Exception {
        assumeTrue(
                Files.isExecutable(PROMETHEUS),
                "Prometheus is not installed at " + PROMETHEUS + " (apt-get install prometheus)");
        Profile profile = Corpus.parse(PROFILE);
        MetricsBridge bridge =
                new MetricsBridge(new MetricLabels("scrape", "it", "0"), OptionalDouble.empty());
        // A fixed 2 ms service delay keeps the latency distribution steady from second to second.
        try (DemoServer target = DemoServer.start(profile, ServeOptions.defaults().withDelayMs(2));
                MetricsServer metrics = MetricsServer.start("127.0.0.1", 0, bridge)) {
            int prometheusPort = freePort();
            Process prometheus = startPrometheus(dir, prometheusPort, metrics.port());
            try {
                String api = "http://127.0.0.1:" + prometheusPort;
                Awaitility.await("prometheus up and scraping the runner")
                        .atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(250))
                        .until(() -> instant(api, "up{job=\"tcpload\"}") == 1.0);

                bridge.runStarted();
                double startS = System.currentTimeMillis() / 1000.0;
                RunSummary summary =
                        EngineRun.run(
                                profile.withTarget(new Target("127.0.0.1", target.port())),
                                EngineRun.config(1, 4, RUN_MS, 5_000, true),
                                bridge);
                double endS = System.currentTimeMillis() / 1000.0;
                bridge.runFinished();
                long requests = summary.counts().requests();
                assertThat(requests).isPositive();
                Awaitility.await("prometheus has scraped the final counts")
                        .atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(250))
                        .until(() -> instant(api, "sum(tcpload_requests_total)") == requests);

                // Windows wholly inside the steady part of the run, one per second.
                double from = startS + 6;
                double to = endS - 1;
                double rate = median(range(api, "sum(rate(tcpload_requests_total[5s]))", from, to));
                // The whole run's p99 from the buckets, against the whole run's own p99: a
                // window-by-window median would also measure how steady this machine was.
                double p99Seconds =
                        instant(
                                api,
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
            } finally {
                stop(prometheus);
            }
        }
    }

    private static Process startPrometheus(Path dir, int port, int metricsPort) throws IOException {
        Path config = dir.resolve("prometheus.yml");
        Files.writeString(
                config,
                "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
                        + "scrape_configs:\n  - job_name: tcpload\n    static_configs:\n"
                        + "      - targets: ['127.0.0.1:"
                        + metricsPort
                        + "']\n");
        return new ProcessBuilder(
                        PROMETHEUS.toString(),
                        "--config.file=" + config,
                        "--storage.tsdb.path=" + dir.resolve("data"),
                        "--web.listen-address=127.0.0.1:" + port)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("prometheus.log").toFile())
                .start();
    }

    private static void stop(Process process) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** A port free now; Prometheus cannot be told to pick one itself. */
    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** The value of an instant query with one result, or NaN when there is none yet. */
    private double instant(String api, String query) {
        try {
            JsonNode result = get(api + "/api/v1/query?query=" + encode(query)).at("/data/result");
            return result.size() == 1 ? result.get(0).at("/value/1").asDouble() : Double.NaN;
        } catch (IOException e) {
            return Double.NaN; // not listening yet
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Double.NaN;
        }
    }

    private List<Double> range(String api, String query, double fromS, double toS)
            throws Exception {
        JsonNode result =
                get(String.format(
                                Locale.ROOT,
                                "%s/api/v1/query_range?query=%s&start=%.3f&end=%.3f&step=1",
                                api,
                                encode(query),
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

    private JsonNode get(String uri) throws IOException, InterruptedException {
        HttpResponse<String> response =
                http.send(
                        HttpRequest.newBuilder(URI.create(uri))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("HTTP " + response.statusCode() + ": " + response.body());
        }
        return json.readTree(response.body());
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(Double::compare);
        return sorted.get(sorted.size() / 2);
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
