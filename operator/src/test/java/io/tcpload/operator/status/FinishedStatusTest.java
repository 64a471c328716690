package io.tcpload.operator.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.tcpload.operator.crd.Phase;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.operator.crd.TcpLoadTestStatus;
import io.tcpload.operator.results.ResultMerge;
import io.tcpload.operator.validation.Failure;
import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.Histograms;
import io.tcpload.runner.stats.RunInfo;
import io.tcpload.runner.stats.RunSummary;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class FinishedStatusTest {
    private static final Instant START = Instant.parse("2026-01-02T03:04:05Z");
    private static final Instant END = START.plusSeconds(2);
    private static final RunInfo INFO =
            new RunInfo("pay:9000", "profile.ini", 2, 10, 2_000, 5_000, false, 1, "epoll");

    /** A runner's result: {@code responses} at {@code latencyUs} each over 2 s, all successes. */
    private static RunSummary result(long responses, long latencyUs) {
        Histogram latency = Histograms.create();
        latency.recordValueWithCount(latencyUs, responses);
        Histogram connect = Histograms.create();
        Histogram rate = Histograms.create();
        Counts counts = new Counts(responses, responses, 0, 0, 0, 0, 0, responses, responses, 0);
        return new RunSummary(
                INFO, 2_000_000, counts, latency, connect, rate, List.of(), List.of());
    }

    private static TcpLoadTestSpec spec(String... thresholds) {
        TcpLoadTestSpec spec = new TcpLoadTestSpec();
        spec.setRunners(2);
        spec.setThresholds(List.of(thresholds));
        return spec;
    }

    /** Runner {@code i} reports that its load began 3 * i ms after {@link #START}. */
    private static List<RunnerOutcome> reported(RunSummary... results) {
        return java.util.stream.IntStream.range(0, results.length)
                .mapToObj(
                        i ->
                                RunnerOutcome.reported(
                                        i,
                                        Optional.empty(),
                                        startedAt(results[i], START.plusMillis(3L * i)),
                                        START.plusMillis(3L * i)))
                .toList();
    }

    private static RunSummary startedAt(RunSummary result, Instant start) {
        long epochUs = start.getEpochSecond() * 1_000_000 + start.getNano() / 1000;
        return new RunSummary(
                result.info(),
                result.runtimeUs(),
                result.counts(),
                result.latencyUs(),
                result.connectUs(),
                result.requestRate(),
                result.seconds(),
                result.errorMessages(),
                epochUs,
                epochUs,
                result.rate());
    }

    private static Condition condition(TcpLoadTestStatus status, String type) {
        return status.getConditions().stream()
                .filter(c -> c.getType().equals(type))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void everyThresholdHeldMeansSucceededWithFourTrueConditions() {
        RunSummary a = result(1000, 2_000);
        RunSummary b = result(3000, 4_000);
        TcpLoadTestStatus status =
                FinishedStatus.finished(
                        spec("p99 < 10ms", "tps >= 1000"),
                        Optional.of(ResultMerge.merge(List.of(a, b))),
                        reported(a, b),
                        START,
                        END);

        assertThat(status.getPhase()).isEqualTo(Phase.Succeeded);
        assertThat(status.getConditions())
                .extracting(Condition::getType)
                .containsExactly(
                        TcpLoadTestStatus.PROFILE_VALID,
                        TcpLoadTestStatus.RUNNERS_READY,
                        TcpLoadTestStatus.COMPLETED,
                        TcpLoadTestStatus.THRESHOLDS_MET);
        assertThat(status.getConditions()).allMatch(c -> c.getStatus().equals("True"));
        assertThat(status.getConditions())
                .allMatch(c -> c.getLastTransitionTime().equals(END.toString()));
        assertThat(status.getSummary().getRequests()).isEqualTo(4000);
        assertThat(status.getSummary().getTps()).isEqualTo(2000.0);
        assertThat(status.getRunners()).hasSize(2);
        assertThat(status.getRunners().get(1).getRequests()).isEqualTo(3000);
        assertThat(status.getRunners().get(1).getPhase()).isEqualTo("Succeeded");
        assertThat(status.getStartSkewMs()).isEqualTo(3);
        assertThat(status.getStartTime()).isEqualTo(START.toString());
        assertThat(status.getCompletionTime()).isEqualTo(END.toString());
    }

    @Test
    void aMissedThresholdFailsTheTestAndNamesTheMeasuredValue() {
        RunSummary a = result(1000, 2_000);
        RunSummary b = result(1000, 40_000);
        TcpLoadTestStatus status =
                FinishedStatus.finished(
                        spec("p99 < 10ms", "successRatio >= 0.99"),
                        Optional.of(ResultMerge.merge(List.of(a, b))),
                        reported(a, b),
                        START,
                        END);

        assertThat(status.getPhase()).isEqualTo(Phase.Failed);
        Condition met = condition(status, TcpLoadTestStatus.THRESHOLDS_MET);
        assertThat(met.getStatus()).isEqualTo("False");
        assertThat(met.getReason()).isEqualTo(FinishedStatus.REASON_MISSED);
        // Half the responses took 40 ms: the merged p99 is 40 ms, never an average of runners.
        assertThat(met.getMessage()).startsWith("p99 < 10ms: measured 40.");
        assertThat(met.getMessage()).doesNotContain("successRatio");
        assertThat(condition(status, TcpLoadTestStatus.COMPLETED).getStatus()).isEqualTo("True");
    }

    @Test
    void aRunnerWithoutResultFailsTheTestWithoutJudgingThresholds() {
        RunSummary a = result(1000, 2_000);
        List<RunnerOutcome> runners =
                List.of(
                        RunnerOutcome.reported(0, Optional.of("t-runners-0"), a, START),
                        RunnerOutcome.failed(
                                1, Optional.of("t-runners-1"), Optional.empty(), "OOMKilled"));
        TcpLoadTestStatus status =
                FinishedStatus.finished(spec("tps >= 1"), Optional.of(a), runners, START, END);

        assertThat(status.getPhase()).isEqualTo(Phase.Failed);
        Condition completed = condition(status, TcpLoadTestStatus.COMPLETED);
        assertThat(completed.getStatus()).isEqualTo("False");
        assertThat(completed.getReason()).isEqualTo(FinishedStatus.REASON_RUNNER_FAILED);
        assertThat(completed.getMessage()).isEqualTo("runner 1 failed: OOMKilled");
        assertThat(condition(status, TcpLoadTestStatus.THRESHOLDS_MET).getStatus())
                .isEqualTo("Unknown");
        assertThat(status.getRunners().get(1).getPhase()).isEqualTo("Failed");
        assertThat(status.getRunners().get(1).getPod()).isEqualTo("t-runners-1");
        assertThat(status.getRunners().get(1).getMessage()).isEqualTo("OOMKilled");
        assertThat(status.getStartSkewMs()).isNull();
    }

    @Test
    void noThresholdsMeansSucceededWhenEveryRunnerReported() {
        RunSummary a = result(10, 2_000);
        TcpLoadTestStatus status =
                FinishedStatus.finished(spec(), Optional.of(a), reported(a), START, END);
        assertThat(status.getPhase()).isEqualTo(Phase.Succeeded);
        assertThat(condition(status, TcpLoadTestStatus.THRESHOLDS_MET).getMessage())
                .isEqualTo("No thresholds were set.");
    }

    @Test
    void anInvalidSpecFailsWithProfileValidFalseAndTheField() {
        TcpLoadTestStatus status =
                FinishedStatus.invalid(new Failure("spec.connections", "must be at least 4."), END);
        assertThat(status.getPhase()).isEqualTo(Phase.Failed);
        Condition valid = condition(status, TcpLoadTestStatus.PROFILE_VALID);
        assertThat(valid.getStatus()).isEqualTo("False");
        assertThat(valid.getReason()).isEqualTo(FinishedStatus.REASON_INVALID);
        assertThat(valid.getMessage()).isEqualTo("spec.connections: must be at least 4.");
        assertThat(status.getSummary()).isNull();
    }
}
