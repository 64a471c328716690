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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /stats} during and after a {@code --warmup}: the connections open during the warm-up are
 * shown as they are, and {@code startEpochUs} is the measured run's start, the very instant the
 * result and {@code --json} report.
 */
class WarmupStatsTest {
    private static final int CONNECTIONS = 3;

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @Test
    void statsShowTheWarmupsOpenConnectionsAndTheMeasuredStart(@TempDir Path dir) throws Exception {
        Path profile = dir.resolve("tiny.ini");
        Files.writeString(
                profile,
                "[common]\nhost = 127.0.0.1\nport = 1\n[request]\nreq_body = this is a test\n");
        Path json = dir.resolve("result.json");
        int port = freePort();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CompletableFuture<Integer> exit =
                runInBackground(
                        err,
                        "--demo-target",
                        "-c" + CONNECTIONS,
                        "-k",
                        "--warmup",
                        "3s",
                        "-d1s",
                        "--hold-result",
                        "30",
                        "--metrics-port",
                        Integer.toString(port),
                        "--json",
                        json.toString(),
                        profile.toString());
        String base = "http://127.0.0.1:" + port;
        try {
            AtomicReference<LiveStats> seen = new AtomicReference<>();
            await().atMost(Duration.ofSeconds(15))
                    .pollInterval(Duration.ofMillis(50))
                    .ignoreExceptions()
                    .until(
                            () -> {
                                seen.set(stats(base));
                                return seen.get().openConnections() == CONNECTIONS
                                        || seen.get().second() > 0
                                        || exit.isDone();
                            });
            LiveStats warming = seen.get();
            assertThat(warming.second()).as("no measured second yet: %s", warming).isZero();
            assertThat(warming.phase()).isEqualTo(LivePhase.RUNNING);
            assertThat(warming.openConnections()).isEqualTo(CONNECTIONS);
            assertThat(warming.cumulative().requests()).as("the warm-up is not counted").isZero();

            await().atMost(Duration.ofSeconds(15))
                    .until(() -> send(get(base + "/result")).statusCode() == 200);
            RunSummary result = JsonResult.read(send(get(base + "/result")).body());
            RunSummary written = JsonResult.read(Files.readString(json));
            LiveStats finished = stats(base);
            assertThat(result.startEpochUs()).isPositive();
            assertThat(written.startEpochUs()).isEqualTo(result.startEpochUs());
            assertThat(finished.startEpochUs()).isEqualTo(result.startEpochUs());

            assertThat(send(post(base + "/finish")).statusCode()).isEqualTo(200);
            assertThat(exit.get(10, TimeUnit.SECONDS))
                    .as(err.toString(StandardCharsets.UTF_8))
                    .isZero();
        } finally {
            // After a failed assertion too: the runner is let go as soon as it has a result.
            await().atMost(Duration.ofSeconds(20))
                    .ignoreExceptions()
                    .until(() -> exit.isDone() || send(post(base + "/finish")).statusCode() == 200);
            exit.get(10, TimeUnit.SECONDS);
        }
    }

    private LiveStats stats(String base) throws Exception {
        return LiveStats.fromJson(send(get(base + "/stats")).body());
    }

    private static CompletableFuture<Integer> runInBackground(
            ByteArrayOutputStream err, String... args) {
        PrintStream out =
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        PrintStream errors = new PrintStream(err, true, StandardCharsets.UTF_8);
        return CompletableFuture.supplyAsync(
                () -> RunnerMain.execute(out, errors, name -> null, args));
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
