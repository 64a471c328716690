package io.tcpload.runner.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tcpload.runner.client.ProgressListener.Progress;
import io.tcpload.runner.client.StartGate;
import io.tcpload.runner.client.StepOrder;
import io.tcpload.runner.contract.ControlToken;
import io.tcpload.runner.contract.LiveStats;
import io.tcpload.runner.contract.RunnerProtocol;
import io.tcpload.runner.metrics.Exposition;
import io.tcpload.runner.metrics.MetricLabels;
import io.tcpload.runner.metrics.MetricsBridge;
import io.tcpload.runner.report.JsonResult;
import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.Histograms;
import io.tcpload.runner.stats.RunBuilder;
import io.tcpload.runner.stats.SecondSample;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The runner's endpoint over real HTTP on loopback. */
class RunnerEndpointTest {
    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private MetricsBridge bridge;
    private LiveStatsTracker stats;
    private StartGate gate;
    private ControlChannel control;
    private RunnerEndpoint server;

    @BeforeEach
    void start() throws Exception {
        bridge = new MetricsBridge(new MetricLabels("smoke", "load", "0"), OptionalDouble.empty());
        stats = new LiveStatsTracker("tcpload-runner test");
        gate = StartGate.awaiting();
        control = new ControlChannel(gate);
        server = RunnerEndpoint.start("127.0.0.1", 0, bridge, stats, control);
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
        Progress second =
                new Progress(
                        new SecondSample(1, counts, 800, 800, 5_000, 5_000),
                        counts,
                        latency,
                        Histograms.create(),
                        List.of(),
                        3);
        bridge.onSecond(second);
        stats.onSecond(second);
    }

    @Test
    void metricsAreServedInTheTextFormatWithTypesAndLabels() throws Exception {
        stats.onStart(1_700_000_000_000_000L);
        feedOneSecond();

        HttpResponse<String> response = get("/metrics", null);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValue(MetricsBridge.TEXT_FORMAT);
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
                .hasValue(MetricsBridge.OPENMETRICS_FORMAT);
        assertThat(response.body())
                .contains("# TYPE tcpload_requests counter")
                .contains("# UNIT tcpload_latency_seconds seconds")
                .endsWith("# EOF\n");
    }

    @Test
    void statsAnswerTheLastSecondAndTheTotalsAsJson() throws Exception {
        stats.onStart(1_700_000_000_000_000L);
        feedOneSecond();

        HttpResponse<String> response = get("/stats", null);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
        JsonNode stats = new ObjectMapper().readTree(response.body());
        LiveStats served = LiveStats.fromJson(response.body());
        assertThat(served).isEqualTo(this.stats.stats().answeredAt(served.nowEpochUs()));
        assertThat(stats.get("phase").asText()).isEqualTo("running");
        assertThat(stats.get("protocolVersion").asInt()).isEqualTo(RunnerProtocol.VERSION);
        assertThat(stats.get("runnerVersion").asText()).isEqualTo("tcpload-runner test");
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

        stats.onStart(1_700_000_000_000_000L);

        assertThat(get("/readyz", null).statusCode()).isEqualTo(200);
        assertThat(get("/nothing", null).statusCode()).isEqualTo(404);
    }

    @Test
    void closingReleasesThePort() throws Exception {
        int port = server.port();
        server.close();

        try (RunnerEndpoint again = RunnerEndpoint.start("127.0.0.1", port, bridge, stats, null)) {
            assertThat(again.port()).isEqualTo(port);
        }
        server = RunnerEndpoint.start("127.0.0.1", 0, bridge, stats, null);
    }

