package io.tcpload.runner.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.stats.RunSummary.ErrorCount;
import io.tcpload.runner.testing.Corpus;
import io.tcpload.runner.testing.EngineRun;
import io.tcpload.runner.testing.ScriptedServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The engine against servers that misbehave: every case ends in counted errors, never a hang. */
class MisbehavingServerTest {
    private static final byte[] REQUEST =
            "00000014this is a test".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] RESPONSE =
            "00000013000000SUCCESS".getBytes(StandardCharsets.US_ASCII);

    private static Profile tiny(int port, String extraResponseKeys) throws Exception {
        return Corpus.parse(
                "[common]\nhost = 127.0.0.1\nport = "
                        + port
                        + "\n[request]\nreq_body = this is a test\n[response]\n"
                        + extraResponseKeys);
    }

    private static long messageCount(RunSummary summary, String fragment) {
        return summary.errorMessages().stream()
                .filter(e -> e.message().contains(fragment))
                .mapToLong(ErrorCount::count)
                .sum();
    }

    @Test
    void aServerThatNeverAnswersGivesTimeouts() throws Exception {
        try (ScriptedServer server =
                new ScriptedServer(
                        (index, in, out) -> {
                            in.readNBytes(REQUEST.length);
                            in.read(); // waits until the client gives up
                        })) {
            RunSummary summary =
                    EngineRun.run(
                            tiny(server.port(), ""),
                            EngineRun.config(1, 2, 10_000, 200, false),
                            () -> server.accepted() >= 6);
            assertThat(summary.counts().requests()).isZero();
            assertThat(summary.counts().timeouts()).isGreaterThanOrEqualTo(4);
            assertThat(messageCount(summary, "response timed out"))
                    .isEqualTo(summary.counts().timeouts());
            assertThat(summary.counts().readErrors() + summary.counts().connectErrors()).isZero();
        }
    }

    @Test
    void aConnectThatHangsTimesOut() throws Exception {
        // A listening socket that never accepts: once its accept queue is full, the kernel drops
        // further SYNs, so every later connect hangs until the runner's timeout fails it.
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            List<Socket> queued = new ArrayList<>();
            try {
                for (int i = 0; i < 16; i++) {
                    Socket socket = new Socket();
                    queued.add(socket);
                    try {
                        socket.connect(listener.getLocalSocketAddress(), 300);
                    } catch (SocketTimeoutException full) {
                        break;
                    }
                }
                RunSummary summary =
                        EngineRun.run(
                                tiny(listener.getLocalPort(), ""),
                                EngineRun.config(1, 2, 1_500, 200, false));
                assertThat(summary.counts().requests()).isZero();
                assertThat(summary.counts().timeouts()).isGreaterThanOrEqualTo(4);
                assertThat(messageCount(summary, "connect timed out"))
                        .isEqualTo(summary.counts().timeouts());
                assertThat(summary.counts().connectErrors()).isZero();
            } finally {
                for (Socket socket : queued) {
                    socket.close();
                }
            }
        }
    }

    @Test
    void refusedConnectsLeaveNoSocketOpen() throws Exception {
        int port;
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = closed.getLocalPort();
        }
        long before = openFiles();
        AtomicLong peak = new AtomicLong();
        RunSummary summary =
                EngineRun.run(
                        tiny(port, ""),
                        EngineRun.config(1, 20, 1_500, 1_000, false),
                        () -> {
                            peak.accumulateAndGet(openFiles(), Math::max);
                            return false;
                        });
        assertThat(summary.counts().connectErrors()).isGreaterThan(60);
        assertThat(messageCount(summary, "connect: connection refused"))
                .isEqualTo(summary.counts().connectErrors());
        // Each refused connect's socket is closed with it, not kept open until the run ends:
        // the run holds its event loop's descriptors, and at most the 20 connecting sockets.
        assertThat(peak.get()).isLessThan(before + 40);
    }

    private static long openFiles() {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void aCloseBeforeTheFullResponseIsAReadError() throws Exception {
        try (ScriptedServer server =
                new ScriptedServer(
                        (index, in, out) -> {
                            in.readNBytes(REQUEST.length);
                            out.write(RESPONSE, 0, 10);
                            out.flush();
                        })) {
            RunSummary summary =
                    EngineRun.run(
                            tiny(server.port(), ""),
                            EngineRun.config(1, 1, 10_000, 5_000, false),
                            () -> server.accepted() >= 5);
            assertThat(summary.counts().requests()).isZero();
            assertThat(summary.counts().readErrors()).isGreaterThanOrEqualTo(3);
            assertThat(messageCount(summary, "closed before a full response"))
                    .isEqualTo(summary.counts().readErrors());
        }
    }

    @Test
    void aRefusedConnectIsAConnectErrorAndReconnectsBackOff() throws Exception {
        int port;
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = closed.getLocalPort();
        }
        RunSummary summary =
                EngineRun.run(tiny(port, ""), EngineRun.config(1, 4, 2_000, 1_000, false));
        long connectErrors = summary.counts().connectErrors();
        assertThat(connectErrors).isPositive();
        assertThat(messageCount(summary, "refused")).isEqualTo(connectErrors);
        // Back-off from 1 ms doubling to 1 s allows about a dozen attempts per connection in 2 s;
        // wrktcp made about 12,700 a second.
        assertThat(connectErrors).isLessThanOrEqualTo(4 * 16);
        assertThat(summary.counts().requests()).isZero();
    }

    @Test
    void aResponseDrippingOneByteAtATimeIsAssembled() throws Exception {
        try (ScriptedServer server =
                new ScriptedServer(
                        (index, in, out) -> {
                            in.readNBytes(REQUEST.length);
                            for (byte b : RESPONSE) {
                                out.write(b);
                                out.flush();
                                Thread.sleep(2);
                            }
                            in.read();
                        })) {
            RunSummary summary =
                    EngineRun.run(
                            tiny(server.port(), ""),
                            EngineRun.config(1, 1, 10_000, 5_000, false),
                            () -> server.accepted() >= 4);
            assertThat(summary.counts().successes()).isGreaterThanOrEqualTo(3);
            assertThat(summary.counts().errors()).isZero();
        }
    }

    @Test
    void hostileLengthsAreReadErrorsWithoutAllocatingThem() throws Exception {
        byte[] huge = "99999999000000".getBytes(StandardCharsets.US_ASCII);
        try (ScriptedServer server =
                new ScriptedServer(
                        (index, in, out) -> {
                            in.readNBytes(REQUEST.length);
                            out.write(
                                    index % 2 == 0
                                            ? huge
                                            : "ab12cd34000000".getBytes(StandardCharsets.US_ASCII));
                            out.flush();
                            in.read();
                        })) {
            RunSummary summary =
                    EngineRun.run(
                            tiny(server.port(), "max_response_bytes = 1024\n"),
                            EngineRun.config(1, 1, 10_000, 5_000, false),
                            () -> server.accepted() >= 6);
            assertThat(summary.counts().requests()).isZero();
            assertThat(summary.counts().readErrors()).isGreaterThanOrEqualTo(4);
            assertThat(messageCount(summary, "max_response_bytes")).isPositive();
            assertThat(messageCount(summary, "not a number")).isPositive();
        }
    }

    @Test
    void garbageAfterAResponseOnAShortConnectionIsAReadError() throws Exception {
        try (ScriptedServer server =
                new ScriptedServer(
                        (index, in, out) -> {
                            in.readNBytes(REQUEST.length);
                            byte[] withExtra = new byte[RESPONSE.length + 3];
                            System.arraycopy(RESPONSE, 0, withExtra, 0, RESPONSE.length);
                            out.write(withExtra);
                            out.flush();
                            in.read();
                        })) {
            RunSummary summary =
                    EngineRun.run(
                            tiny(server.port(), ""),
                            EngineRun.config(1, 1, 10_000, 5_000, false),
                            () -> server.accepted() >= 4);
            assertThat(summary.counts().readErrors()).isGreaterThanOrEqualTo(2);
        }
    }
}
