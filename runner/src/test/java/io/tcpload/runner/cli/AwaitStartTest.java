package io.tcpload.runner.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tcpload.runner.RunnerMain;
import io.tcpload.runner.contract.LivePhase;
import io.tcpload.runner.contract.LiveStats;
import io.tcpload.runner.report.JsonResult;
import io.tcpload.runner.stats.RunSummary;
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
import org.junit.jupiter.api.io.TempDir;

/**
 * The control channel a distributed test uses: the runner waits ready for its start instant, begins
 * at it, serves its result and exits when told; all over real HTTP on loopback.
 */
class AwaitStartTest {
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @Test
    void theRunnerBeginsAtThePostedInstantServesItsResultAndExitsWhenTold(@TempDir Path dir)
            throws Exception {
        Path profile = tinyProfile(dir);
        int port = freePort();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CompletableFuture<Integer> exit =
                runInBackground(
                        err,
                        Map.of("TCPLOAD_BIND_HOST", "127.0.0.1"),
                        "--demo-target",
                        "-c2",
                        "-d1s",
                        "--await-start",
                        "--hold-result",
                        "30",
                        "--metrics-port",
                        Integer.toString(port),
                        profile.toString());
        String base = "http://127.0.0.1:" + port;

        await().atMost(Duration.ofSeconds(10))
                .ignoreExceptions()
                .until(() -> send(get(base + "/readyz")).statusCode() == 200);
        LiveStats ready = LiveStats.fromJson(send(get(base + "/stats")).body());
        assertThat(ready.phase()).isEqualTo(LivePhase.READY);
        assertThat(ready.startAtEpochMs()).as("no instant before one is told").isZero();
        assertThat(send(get(base + "/result")).statusCode()).isEqualTo(409);
        assertThat(exit).isNotDone();

        long atEpochMs = System.currentTimeMillis() + 300;
        assertThat(send(post(base + "/start?at=" + atEpochMs)).statusCode()).isEqualTo(200);
        assertThat(send(post(base + "/start?at=" + atEpochMs)).statusCode()).isEqualTo(200);
        assertThat(send(post(base + "/start?at=" + (atEpochMs + 1))).statusCode()).isEqualTo(409);
        assertThat(send(get(base + "/stats")).body()).contains("\"startAtEpochMs\":" + atEpochMs);

        await().atMost(Duration.ofSeconds(10))
                .until(() -> send(get(base + "/result")).statusCode() == 200);
        RunSummary result = JsonResult.read(send(get(base + "/result")).body());
        assertThat(result.counts().requests()).isPositive();
        assertThat(result.startEpochUs()).isBetween(atEpochMs * 1000, atEpochMs * 1000 + 50_000);
        assertThat(send(get(base + "/stats")).body())
                .contains("\"startEpochUs\":" + result.startEpochUs());
        assertThat(exit).isNotDone();

        assertThat(send(post(base + "/finish")).statusCode()).isEqualTo(200);
        assertThat(exit.get(10, TimeUnit.SECONDS))
                .as(err.toString(StandardCharsets.UTF_8))
                .isZero();
        assertThat(err.toString(StandardCharsets.UTF_8))
                .containsPattern("began -?\\d+\\.\\d{3} ms after the start instant");
    }

    @Test
    void aHeldResultNobodyFetchesIsLetGoWhenTheTimeIsUp(@TempDir Path dir) throws Exception {
        Path profile = tinyProfile(dir);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        long startedNs = System.nanoTime();

        CompletableFuture<Integer> exit =
                runInBackground(
                        err,
                        Map.of(),
                        "--demo-target",
                        "-d300ms",
                        "--hold-result",
                        "1",
                        "--metrics-port",
                        Integer.toString(freePort()),
                        profile.toString());

        assertThat(exit.get(15, TimeUnit.SECONDS)).isZero();
        assertThat(System.nanoTime() - startedNs).isGreaterThan(TimeUnit.SECONDS.toNanos(1));
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("nobody fetched the result; exiting");
    }

    @Test
    void controlFlagsWithoutAnEndpointAreBadFlags(@TempDir Path dir) throws Exception {
        CliResult result = CliResult.run("--await-start", tinyProfile(dir).toString());

        assertThat(result.exitCode()).isEqualTo(RunCommand.EXIT_INVALID);
        assertThat(result.err()).contains("--await-start and --hold-result need --metrics-port");
    }

    private static Path tinyProfile(Path dir) throws Exception {
        Path profile = dir.resolve("tiny.ini");
        Files.writeString(
                profile,
                "[common]\nhost = 127.0.0.1\nport = 1\n[request]\nreq_body = this is a test\n");
        return profile;
    }

    private static CompletableFuture<Integer> runInBackground(
            ByteArrayOutputStream err, Map<String, String> environment, String... args) {
        PrintStream out =
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        PrintStream errors = new PrintStream(err, true, StandardCharsets.UTF_8);
        return CompletableFuture.supplyAsync(
                () -> RunnerMain.execute(out, errors, environment::get, args));
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static HttpRequest get(String url) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).build();
    }

    private static HttpRequest post(String url) {
        return HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(2))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
    }

    private HttpResponse<String> send(HttpRequest request) throws Exception {
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
