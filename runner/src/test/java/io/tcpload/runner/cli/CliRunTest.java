package io.tcpload.runner.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.report.JsonResult;
import io.tcpload.runner.serve.DemoServer;
import io.tcpload.runner.serve.ServeOptions;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.testing.Corpus;
import io.tcpload.runner.testing.ScriptedServer;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whole runs through the real command line against loopback targets. */
class CliRunTest {
    private static final byte[] SUCCESS = "00000006000000".getBytes(StandardCharsets.US_ASCII);

    @TempDir Path dir;

    private Path profile(int port, String request, String parameters) throws IOException {
        Path file = dir.resolve("run.ini");
        Files.writeString(
                file,
                "[common]\nhost = 127.0.0.1\nport = "
                        + port
                        + "\n[request]\nreq_body = "
                        + request
                        + "\n[parameters]\n"
                        + parameters,
                StandardCharsets.UTF_8);
        return file;
    }

    /** A server that reads length-prefixed requests, records their bodies, answers success. */
    private static ScriptedServer recordingBodies(Set<String> bodies) throws IOException {
        return new ScriptedServer(
                (index, rawIn, out) -> {
                    InputStream in = new BufferedInputStream(rawIn);
                    for (byte[] length = in.readNBytes(8);
                            length.length == 8;
                            length = in.readNBytes(8)) {
                        int size = Integer.parseInt(new String(length, StandardCharsets.US_ASCII));
                        bodies.add(new String(in.readNBytes(size), StandardCharsets.US_ASCII));
                        out.write(SUCCESS);
                        out.flush();
                    }
                });
    }

    private static long reportNumber(String out, String regex) {
        Matcher m = Pattern.compile(regex).matcher(out);
        assertThat(m.find()).as("'%s' in:%n%s", regex, out).isTrue();
        return Long.parseLong(m.group(1));
    }

    @Test
    void twoThreadsAndThreeConnectionsOpenThreeE28() throws Exception {
        Set<String> ids = ConcurrentHashMap.newKeySet();
        try (ScriptedServer server = recordingBodies(ids)) {
            Path file = profile(server.port(), "$(T)", "T = CONNECTID, %d\n");
            CliResult result = CliResult.run("-t2", "-c3", "-k", "-d300ms", file.toString());

            assertThat(result.exitCode()).as(result.err()).isZero();
            assertThat(result.out()).contains("  2 threads and 3 connections");
            assertThat(ids).containsExactlyInAnyOrder("10001", "10002", "20001");
            assertThat(server.accepted()).isEqualTo(3);
            assertThat(server.failures()).isEmpty();
        }
    }

    @Test
    void theRunnerIndexOffsetsConnectionIds() throws Exception {
        Set<String> ids = ConcurrentHashMap.newKeySet();
        try (ScriptedServer server = recordingBodies(ids)) {
            Path file = profile(server.port(), "$(T)", "T = CONNECTID, %d\n");
            CliResult result =
                    CliResult.run(
                            "-t2",
                            "-c3",
                            "-k",
                            "-d300ms",
                            "--runner-index",
                            "2",
                            "--runner-count",
                            "3",
                            file.toString());

            assertThat(result.exitCode()).as(result.err()).isZero();
            assertThat(ids).containsExactlyInAnyOrder("2010001", "2010002", "2020001");
        }
    }

    @Test
    void anEnvParameterSendsTheVariableAndAnUnsetOneStopsTheRunBeforeItStarts() throws Exception {
        Set<String> bodies = ConcurrentHashMap.newKeySet();
        try (ScriptedServer server = recordingBodies(bodies)) {
            Path file = profile(server.port(), "key=$(KEY)", "KEY = ENV, API_KEY\n");
            CliResult unset = CliResult.runWith(name -> null, "-c1", "-d200ms", file.toString());
            int acceptedUnset = server.accepted();
            CliResult sent =
                    CliResult.runWith(
                            Map.of("API_KEY", "s3cret")::get, "-c1", "-d200ms", file.toString());

            assertThat(unset.exitCode()).isEqualTo(RunCommand.EXIT_INVALID);
            assertThat(unset.err())
                    .contains("line 7: KEY: the environment variable API_KEY is not set");
            assertThat(acceptedUnset).isZero();
            assertThat(sent.exitCode()).as(sent.err()).isZero();
            assertThat(bodies).containsExactly("key=s3cret");
        }
    }

