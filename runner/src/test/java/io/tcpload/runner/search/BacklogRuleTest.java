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
 * The backlog rule against a real queue: one worker of 5 ms (200 a second) loaded at a rate above
 * its budget answers each request well within a loose objective, yet its queue grows; the step is
 * judged over capacity by the backlog alone. Well below the budget the same step holds.
 *
 * <p>The rates keep clear of the capacity on both sides, so that a busy machine cannot turn the
 * verdicts: at 90% of it, a load generator that stalls for a quarter of a second leaves a queue
 * that the spare tenth drains only over seconds, and the control step fails for the machine, not
 * for the rule.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BacklogRuleTest {
    private static final SearchSpec SPEC =
            new SearchSpec(Slo.parse("p99 < 3s"), 100, 400, 4_000, 500, 0.02, 64);

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
        List<RunSummary> results = steps(100, 260);
        assertThat(results).hasSize(2);

        StepFigures below = StepFigures.of(results.get(0), 100);
        assertThat(Verdict.judge(SPEC, below).held()).as(below.toString()).isTrue();

        StepFigures above = StepFigures.of(results.get(1), 260);
        Verdict verdict = Verdict.judge(SPEC, above);
        // Sixty more a second than it serves: over the 4.5 s of the step the queue grows to some
        // 270 requests, 1.4 s of waiting, so the latency holds below 3 s while the queue grows.
        assertThat(SPEC.slo().misses(above.figures(), above.counts())).isEmpty();
        assertThat(verdict.held()).isFalse();
        assertThat(verdict.describe()).contains("backlog grew from");
        assertThat(above.backlogGrowth()).isGreaterThan(20);
    }
}
