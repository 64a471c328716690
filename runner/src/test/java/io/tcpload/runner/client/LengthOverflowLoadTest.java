package io.tcpload.runner.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.ProfileLoader;
import io.tcpload.runner.profile.Target;
import io.tcpload.runner.rate.RateSchedule;
import io.tcpload.runner.serve.DemoServer;
import io.tcpload.runner.serve.ServeOptions;
import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.stats.RunSummary.ErrorCount;
import io.tcpload.runner.testing.EngineRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests whose {@code $(length)} does not fit {@code req_len_len} digits, over loopback: each is
 * not sent and counts as a failed request with its reason, never as a socket error, and its
 * connection goes on with the next request.
 */
class LengthOverflowLoadTest {
    /** The reason of a 12,000-byte value in a 4-digit length field. */
    private static final String REASON =
            "$(length) of 12024 body bytes does not fit req_len_len = 4 digits (at most 9999)";

    @TempDir Path dir;

    /**
     * A 4-digit length field whose body takes the next line of a data file: a short line, then one
     * of 12,000 bytes, in turn; or {@code body} itself when given.
     */
    private Profile profile(boolean keepAlive, String body) throws Exception {
        Files.writeString(
                dir.resolve("lines.txt"),
                "short\n" + "x".repeat(12_000) + "\n",
                StandardCharsets.US_ASCII);
        String text =
                String.join(
                        "\n",
                        "host = 127.0.0.1",
                        "port = 9000",
                        "keepalive = " + keepAlive,
                        "[request]",
                        "req_len_len = 4",
                        "req_body = " + (body != null ? body : "<req><data>$(DATA)</data></req>"),
                        "[response]",
                        "rsp_code_type = xml",
                        "rsp_code_location_tag = <retCode>",
                        "[parameters]",
                        "DATA = FILE, lines.txt",
                        "");
        return ProfileLoader.parse(text, dir.resolve("big.ini")).profile();
    }

    /** Loads {@code profile} against a demo target until it has answered {@code enough}. */
    private static RunSummary load(Profile profile, LoadConfig config, long enough)
            throws Exception {
        try (DemoServer target = DemoServer.start(profile, ServeOptions.defaults())) {
            return EngineRun.run(
                    profile.withTarget(new Target("127.0.0.1", target.port())),
                    config,
                    () -> target.requestsServed() >= enough);
        }
    }

    private static long reasonCount(RunSummary summary) {
        return summary.errorMessages().stream()
                .filter(error -> error.message().equals(REASON))
                .mapToLong(ErrorCount::count)
                .sum();
    }

    @Test
    void onAKeptOpenConnectionTheRequestIsAFailureAndTheConnectionGoesOn() throws Exception {
        RunSummary summary =
                load(profile(true, null), EngineRun.config(1, 2, 10_000, 5_000, true), 300);

        Counts counts = summary.counts();
        assertThat(counts.errors()).as("socket errors").isZero();
        assertThat(counts.writeErrors()).isZero();
        // Every other request takes the long line: half fail, unsent, and half are answered.
        assertThat(counts.successes()).isGreaterThanOrEqualTo(300);
        assertThat((double) counts.failures()).isCloseTo(counts.successes(), within(4.0));
        assertThat(counts.requests()).isEqualTo(counts.successes() + counts.failures());
        assertThat(reasonCount(summary)).isEqualTo(counts.failures());
        assertThat(summary.errorMessages()).hasSize(1);
        // Only answered requests have a latency; the two connections were never opened again.
        assertThat(summary.latencyUs().getTotalCount()).isEqualTo(counts.successes());
        assertThat(summary.connectUs().getTotalCount()).isEqualTo(2);
        assertThat(counts.bytesWritten()).isLessThan(100 * counts.successes());
    }

    @Test
    void withAConnectionPerRequestTheNextRequestGoesOnTheConnectionOpened() throws Exception {
        RunSummary summary =
                load(profile(false, null), EngineRun.config(1, 2, 10_000, 5_000, false), 200);

        Counts counts = summary.counts();
        assertThat(counts.errors()).as("socket errors").isZero();
        assertThat(counts.successes()).isGreaterThanOrEqualTo(200);
        assertThat((double) counts.failures()).isCloseTo(counts.successes(), within(4.0));
        assertThat(reasonCount(summary)).isEqualTo(counts.failures());
        // One connection per request sent: none opened for a request that was not.
        assertThat(summary.connectUs().getTotalCount())
                .isBetween(counts.successes(), counts.successes() + 2);
    }

    @Test
    void inRateModeTheSendIsTakenOnScheduleAndFails() throws Exception {
        RateSchedule schedule = RateSchedule.constant(200, 2_000);
        LoadConfig config = new LoadConfig(1, 2, 2_000, 5_000, true, 1, 0, 1, schedule, false, 0);

        RunSummary summary = load(profile(true, null), config, Long.MAX_VALUE);

        Counts counts = summary.counts();
        assertThat(counts.errors()).as("socket errors").isZero();
        assertThat(summary.rate().planned()).isEqualTo(400);
        // Each send of the schedule was taken: written, or failed as it could not be built. None
        // is left as if it had waited for a connection.
        assertThat(summary.rate().sent()).isBetween(396L, 400L);
        assertThat(counts.requests()).isBetween(396L, 400L);
        assertThat((double) counts.failures()).isCloseTo(counts.successes(), within(4.0));
        assertThat(reasonCount(summary)).isEqualTo(counts.failures());
        assertThat(summary.connectUs().getTotalCount()).isEqualTo(2);
    }

    @Test
    void aRequestThatNeverFitsFailsAtTheBackOffsPaceNotInABusyLoop() throws Exception {
        // Too long with either line of the data file: it varies, so it is only found out as it is
        // built (one that varies in nothing is refused before the run).
        String body = "x".repeat(12_000) + "$(DATA)";
        Profile profile = profile(true, body);
        RunSummary summary;
        try (DemoServer target = DemoServer.start(profile, ServeOptions.defaults())) {
            summary =
                    EngineRun.run(
                            profile.withTarget(new Target("127.0.0.1", target.port())),
                            EngineRun.config(1, 1, 2_000, 5_000, true));
        }

        Counts counts = summary.counts();
        assertThat(counts.errors()).as("socket errors").isZero();
        assertThat(counts.successes()).isZero();
        assertThat(counts.bytesWritten()).isZero();
        // The back-off doubles from 1 ms to 1 s: about a dozen tries in two seconds, not millions.
        assertThat(counts.failures()).isBetween(5L, 40L);
        assertThat(summary.errorMessages())
                .isNotEmpty()
                .allSatisfy(
                        error ->
                                assertThat(error.message())
                                        .matches(
                                                "\\$\\(length\\) of (12005|24000) body bytes does not"
                                                        + " fit req_len_len = 4 digits \\(at most"
                                                        + " 9999\\)"));
        assertThat(summary.connectUs().getTotalCount()).isEqualTo(1);
    }
}
