package io.tcpload.operator.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.tcpload.operator.children.Specs;
import io.tcpload.operator.crd.Phase;
import io.tcpload.operator.crd.RunnerStatus;
import io.tcpload.operator.crd.TcpLoadTest;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.operator.crd.TcpLoadTestStatus;
import io.tcpload.operator.validation.Failure;
import io.tcpload.runner.contract.RunnerProtocol;
import io.tcpload.runner.contract.Stopped;
import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.Histograms;
import io.tcpload.runner.stats.RunBuilder;
import io.tcpload.runner.stats.RunInfo;
import io.tcpload.runner.stats.RunSummary;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The test's state machine, step by step, with no cluster and no runner. */
class StatusComputerTest {
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    private static final RunnerProbe READY = RunnerProbe.inState(RunnerProbe.State.READY);

    private static TcpLoadTest test(int runners) {
        TcpLoadTestSpec spec = Specs.valid();
        spec.setRunners(runners);
        spec.setConnections(runners * 2);
        spec.setDuration("2s");
        spec.setStartTimeoutSeconds(30);
        return Specs.test("pay", spec);
    }

    private static Observation seen(
            TcpLoadTest test,
            Map<Integer, RunnerPod> pods,
            Map<Integer, RunnerProbe> probes,
            Map<Integer, RunSummary> results,
            Instant now) {
        return new Observation(
                test, test.getSpec(), Optional.empty(), true, pods, probes, results, now);
    }

    private static TcpLoadTest after(TcpLoadTest test, Decision decision) {
        test.setStatus(decision.status());
        return test;
    }

    private static RunnerPod running(int index) {
        return new RunnerPod(
                index, "pay-runners-" + index + "-abcde", "Running", "10.0.0." + (index + 2), null);
    }

    private static Condition condition(TcpLoadTestStatus status, String type) {
        return status.getConditions().stream()
                .filter(c -> c.getType().equals(type))
                .findFirst()
                .orElseThrow();
    }

    private static RunSummary result(long requests, long latencyUs, long startEpochUs) {
        Histogram latency = Histograms.create();
        latency.recordValueWithCount(latencyUs, requests);
        return RunBuilder.aRun()
                .info(
                        new RunInfo(
                                "127.0.0.1:1", "profile.ini", 2, 2, 2_000, 5_000, false, 1, "nio"))
                .runtimeUs(2_000_000)
                .counts(
                        new Counts(
                                requests, requests, 0, 0, 0, 0, 0, requests * 10, requests * 10, 0))
                .latencyUs(latency)
                .startedAtEpochUs(startEpochUs)
                .build();
    }

    /** A test of {@code runners} that has been started at T0 (start instant T0 + 500 ms). */
    private static TcpLoadTest runningTest(int runners) {
        TcpLoadTest test = test(runners);
        Decision pending = StatusComputer.next(seen(test, Map.of(), Map.of(), Map.of(), T0));
        Map<Integer, RunnerPod> pods = new java.util.HashMap<>();
        Map<Integer, RunnerProbe> probes = new java.util.HashMap<>();
        for (int i = 0; i < runners; i++) {
            pods.put(i, running(i));
            probes.put(i, READY);
        }
        Decision ready =
                StatusComputer.next(seen(after(test, pending), pods, probes, Map.of(), T0));
        Decision told = StatusComputer.next(seen(after(test, ready), pods, probes, Map.of(), T0));
        return after(test, told);
    }

    @Test
    void anInvalidSpecFailsAtOnceWithTheValidatorsMessageAndCreatesNothing() {
        TcpLoadTest test = test(1);
        Failure failure = new Failure("spec.profile", "line 3: req_len_len: not a number");
        Decision decision =
                StatusComputer.next(
                        new Observation(
                                test,
                                test.getSpec(),
                                Optional.of(failure),
                                false,
                                Map.of(),
                                Map.of(),
                                Map.of(),
                                T0));

        assertThat(decision.status().getPhase()).isEqualTo(Phase.Failed);
        assertThat(decision.createChildren()).isFalse();
        Condition valid = condition(decision.status(), TcpLoadTestStatus.PROFILE_VALID);
        assertThat(valid.getStatus()).isEqualTo("False");
        assertThat(valid.getMessage()).isEqualTo("spec.profile: line 3: req_len_len: not a number");
        assertThat(decision.events())
                .extracting(Event::reason)
                .containsExactly(EventReason.InvalidSpec);
    }