    private HttpResponse<String> post(String path) throws Exception {
        return client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                        .timeout(Duration.ofSeconds(5))
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theStartInstantIsSetOnceAndShownInTheStats() throws Exception {
        long atMs = System.currentTimeMillis() + 60_000;

        assertThat(post(RunnerProtocol.startAt(atMs)).statusCode()).isEqualTo(200);
        assertThat(post(RunnerProtocol.startAt(atMs)).statusCode()).isEqualTo(200);
        assertThat(post(RunnerProtocol.startAt(atMs + 1)).statusCode()).isEqualTo(409);

        assertThat(gate.startAtEpochMs()).isEqualTo(atMs);
        assertThat(LiveStats.fromJson(get("/stats", null).body()).startAtEpochMs()).isEqualTo(atMs);
    }

    @Test
    void startInstantsThatOverflowOrLieFarOffAreRefused() throws Exception {
        long nowMs = System.currentTimeMillis();
        for (String query :
                List.of(
                        "/start?at=99999999999999999999",
                        "/start?at=soon",
                        "/start",
                        "/start?at=" + (nowMs + Duration.ofDays(2).toMillis()),
                        "/start?at=" + (nowMs - 60_000),
                        "/start?at=-1")) {
            assertThat(post(query).statusCode()).as(query).isEqualTo(400);
        }
        assertThat(gate.startAtEpochMs()).isNull();
    }

    @Test
    void anInstantJustPastStartsAtOnce() throws Exception {
        long justPastMs = System.currentTimeMillis() - 2_000;

        assertThat(post(RunnerProtocol.startAt(justPastMs)).statusCode()).isEqualTo(200);
        assertThat(gate.startAtEpochMs()).isEqualTo(justPastMs);
    }

    @Test
    void finishBeforeTheResultIsAConflictAndAfterItLetsTheRunnerGo() throws Exception {
        assertThat(get("/result", null).statusCode()).isEqualTo(409);
        assertThat(post("/finish").statusCode()).isEqualTo(409);
        assertThat(control.awaitFinish(0)).isFalse();

        control.publishResult("{\"format\":\"x\"}");

        assertThat(get("/result", null).body()).isEqualTo("{\"format\":\"x\"}");
        assertThat(post("/finish").statusCode()).isEqualTo(200);
        assertThat(control.awaitFinish(5_000)).isTrue();
    }

    @Test
    void withATokenTheControlPathsAnswerOnlyItsBearer() throws Exception {
        server.close();
        String secret = "s3cret-token-of-this-test";
        control = new ControlChannel(gate, ControlToken.of(secret));
        server = RunnerEndpoint.start("127.0.0.1", 0, bridge, stats, control);
        control.publishResult("{\"format\":\"x\"}");
        long atMs = System.currentTimeMillis() + 60_000;

        for (String authorization : new String[] {null, "Bearer wrong", "Bearer " + secret + "x"}) {
            HttpResponse<String> start = send(RunnerProtocol.startAt(atMs), "POST", authorization);
            assertThat(start.statusCode()).as("start, %s", authorization).isEqualTo(401);
            assertThat(start.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
            assertThat(send("/finish", "POST", authorization).statusCode()).isEqualTo(401);
            assertThat(send("/result", "GET", authorization).statusCode()).isEqualTo(401);
        }
        assertThat(gate.startAtEpochMs()).as("no stranger set the instant").isNull();
        assertThat(control.awaitFinish(0)).as("no stranger let the runner go").isFalse();

        // What Prometheus and the kubelet read stays open on the same port.
        for (String path : List.of("/stats", "/metrics", "/healthz")) {
            assertThat(send(path, "GET", null).statusCode()).as(path).isEqualTo(200);
        }
        assertThat(send("/readyz", "GET", null).statusCode()).isEqualTo(503);

        String bearer = "Bearer " + secret;
        assertThat(send(RunnerProtocol.startAt(atMs, 1_500), "POST", bearer).statusCode())
                .isEqualTo(200);
        assertThat(send("/result", "GET", bearer).body()).isEqualTo("{\"format\":\"x\"}");
        LiveStats told = LiveStats.fromJson(send("/stats", "GET", null).body());
        assertThat(told.startAtEpochMs()).isEqualTo(atMs);
        assertThat(told.clockOffsetUs()).isEqualTo(1_500);
        assertThat(send("/finish", "POST", bearer).statusCode()).isEqualTo(200);
        assertThat(control.awaitFinish(5_000)).isTrue();
    }

    @Test
    void aRunnerThatTakesNoStepsSaysSo() throws Exception {
        HttpResponse<String> step = post(RunnerProtocol.step(1, 100, 0, 2_000, now(), 0));
        assertThat(step.statusCode()).isEqualTo(404);
        assertThat(step.body()).contains("--search-steps-from-control");
        assertThat(get(RunnerProtocol.stepResult(1), null).statusCode()).isEqualTo(404);
    }

    @Test
    @Timeout(30)
    void stepsAreTakenInOrderTheirResultsServedOnceRunAndTheStatsSayTheStep() throws Exception {
        server.close();
        String secret = "s3cret-token-of-this-test";
        StepChannel steps = new StepChannel();
        control = new ControlChannel(gate, ControlToken.of(secret), steps);
        server = RunnerEndpoint.start("127.0.0.1", 0, bridge, stats, control);
        String bearer = "Bearer " + secret;
        String first = RunnerProtocol.step(1, 1_500, 500, 2_000, now(), 250);

        assertThat(send(first, "POST", null).statusCode()).isEqualTo(401);
        assertThat(send(RunnerProtocol.stepResult(1), "GET", "Bearer x").statusCode())
                .isEqualTo(401);
        assertThat(send(RunnerProtocol.stepResult(1), "GET", bearer).statusCode())
                .as("never taken")
                .isEqualTo(404);
        assertThat(send(first, "POST", bearer).statusCode()).isEqualTo(200);
        assertThat(send(first, "POST", bearer).statusCode()).as("the same again").isEqualTo(200);
        HttpResponse<String> other =
                send(RunnerProtocol.step(2, 1_500, 500, 2_000, now(), 0), "POST", bearer);
        assertThat(other.statusCode()).isEqualTo(409);
        assertThat(other.body()).contains("step 1, still pending or running");
        assertThat(LiveStats.fromJson(get("/stats", null).body()).step()).isEqualTo(1);
        assertThat(send(RunnerProtocol.stepResult(1), "GET", bearer).statusCode())
                .as("not run yet")
                .isEqualTo(409);

        assertThat(steps.next(Optional.empty())).hasValue(new StepOrder(1, 1_500, 500, 2_000));
        // The end comes while step 1 runs: it runs to its end, and no step follows.
        assertThat(send(RunnerProtocol.stepEnd(), "POST", bearer).statusCode()).isEqualTo(200);
        assertThat(steps.ended()).isTrue();
        assertThat(steps.next(Optional.of(RunBuilder.aRun().runtimeUs(2_000_000).build())))
                .isEmpty();

        HttpResponse<String> result = send(RunnerProtocol.stepResult(1), "GET", bearer);
        assertThat(result.statusCode()).isEqualTo(200);
        assertThat(JsonResult.read(result.body()).runtimeUs()).isEqualTo(2_000_000);
        HttpResponse<String> after =
                send(RunnerProtocol.step(3, 1_500, 500, 2_000, now(), 0), "POST", bearer);
        assertThat(after.statusCode()).isEqualTo(409);
        assertThat(after.body()).contains("the search has ended");
    }

    @Test
    void stepsThatDoNotParseOrLieOutOfRangeAreRefused() throws Exception {
        server.close();
        StepChannel steps = new StepChannel();
        control = new ControlChannel(gate, Optional.empty(), steps);
        server = RunnerEndpoint.start("127.0.0.1", 0, bridge, stats, control);
        long at = now();
        for (String query :
                List.of(
                        "/step",
                        "/step?number=1&rate=100&warmupMs=0&durationMs=2000",
                        "/step?number=one&rate=100&warmupMs=0&durationMs=2000&at=" + at,
                        "/step?number=1&rate=fast&warmupMs=0&durationMs=2000&at=" + at,
                        "/step?number=1&rate=100&warmupMs=0&durationMs=2000&at=" + (at - 60_000),
                        "/step?number=1&rate=-5&warmupMs=0&durationMs=2000&at=" + at,
                        "/step?number=1&number=2&rate=100&warmupMs=0&durationMs=2000&at=" + at,
                        "/step?end=yes")) {
            assertThat(post(query).statusCode()).as(query).isEqualTo(400);
        }
        assertThat(get("/step-result?number=x", null).statusCode()).isEqualTo(400);
        assertThat(steps.currentStep()).isZero();
        assertThat(steps.ended()).isFalse();
    }

    private static long now() {
        return System.currentTimeMillis();
    }

    @Test
    void theStatsSayWhenTheyWereAnsweredOnTheRunnersClock() throws Exception {
        long beforeUs = StartGate.nowEpochUs();
        long answeredUs = LiveStats.fromJson(get("/stats", null).body()).nowEpochUs();
        long afterUs = StartGate.nowEpochUs();

        assertThat(answeredUs).isBetween(beforeUs, afterUs);
    }

    private HttpResponse<String> send(String path, String method, String authorization)
            throws Exception {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                        .timeout(Duration.ofSeconds(5))
                        .method(method, HttpRequest.BodyPublishers.noBody());
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aClientThatSendsHalfARequestAndStallsBlocksNobody() throws Exception {
        try (Socket stalled = new Socket("127.0.0.1", server.port());
                Socket another = new Socket("127.0.0.1", server.port())) {
            stalled.getOutputStream().write("GET /sta".getBytes(StandardCharsets.US_ASCII));
            stalled.getOutputStream().flush();
            another.getOutputStream().write("GET /he".getBytes(StandardCharsets.US_ASCII));

            long startNs = System.nanoTime();
            for (int i = 0; i < 20; i++) {
                assertThat(get("/healthz", null).statusCode()).isEqualTo(200);
            }
            assertThat(Duration.ofNanos(System.nanoTime() - startNs))
                    .isLessThan(Duration.ofSeconds(5));
        }
    }

    @Test
    void anOversizedRequestIsRefusedWithoutBeingKept() throws Exception {
        try (Socket client = new Socket("127.0.0.1", server.port())) {
            client.setSoTimeout(5_000);
            String huge =
                    "GET /stats HTTP/1.1\r\nHost: x\r\nX-Big: "
                            + "a".repeat(64 * 1024)
                            + "\r\n\r\n";
            client.getOutputStream().write(huge.getBytes(StandardCharsets.US_ASCII));
            String answer =
                    new String(client.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
            assertThat(answer).startsWith("HTTP/1.1 4");
        }
        assertThat(get("/healthz", null).statusCode()).isEqualTo(200);
    }

    @Test
    void aStalledClientIsClosedAfterTheReadTimeout() throws Exception {
        try (Socket stalled = new Socket("127.0.0.1", server.port())) {
            stalled.setSoTimeout((RunnerEndpoint.READ_TIMEOUT_S + 20) * 1000);
            stalled.getOutputStream().write("GET /sta".getBytes(StandardCharsets.US_ASCII));
            // The endpoint closes it: end of stream, not a read timeout here.
            assertThat(stalled.getInputStream().read()).isEqualTo(-1);
        }
    }
}