    @Test
    void aShortTimeoutIsAcceptedAndEffective() throws Exception {
        try (ScriptedServer server =
                new ScriptedServer(
                        (index, in, out) -> {
                            in.readNBytes(22);
                            in.read(); // never answers; waits for the client to give up
                        })) {
            Path file = profile(server.port(), "this is a test", "");
            long startNs = System.nanoTime();
            CliResult result =
                    CliResult.run("-c2", "-d1500ms", "--timeout", "500ms", file.toString());
            long tookMs = (System.nanoTime() - startNs) / 1_000_000;

            assertThat(result.exitCode()).as(result.err()).isZero();
            // The default 5 s timeout would give none in 1.5 s; 500 ms gives two per connection.
            long timeouts =
                    reportNumber(
                            result.out(),
                            "Socket errors: connect 0, read 0, write 0, timeout (\\d+)\n");
            assertThat(timeouts).isGreaterThanOrEqualTo(2);
            assertThat(reportNumber(result.out(), "  (\\d+) requests in")).isZero();
            assertThat(result.err()).contains("response timed out");
            assertThat(tookMs).isLessThan(1_500 + 3_000);
        }
    }

    @Test
    void theJsonFileAgreesWithTheConsoleReport() throws Exception {
        Profile tiny = Corpus.profile("01_tiny", 1);
        try (DemoServer server = DemoServer.start(tiny, ServeOptions.defaults())) {
            Path file = profile(server.port(), "this is a test", "");
            Path json = dir.resolve("result.json");
            CliResult result =
                    CliResult.run("-c2", "-d500ms", "--json", json.toString(), file.toString());

            assertThat(result.exitCode()).as(result.err()).isZero();
            RunSummary read = JsonResult.read(Files.readString(json, StandardCharsets.UTF_8));
            long requests = reportNumber(result.out(), "(?m)^  (\\d+) requests in ");
            assertThat(requests).isPositive();
            assertThat(read.counts().requests()).isEqualTo(requests);
            assertThat(read.counts().successes()).isEqualTo(requests);
            assertThat(read.latencyUs().getTotalCount()).isEqualTo(requests);
            assertThat(read.info().connections()).isEqualTo(2);
        }
    }

    @Test
    void jsonToStdoutLeavesStdoutTheJsonAloneAndTheReportOnStderr() throws Exception {
        Profile tiny = Corpus.profile("01_tiny", 1);
        try (DemoServer server = DemoServer.start(tiny, ServeOptions.defaults())) {
            Path file = profile(server.port(), "this is a test", "");
            CliResult result =
                    CliResult.run("-c2", "-d500ms", "--json", "-", "-L", file.toString());

            assertThat(result.exitCode()).as(result.err()).isZero();
            // Standard output is one JSON document, as a program reading it expects.
            RunSummary read = JsonResult.read(result.out());
            assertThat(result.out().strip()).startsWith("{").endsWith("}");
            long requests = reportNumber(result.err(), "(?m)^  (\\d+) requests in ");
            assertThat(read.counts().requests()).isEqualTo(requests).isPositive();
            assertThat(result.err())
                    .contains("Running 500ms loadtest @ 127.0.0.1:" + server.port())
                    .contains("Latency Distribution", "Requests/sec:");
            assertThat(result.out()).doesNotContain("Requests/sec:", "Running ");
        }
    }

    @Test
    void errorsAreAggregatedNotPrintedOnePerFailure() throws Exception {
        int port;
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = closed.getLocalPort();
        }
        Path file = profile(port, "this is a test", "");
        CliResult result = CliResult.run("-c4", "-d2s", file.toString());

        assertThat(result.exitCode()).as(result.err()).isZero();
        long connectErrors =
                reportNumber(result.out(), "  Socket errors: connect (\\d+), read 0, write 0");
        assertThat(connectErrors).isGreaterThanOrEqualTo(4);
        String[] lines = result.err().split("\n");
        // The transport line, a summary per second, the progress lines, the Errors block.
        assertThat(lines).as(result.err()).hasSizeLessThanOrEqualTo(10);
        long mentions =
                Arrays.stream(lines).filter(line -> line.contains("connection refused")).count();
        assertThat(mentions).as(result.err()).isBetween(1L, 3L);
        assertThat(result.err())
                .contains("Errors:\n")
                .containsPattern("  +" + connectErrors + "  connect: connection refused\n");
    }
}
