package io.tcpload.runner.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.Target;
import io.tcpload.runner.rate.RateSchedule;
import io.tcpload.runner.rate.Stages;
import io.tcpload.runner.serve.DemoServer;
import io.tcpload.runner.serve.ServeOptions;
import io.tcpload.runner.stats.RateSummary;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.stats.StageResult;
import io.tcpload.runner.testing.Corpus;
import io.tcpload.runner.testing.EngineRun;
import io.tcpload.runner.testing.StallPattern;
import io.tcpload.runner.testing.StallTarget;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Constant-rate and staged runs of the real engine on loopback (wrk2's open model). */
class RateModeTest {

    private static LoadConfig paced(
            int threads, int connections, RateSchedule schedule, boolean staged) {
        return new LoadConfig(
                threads,
                connections,
                schedule.totalDurationMs(),
                5_000,
                true,
                1,
                0,
                1,
                schedule,
                staged,
                0);
    }

    private static Profile keepAlive(String corpusName, int port) throws Exception {
        return Corpus.profile(corpusName, port).withKeepAlive(true);
    }

    @ParameterizedTest(name = "{0} requests/s")
    @ValueSource(ints = {1_000, 10_000})
    void sendsTheRequestedRate(int ratePerSecond) throws Exception {
        try (DemoServer target =
                DemoServer.start(Corpus.profile("01_tiny", 1), ServeOptions.defaults())) {
            RateSchedule schedule = RateSchedule.constant(ratePerSecond, 5_000);
            RunSummary summary =
                    EngineRun.run(
                            keepAlive("01_tiny", target.port()), paced(2, 100, schedule, false));

            RateSummary rate = summary.rate();
            long expected = 5L * ratePerSecond;
            assertThat(rate.planned()).isEqualTo(expected);
            assertThat((double) rate.sent()).isCloseTo(expected, within(expected * 0.01));
            assertThat((double) summary.counts().successes())
                    .isCloseTo(expected, within(expected * 0.01));
            assertThat(summary.counts().errors()).isZero();
            // Each of the five seconds carries its share, the first one included.
            for (int second = 0; second < 5; second++) {
                assertThat((double) summary.seconds().get(second).counts().requests())
                        .as("second %d", second + 1)
                        .isCloseTo(ratePerSecond, within(ratePerSecond * 0.05));
            }
            assertThat(rate.uncorrectedUs().getTotalCount())
                    .isEqualTo(summary.latencyUs().getTotalCount());
            assertThat(rate.lagUs().getTotalCount()).isEqualTo(rate.sent());
        }
    }

    /**
     * The warm-up's end reaches each loop a little after the measured clock's start, and the loop
     * goes on sending the warm-up's schedule meanwhile: those sends are the warm-up's, whatever
     * their intended time, or the measured run would count both them and the measured schedule's
     * sends of the same instants.
     */
    @Test
    void theWarmupsLastSendsAreNotMeasured() throws Exception {
        try (DemoServer target =
                DemoServer.start(Corpus.profile("01_tiny", 1), ServeOptions.defaults())) {
            int ratePerSecond = 20_000;
            RateSchedule schedule = RateSchedule.constant(ratePerSecond, 1_000);
            LoadConfig config =
                    new LoadConfig(2, 50, 1_000, 5_000, true, 1, 0, 1, schedule, false, 500);
            for (int round = 0; round < 3; round++) {
                RunSummary summary = EngineRun.run(keepAlive("01_tiny", target.port()), config);
                RateSummary rate = summary.rate();
                assertThat(rate.planned()).isEqualTo(ratePerSecond);
                assertThat(summary.counts().requests())
                        .as("round %d", round)
                        .isLessThanOrEqualTo(rate.planned());
                assertThat(summary.latencyUs().getTotalCount()).isLessThanOrEqualTo(rate.sent());
            }
        }
    }

    /**
     * A target that freezes every response for S = 200 ms each P = 1 s. For an open-loop client the
     * q-quantile of latency is S - (1 - q) * P above q = 1 - S/P: p90 = 100 ms, p99 = 190 ms, p99.9
     * = 199 ms. With few connections the uncorrected latency hides the stall: the requests that
     * waited for a free connection are timed from their late write.
     */
    @Test
    void correctedLatencyShowsAStallThatUncorrectedLatencyHides() throws Exception {
        StallPattern pattern = new StallPattern(1_000, 200);
        try (StallTarget target = new StallTarget(pattern)) {
            Profile profile =
                    keepAlive("01_tiny", 1).withTarget(new Target("127.0.0.1", target.port()));
            // An unmeasured warm-up second warms up the JIT of this JVM (client and target
            // alike); a cold first second would stretch one stall and skew the percentiles.
            LoadConfig config = paced(1, 25, RateSchedule.constant(500, 5_000), false);
            RunSummary summary =
                    EngineRun.run(
                            profile,
                            new LoadConfig(
                                    config.threads(),
                                    config.connections(),
                                    config.durationMs(),
                                    config.timeoutMs(),
                                    true,
                                    1,
                                    0,
                                    1,
                                    config.schedule(),
                                    false,
                                    1_000));

            Histogram corrected = summary.latencyUs();
            assertThat(summary.counts().errors()).isZero();
            // The warm-up's requests are not counted: 5 s at 500/s, less those whose answers a
            // stall still holds when the run ends (at most one stall's worth: 200 ms at 500/s).
            assertThat(corrected.getTotalCount()).isBetween(2_400L, 2_500L);
            assertNear(corrected, 90, pattern.waitQuantileMs(0.90));
            assertNear(corrected, 99, pattern.waitQuantileMs(0.99));
            assertNear(corrected, 99.9, pattern.waitQuantileMs(0.999));
            Histogram uncorrected = summary.rate().uncorrectedUs();
            assertThat(uncorrected.getValueAtPercentile(90) / 1000.0)
                    .as("uncorrected p90 in ms")
                    .isLessThan(20);
        }
    }

    private static void assertNear(Histogram histogram, double percentile, double truthMs) {
        double measuredMs = histogram.getValueAtPercentile(percentile) / 1000.0;
        // Loopback adds a little; a loaded 2-core machine adds scheduling jitter.
        assertThat(measuredMs)
                .as("p%s in ms (truth %.1f)", percentile, truthMs)
                .isCloseTo(truthMs + 1, within(truthMs * 0.05 + 8));
    }

    @Test
    void stagesRampTheRateAndEachStageIsReported() throws Exception {
        try (DemoServer target =
                DemoServer.start(Corpus.profile("01_tiny", 1), ServeOptions.defaults())) {
            RateSchedule schedule =
                    RateSchedule.stages(0, Stages.parse("1s:500,1s:1500,1s:1500,1s:0"));
            RunSummary summary =
                    EngineRun.run(
                            keepAlive("01_tiny", target.port()), paced(1, 50, schedule, true));

            RateSummary rate = summary.rate();
            assertThat(rate.stages()).hasSize(4);
            // The integral of the ramp: 250, 1000, 1500, 750 sends.
            long[] expected = {250, 1_000, 1_500, 750};
            for (int i = 0; i < 4; i++) {
                StageResult stage = rate.stages().get(i);
                assertThat(stage.stage()).isEqualTo(i + 1);
                assertThat((double) stage.sent())
                        .as("stage %d sent", i + 1)
                        .isCloseTo(expected[i], within(2.0 + expected[i] * 0.01));
                assertThat(stage.counts().requests()).isEqualTo(stage.sent());
                assertThat(stage.latencyUs().getTotalCount()).isEqualTo(stage.sent());
            }
            assertThat(rate.stages().get(1).fromRate()).isEqualTo(500);
            assertThat(rate.stages().get(1).targetRate()).isEqualTo(1_500);
            assertThat(rate.sent()).isEqualTo(3_500);
        }
    }
}
