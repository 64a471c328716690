package io.tcpload.runner.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tcpload.runner.cli.UrlProfile;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.rate.RateSchedule;
import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.stats.RunSummary.ErrorCount;
import io.tcpload.runner.testing.Corpus;
import io.tcpload.runner.testing.EngineRun;
import io.tcpload.runner.testing.HttpRequests;
import io.tcpload.runner.testing.Nginx;
import io.tcpload.runner.testing.ScriptedServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Servers that end connections on their own: a complete response counts whatever the connection
 * does next, a server's close between responses reopens the connection without an error (and writes
 * again, as retried, what it left unanswered), and only a close in the middle of a response or one
 * that leaves a fresh connection's requests without a byte of answer is a read error.
 */
class ServerCloseTest {
    private static final byte[] REQUEST =
            "00000014this is a test".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] RESPONSE =
            "00000013000000SUCCESS".getBytes(StandardCharsets.US_ASCII);

    @TempDir Path dir;

    private static Profile tinyKeepAlive(int port) throws Exception {
        return Corpus.parse(
                        "[common]\nhost = 127.0.0.1\nport = "
                                + port
                                + "\n[request]\nreq_body = this is a test\n")
                .withKeepAlive(true);
    }

    private static Profile url(String url) {
        return UrlProfile.build(url, "GET", List.of(), "");
    }

    private static long messageCount(RunSummary summary, String fragment) {
        return summary.errorMessages().stream()
                .filter(e -> e.message().contains(fragment))
                .mapToLong(ErrorCount::count)
                .sum();
    }

    /** Waits until nginx has logged at least what we counted, and returns what it logged. */
    private static long loggedAtLeast(Nginx nginx, long ours) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> nginx.requestsLogged() >= ours);
        return nginx.requestsLogged();
    }

    @ParameterizedTest(name = "pipeline {0}")
    @ValueSource(ints = {1, 4})
    void nginxWithItsDefaultsEndingKeepAliveConnectionsGivesNoErrors(int pipeline)
            throws Exception {
        assumeTrue(Nginx.installed(), "nginx is not installed (apt-get install nginx-light)");
        try (Nginx nginx = Nginx.start(dir)) {
            int connections = 2;
            // Past keepalive_requests (1000) several times on each connection.
            RunSummary summary =
                    EngineRun.run(
                            url(nginx.url()),
                            new LoadConfig(1, connections, 20_000, 5_000, true, pipeline, 0),
                            () -> nginx.requestsLogged() >= 6_000);
            Counts counts = summary.counts();
            assertThat(summary.errorMessages()).isEmpty();
            assertThat(counts.errors()).isZero();
            assertThat(counts.requests()).isGreaterThan(2_000 * connections);
            assertThat(counts.successes()).isEqualTo(counts.requests());
            // nginx also logs what it answered while the run was ending, unread by us.
            assertThat(loggedAtLeast(nginx, counts.requests()))
                    .isBetween(counts.requests(), counts.requests() + connections * pipeline);
            if (pipeline == 1) {
                // Nothing is written behind a response that says Connection: close.
                assertThat(counts.retried()).isZero();
            } else {
                // What was written behind it is written again, on the next connection.
                assertThat(counts.retried()).isGreaterThanOrEqualTo(pipeline - 1);
            }
        }
    }

    @Test
    void anHttp10ServerClosingAfterEveryResponseGivesNoErrors() throws Exception {
        Path python =
                Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
                        .map(folder -> Path.of(folder, "python3"))
                        .filter(Files::isExecutable)
                        .findFirst()
                        .orElse(null);
        assumeTrue(python != null, "python3 is not installed");
        Files.writeString(dir.resolve("index.html"), "Hello, world\n");
        try (Http10Server server = Http10Server.start(python, dir)) {
            RunSummary summary =
                    EngineRun.run(
                            url("http://127.0.0.1:" + server.port + "/index.html"),
                            new LoadConfig(1, 2, 10_000, 5_000, true, 1, 0),
                            () -> server.requestsLogged() >= 300);
            Counts counts = summary.counts();
            assertThat(summary.errorMessages()).isEmpty();
            assertThat(counts.errors()).isZero();
            assertThat(counts.retried()).isZero();
            assertThat(counts.requests()).isGreaterThanOrEqualTo(100);
            assertThat(counts.successes()).isEqualTo(counts.requests());
        }
    }

    @Test
    void aTcpServerClosingAfterEachAnswerOnKeepAliveGivesNoErrors() throws Exception {
        try (ScriptedServer server =
                new ScriptedServer(
                        (index, in, out) -> {
                            in.readNBytes(REQUEST.length);
                            out.write(RESPONSE);
                            out.flush();
                        })) {
            RunSummary summary =
                    EngineRun.run(
                            tinyKeepAlive(server.port()),
                            new LoadConfig(1, 2, 10_000, 5_000, true, 1, 0),
                            () -> server.accepted() >= 200);
            Counts counts = summary.counts();
            assertThat(summary.errorMessages()).isEmpty();
            assertThat(counts.errors()).isZero();
            assertThat(counts.successes()).isGreaterThanOrEqualTo(150);
            assertThat(server.failures()).isEmpty();
        }
    }

    @Test
    void aCloseInTheMiddleOfAResponseOnKeepAliveIsAReadError() throws Exception {
        try (ScriptedServer server =
                new ScriptedServer(
                        (index, in, out) -> {
                            in.readNBytes(REQUEST.length);
                            out.write(RESPONSE);
                            in.readNBytes(REQUEST.length);
                            out.write(RESPONSE, 0, 10);
                            out.flush();
                        })) {
            RunSummary summary =
                    EngineRun.run(
                            tinyKeepAlive(server.port()),
                            new LoadConfig(1, 1, 10_000, 5_000, true, 1, 0),
                            () -> server.accepted() >= 5);
            Counts counts = summary.counts();
            assertThat(counts.successes()).isGreaterThanOrEqualTo(3);
            assertThat(counts.readErrors()).isGreaterThanOrEqualTo(3);
            assertThat(messageCount(summary, "closed before a full response"))
                    .isEqualTo(counts.readErrors());
            assertThat(counts.retried()).isZero();
        }
    }

    @Test
    void aCloseBeforeAnyByteOfTheFirstResponseIsAReadError() throws Exception {
        try (ScriptedServer server =
                new ScriptedServer((index, in, out) -> in.readNBytes(REQUEST.length))) {
            RunSummary summary =
                    EngineRun.run(
                            tinyKeepAlive(server.port()),
                            new LoadConfig(1, 1, 10_000, 5_000, true, 1, 0),
                            () -> server.accepted() >= 5);
            Counts counts = summary.counts();
            assertThat(counts.requests()).isZero();
            assertThat(counts.readErrors()).isGreaterThanOrEqualTo(3);
            assertThat(messageCount(summary, "closed before any byte of the response"))
                    .isEqualTo(counts.readErrors());
            assertThat(counts.retried()).isZero();
        }
    }

    /**
     * An HTTP server that answers the first request of each connection after {@link #DELAY_MS} with
     * {@code Connection: close}, leaving the requests pipelined behind it unanswered, and reads on
     * until the client closes (as nginx's lingering close does, so that its answer is not lost to a
     * reset).
     */
    private static final long DELAY_MS = 300;

    private static ScriptedServer closingAfterOneDelayedAnswer() throws IOException {
        return new ScriptedServer(
                (index, in, out) -> {
                    HttpRequests.read(in);
                    Thread.sleep(DELAY_MS);
                    out.write(
                            ("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
                                    .getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    in.transferTo(OutputStream.nullOutputStream());
                });
    }

    @ParameterizedTest(name = "rate mode {0}")
    @ValueSource(booleans = {false, true})
    void requestsPipelinedBehindConnectionCloseAreResentKeepingTheirIntendedTime(boolean paced)
            throws Exception {
        try (ScriptedServer server = closingAfterOneDelayedAnswer()) {
            Profile profile = url("http://127.0.0.1:" + server.port() + "/");
            long durationMs = 5_000;
            LoadConfig config =
                    paced
                            ? new LoadConfig(
                                    1,
                                    1,
                                    durationMs,
                                    5_000,
                                    true,
                                    4,
                                    0,
                                    1,
                                    RateSchedule.constant(20, durationMs),
                                    false,
                                    0)
                            : new LoadConfig(1, 1, durationMs, 5_000, true, 4, 0);
            RunSummary summary = EngineRun.run(profile, config, () -> server.accepted() >= 5);
            Counts counts = summary.counts();
            assertThat(summary.errorMessages()).isEmpty();
            assertThat(counts.errors()).isZero();
            assertThat(counts.requests()).isGreaterThanOrEqualTo(3);
            assertThat(counts.retried()).isGreaterThanOrEqualTo(2);
            // A request written behind the first answer waited for it (300 ms), then for the next
            // connection's first answer (300 ms more): its latency holds both, counted from when
            // it was first meant to go.
            assertThat(summary.latencyUs().getMaxValue())
                    .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toMicros(2 * DELAY_MS - 20));
        }
    }

    @Test
    void anIdleKeepAliveConnectionClosedByTheServerReopensAndNoSendIsLost() throws Exception {
        // Each connection answers one request, then the server closes it 30 ms later, long before
        // the next send (every 100 ms) is due.
        try (ScriptedServer server =
                new ScriptedServer(
                        (index, in, out) -> {
                            in.readNBytes(REQUEST.length);
                            out.write(RESPONSE);
                            out.flush();
                            Thread.sleep(30);
                        })) {
            long durationMs = 2_000;
            LoadConfig config =
                    new LoadConfig(
                            1,
                            1,
                            durationMs,
                            5_000,
                            true,
                            1,
                            0,
                            1,
                            RateSchedule.constant(10, durationMs),
                            false,
                            0);
            RunSummary summary = EngineRun.run(tinyKeepAlive(server.port()), config);
            Counts counts = summary.counts();
            assertThat(summary.errorMessages()).isEmpty();
            assertThat(counts.errors()).isZero();
            assertThat(summary.rate().sent()).isGreaterThanOrEqualTo(summary.rate().planned() - 1);
            // Every send was answered (a send that bunched up behind a late one may have been
            // written again on the next connection: retried, and answered there).
            assertThat(counts.requests()).isGreaterThanOrEqualTo(summary.rate().sent() - 1);
        }
    }

    /** Python's {@code http.server}: HTTP/1.0, one request per connection, closed after it. */
    private static final class Http10Server implements AutoCloseable {
        final Process process;
        final int port;
        final Path log;

        private Http10Server(Process process, int port, Path log) {
            this.process = process;
            this.port = port;
            this.log = log;
        }

        static Http10Server start(Path python, Path root) throws Exception {
            for (int attempt = 0; ; attempt++) {
                int port;
                try (ServerSocket probe =
                        new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                    port = probe.getLocalPort();
                }
                Path log = root.resolve("http-" + attempt + ".log");
                Process process =
                        new ProcessBuilder(
                                        python.toString(),
                                        "-u",
                                        "-m",
                                        "http.server",
                                        "--bind",
                                        "127.0.0.1",
                                        "--directory",
                                        root.toString(),
                                        Integer.toString(port))
                                .redirectErrorStream(true)
                                .redirectOutput(log.toFile())
                                .start();
                Http10Server server = new Http10Server(process, port, log);
                if (server.awaitServing()) {
                    return server;
                }
                server.close();
                if (attempt == 4) {
                    throw new IOException(
                            "python3 -m http.server did not start: " + Files.readString(log));
                }
            }
        }

        /** It prints "Serving HTTP on ..." once bound; a bind failure ends it. */
        private boolean awaitServing() throws Exception {
            long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (System.nanoTime() < deadlineNs && process.isAlive()) {
                if (Files.readString(log).contains("Serving HTTP")) {
                    try (Socket probe = new Socket()) {
                        probe.connect(new InetSocketAddress("127.0.0.1", port), 500);
                        return true;
                    } catch (IOException notYet) {
                        // bound but not accepting yet
                    }
                }
                Thread.sleep(20);
            }
            return false;
        }

        /** Requests it logged: one line each, with the request line in quotes. */
        long requestsLogged() {
            try (Stream<String> lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
                return lines.filter(line -> line.contains("\"GET ")).count();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void close() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
