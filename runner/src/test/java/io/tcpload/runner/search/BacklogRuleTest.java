package io.tcpload.runner.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.client.LoadConfig;
import io.tcpload.runner.client.LoadEngine;
import io.tcpload.runner.client.ProgressListener;
import io.tcpload.runner.client.RunControl;
import io.tcpload.runner.client.StartGate;
import io.tcpload.runner.client.StepOrder;
import io.tcpload.runner.client.TargetResolver;
import io.tcpload.runner.client.Transport;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.Target;
import io.tcpload.runner.rate.RateSchedule;
import io.tcpload.runner.serve.DemoServer;
import io.tcpload.runner.serve.ServeOptions;
import io.tcpload.runner.slo.Slo;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.template.RequestMix;
import io.tcpload.runner.template.RunnerSlice;
import io.tcpload.runner.testing.Corpus;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The backlog rule against a real queue: one worker of 5 ms (200 a second) loaded at a rate just
 * above its budget answers each request well within a loose objective, yet its queue grows; the
 * step is judged over capacity by the backlog alone. Below the budget the same step holds.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BacklogRuleTest {
    private static final SearchSpec SPEC =
            new SearchSpec(Slo.parse("p99 < 2s"), 100, 400, 4_000, 500, 0.02, 64);

    /** Two steps on one set of open connections: each step's own result. */
    private static List<RunSummary> steps(double... rates) throws Exception {
        Profile profile = Corpus.profile("01_tiny", 1).withKeepAlive(true);
        try (DemoServer server =
                DemoServer.start(profile, ServeOptions.defaults().withWorkers(1, 5))) {
            Profile local = profile.withTarget(new Target("127.0.0.1", server.port()));
            LoadConfig config =
                    new LoadConfig(
                            1,
                            64,
                            SPEC.stepMs(),
                            5_000,
                            true,
                            1,
                            0,
                            1,
                            RateSchedule.constant(rates[0], SPEC.stepMs()),
                            false,
                            0);
            LoadEngine engine =
                    new LoadEngine(
                            local,
                            config,
                            RequestMix.compile(local, RunnerSlice.SINGLE, name -> null),
                            Transport.select("auto"));
            int[] next = {0};
            return engine.runSteps(
                    "127.0.0.1",
                    server.port(),
                    TargetResolver.system(),
                    ProgressListener.NONE,
                    new RunControl(),
                    StartGate.immediate(),
                    previous ->
                            next[0] < rates.length
                                    ? Optional.of(
                                            new StepOrder(
                                                    next[0] + 1,
                                                    rates[next[0]++],
                                                    SPEC.warmupMs(),
                                                    SPEC.stepMs()))
                                    : Optional.empty());
        }
    }

    @Test
    void aQueueThatGrowsIsOverCapacityThoughItsLatencyHolds() throws Exception {
        List<RunSummary> results = steps(180, 220);
        assertThat(results).hasSize(2);

        StepFigures below = StepFigures.of(results.get(0), 180);
        assertThat(Verdict.judge(SPEC, below).held()).as(below.toString()).isTrue();

        StepFigures above = StepFigures.of(results.get(1), 220);
        Verdict verdict = Verdict.judge(SPEC, above);
        // Twenty more a second than it serves: the latency stays far below 2 s, the queue grows.
        assertThat(SPEC.slo().misses(above.figures())).isEmpty();
        assertThat(verdict.held()).isFalse();
        assertThat(verdict.describe()).contains("backlog grew from");
        assertThat(above.backlogGrowth()).isGreaterThan(20);
    }
}