    @Test
    void aRunnerOfAnotherProtocolFailsTheTestAtOnceNamingBothVersions() {
        TcpLoadTest test = test(2);
        Decision pending = StatusComputer.next(seen(test, Map.of(), Map.of(), Map.of(), T0));
        RunnerProbe older =
                new RunnerProbe(
                        RunnerProbe.State.READY, 0, "tcpload-runner 0.0.9", 0, 0, 0, 0, 0, 0, 0, 0);

        Decision decision =
                StatusComputer.next(
                        seen(
                                after(test, pending),
                                Map.of(0, running(0), 1, running(1)),
                                Map.of(0, READY, 1, older),
                                Map.of(),
                                T0.plusSeconds(1)));

        assertThat(decision.status().getPhase()).isEqualTo(Phase.Failed);
        assertThat(decision.status().getStartAtMs()).isNull();
        assertThat(decision.deleteChildren()).isTrue();
        assertThat(decision.status().getMessage())
                .contains(
                        "Runner 1 (pod pay-runners-1-abcde)",
                        "tcpload-runner 0.0.9",
                        "protocol 0",
                        StatusComputer.OPERATOR_VERSION,
                        "protocol " + RunnerProtocol.VERSION);
        assertThat(decision.events())
                .extracting(Event::reason)
                .containsExactly(EventReason.RunnerIncompatible);
    }

    @Test
    void aValidSpecCreatesTheRunnersAndStartsThemAtOneInstantOnceAllAreReady() {
        TcpLoadTest test = test(2);
        Decision pending = StatusComputer.next(seen(test, Map.of(), Map.of(), Map.of(), T0));
        assertThat(pending.createChildren()).isTrue();
        assertThat(pending.status().getPhase()).isEqualTo(Phase.Starting);

        Decision oneReady =
                StatusComputer.next(
                        seen(
                                after(test, pending),
                                Map.of(0, running(0)),
                                Map.of(0, READY),
                                Map.of(),
                                T0.plusSeconds(1)));
        assertThat(oneReady.status().getMessage()).isEqualTo("1 of 2 runners ready.");
        assertThat(oneReady.startAtMs()).isEmpty();

        Map<Integer, RunnerPod> pods = Map.of(0, running(0), 1, running(1));
        Map<Integer, RunnerProbe> probes = Map.of(0, READY, 1, READY);
        Decision allReady =
                StatusComputer.next(
                        seen(after(test, oneReady), pods, probes, Map.of(), T0.plusSeconds(2)));
        long startAtMs = T0.plusSeconds(2).plus(StatusComputer.START_LEAD).toEpochMilli();
        assertThat(allReady.status().getStartAtMs()).isEqualTo(startAtMs);
        assertThat(allReady.startAtMs()).as("recorded before it is told").isEmpty();
        assertThat(allReady.writeFirst()).as("written at once, then told").isTrue();

        Decision told =
                StatusComputer.next(
                        seen(after(test, allReady), pods, probes, Map.of(), T0.plusSeconds(2)));
        assertThat(told.startAtMs()).hasValue(startAtMs);
        assertThat(told.status().getPhase()).isEqualTo(Phase.Running);
        assertThat(told.writeFirst()).isFalse();
    }

    @Test
    void aRunnerToldAnInstantTheStatusLacksFailsTheTestBeforeAnythingIsDone() {
        TcpLoadTest test = test(2);
        Decision pending = StatusComputer.next(seen(test, Map.of(), Map.of(), Map.of(), T0));
        long toldMs = T0.plusMillis(1_500).toEpochMilli();
        RunnerProbe told = RunnerProbe.inState(RunnerProbe.State.READY).withStartAtEpochMs(toldMs);

        // A runner knows an instant this status lacks: a stranger's, or this copy is stale. The
        // operator follows neither; the failure is written first, over the version read, so a
        // stale copy's is refused and does nothing.
        Decision decision =
                StatusComputer.next(
                        seen(
                                after(test, pending),
                                Map.of(0, running(0), 1, running(1)),
                                Map.of(0, told, 1, told),
                                Map.of(),
                                T0.plusSeconds(1)));

        assertThat(decision.status().getStartAtMs()).as("never adopted").isNull();
        assertThat(decision.startAtMs()).isEmpty();
        assertThat(decision.writeFirst()).isTrue();
        assertThat(decision.status().getPhase()).isEqualTo(Phase.Failed);
        assertThat(decision.status().getMessage())
                .contains("was told to start at")
                .contains("before this test recorded any start instant");
        assertThat(decision.events())
                .extracting(Event::reason)
                .containsExactly(EventReason.StartInstantMismatch);
    }

