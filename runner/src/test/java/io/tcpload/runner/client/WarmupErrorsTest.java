package io.tcpload.runner.client;

import static io.tcpload.runner.testing.TinyExchange.REQUEST;
import static io.tcpload.runner.testing.TinyExchange.RESPONSE;
import static io.tcpload.runner.testing.TinyExchange.profile;
import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.rate.RateSchedule;
import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.testing.EngineRun;
import io.tcpload.runner.testing.ScriptedServer;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Errors follow the warm-up's rule of requests: an error that belongs to a request (its timeout, a
 * close in the middle of its response, a connect made for its paced send) is the warm-up's when the
 * request's intended send time is in the warm-up, and is left out of the measured run even when it
 * happens after the warm-up has ended. An error that belongs to no request counts by when it
 * happens, and so does one of a measured request.
 */
class WarmupErrorsTest {
    private static final long WARMUP_MS = 300;

    /**
     * The response timeout: a warm-up request written at once times out well after the warm-up's
     * end (checked every tenth of it).
     */
    private static final long TIMEOUT_MS = 600;

    /** Long enough past the warm-up's end that a response held this long straddles it. */
    private static final long HOLD_PAST_WARMUP_MS = WARMUP_MS + 300;

    /** Long enough for measured responses after a slow reconnect on a busy machine. */
    private static final long MEASURED_MS = 1_500;

    /** Keeps the measured part to a few dozen requests, each answered whole. */
    private static final long ANSWER_DELAY_MS = 20;

    private static LoadConfig closedLoop(long durationMs) {
        return closedLoop(durationMs, TIMEOUT_MS);
    }

    private static LoadConfig closedLoop(long durationMs, long timeoutMs) {
        return new LoadConfig(1, 1, durationMs, timeoutMs, true, 1, 0, 1, null, false, WARMUP_MS);
    }

    @Test
    void aWarmupRequestTimingOutAfterTheWarmupIsNotAnError() throws Exception {
        try (ScriptedServer server =
                new ScriptedServer(
                        (index, in, out) -> {
                            if (index == 0) {
                                // The warm-up's first request is never answered: it times out
                                // after the warm-up has ended.
                                in.readNBytes(REQUEST.length);
                                drainUntilClosed(in);
                                return;
                            }
                            answerEachAfterADelay(in, out);
                        })) {
            RunSummary summary =
                    EngineRun.run(profile(server.port(), true), closedLoop(MEASURED_MS));

            Counts counts = summary.counts();
            assertThat(server.failures()).isEmpty();
            assertThat(server.accepted()).as("the timeout reopened the connection").isEqualTo(2);
            assertThat(counts.requests()).as("%s", summary).isPositive();
            assertThat(counts.timeouts()).as("%s", summary).isZero();
            assertThat(counts.errors()).isZero();
            assertThat(summary.errorMessages()).as("no error summary").isEmpty();
            assertThat(summary.addresses()).allSatisfy(a -> assertThat(a.errors()).isZero());
        }
    }

    @Test
    void aWarmupResponseCutShortAfterTheWarmupIsNotAnError() throws Exception {
        try (ScriptedServer server =
                new ScriptedServer(
                        (index, in, out) -> {
                            if (index == 0) {
                                // Half of the answer to the warm-up's first request, after the
                                // warm-up, then the close: a read error of that request, well
                                // before its timeout.
                                in.readNBytes(REQUEST.length);
                                Thread.sleep(HOLD_PAST_WARMUP_MS);
                                out.write(RESPONSE, 0, RESPONSE.length / 2);
                                out.flush();
                                return;
                            }
                            answerEachAfterADelay(in, out);
                        })) {
            RunSummary summary =
                    EngineRun.run(
                            profile(server.port(), true),
                            closedLoop(MEASURED_MS, HOLD_PAST_WARMUP_MS + 5_000));

            Counts counts = summary.counts();
            assertThat(server.failures()).isEmpty();
            assertThat(server.accepted()).as("the close reopened the connection").isEqualTo(2);
            assertThat(counts.requests()).as("%s", summary).isPositive();
            assertThat(counts.readErrors()).as("%s", summary).isZero();
            assertThat(counts.errors()).isZero();
            assertThat(summary.errorMessages()).as("no error summary").isEmpty();
        }
    }

