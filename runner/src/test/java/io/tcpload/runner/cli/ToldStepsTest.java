package io.tcpload.runner.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tcpload.runner.RunnerMain;
import io.tcpload.runner.contract.LiveStats;
import io.tcpload.runner.contract.RunnerProtocol;
import io.tcpload.runner.report.JsonResult;
import io.tcpload.runner.search.StepFigures;
import io.tcpload.runner.serve.DemoServer;
import io.tcpload.runner.serve.ServeOptions;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.testing.Corpus;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One runner of a distributed capacity search ({@code --search-steps-from-control}) through the
 * real command line and its endpoint on loopback: it opens its connections, runs the two steps it
 * is told, serves each step's own result, and ends when told; against the demo target's eight
 * workers of 4 ms, whose capacity is 2,000 requests a second.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ToldStepsTest {
    private static final String TOKEN = "token-of-this-test";

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @TempDir Path dir;

    @Test
    void theRunnerRunsTheStepsItIsToldOnItsOpenConnectionsAndServesEachResult() throws Exception {
        try (DemoServer target =
                DemoServer.start(
                        Corpus.profile("01_tiny", 1), ServeOptions.defaults().withWorkers(8, 4))) {
            Path profile = dir.resolve("tiny.ini");
            Files.writeString(
                    profile,
                    Corpus.text("01_tiny.ini")
                            .replaceAll("(?m)^port = \\d+$", "port = " + target.port()),
                    StandardCharsets.UTF_8);
            int port = freePort();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            CompletableFuture<Integer> exit =
                    runInBackground(
                            err,
                            "-t2",
                            "-c128",
                            "-k",
                            "--search",
                            "p99 < 250ms",
                            "--search-range",
                            "500:4000",
                            "--search-steps-from-control",
                            "--await-start",
                            "--hold-result",
                            "30",
                            "--metrics-port",
                            Integer.toString(port),
                            profile.toString());
            String base = "http://127.0.0.1:" + port;
            await().atMost(Duration.ofSeconds(20))
                    .ignoreExceptions()
                    .until(() -> send(get(base + "/readyz")).statusCode() == 200);
            assertThat(post(base + RunnerProtocol.startAt(now() + 200)).statusCode())
                    .isEqualTo(200);

            RunSummary below = step(base, 1, 1_000);
            RunSummary above = step(base, 2, 3_000);

            // Two seconds at 1,000 a second; a loaded machine answers some after the step.
            assertThat(below.counts().requests()).isBetween(1_600L, 2_000L);
            assertThat(below.counts().errors()).isZero();
            // Each step ran at its own rate on the same connections: half the capacity is
            // answered as asked; half as much again as the capacity is answered at the capacity,
            // the rest queueing up (the verdicts themselves are the search's tests').
            StepFigures half = StepFigures.of(below, 1_000);
            assertThat(half.achievedRate()).as("%s", half).isBetween(800.0, 1_010.0);
            StepFigures over = StepFigures.of(above, 3_000);
            assertThat(over.achievedRate()).as("%s", over).isLessThan(2_000 * 1.05);
            assertThat(over.backlogAtEnd()).as("%s", over).isGreaterThan(1_000);
            assertThat(below.info().connections()).isEqualTo(128);
            // Opened before the first step and kept: no step connected anew.
            assertThat(below.connectUs().getTotalCount()).as("connects in step 1").isZero();
            assertThat(above.connectUs().getTotalCount()).as("connects in step 2").isZero();
            assertThat(LiveStats.fromJson(send(get(base + "/stats")).body()).step()).isEqualTo(2);

            assertThat(post(base + RunnerProtocol.stepEnd()).statusCode()).isEqualTo(200);
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> send(get(base + RunnerProtocol.RESULT)).statusCode() == 200);
            assertThat(JsonResult.read(send(get(base + RunnerProtocol.RESULT)).body()).counts())
                    .as("the last step's")
                    .isEqualTo(above.counts());
            assertThat(post(base + RunnerProtocol.FINISH).statusCode()).isEqualTo(200);
            assertThat(exit.get(20, TimeUnit.SECONDS))
                    .as(err.toString(StandardCharsets.UTF_8))
                    .isZero();
            assertThat(err.toString(StandardCharsets.UTF_8))
                    .contains("2 steps run; the search has ended");
        }
    }

    /**
     * Tells step {@code number} at {@code rate}, two seconds measured, and waits for its result.
     */
    private RunSummary step(String base, int number, double rate) throws Exception {
        String path = RunnerProtocol.step(number, rate, 500, 2_000, now() + 300, 0);
        assertThat(post(base + path).statusCode()).isEqualTo(200);
        assertThat(send(get(base + RunnerProtocol.stepResult(number))).statusCode()).isEqualTo(409);
        await().atMost(Duration.ofSeconds(20))
                .until(
                        () ->
                                send(get(base + RunnerProtocol.stepResult(number))).statusCode()
                                        == 200);
        return JsonResult.read(send(get(base + RunnerProtocol.stepResult(number))).body());
    }

    private static long now() {
        return System.currentTimeMillis();
    }

    private static CompletableFuture<Integer> runInBackground(
            ByteArrayOutputStream err, String... args) {
        PrintStream out =
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        PrintStream errors = new PrintStream(err, true, StandardCharsets.UTF_8);
        Map<String, String> environment =
                Map.of(
                        RunnerProtocol.BIND_HOST_VARIABLE,
                        "127.0.0.1",
                        RunnerProtocol.CONTROL_TOKEN_VARIABLE,
                        TOKEN);
        return CompletableFuture.supplyAsync(
                () -> RunnerMain.execute(out, errors, environment::get, args));
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static HttpRequest get(String url) {
        return HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(2))
                .header("Authorization", RunnerProtocol.BEARER + TOKEN)
                .build();
    }

    private static HttpRequest postRequest(String url) {
        return HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(2))
                .header("Authorization", RunnerProtocol.BEARER + TOKEN)
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
    }

    private HttpResponse<String> send(HttpRequest request) throws Exception {
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String url) throws Exception {
        return send(postRequest(url));
    }
}
