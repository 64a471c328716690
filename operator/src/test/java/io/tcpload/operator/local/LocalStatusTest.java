package io.tcpload.operator.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.fabric8.kubernetes.api.model.Condition;
import io.tcpload.operator.children.Specs;
import io.tcpload.operator.crd.Phase;
import io.tcpload.operator.crd.TcpLoadTest;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.operator.crd.TcpLoadTestStatus;
import io.tcpload.operator.status.StatusComputer;
import io.tcpload.operator.validation.Failure;
import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.CountsBuilder;
import io.tcpload.runner.stats.Histograms;
import io.tcpload.runner.stats.RunBuilder;
import io.tcpload.runner.stats.RunInfo;
import io.tcpload.runner.stats.RunSummary;
import java.time.Instant;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * A local run's status comes from the operator's state machine, driven through its steps with the
 * in-process runners shown as pods: the same phase, conditions, merged summary and runner rows.
 */
class LocalStatusTest {
    private static final Instant T0 = Instant.parse("2026-01-02T03:04:05Z");
    private static final Instant START = T0.plus(StatusComputer.START_LEAD);
    private static final Instant END = START.plusSeconds(2);
    private static final RunInfo INFO =
            new RunInfo("pay:9000", "profile.ini", 2, 10, 2_000, 5_000, false, 1, "epoll");

    /**
     * A runner's result: {@code responses} at {@code latencyUs} each over 2 s, all successes, its
     * load begun {@code startOffsetMs} after the start instant.
     */
    private static RunSummary result(long responses, long latencyUs, long startOffsetMs) {
        Histogram latency = Histograms.create();
        latency.recordValueWithCount(latencyUs, responses);
        Counts counts =
                CountsBuilder.counts()
                        .successes(responses)
                        .bytesRead(responses)
                        .bytesWritten(responses)
                        .build();
        return RunBuilder.aRun()
                .info(INFO)
                .runtimeUs(2_000_000)
                .counts(counts)
                .latencyUs(latency)
                .startedAtEpochUs((START.toEpochMilli() + startOffsetMs) * 1_000)
                .build();
    }

    private static TcpLoadTest test(String... thresholds) {
        TcpLoadTestSpec spec = Specs.valid();
        spec.setRunners(2);
        spec.setConnections(4);
        spec.setDuration("2s");
        spec.setThresholds(List.of(thresholds));
        return Specs.test("pay", spec);
    }

    /** Drives a valid test to its start and then to its end with {@code outcomes}. */
    private static TcpLoadTestStatus run(TcpLoadTest test, RunnerOutcome... outcomes) {
        LocalStatus status = new LocalStatus(test, test.getSpec());
        status.accepted(T0);
        assertThat(status.allReady(T0)).isEqualTo(START.toEpochMilli());
        return status.ended(List.of(outcomes), END);
    }