    @Test
    void aMeasuredRequestTimingOutIsAnError() throws Exception {
        try (ScriptedServer server =
                new ScriptedServer(
                        (index, in, out) -> {
                            if (index == 0) {
                                // Answered until well after the warm-up, then a request that is
                                // never answered: a measured one.
                                long untilNs = System.nanoTime() + HOLD_PAST_WARMUP_MS * 1_000_000;
                                while (System.nanoTime() < untilNs) {
                                    if (!answerOne(in, out)) {
                                        return;
                                    }
                                }
                                in.readNBytes(REQUEST.length);
                                drainUntilClosed(in);
                                return;
                            }
                            answerEachAfterADelay(in, out);
                        })) {
            RunSummary summary = EngineRun.run(profile(server.port(), true), closedLoop(2_000));

            Counts counts = summary.counts();
            assertThat(server.failures()).isEmpty();
            assertThat(counts.timeouts()).as("%s", summary).isEqualTo(1);
            assertThat(summary.errorMessages())
                    .singleElement()
                    .satisfies(e -> assertThat(e.message()).isEqualTo("response timed out"));
        }
    }

    @Test
    void aConnectForAPacedWarmupSendTimingOutAfterTheWarmupIsNotAnError() throws Exception {
        // Rate mode without keep-alive: each send opens its own connection. The warm-up's first
        // send connects at once to a listener that takes no connection, and times out after the
        // warm-up's end; the measured run's first send, connecting after it, times out after the
        // run's end.
        long durationMs = 700;
        try (Unaccepting target = new Unaccepting()) {
            LoadConfig config =
                    new LoadConfig(
                            1,
                            1,
                            durationMs,
                            TIMEOUT_MS,
                            false,
                            1,
                            0,
                            1,
                            RateSchedule.constant(10, durationMs),
                            false,
                            WARMUP_MS);

            RunSummary summary = EngineRun.run(profile(target.port(), false), config);

            assertThat(summary.counts().timeouts()).as("%s", summary).isZero();
            assertThat(summary.counts().errors()).isZero();
            assertThat(summary.errorMessages()).as("no error summary").isEmpty();
        }
    }

    @Test
    void aConnectErrorWithNothingInFlightCountsWhenItHappens() throws Exception {
        int port;
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = closed.getLocalPort();
        }
        RunSummary summary = EngineRun.run(profile(port, true), closedLoop(800));

        assertThat(summary.counts().connectErrors()).as("%s", summary).isPositive();
        assertThat(summary.counts().requests()).isZero();
    }

    /** Reads until the client closes the connection (the run's end bounds it). */
    private static void drainUntilClosed(InputStream in) throws Exception {
        while (in.read() >= 0) {
            // Nothing is answered.
        }
    }

    /** Answers one request whole; false when the client closed the connection. */
    private static boolean answerOne(InputStream in, OutputStream out) throws Exception {
        if (in.readNBytes(REQUEST.length).length < REQUEST.length) {
            return false;
        }
        Thread.sleep(ANSWER_DELAY_MS);
        out.write(RESPONSE);
        out.flush();
        return true;
    }

    /** Answers each request whole, one write each, until the client closes the connection. */
    private static void answerEachAfterADelay(InputStream in, OutputStream out) throws Exception {
        // Bounded by the run: the client closes the connection when it ends.
        while (answerOne(in, out)) {
            // The next one.
        }
    }

    /**
     * A listener on 127.0.0.1 that accepts nothing and whose queue of connections is full, so that
     * a connect to it gets no answer and runs into the timeout.
     */
    private static final class Unaccepting implements AutoCloseable {
        private final ServerSocket server =
                new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        private final List<Socket> held = new ArrayList<>();

        Unaccepting() throws Exception {
            // The kernel completes connects until the queue is full; the next one hangs.
            for (int i = 0; i < 16; i++) {
                Socket socket = new Socket();
                try {
                    socket.connect(new InetSocketAddress(server.getInetAddress(), port()), 200);
                } catch (SocketTimeoutException full) {
                    socket.close();
                    return;
                }
                held.add(socket);
            }
            close();
            throw new IllegalStateException("the listener's queue never filled");
        }

        int port() {
            return server.getLocalPort();
        }

        @Override
        public void close() throws Exception {
            for (Socket socket : held) {
                socket.close();
            }
            server.close();
        }
    }
}
