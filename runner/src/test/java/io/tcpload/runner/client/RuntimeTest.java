package io.tcpload.runner.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.Target;
import io.tcpload.runner.serve.DemoServer;
import io.tcpload.runner.serve.ServeOptions;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.testing.Corpus;
import io.tcpload.runner.testing.EngineRun;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The runtime that rates are divided by is the load's own: from the first loop's start to the
 * loops' stop at the end of the duration, without stopping the loops, closing their connections or
 * collecting their figures.
 */
class RuntimeTest {
    @Test
    void manyLoopsAndConnectionsOnAShortRunReportTheDurationNotTheTeardown() throws Exception {
        Profile profile = Corpus.profile("01_tiny", 1).withKeepAlive(true);
        try (DemoServer server = DemoServer.start(profile, ServeOptions.defaults())) {
            Profile local = profile.withTarget(new Target("127.0.0.1", server.port()));
            long durationMs = 1_000;
            RunSummary summary =
                    EngineRun.run(local, new LoadConfig(100, 1_000, durationMs, 5_000, true, 1, 0));

            assertThat(summary.counts().requests()).isPositive();
            assertThat(summary.counts().errors()).isZero();
            // The loops stop themselves at the end (a busy machine may wake them a little late);
            // stopping 100 loops, closing 1000 connections and collecting took 0.8 s more, which
            // the bound still tells apart.
            assertThat(summary.runtimeUs())
                    .isBetween(
                            TimeUnit.MILLISECONDS.toMicros(durationMs),
                            TimeUnit.MILLISECONDS.toMicros(durationMs + 600));
        }
    }
}
