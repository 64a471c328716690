package io.tcpload.runner.endpoint;

import static io.tcpload.runner.testing.TinyExchange.answersEach;
import static io.tcpload.runner.testing.TinyExchange.profile;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tcpload.runner.client.LoadConfig;
import io.tcpload.runner.contract.LiveStats;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.rate.RateSchedule;
import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.stats.SecondSample;
import io.tcpload.runner.testing.EngineRun;
import io.tcpload.runner.testing.ScriptedServer;
import org.junit.jupiter.api.Test;

/**
 * {@code /stats} after a run that ended between whole seconds: its last second shows the rates the
 * run ran at, over that second's real length, as the progress line and the result's row do, and
 * says how long it lasted.
 */
class PartialSecondStatsTest {
    private static final double RATE = 200;

    @Test
    void theLastSecondOfARunEndingMidSecondShowsItsRatesOverItsLength() throws Exception {
        try (ScriptedServer server = new ScriptedServer(answersEach())) {
            Profile profile = profile(server.port(), true);
            long durationMs = 1_500;
            LoadConfig config =
                    new LoadConfig(
                            1,
                            2,
                            durationMs,
                            5_000,
                            true,
                            1,
                            0,
                            1,
                            RateSchedule.constant(RATE, durationMs),
                            false,
                            0);
            LiveStatsTracker tracker = new LiveStatsTracker("tcpload-runner test");

            RunSummary summary = EngineRun.run(profile, config, tracker);
            tracker.finished();

            assertThat(server.failures()).isEmpty();
            SecondSample last = summary.seconds().get(summary.seconds().size() - 1);
            Counts counts = last.counts();
            LiveStats.LastSecond shown = tracker.stats().lastSecond();
            assertThat(tracker.stats().second()).isEqualTo(2);
            assertThat(last.durationUs()).isEqualTo(500_000);
            assertThat(shown.durationUs()).isEqualTo(last.durationUs());
            assertThat(shown.successTps()).isEqualTo(last.perSecond(counts.successes()));
            assertThat(shown.failureTps()).isEqualTo(last.perSecond(counts.failures()));
            // The rate the run ran at, not the half second's count of responses.
            assertThat(shown.tps()).as("%s", last).isCloseTo(RATE, within(RATE / 4));
            assertThat(LiveStats.fromJson(tracker.stats().toJson()).lastSecond()).isEqualTo(shown);
        }
    }
}