    @Test
    void aRunnerToldAnotherInstantThanTheRecordedOneFailsTheTest() {
        TcpLoadTest test = runningTest(2);
        long recorded = test.getStatus().getStartAtMs();
        RunnerProbe other =
                RunnerProbe.inState(RunnerProbe.State.RUNNING).withStartAtEpochMs(recorded + 1);
        RunnerProbe same =
                RunnerProbe.inState(RunnerProbe.State.RUNNING).withStartAtEpochMs(recorded);

        Decision decision =
                StatusComputer.next(
                        seen(
                                test,
                                Map.of(0, running(0), 1, running(1)),
                                Map.of(0, same, 1, other),
                                Map.of(),
                                T0.plusSeconds(2)));

        assertThat(decision.status().getPhase()).isEqualTo(Phase.Failed);
        assertThat(decision.status().getMessage())
                .startsWith("Runner 1")
                .contains("not at this test's start instant");
        assertThat(decision.writeFirst()).isTrue();
    }

    @Test
    void theLargestClockOffsetIsShownAndTheSkewIsOnTheOperatorsClock() {
        TcpLoadTest test = runningTest(2);
        long recorded = test.getStatus().getStartAtMs();
        RunnerProbe onTime =
                RunnerProbe.inState(RunnerProbe.State.RUNNING)
                        .withStartAtEpochMs(recorded)
                        .withEstimatedOffsetUs(-2_000);
        RunnerProbe ahead =
                RunnerProbe.inState(RunnerProbe.State.WAITING).withEstimatedOffsetUs(50_250);

        Decision decision =
                StatusComputer.next(
                        seen(
                                test,
                                Map.of(0, running(0), 1, running(1)),
                                Map.of(0, onTime, 1, ahead),
                                Map.of(),
                                T0.plusSeconds(2)));

        assertThat(decision.status().getMaxClockOffsetMs()).isEqualTo(50.25);
    }

    @Test
    void runnersNotReadyByTheDeadlineFailTheTestWithEachPodsReason() {
        TcpLoadTest test = test(2);
        Decision pending = StatusComputer.next(seen(test, Map.of(), Map.of(), Map.of(), T0));
        RunnerPod pulling =
                new RunnerPod(
                        1,
                        "pay-runners-1-xyz",
                        "Pending",
                        null,
                        "ImagePullBackOff: back-off pulling image");

        Decision late =
                StatusComputer.next(
                        seen(
                                after(test, pending),
                                Map.of(0, running(0), 1, pulling),
                                Map.of(0, READY),
                                Map.of(),
                                T0.plusSeconds(31)));

        assertThat(late.status().getPhase()).isEqualTo(Phase.Failed);
        assertThat(late.deleteChildren()).isTrue();
        assertThat(late.status().getMessage())
                .isEqualTo(
                        "1 of 2 runners were not ready within 30 s: runner 1 (pod pay-runners-1-xyz): ImagePullBackOff: back-off pulling image.");
        assertThat(late.events())
                .extracting(Event::reason)
                .containsExactly(EventReason.StartTimeout);
    }

    @Test
    void whileRunningTheSummaryShowsLiveCountsAndEveryRunnersRow() {
        TcpLoadTest test = runningTest(2);
        RunnerProbe a =
                new RunnerProbe(
                        RunnerProbe.State.RUNNING,
                        RunnerProtocol.VERSION,
                        "",
                        0,
                        1,
                        100,
                        99,
                        1,
                        0,
                        50,
                        2_000);
        RunnerProbe b =
                new RunnerProbe(
                        RunnerProbe.State.RUNNING,
                        RunnerProtocol.VERSION,
                        "",
                        0,
                        2,
                        300,
                        300,
                        0,
                        0,
                        150,
                        3_000);

        Decision decision =
                StatusComputer.next(
                        seen(
                                test,
                                Map.of(0, running(0), 1, running(1)),
                                Map.of(0, a, 1, b),
                                Map.of(),
                                T0.plusSeconds(2)));

        assertThat(decision.status().getSummary().getRequests()).isEqualTo(400);
        assertThat(decision.status().getSummary().getTps()).isEqualTo(200.0);
        assertThat(decision.status().getSummary().getLatency().getP99Ms()).isEqualTo(3.0);
        assertThat(decision.status().getRunners())
                .extracting(r -> r.getRequests())
                .containsExactly(100L, 300L);
        assertThat(decision.requeue()).hasValue(StatusComputer.POLL);
    }

