package io.tcpload.runner.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tcpload.runner.contract.RunnerProtocol;
import io.tcpload.runner.contract.Stopped;
import io.tcpload.runner.report.JsonResult;
import io.tcpload.runner.serve.DemoServer;
import io.tcpload.runner.serve.ServeOptions;
import io.tcpload.runner.testing.Corpus;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Ctrl-C ends a run early with its report, as wrktcp does: the runner is started as a separate
 * process against a demo target in this one, and interrupted with SIGINT.
 */
@DisabledOnOs(OS.WINDOWS)
class InterruptTest {
    @TempDir Path dir;

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * The runner as a process of its own, {@code -d60s -c2} with {@code flags}, against {@code
     * server}, its output in {@code out} and {@code err}.
     */
    private ProcessBuilder runner(DemoServer server, Path out, Path err, String... flags)
            throws IOException {
        List<String> all = new ArrayList<>(List.of("-d60s", "-c2"));
        all.addAll(List.of(flags));
        return process(server, out, err, all);
    }

    /** As {@link #runner}, with {@code flags} alone. */
    private ProcessBuilder process(DemoServer server, Path out, Path err, List<String> flags)
            throws IOException {
        Path profile = dir.resolve("signalled.ini");
        Files.writeString(
                profile,
                "[common]\nhost = 127.0.0.1\nport = "
                        + server.port()
                        + "\n[request]\nreq_body = this is a test\n",
                StandardCharsets.UTF_8);
        List<String> command =
                new ArrayList<>(
                        List.of(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                "-XX:TieredStopAtLevel=1",
                                "-cp",
                                System.getProperty("java.class.path"),
                                "io.tcpload.runner.RunnerMain"));
        command.addAll(flags);
        command.add(profile.toString());
        return new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
    }