    private static Condition condition(TcpLoadTestStatus status, String type) {
        return status.getConditions().stream()
                .filter(c -> c.getType().equals(type))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void startingRecordsTheStartInstantJustAheadAndRuns() {
        TcpLoadTest test = test();
        LocalStatus status = new LocalStatus(test, test.getSpec());

        TcpLoadTestStatus accepted = status.accepted(T0);
        assertThat(accepted.getPhase()).isEqualTo(Phase.Starting);
        assertThat(condition(accepted, TcpLoadTestStatus.RUNNERS_READY).getStatus())
                .isEqualTo("False");

        long startAtMs = status.allReady(T0.plusMillis(40));
        assertThat(startAtMs)
                .isEqualTo(T0.plusMillis(40).plus(StatusComputer.START_LEAD).toEpochMilli());
    }

    @Test
    void everyThresholdHeldMeansSucceededWithEveryConditionTrue() {
        TcpLoadTestStatus status =
                run(
                        test("p99 < 10ms", "tps >= 1000"),
                        RunnerOutcome.reported(0, result(1000, 2_000, 0)),
                        RunnerOutcome.reported(1, result(3000, 4_000, 3)));

        assertThat(status.getPhase()).isEqualTo(Phase.Succeeded);
        assertThat(status.getConditions())
                .extracting(Condition::getType)
                .containsExactlyInAnyOrder(
                        TcpLoadTestStatus.PROFILE_VALID,
                        TcpLoadTestStatus.SPEC_ACCEPTED,
                        TcpLoadTestStatus.RUNNERS_READY,
                        TcpLoadTestStatus.COMPLETED,
                        StatusComputer.RECONCILING,
                        StatusComputer.STALLED,
                        StatusComputer.READY,
                        TcpLoadTestStatus.THRESHOLDS_MET);
        // Stalled and Reconciling are False on success; every other condition holds.
        assertThat(status.getConditions())
                .allMatch(
                        c ->
                                c.getStatus()
                                        .equals(
                                                List.of("Stalled", "Reconciling")
                                                                .contains(c.getType())
                                                        ? "False"
                                                        : "True"));
        assertThat(condition(status, TcpLoadTestStatus.THRESHOLDS_MET).getMessage())
                .isEqualTo("Every threshold held: p99 < 10ms, tps >= 1000.");
        assertThat(status.getSummary().getRequests()).isEqualTo(4000);
        assertThat(status.getSummary().getTps()).isEqualTo(2000.0);
        assertThat(status.getRunners()).hasSize(2);
        assertThat(status.getRunners().get(1).getRequests()).isEqualTo(3000);
        assertThat(status.getRunners().get(1).getPhase()).isEqualTo("Succeeded");
        assertThat(status.getRunners().get(1).getPod()).isNull();
        assertThat(status.getStartSkewMs()).isEqualTo(3);
        assertThat(status.getStartTime()).isEqualTo(START.toString());
        assertThat(status.getCompletionTime()).isEqualTo(END.toString());
    }

    @Test
    void aMissedThresholdFailsTheTestAndNamesTheMergedValue() {
        TcpLoadTestStatus status =
                run(
                        test("p99 < 10ms", "successRatio >= 0.99"),
                        RunnerOutcome.reported(0, result(1000, 2_000, 0)),
                        RunnerOutcome.reported(1, result(1000, 40_000, 0)));

        assertThat(status.getPhase()).isEqualTo(Phase.Failed);
        Condition met = condition(status, TcpLoadTestStatus.THRESHOLDS_MET);
        assertThat(met.getStatus()).isEqualTo("False");
        assertThat(met.getReason()).isEqualTo("ThresholdsMissed");
        // Half the responses took 40 ms: the merged p99 is 40 ms, never an average of runners.
        assertThat(met.getMessage()).startsWith("Thresholds missed: p99 < 10ms: measured 40.");
        assertThat(met.getMessage()).doesNotContain("successRatio");
        assertThat(condition(status, TcpLoadTestStatus.COMPLETED).getStatus()).isEqualTo("True");
    }

    @Test
    void aRunnerWithoutResultFailsTheTestByIndexWithoutJudgingThresholds() {
        TcpLoadTestStatus status =
                run(
                        test("tps >= 1"),
                        RunnerOutcome.reported(0, result(1000, 2_000, 0)),
                        RunnerOutcome.failed(1, "exit status 1: out of memory"));

        assertThat(status.getPhase()).isEqualTo(Phase.Failed);
        Condition completed = condition(status, TcpLoadTestStatus.COMPLETED);
        assertThat(completed.getStatus()).isEqualTo("False");
        assertThat(completed.getReason()).isEqualTo("RunnerFailed");
        assertThat(completed.getMessage())
                .isEqualTo(
                        "Incomplete result: 1 of 2 runners whole; runner 1 lost at 2 s: exit"
                                + " status 1: out of memory.");
        assertThat(status.getConditions())
                .extracting(Condition::getType)
                .doesNotContain(TcpLoadTestStatus.THRESHOLDS_MET);
        assertThat(status.getSummary().getRequests()).isEqualTo(1000);
        assertThat(status.getRunners().get(1).getPhase()).isEqualTo("Failed");
        assertThat(status.getRunners().get(1).getPod()).isNull();
        assertThat(status.getRunners().get(1).getMessage())
                .isEqualTo("exit status 1: out of memory");
    }

    @Test
    void noRunnerReportingFailsTheTestWithNoSummary() {
        TcpLoadTestStatus status =
                run(
                        test(),
                        RunnerOutcome.failed(0, "did not stop in time"),
                        RunnerOutcome.failed(1, "did not stop in time"));

        assertThat(status.getPhase()).isEqualTo(Phase.Failed);
        assertThat(status.getSummary()).isNull();
        assertThat(status.getMessage())
                .startsWith(
                        "No runner reported a result: 0 of 2 runners whole; 2 runners (0, 1) lost")
                .endsWith("did not stop in time.");
    }

    @Test
    void noThresholdsMeansSucceededWhenEveryRunnerReported() {
        TcpLoadTestStatus status =
                run(
                        test(),
                        RunnerOutcome.reported(0, result(10, 2_000, 0)),
                        RunnerOutcome.reported(1, result(10, 2_000, 0)));

        assertThat(status.getPhase()).isEqualTo(Phase.Succeeded);
        assertThat(condition(status, TcpLoadTestStatus.THRESHOLDS_MET).getMessage())
                .isEqualTo("Every runner reported; no thresholds were set.");
    }

    @Test
    void anInvalidSpecFailsWithProfileValidFalseAndTheField() {
        TcpLoadTestStatus status =
                LocalStatus.invalid(
                        test(), new Failure("spec.connections", "must be at least 4."), END);

        assertThat(status.getPhase()).isEqualTo(Phase.Failed);
        Condition valid = condition(status, TcpLoadTestStatus.PROFILE_VALID);
        assertThat(valid.getStatus()).isEqualTo("False");
        assertThat(valid.getReason()).isEqualTo("InvalidSpec");
        assertThat(valid.getMessage()).isEqualTo("spec.connections: must be at least 4.");
        assertThat(status.getSummary()).isNull();
        assertThat(status.getRunners()).isNullOrEmpty();
        assertThat(status.getCompletionTime()).isEqualTo(END.toString());
    }

    @Test
    void anInterruptedRunIsFailedPartialAndUnjudgedInEveryCondition() {
        TcpLoadTest test = test("p99 < 10ms", "tps >= 1");
        LocalStatus machine = new LocalStatus(test, test.getSpec());
        machine.accepted(T0);
        machine.allReady(T0);
        Instant stoppedAt = START.plusMillis(900);

        TcpLoadTestStatus status =
                machine.interrupted(
                        List.of(
                                RunnerOutcome.reported(0, result(1000, 2_000, 0)),
                                RunnerOutcome.reported(1, result(1000, 2_000, 0))),
                        stoppedAt,
                        "SIGINT");

        assertThat(status.getPhase()).isEqualTo(Phase.Failed);
        assertThat(status.getMessage()).startsWith("Interrupted by SIGINT: ");
        Condition completed = condition(status, TcpLoadTestStatus.COMPLETED);
        assertThat(completed.getStatus()).isEqualTo("False");
        assertThat(completed.getReason()).isEqualTo(LocalStatus.INTERRUPTED);
        // Thresholds are not judged on an incomplete result, though both would have held.
        assertThat(status.getConditions())
                .extracting(Condition::getType)
                .doesNotContain(TcpLoadTestStatus.THRESHOLDS_MET);
        Condition ready = condition(status, StatusComputer.READY);
        assertThat(ready.getStatus()).isEqualTo("False");
        assertThat(ready.getMessage()).isEqualTo(status.getMessage());
        Condition stalled = condition(status, StatusComputer.STALLED);
        assertThat(stalled.getStatus()).isEqualTo("True");
        assertThat(stalled.getReason()).isEqualTo(LocalStatus.INTERRUPTED);
        assertThat(condition(status, StatusComputer.RECONCILING).getStatus()).isEqualTo("False");
        assertThat(status.getConditions())
                .noneMatch(c -> c.getReason().equals("Succeeded"))
                .noneMatch(c -> c.getMessage().contains("threshold"));
        assertThat(status.getRunners())
                .allSatisfy(
                        row -> {
                            assertThat(row.getPartial()).isTrue();
                            assertThat(row.getPhase()).isEqualTo("Failed");
                            assertThat(row.getMessage()).isEqualTo("stopped by SIGINT after 2.0 s");
                        });
        assertThat(status.getSummary().getRequests()).isEqualTo(2000);
        assertThat(status.getSummary().getCoverage()).startsWith("0 of 2 runners whole, 2 partial");
        assertThat(status.getStartTime()).isEqualTo(START.toString());
        assertThat(status.getCompletionTime()).isEqualTo(stoppedAt.toString());
    }

    @Test
    void aRunInterruptedBeforeItsStartHasNoStartTimeAfterItsCompletion() {
        TcpLoadTest test = test();
        LocalStatus machine = new LocalStatus(test, test.getSpec());
        machine.accepted(T0);
        machine.allReady(T0);
        Instant stoppedAt = START.minusMillis(300);

        TcpLoadTestStatus status =
                machine.interrupted(
                        List.of(
                                RunnerOutcome.failed(0, "stopped before the start"),
                                RunnerOutcome.failed(1, "stopped before the start")),
                        stoppedAt,
                        "SIGTERM");

        assertThat(status.getPhase()).isEqualTo(Phase.Failed);
        assertThat(status.getStartTime()).isNull();
        assertThat(status.getCompletionTime()).isEqualTo(stoppedAt.toString());
        assertThat(status.getMessage()).startsWith("Interrupted by SIGTERM before the start");
        assertThat(condition(status, TcpLoadTestStatus.COMPLETED).getReason())
                .isEqualTo(LocalStatus.INTERRUPTED);
        assertThat(condition(status, StatusComputer.READY).getStatus()).isEqualTo("False");
    }

    @Test
    void aRunInterruptedWhileSetUpIsFailedWithNoRunnersNoStartAndNoSummary() {
        TcpLoadTest test = test("p99 < 10ms");

        TcpLoadTestStatus status =
                new LocalStatus(test, test.getSpec()).interruptedBeforeRunners(T0, "SIGINT");

        assertThat(status.getPhase()).isEqualTo(Phase.Failed);
        assertThat(status.getMessage())
                .isEqualTo(
                        "Interrupted by SIGINT before the runners started: none ran and nothing"
                                + " was sent.");
        assertThat(condition(status, TcpLoadTestStatus.COMPLETED).getReason())
                .isEqualTo(LocalStatus.INTERRUPTED);
        assertThat(condition(status, StatusComputer.STALLED).getStatus()).isEqualTo("True");
        assertThat(condition(status, StatusComputer.READY).getStatus()).isEqualTo("False");
        assertThat(status.getConditions())
                .extracting(Condition::getType)
                .doesNotContain(TcpLoadTestStatus.THRESHOLDS_MET);
        assertThat(status.getRunners()).isEmpty();
        assertThat(status.getSummary()).isNull();
        assertThat(status.getStartTime()).isNull();
        assertThat(status.getCompletionTime()).isEqualTo(T0.toString());
    }

    @Test
    void aRunInterruptedBeforeItsTestWasValidatedSaysOnlyThat() {
        TcpLoadTestStatus status = LocalStatus.interruptedBeforeValidation(T0, "SIGTERM");

        assertThat(status.getPhase()).isEqualTo(Phase.Failed);
        assertThat(status.getMessage())
                .startsWith("Interrupted by SIGTERM before the runners started, while the test");
        assertThat(status.getConditions())
                .extracting(Condition::getType, Condition::getStatus, Condition::getReason)
                .containsExactly(
                        tuple(StatusComputer.RECONCILING, "False", "Failed"),
                        tuple(StatusComputer.STALLED, "True", LocalStatus.INTERRUPTED),
                        tuple(StatusComputer.READY, "False", "Failed"),
                        tuple(TcpLoadTestStatus.COMPLETED, "False", LocalStatus.INTERRUPTED));
        // Nothing was validated, so nothing says the test is valid.
        assertThat(status.getConditions())
                .extracting(Condition::getType)
                .doesNotContain(TcpLoadTestStatus.PROFILE_VALID);
    }
}
