package io.tcpload.runner.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tcpload.runner.client.ProgressListener.Progress;
import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.Histograms;
import io.tcpload.runner.stats.SecondSample;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.OptionalDouble;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The metrics endpoint over real HTTP on loopback. */
class MetricsServerTest {
    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private MetricsBridge bridge;
    private MetricsServer server;

    @BeforeEach
    void start() throws Exception {
        bridge = new MetricsBridge(new MetricLabels("smoke", "load", "0"), OptionalDouble.empty());
        server = MetricsServer.start("127.0.0.1", 0, bridge);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<String> get(String path, String accept) throws Exception {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                        .timeout(Duration.ofSeconds(5));
        if (accept != null) {
            request.header("Accept", accept);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private void feedOneSecond() {
        Histogram latency = Histograms.create();
        latency.recordValueWithCount(800, 99);
        latency.recordValueWithCount(5_000, 1);
        Counts counts = new Counts(100, 98, 2, 0, 1, 0, 0, 4_000, 2_000, 0);
        bridge.onSecond(
                new Progress(
                        new SecondSample(1, counts, 800, 800, 5_000, 5_000),
                        counts,
                        latency,
                        Histograms.create(),
                        List.of(),
                        3));
    }

    @Test
    void metricsAreServedInTheTextFormatWithTypesAndLabels() throws Exception {
        bridge.runStarted();
        feedOneSecond();

        HttpResponse<String> response = get("/metrics", null);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValue(MetricsServer.TEXT_FORMAT);
        assertThat(Exposition.types(response.body()))
                .containsEntry("tcpload_requests_total", "counter")
                .containsEntry("tcpload_errors_total", "counter")
                .containsEntry("tcpload_latency_seconds", "histogram")
                .containsEntry("tcpload_connect_seconds", "histogram")
                .containsEntry("tcpload_bytes_read_total", "counter")
                .containsEntry("tcpload_bytes_written_total", "counter")
                .containsEntry("tcpload_connections_open", "gauge");
        assertThat(Exposition.samples(response.body()))
                .containsEntry(
                        "tcpload_requests_total{namespace=\"load\",result=\"success\",runner=\"0\",test=\"smoke\"}",
                        98.0)
                .containsEntry(
                        "tcpload_errors_total{kind=\"read\",namespace=\"load\",runner=\"0\",test=\"smoke\"}",
                        1.0)
                .containsEntry(
                        "tcpload_latency_seconds_bucket{namespace=\"load\",runner=\"0\",test=\"smoke\",le=\"8.0E-4\"}",
                        99.0)
                .containsEntry(
                        "tcpload_latency_seconds_count{namespace=\"load\",runner=\"0\",test=\"smoke\"}",
                        100.0)
                .containsEntry(
                        "tcpload_connections_open{namespace=\"load\",runner=\"0\",test=\"smoke\"}",
                        3.0);
    }

    @Test
    void openMetricsIsServedWhenTheScraperAsksForIt() throws Exception {
        HttpResponse<String> response =
                get(
                        "/metrics",
                        "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5");

        assertThat(response.headers().firstValue("Content-Type"))
                .hasValue(MetricsServer.OPENMETRICS_FORMAT);
        assertThat(response.body())
                .contains("# TYPE tcpload_requests counter")
                .contains("# UNIT tcpload_latency_seconds seconds")
                .endsWith("# EOF\n");
    }

    @Test
    void statsAnswerTheLastSecondAndTheTotalsAsJson() throws Exception {
        bridge.runStarted();
        feedOneSecond();

        HttpResponse<String> response = get("/stats", null);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
        JsonNode stats = new ObjectMapper().readTree(response.body());
        assertThat(stats.get("phase").asText()).isEqualTo("running");
        assertThat(stats.get("second").asInt()).isEqualTo(1);
        assertThat(stats.get("openConnections").asInt()).isEqualTo(3);
        assertThat(stats.at("/cumulative/requests").asLong()).isEqualTo(100);
        assertThat(stats.at("/lastSecond/successTps").asLong()).isEqualTo(98);
        assertThat(stats.at("/lastSecond/failureTps").asLong()).isEqualTo(2);
        assertThat(stats.at("/lastSecond/latencyUs/p99").asLong()).isEqualTo(800);
        assertThat(stats.at("/latencyUs/max").asLong()).isBetween(5_000L, 5_005L);
    }

    @Test
    void healthIsAlwaysUpAndReadinessWaitsForTheLoad() throws Exception {
        assertThat(get("/healthz", null).statusCode()).isEqualTo(200);
        assertThat(get("/readyz", null).statusCode()).isEqualTo(503);

        bridge.runStarted();

        assertThat(get("/readyz", null).statusCode()).isEqualTo(200);
        assertThat(get("/nothing", null).statusCode()).isEqualTo(404);
    }

    @Test
    void closingReleasesThePort() throws Exception {
        int port = server.port();
        server.close();

        try (MetricsServer again = MetricsServer.start("127.0.0.1", port, bridge)) {
            assertThat(again.port()).isEqualTo(port);
        }
        server = MetricsServer.start("127.0.0.1", 0, bridge);
    }
}
