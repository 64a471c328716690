package io.tcpload.runner.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.rate.RateSchedule;
import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.stats.RunSummary.ErrorCount;
import io.tcpload.runner.testing.Corpus;
import io.tcpload.runner.testing.EngineRun;
import io.tcpload.runner.testing.ScriptedServer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Bytes that no request asked for (a second response to one request, data sent while the connection
 * is idle) are a read error, never the answer to the request written next.
 */
class UnsolicitedResponseTest {
    private static final byte[] REQUEST =
            "00000014this is a test".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] RESPONSE =
            "00000013000000SUCCESS".getBytes(StandardCharsets.US_ASCII);

    private static Profile tinyKeepAlive(int port) throws Exception {
        return Corpus.parse(
                        "[common]\nhost = 127.0.0.1\nport = "
                                + port
                                + "\n[request]\nreq_body = this is a test\n")
                .withKeepAlive(true);
    }

    private static long messageCount(RunSummary summary, String fragment) {
        return summary.errorMessages().stream()
                .filter(e -> e.message().contains(fragment))
                .mapToLong(ErrorCount::count)
                .sum();
    }

    @Test
    void aSecondResponseToOneRequestIsAReadErrorNotTheNextOnesAnswer() throws Exception {
        AtomicInteger requestsRead = new AtomicInteger();
        byte[] twice = new byte[2 * RESPONSE.length];
        System.arraycopy(RESPONSE, 0, twice, 0, RESPONSE.length);
        System.arraycopy(RESPONSE, 0, twice, RESPONSE.length, RESPONSE.length);
        try (ScriptedServer server =
                new ScriptedServer(
                        (index, in, out) -> {
                            while (in.readNBytes(REQUEST.length).length == REQUEST.length) {
                                requestsRead.incrementAndGet();
                                out.write(twice); // one write: both arrive in one read
                                out.flush();
                            }
                        })) {
            RunSummary summary =
                    EngineRun.run(
                            tinyKeepAlive(server.port()),
                            new LoadConfig(1, 1, 10_000, 5_000, true, 1, 0),
                            () -> server.accepted() >= 5);
            Counts counts = summary.counts();
            assertThat(counts.readErrors()).isGreaterThanOrEqualTo(3);
            assertThat(messageCount(summary, "a response arrived that no request asked for"))
                    .isEqualTo(counts.readErrors());
            // One success per request the server read, never two.
            assertThat(counts.successes()).isLessThanOrEqualTo(requestsRead.get());
            assertThat(counts.failures()).isZero();
        }
    }

    @Test
    void bytesSentWhileTheConnectionIsIdleAreAReadErrorNotTheNextAnswer() throws Exception {
        try (ScriptedServer server =
                new ScriptedServer(
                        (index, in, out) -> {
                            while (in.readNBytes(REQUEST.length).length == REQUEST.length) {
                                out.write(RESPONSE);
                                out.flush();
                                Thread.sleep(30);
                                // The start of a response nobody asked for, long before the next
                                // send: read with the next answer, it would frame as a response
                                // of length 0, a failure.
                                out.write("00000".getBytes(StandardCharsets.US_ASCII));
                                out.flush();
                            }
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
                            // 500 ms between sends: the junk, 30 ms after each answer, comes
                            // well before the next send even on a loaded machine.
                            RateSchedule.constant(2, durationMs),
                            false,
                            0);
            RunSummary summary = EngineRun.run(tinyKeepAlive(server.port()), config);
            Counts counts = summary.counts();
            assertThat(counts.successes()).isPositive();
            assertThat(counts.failures()).isZero();
            assertThat(counts.readErrors()).isPositive();
            assertThat(messageCount(summary, "a response arrived that no request asked for"))
                    .isEqualTo(counts.readErrors());
        }
    }
}