    @Test
    void whenEveryRunnerReportedTheResultsAreMergedAndThresholdsDecide() {
        TcpLoadTest test = runningTest(2);
        test.getSpec().setThresholds(List.of("p99 < 5ms", "tps >= 1"));
        Map<Integer, RunSummary> results =
                Map.of(0, result(100, 1_000, 1_000_000), 1, result(100, 9_000, 1_012_000));

        Decision decision =
                StatusComputer.next(
                        seen(
                                test,
                                Map.of(0, running(0), 1, running(1)),
                                Map.of(),
                                results,
                                T0.plusSeconds(3)));

        assertThat(decision.status().getPhase()).isEqualTo(Phase.Failed);
        assertThat(decision.status().getSummary().getRequests()).isEqualTo(200);
        assertThat(decision.status().getStartSkewMs()).isEqualTo(12);
        assertThat(decision.finishRunners()).isTrue();
        Condition met = condition(decision.status(), TcpLoadTestStatus.THRESHOLDS_MET);
        assertThat(met.getStatus()).isEqualTo("False");
        assertThat(met.getMessage()).startsWith("Thresholds missed: p99 < 5ms: measured 9.");
        assertThat(met.getMessage()).doesNotContain("tps");
        assertThat(decision.events())
                .extracting(Event::reason)
                .containsExactly(EventReason.ThresholdsMissed);
    }

    @Test
    void aRunnerStoppedBySigtermCountsItsPartialResultAndTheTestSaysItIsIncomplete() {
        TcpLoadTest test = runningTest(2);
        RunnerPod evicted =
                new RunnerPod(
                        1,
                        "pay-runners-1-abc",
                        "Running",
                        "10.0.0.3",
                        null,
                        "EvictionByEvictionAPI",
                        null);
        Map<Integer, RunnerPod> pods = Map.of(0, running(0), 1, evicted);

        // Told to go and not yet sealed: its result is awaited, and soon.
        Decision waiting =
                StatusComputer.next(
                        seen(
                                test,
                                pods,
                                Map.of(),
                                Map.of(0, result(100, 1_000, 1)),
                                T0.plusMillis(1_500)));
        assertThat(waiting.status().getPhase()).isEqualTo(Phase.Running);
        assertThat(waiting.requeue()).contains(StatusComputer.TERMINATING_POLL);

        Decision decision =
                StatusComputer.next(
                        new Observation(
                                after(test, waiting),
                                test.getSpec(),
                                Optional.empty(),
                                true,
                                false,
                                List.of(),
                                pods,
                                Map.of(),
                                Map.of(0, result(100, 1_000, 1), 1, result(40, 2_000, 1)),
                                T0.plusSeconds(2),
                                Map.of(1, new Stopped("SIGTERM", 1_200))));

        TcpLoadTestStatus status = decision.status();
        assertThat(status.getPhase()).isEqualTo(Phase.Failed);
        assertThat(status.getSummary().getRequests()).as("every figure merged").isEqualTo(140);
        assertThat(status.getSummary().getCoverage())
                .isEqualTo(
                        "1 of 2 runners whole, 1 partial; runner 1 (pod pay-runners-1-abc)"
                                + " stopped by SIGTERM after 1.2 s (EvictionByEvictionAPI): partial");
        assertThat(status.getMessage()).startsWith("Incomplete result: 1 of 2 runners whole");
        assertThat(condition(status, TcpLoadTestStatus.COMPLETED).getReason())
                .isEqualTo("PartialResult");
        assertThat(status.getRunners().get(1).getPartial()).isTrue();
        assertThat(status.getRunners().get(0).getPartial()).isNull();
        assertThat(decision.finishRunners()).isTrue();
    }

    @Test
    void aRunnerUnreachablePastTheBoundIsLostAndTheOthersFiguresStillCount() {
        TcpLoadTest test = runningTest(2);
        Map<Integer, RunnerPod> pods = Map.of(0, running(0), 1, running(1));
        Map<Integer, RunnerProbe> probes = Map.of(1, RunnerProbe.UNREACHABLE);
        Map<Integer, RunSummary> results = Map.of(0, result(100, 1_000, 1));
        Instant cut = T0.plusSeconds(1);

        Decision first = StatusComputer.next(seen(test, pods, probes, results, cut));
        assertThat(first.status().getPhase()).isEqualTo(Phase.Running);
        assertThat(first.status().getRunners().get(1).getUnreachableSince())
                .isEqualTo(cut.toString());

        Decision later =
                StatusComputer.next(
                        seen(
                                after(test, first),
                                pods,
                                probes,
                                results,
                                cut.plus(StatusComputer.LOST_AFTER).minusMillis(1)));
        assertThat(later.status().getPhase())
                .as("within the bound, a runner is only slow")
                .isEqualTo(Phase.Running);
        assertThat(later.status().getRunners().get(1).getUnreachableSince())
                .as("since the first time, not the last")
                .isEqualTo(cut.toString());

        Decision lost =
                StatusComputer.next(
                        seen(
                                after(test, later),
                                pods,
                                probes,
                                results,
                                cut.plus(StatusComputer.LOST_AFTER)));
        assertThat(lost.status().getPhase()).isEqualTo(Phase.Failed);
        assertThat(lost.status().getSummary().getCoverage())
                .isEqualTo(
                        "1 of 2 runners whole; runner 1 (pod pay-runners-1-abcde) lost at 0 s:"
                                + " unreachable for 20 s (its node may be lost)");
        assertThat(lost.status().getSummary().getRequests()).isEqualTo(100);
    }

