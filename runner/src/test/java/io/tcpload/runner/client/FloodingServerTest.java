package io.tcpload.runner.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.testing.Corpus;
import io.tcpload.runner.testing.EngineRun;
import io.tcpload.runner.testing.ScriptedServer;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A server that answers every request with megabytes, as fast as loopback carries them, keeps the
 * event loop reading without a pause. The loop must still run its timers (the per-second figures,
 * timeouts, the stop at the end of the duration) and so end the run on time, with every response
 * counted.
 */
class FloodingServerTest {
    private static final byte[] REQUEST =
            "00000014this is a test".getBytes(StandardCharsets.US_ASCII);
    private static final int BODY_BYTES = 8 * 1024 * 1024;

    @Test
    void aRunAgainstAServerSendingMegabytesPerResponseEndsOnTime() throws Exception {
        byte[] response = new byte[8 + BODY_BYTES];
        Arrays.fill(response, (byte) 'x');
        byte[] head = String.format("%08d000000", BODY_BYTES).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(head, 0, response, 0, head.length);
        try (ScriptedServer server =
                new ScriptedServer(
                        (index, in, out) -> {
                            while (in.readNBytes(REQUEST.length).length == REQUEST.length) {
                                write(out, response);
                            }
                        })) {
            Profile profile =
                    Corpus.parse(
                                    "[common]\nhost = 127.0.0.1\nport = "
                                            + server.port()
                                            + "\n[request]\nreq_body = this is a test\n")
                            .withKeepAlive(true);
            long durationMs = 2_000;
            RunSummary summary =
                    EngineRun.run(profile, EngineRun.config(1, 16, durationMs, 5_000, true));

            assertThat(summary.counts().requests()).isPositive();
            assertThat(summary.counts().errors()).isZero();
            // Starved of its timers, the loop stopped seconds late (seen: 2.6 s late with 20
            // connections, no figure for the seconds in between).
            assertThat(summary.runtimeUs())
                    .isBetween(
                            TimeUnit.MILLISECONDS.toMicros(durationMs),
                            TimeUnit.MILLISECONDS.toMicros(durationMs + 600));
        }
    }

    private static void write(OutputStream out, byte[] response) throws Exception {
        out.write(response);
        out.flush();
    }
}