    @Test
    void sigintPrintsTheReportAndEnds() throws Exception {
        try (DemoServer server =
                DemoServer.start(Corpus.profile("01_tiny", 1), ServeOptions.defaults())) {
            Path out = dir.resolve("out.txt");
            Path err = dir.resolve("err.txt");
            Path json = dir.resolve("result.json");
            Path html = dir.resolve("report.html");
            Process child =
                    runner(server, out, err, "--json", json.toString(), "--html", html.toString())
                            .start();
            try {
                // The banner is out and the first second has been reported.
                Awaitility.await()
                        .atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(50))
                        .until(
                                () ->
                                        !child.isAlive()
                                                || (read(out).contains("2 connections")
                                                        && read(err).contains("Time:1s")));
                assertThat(child.isAlive()).as(read(err)).isTrue();

                Process kill =
                        new ProcessBuilder("kill", "-INT", String.valueOf(child.pid())).start();
                assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
                assertThat(kill.exitValue()).isZero();

                assertThat(child.waitFor(10, TimeUnit.SECONDS))
                        .as("the runner ends soon after SIGINT")
                        .isTrue();
                String report = read(out);
                assertThat(report)
                        .as(read(err))
                        .startsWith("Running 1m loadtest @ 127.0.0.1:" + server.port())
                        .contains("requests in ", "Requests/sec:", "Transfer/sec:");
                assertThat(report).doesNotContain("Socket errors");
                assertThat(child.exitValue()).as(read(err)).isEqualTo(130);
                assertThat(read(err)).contains("stopped by SIGINT after ", "the result is partial");
                // The files say the result is partial, as the one an orchestrator fetches does.
                Stopped stopped = JsonResult.stopped(read(json)).orElseThrow();
                assertThat(stopped.signal()).isEqualTo("SIGINT");
                assertThat(stopped.afterMs()).isBetween(1_000L, 30_000L);
                assertThat(JsonResult.read(read(json)).counts().requests()).isPositive();
                assertThat(read(html))
                        .contains("<p id=\"stopped\" class=\"stopped\">stopped by SIGINT after ")
                        .contains(": the result is partial</p>");
            } finally {
                child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /**
     * A capacity search stopped by a signal says so as a plain run does: its report and files are
     * written with the steps that ran, and the JSON result and the HTML report are marked partial,
     * so that nobody takes the capacity of an unfinished search for a found one.
     */
    @ParameterizedTest(name = "SIG{0}")
    @CsvSource({"INT, 130", "TERM, 143"})
    void aSignalStopsASearchAndItsFilesSayItWasStopped(String signal, int exitStatus)
            throws Exception {
        try (DemoServer server =
                DemoServer.start(Corpus.profile("01_tiny", 1), ServeOptions.defaults())) {
            Path out = dir.resolve("out.txt");
            Path err = dir.resolve("err.txt");
            Path json = dir.resolve("search.json");
            Path html = dir.resolve("search.html");
            // A range the demo target holds at every rate: the search grows fourfold to its
            // maximum and confirms it, five steps of 2.5 s, so the signal comes in its middle.
            Process child =
                    process(
                                    server,
                                    out,
                                    err,
                                    List.of(
                                            "-c32",
                                            "-k",
                                            "--search",
                                            "p99 < 250ms",
                                            "--search-range",
                                            "50:3000",
                                            "--search-step",
                                            "2s",
                                            "--search-warmup",
                                            "500ms",
                                            "--json",
                                            json.toString(),
                                            "--html",
                                            html.toString()))
                            .start();
            try {
                Awaitility.await()
                        .atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(50))
                        .until(() -> !child.isAlive() || read(err).contains("step 1 (grow)"));
                assertThat(child.isAlive()).as(read(out) + read(err)).isTrue();

                Process kill =
                        new ProcessBuilder("kill", "-" + signal, String.valueOf(child.pid()))
                                .start();
                assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();

                assertThat(child.waitFor(30, TimeUnit.SECONDS))
                        .as("the search ends soon after the signal")
                        .isTrue();
                assertThat(child.exitValue()).as(read(err)).isEqualTo(exitStatus);
                assertThat(read(out)).contains("Capacity: ", "stopped after ");
                assertThat(read(err))
                        .contains("stopped by SIG" + signal + " after ", "the result is partial");

                String written = read(json);
                Stopped stopped = JsonResult.stopped(written).orElseThrow();
                assertThat(stopped.signal()).isEqualTo("SIG" + signal);
                // The load had run at least the step reported before the signal.
                assertThat(stopped.afterMs()).isBetween(2_000L, 60_000L);
                JsonNode search = new ObjectMapper().readTree(written).get("search");
                assertThat(search.get("end").asText()).isEqualTo("stopped");
                assertThat(search.get("steps").size())
                        .isEqualTo(search.get("stepCount").asInt())
                        .isPositive();
                assertThat(read(html))
                        .contains(
                                "<p id=\"stopped\" class=\"stopped\">stopped by SIG"
                                        + signal
                                        + " after ")
                        .contains(": the result is partial</p>")
                        .contains("id=\"steps\"");
            } finally {
                child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /**
     * A runner pod told to go (deleted, evicted, drained) gets SIGTERM: it stops its load, serves
     * its result marked partial until {@code /finish} or shortly before its grace period ends, then
     * exits 143.
     */
    @ParameterizedTest(name = "finish asked: {0}")
    @ValueSource(booleans = {true, false})
    void sigtermInAPodServesThePartialResultThroughTheGracePeriod(boolean finishAsked)
            throws Exception {
        try (DemoServer server =
                DemoServer.start(Corpus.profile("01_tiny", 1), ServeOptions.defaults())) {
            Path out = dir.resolve("out.txt");
            Path err = dir.resolve("err.txt");
            ProcessBuilder builder =
                    runner(server, out, err, "--metrics-port", "0", "--hold-result", "120");
            int graceSeconds = finishAsked ? 60 : 4;
            builder.environment()
                    .put(RunnerProtocol.GRACE_PERIOD_VARIABLE, Integer.toString(graceSeconds));
            Process child = builder.start();
            try {
                Awaitility.await()
                        .atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(50))
                        .until(() -> !child.isAlive() || read(err).contains("Time:1s"));
                assertThat(child.isAlive()).as(read(err)).isTrue();
                Matcher port =
                        Pattern.compile("metrics on http://127.0.0.1:(\\d+)/").matcher(read(err));
                assertThat(port.find()).as(read(err)).isTrue();
                URI base = URI.create("http://127.0.0.1:" + port.group(1));

                long signalledNs = System.nanoTime();
                Process kill =
                        new ProcessBuilder("kill", "-TERM", String.valueOf(child.pid())).start();
                assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();

                HttpClient http = HttpClient.newHttpClient();
                String[] result = new String[1];
                Awaitility.await()
                        .atMost(Duration.ofSeconds(10))
                        .pollInterval(Duration.ofMillis(50))
                        .ignoreExceptions()
                        .until(
                                () -> {
                                    HttpResponse<String> response =
                                            http.send(
                                                    HttpRequest.newBuilder(
                                                                    base.resolve(
                                                                            RunnerProtocol.RESULT))
                                                            .build(),
                                                    HttpResponse.BodyHandlers.ofString());
                                    result[0] = response.body();
                                    return response.statusCode() == 200;
                                });
                Stopped stopped = JsonResult.stopped(result[0]).orElseThrow();
                assertThat(stopped.signal()).isEqualTo("SIGTERM");
                assertThat(stopped.afterMs()).isBetween(1_000L, 30_000L);
                assertThat(JsonResult.read(result[0]).counts().requests()).isPositive();
                assertThat(child.isAlive()).as("the result is held after SIGTERM").isTrue();

                if (finishAsked) {
                    http.send(
                            HttpRequest.newBuilder(base.resolve(RunnerProtocol.FINISH))
                                    .POST(HttpRequest.BodyPublishers.noBody())
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
                }
                assertThat(child.waitFor(20, TimeUnit.SECONDS)).as(read(err)).isTrue();
                long exitedAfterMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - signalledNs);
                assertThat(child.exitValue()).as(read(err)).isEqualTo(143);
                if (!finishAsked) {
                    // Let go before the kubelet's kill at the end of the grace period.
                    assertThat(exitedAfterMs).isLessThan(graceSeconds * 1000L);
                    assertThat(read(err)).contains("the grace period after SIGTERM is ending");
                }
                assertThat(read(err))
                        .contains("stopped by SIGTERM after ")
                        .contains("the result is partial");
                assertThat(read(out)).contains("requests in ");
            } finally {
                child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