    @Test
    void pastTheRowBoundOnlyRunnersWithSomethingToSayKeepRowsAndAnUnreachableOneIsStillLost() {
        int runners = 300;
        TcpLoadTest test = runningTest(runners);
        assertThat(test.getStatus().getRunners()).as("all running, nothing to say").isEmpty();
        assertThat(test.getStatus().getRunnersOmitted()).isEqualTo(runners);
        Map<Integer, RunnerPod> pods = new java.util.HashMap<>();
        Map<Integer, RunnerProbe> probes = new java.util.HashMap<>();
        for (int i = 0; i < runners; i++) {
            pods.put(i, running(i));
            probes.put(i, READY);
        }
        probes.put(250, RunnerProbe.UNREACHABLE);
        pods.put(
                7,
                new RunnerPod(
                        7, "pay-runners-7-abcde", "Running", "10.0.0.9", "BackOff: restarting"));
        Instant cut = T0.plusSeconds(1);

        Decision first = StatusComputer.next(seen(test, pods, probes, Map.of(), cut));
        assertThat(first.status().getRunners())
                .extracting(RunnerStatus::getIndex)
                .containsExactly(7, 250);
        assertThat(first.status().getRunnersOmitted()).isEqualTo(runners - 2);
        assertThat(first.status().getOmittedRunnersByPhase())
                .containsExactly(Map.entry("Running", runners - 2));

        Decision later =
                StatusComputer.next(
                        seen(after(test, first), pods, probes, Map.of(), cut.plusSeconds(5)));
        assertThat(later.status().getRunners())
                .filteredOn(row -> row.getIndex() == 250)
                .extracting(RunnerStatus::getUnreachableSince)
                .as("since the first time, though the other rows were left out")
                .containsExactly(cut.toString());

        Map<Integer, RunSummary> others = new java.util.HashMap<>();
        for (int i = 0; i < runners; i++) {
            if (i != 250) {
                others.put(i, result(100, 1_000, 1));
            }
        }
        Decision lost =
                StatusComputer.next(
                        seen(
                                after(test, later),
                                pods,
                                probes,
                                others,
                                cut.plus(StatusComputer.LOST_AFTER)));
        assertThat(lost.status().getPhase()).isEqualTo(Phase.Failed);
        assertThat(lost.status().getSummary().getCoverage())
                .startsWith(
                        "299 of 300 runners whole; runner 250 (pod pay-runners-250-abcde) lost at"
                                + " 0 s: unreachable for 20 s");
    }

    @Test
    void aRunnerReachableAgainIsNoLongerCountedUnreachable() {
        TcpLoadTest test = runningTest(1);
        Map<Integer, RunnerPod> pods = Map.of(0, running(0));
        Decision first =
                StatusComputer.next(
                        seen(
                                test,
                                pods,
                                Map.of(0, RunnerProbe.UNREACHABLE),
                                Map.of(),
                                T0.plusSeconds(1)));
        Decision back =
                StatusComputer.next(
                        seen(
                                after(test, first),
                                pods,
                                Map.of(0, READY),
                                Map.of(),
                                T0.plusSeconds(2)));
        assertThat(back.status().getRunners().get(0).getUnreachableSince()).isNull();
    }

