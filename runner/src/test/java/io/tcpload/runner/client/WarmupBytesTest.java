package io.tcpload.runner.client;

import static io.tcpload.runner.testing.TinyExchange.REQUEST;
import static io.tcpload.runner.testing.TinyExchange.RESPONSE;
import static io.tcpload.runner.testing.TinyExchange.profile;
import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.testing.EngineRun;
import io.tcpload.runner.testing.ScriptedServer;
import java.io.InputStream;
import java.io.OutputStream;
import org.junit.jupiter.api.Test;

/**
 * A warm-up's requests add nothing to the measured figures, the bytes of their responses included:
 * responses that straddle the end of the warm-up, alone or in one read with a measured response,
 * are left out of the bytes read as they are left out of the requests.
 */
class WarmupBytesTest {
    private static final long WARMUP_MS = 300;

    /** Long enough past the warm-up's end that a response held this long straddles it. */
    private static final long HOLD_PAST_WARMUP_MS = WARMUP_MS + 300;

    /** Long enough for measured responses after a slow connect on a busy machine. */
    private static final long MEASURED_MS = 1_500;

    /** Keeps the measured part to a few dozen requests, each answered whole. */
    private static final long ANSWER_DELAY_MS = 20;

    private static LoadConfig withWarmup(int pipeline, long durationMs) {
        return new LoadConfig(
                1, 1, durationMs, 5_000, true, pipeline, 0, 1, null, false, WARMUP_MS);
    }

    @Test
    void aWarmupResponseArrivingAfterTheWarmupAddsNoBytes() throws Exception {
        try (ScriptedServer server =
                new ScriptedServer(
                        (index, in, out) -> {
                            // The warm-up's first request is answered after the warm-up is over.
                            in.readNBytes(REQUEST.length);
                            Thread.sleep(HOLD_PAST_WARMUP_MS);
                            out.write(RESPONSE);
                            out.flush();
                            answerEachAfterADelay(in, out);
                        })) {
            RunSummary summary =
                    EngineRun.run(profile(server.port(), true), withWarmup(1, MEASURED_MS));

            Counts counts = summary.counts();
            assertThat(server.failures()).isEmpty();
            assertThat(counts.errors()).isZero();
            assertThat(counts.requests()).as("%s", summary).isPositive();
            assertThat(counts.bytesRead())
                    .as("bytes of %d measured responses", counts.requests())
                    .isEqualTo(counts.requests() * RESPONSE.length);
        }
    }

    @Test
    void aWarmupResponseReadTogetherWithAMeasuredOneAddsOnlyTheMeasuredBytes() throws Exception {
        try (ScriptedServer server =
                new ScriptedServer(
                        (index, in, out) -> {
                            // Two warm-up requests in flight (A, B); A is answered at once, and
                            // the client sends C in the warm-up too.
                            in.readNBytes(2 * REQUEST.length);
                            out.write(RESPONSE);
                            out.flush();
                            in.readNBytes(REQUEST.length);
                            // B is answered after the warm-up, so that the client's next request,
                            // D, is measured.
                            Thread.sleep(HOLD_PAST_WARMUP_MS);
                            out.write(RESPONSE);
                            out.flush();
                            in.readNBytes(REQUEST.length);
                            // C (warm-up) and D (measured) in one write: one read on the client.
                            byte[] both = new byte[2 * RESPONSE.length];
                            System.arraycopy(RESPONSE, 0, both, 0, RESPONSE.length);
                            System.arraycopy(RESPONSE, 0, both, RESPONSE.length, RESPONSE.length);
                            out.write(both);
                            out.flush();
                            answerEachAfterADelay(in, out);
                        })) {
            RunSummary summary =
                    EngineRun.run(profile(server.port(), true), withWarmup(2, MEASURED_MS));

            Counts counts = summary.counts();
            assertThat(server.failures()).isEmpty();
            assertThat(counts.errors()).isZero();
            assertThat(counts.requests()).as("%s", summary).isPositive();
            assertThat(counts.bytesRead())
                    .as("bytes of %d measured responses", counts.requests())
                    .isEqualTo(counts.requests() * RESPONSE.length);
        }
    }

    /** Answers each request whole, one write each, until the client closes the connection. */
    private static void answerEachAfterADelay(InputStream in, OutputStream out) throws Exception {
        // Bounded by the run: the client closes the connection when it ends.
        while (in.readNBytes(REQUEST.length).length == REQUEST.length) {
            Thread.sleep(ANSWER_DELAY_MS);
            out.write(RESPONSE);
            out.flush();
        }
    }
}