    @Test
    void aThousandRunnersThatNeverStartKeepTheStatusSmall() throws Exception {
        TcpLoadTest test = test(1000);
        Decision pending = StatusComputer.next(seen(test, Map.of(), Map.of(), Map.of(), T0));
        Map<Integer, RunnerPod> pods = new java.util.HashMap<>();
        for (int i = 0; i < 1000; i++) {
            pods.put(
                    i,
                    new RunnerPod(
                            i,
                            "pay-runners-" + i + "-abcde",
                            "Pending",
                            null,
                            "Unschedulable: 0/3 nodes are available: 3 Insufficient cpu."
                                    + " preemption: 0/3 nodes are available: 3 No preemption"
                                    + " victims found for incoming pod."));
        }

        Decision timedOut =
                StatusComputer.next(
                        seen(after(test, pending), pods, Map.of(), Map.of(), T0.plusSeconds(31)));

        TcpLoadTestStatus status = timedOut.status();
        assertThat(status.getPhase()).isEqualTo(Phase.Failed);
        assertThat(status.getMessage())
                .startsWith(
                        "1000 of 1000 runners were not ready within 30 s: 1000 runners (0, 1, 2,"
                                + " 3, 4, ...) Unschedulable: 0/3 nodes are available");
        assertThat(status.getMessage().length()).isLessThan(1_000);
        int bytes =
                new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsBytes(status).length;
        assertThat(bytes).as("the status of 1,000 runners").isLessThan(64 * 1024);
        assertThat(status.getRunners()).hasSize(RunnerRows.ROWS_MAX);
        assertThat(status.getRunners().get(99).getIndex()).isEqualTo(99);
        assertThat(status.getRunnersOmitted()).isEqualTo(900);
        assertThat(status.getOmittedRunnersByPhase()).containsExactly(Map.entry("Pending", 900));
    }

    @Test
    void aRunnerKilledMidRunFailsTheTestByNameWithTheSummaryOfTheOthers() {
        TcpLoadTest test = runningTest(2);
        RunnerPod killed =
                new RunnerPod(
                        1, "pay-runners-1-abc", "Failed", "10.0.0.3", "OOMKilled: exit code 137");

        Decision decision =
                StatusComputer.next(
                        seen(
                                test,
                                Map.of(0, running(0), 1, killed),
                                Map.of(),
                                Map.of(0, result(100, 1_000, 1)),
                                T0.plusSeconds(3)));

        assertThat(decision.status().getPhase()).isEqualTo(Phase.Failed);
        assertThat(decision.status().getMessage())
                .isEqualTo(
                        "Incomplete result: 1 of 2 runners whole; runner 1 (pod pay-runners-1-abc)"
                                + " lost at 2 s: OOMKilled: exit code 137.");
        assertThat(decision.status().getSummary().getRequests()).isEqualTo(100);
        assertThat(decision.status().getSummary().getCoverage())
                .isEqualTo(
                        "1 of 2 runners whole; runner 1 (pod pay-runners-1-abc) lost at 2 s:"
                                + " OOMKilled: exit code 137");
        assertThat(decision.deleteChildren()).isFalse();
    }

    @Test
    void aSpecChangedAfterTheStartIsRefusedOnceWithACondition() {
        TcpLoadTest test = runningTest(1);
        test.getMetadata().setGeneration(2L);

        Decision first = StatusComputer.next(changed(test, T0.plusSeconds(1)));
        Decision second = StatusComputer.next(changed(after(test, first), T0.plusSeconds(2)));

        Condition accepted = condition(first.status(), TcpLoadTestStatus.SPEC_ACCEPTED);
        assertThat(accepted.getStatus()).isEqualTo("False");
        assertThat(accepted.getMessage()).contains("Generation 2 was refused");
        assertThat(first.events())
                .extracting(Event::reason)
                .containsExactly(EventReason.SpecChangeRefused);
        assertThat(second.events()).isEmpty();
        // Seen, and refused: tools that compare it with metadata.generation are not left waiting.
        assertThat(second.status().getObservedGeneration()).isEqualTo(2L);
        assertThat(second.status().getPhase()).isEqualTo(Phase.Running);
    }

    /** A running test whose spec differs from the one its Job was created for. */
    private static Observation changed(TcpLoadTest test, Instant now) {
        return new Observation(
                test,
                test.getSpec(),
                Optional.empty(),
                true,
                true,
                List.of(),
                Map.of(0, running(0)),
                Map.of(),
                Map.of(),
                now);
    }

    @Test
    void theClustersRefusalOfTheRunnerPodsFailsTheTestAtOnceWithItsMessage() {
        TcpLoadTest test = test(1);
        Decision pending = StatusComputer.next(seen(test, Map.of(), Map.of(), Map.of(), T0));
        String refusal = "Job pay-runners: FailedCreate: pods is forbidden: exceeded quota";

        Decision refused =
                StatusComputer.next(
                        new Observation(
                                after(test, pending),
                                test.getSpec(),
                                Optional.empty(),
                                true,
                                false,
                                List.of(refusal),
                                Map.of(),
                                Map.of(),
                                Map.of(),
                                T0.plusSeconds(1)));

        assertThat(refused.status().getPhase()).isEqualTo(Phase.Failed);
        assertThat(refused.status().getMessage())
                .isEqualTo("The cluster refused the runner pods: " + refusal);
        assertThat(refused.deleteChildren()).isTrue();
        assertThat(condition(refused.status(), StatusComputer.STALLED).getStatus())
                .isEqualTo("True");
        assertThat(condition(refused.status(), StatusComputer.RECONCILING).getStatus())
                .isEqualTo("False");
        assertThat(refused.events()).extracting(Event::reason).contains(EventReason.RunnersRefused);
    }

    @Test
    void anImageThatIsNotPulledFailsTheTestAfterTheGraceNotTheStartTimeout() {
        TcpLoadTest test = test(1);
        test.getSpec().setStartTimeoutSeconds(600);
        Decision pending = StatusComputer.next(seen(test, Map.of(), Map.of(), Map.of(), T0));
        RunnerPod pulling =
                new RunnerPod(
                        0,
                        "pay-runners-0-abcde",
                        "Pending",
                        null,
                        "ImagePullBackOff: Back-off pulling image \"x\"");

        Decision early =
                StatusComputer.next(
                        seen(
                                after(test, pending),
                                Map.of(0, pulling),
                                Map.of(),
                                Map.of(),
                                T0.plusSeconds(10)));
        Decision late =
                StatusComputer.next(
                        seen(
                                after(test, early),
                                Map.of(0, pulling),
                                Map.of(),
                                Map.of(),
                                T0.plus(StatusComputer.IMAGE_PULL_GRACE).plusSeconds(1)));

        assertThat(early.status().getPhase()).isEqualTo(Phase.Starting);
        assertThat(late.status().getPhase()).isEqualTo(Phase.Failed);
        assertThat(late.status().getMessage())
                .isEqualTo(
                        "Runner 0 (pod pay-runners-0-abcde) cannot start: ImagePullBackOff:"
                                + " Back-off pulling image \"x\".");
    }

    @Test
    void conditionsSayWhatToolsReadWhileRunningAndCarryTheGeneration() {
        TcpLoadTest test = test(1);
        test.getMetadata().setGeneration(3L);

        Decision pending = StatusComputer.next(seen(test, Map.of(), Map.of(), Map.of(), T0));

        assertThat(condition(pending.status(), StatusComputer.RECONCILING).getStatus())
                .isEqualTo("True");
        assertThat(condition(pending.status(), StatusComputer.READY).getStatus())
                .isEqualTo("False");
        assertThat(condition(pending.status(), StatusComputer.STALLED).getStatus())
                .isEqualTo("False");
        assertThat(pending.status().getConditions())
                .allSatisfy(c -> assertThat(c.getObservedGeneration()).isEqualTo(3L));
        assertThat(pending.status().getObservedGeneration()).isEqualTo(3L);
    }

    @Test
    void aFinishedTestDeletesItsRunnersOnlyAfterItsTtl() {
        TcpLoadTest test = runningTest(1);
        test.getSpec().setTtlSecondsAfterFinished(10);
        Decision done =
                StatusComputer.next(
                        seen(
                                test,
                                Map.of(0, running(0)),
                                Map.of(),
                                Map.of(0, result(10, 1_000, 1)),
                                T0.plusSeconds(3)));
        assertThat(done.status().getPhase()).isEqualTo(Phase.Succeeded);
        RunnerPod succeeded = new RunnerPod(0, "p", "Succeeded", "10.0.0.2", null);

        Decision early =
                StatusComputer.next(
                        seen(
                                after(test, done),
                                Map.of(0, succeeded),
                                Map.of(),
                                Map.of(),
                                T0.plusSeconds(5)));
        Decision due =
                StatusComputer.next(
                        seen(
                                after(test, done),
                                Map.of(0, succeeded),
                                Map.of(),
                                Map.of(),
                                T0.plusSeconds(14)));

        assertThat(early.deleteChildren()).isFalse();
        assertThat(early.requeue()).hasValue(Duration.ofSeconds(8));
        assertThat(due.deleteChildren()).isTrue();
        assertThat(due.events()).extracting(Event::reason).containsExactly(EventReason.CleanedUp);
    }

    private static TcpLoadTest dryRun() {
        TcpLoadTest test = test(3);
        test.getSpec().setDryRun(true);
        return test;
    }

    private static RunnerPod ended(String phase, String problem, String terminationMessage) {
        return new RunnerPod(
                0,
                "pay-runners-0-abcde",
                phase,
                "10.0.0.2",
                problem,
                null,
                T0.plusSeconds(2),
                terminationMessage);
    }

    @Test
    void aDryRunStartsOnePodAndWaitsForItToEnd() {
        TcpLoadTest test = dryRun();
        Decision created = StatusComputer.next(seen(test, Map.of(), Map.of(), Map.of(), T0));
        assertThat(created.createChildren()).isTrue();
        assertThat(created.status().getRunners()).hasSize(1);
        assertThat(created.status().getMessage()).isEqualTo("Starting the dry run's runner pod.");

        Decision running =
                StatusComputer.next(
                        seen(
                                after(test, created),
                                Map.of(0, running(0)),
                                Map.of(),
                                Map.of(),
                                T0.plusSeconds(1)));

        assertThat(running.status().getPhase()).isEqualTo(Phase.Starting);
        assertThat(running.status().getMessage())
                .isEqualTo("Dry run on runner 0 (pod pay-runners-0-abcde).");
        assertThat(running.startAtMs()).isEmpty();
        assertThat(running.createChildren()).isFalse();
    }

    @Test
    void aDryRunsExchangeDecidesItsPhase() {
        String passed =
                "{\"format\":\"tcpload-dryrun/v1\",\"target\":\"10.1.1.1:9000\",\"requests\":1,"
                        + "\"successes\":1,\"exchanges\":[{\"name\":\"request\",\"verdict\":"
                        + "\"success\",\"requestBytes\":2,\"request\":\"3030\",\"responseBytes\":1,"
                        + "\"response\":\"31\",\"code\":\"1\"}]}";
        TcpLoadTest test = dryRun();
        Decision created = StatusComputer.next(seen(test, Map.of(), Map.of(), Map.of(), T0));

        Decision done =
                StatusComputer.next(
                        seen(
                                after(test, created),
                                Map.of(0, ended("Succeeded", null, passed)),
                                Map.of(),
                                Map.of(),
                                T0.plusSeconds(3)));

        assertThat(done.status().getPhase()).isEqualTo(Phase.Succeeded);
        assertThat(done.status().getDryRun().getExchanges().get(0).getRequest()).isEqualTo("3030");
        assertThat(done.status().getMessage())
                .isEqualTo("Dry run against 10.1.1.1:9000: 1 of 1 response a success.");
        assertThat(done.deleteChildren()).isFalse();

        TcpLoadTest failing = dryRun();
        Decision again = StatusComputer.next(seen(failing, Map.of(), Map.of(), Map.of(), T0));
        Decision failed =
                StatusComputer.next(
                        seen(
                                after(failing, again),
                                Map.of(
                                        0,
                                        ended(
                                                "Failed",
                                                "Error: exit code 1",
                                                passed.replace("\"successes\":1", "\"successes\":0")
                                                        .replace(
                                                                "\"verdict\":\"success\"",
                                                                "\"verdict\":\"failure\""))),
                                Map.of(),
                                Map.of(),
                                T0.plusSeconds(3)));
        assertThat(failed.status().getPhase()).isEqualTo(Phase.Failed);
        assertThat(failed.status().getMessage())
                .isEqualTo(
                        "Dry run against 10.1.1.1:9000: 0 of 1 response a success; failed:"
                                + " request (code \"1\").");
        assertThat(failed.events()).extracting(Event::reason).contains(EventReason.DryRunFailed);
    }

    @Test
    void aDryRunsPodEndingWithoutAnExchangeFailsWithWhatItSaid() {
        TcpLoadTest test = dryRun();
        Decision created = StatusComputer.next(seen(test, Map.of(), Map.of(), Map.of(), T0));

        Decision failed =
                StatusComputer.next(
                        seen(
                                after(test, created),
                                Map.of(
                                        0,
                                        ended(
                                                "Failed",
                                                "Error: exit code 2: tcpload-runner: line 3: bad",
                                                "tcpload-runner: line 3: bad")),
                                Map.of(),
                                Map.of(),
                                T0.plusSeconds(3)));

        assertThat(failed.status().getPhase()).isEqualTo(Phase.Failed);
        assertThat(failed.status().getMessage())
                .isEqualTo(
                        "The dry run's runner 0 (pod pay-runners-0-abcde) ended without its"
                                + " exchange: Error: exit code 2: tcpload-runner: line 3: bad.");
        assertThat(condition(failed.status(), TcpLoadTestStatus.COMPLETED).getReason())
                .isEqualTo("RunnerFailed");
    }
}
