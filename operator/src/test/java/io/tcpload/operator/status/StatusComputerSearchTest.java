package io.tcpload.operator.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;
import static org.assertj.core.groups.Tuple.tuple;

import io.tcpload.operator.children.RunnerInvocations;
import io.tcpload.operator.children.Specs;
import io.tcpload.operator.crd.CapacityStatus;
import io.tcpload.operator.crd.Phase;
import io.tcpload.operator.crd.SearchSettings;
import io.tcpload.operator.crd.SearchStep;
import io.tcpload.operator.crd.TcpLoadTest;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.operator.crd.TcpLoadTestStatus;
import io.tcpload.runner.search.SearchSpec;
import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.Histograms;
import io.tcpload.runner.stats.RunBuilder;
import io.tcpload.runner.stats.RunInfo;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.stats.SecondSample;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * A capacity search in a cluster, reconcile by reconcile, with no cluster and no runner: each step
 * recorded before it is told, judged on every runner's results merged, the next chosen by replaying
 * the recorded steps, and the ends (found, a minimum that fails, a runner late or lost).
 */
class StatusComputerSearchTest {
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    private static final RunnerProbe RUNNING = RunnerProbe.inState(RunnerProbe.State.RUNNING);
    private static final RunnerProbe FINISHED = RunnerProbe.inState(RunnerProbe.State.FINISHED);
    private static final int RUNNERS = 2;

    private static TcpLoadTest searchTest() {
        TcpLoadTestSpec spec = Specs.valid();
        spec.setRunners(RUNNERS);
        spec.setConnections(64);
        spec.setDuration(null);
        spec.setKeepAlive(true);
        spec.setStartTimeoutSeconds(30);
        SearchSettings search = new SearchSettings(List.of("p99 < 50ms"), 100L, 400L);
        search.setStep("2s");
        search.setWarmup("0");
        search.setPrecision("10%");
        spec.setSearch(search);
        return Specs.test("pay", spec);
    }

    private static RunnerPod pod(int index) {
        return new RunnerPod(
                index, "pay-runners-" + index + "-abcde", "Running", "10.0.0." + (index + 2), null);
    }

    private static Map<Integer, RunnerPod> pods() {
        Map<Integer, RunnerPod> pods = new HashMap<>();
        for (int i = 0; i < RUNNERS; i++) {
            pods.put(i, pod(i));
        }
        return pods;
    }

    private static Map<Integer, RunnerProbe> probes(RunnerProbe probe) {
        Map<Integer, RunnerProbe> probes = new HashMap<>();
        for (int i = 0; i < RUNNERS; i++) {
            probes.put(i, probe);
        }
        return probes;
    }

    /**
     * One runner's step of two seconds: its share of {@code rate}, answered in {@code latencyUs}.
     */
    private static RunSummary share(double rate, long latencyUs) {
        long perSecond = Math.round(rate / RUNNERS);
        Histogram latency = Histograms.create();
        latency.recordValueWithCount(latencyUs, perSecond * 2);
        List<SecondSample> seconds = new ArrayList<>();
        for (int k = 1; k <= 2; k++) {
            seconds.add(
                    new SecondSample(
                            k,
                            new Counts(perSecond, perSecond, 0, 0, 0, 0, 0, 0, 0, 0),
                            latencyUs,
                            latencyUs,
                            latencyUs,
                            latencyUs));
        }
        long requests = perSecond * 2;
        return RunBuilder.aRun()
                .info(
                        new RunInfo(
                                "127.0.0.1:1", "profile.ini", 1, 32, 2_000, 5_000, true, 1, "nio"))
                .runtimeUs(2_000_000)
                .counts(new Counts(requests, requests, 0, 0, 0, 0, 0, 0, 0, 0))
                .latencyUs(latency)
                .seconds(seconds)
                .build();
    }

    private static Map<Integer, RunSummary> shares(double rate, long latencyUs) {
        Map<Integer, RunSummary> results = new HashMap<>();
        for (int i = 0; i < RUNNERS; i++) {
            results.put(i, share(rate, latencyUs));
        }
        return results;
    }

    private static Observation seen(
            TcpLoadTest test,
            Map<Integer, RunnerProbe> probes,
            Map<Integer, RunSummary> results,
            StepResults steps,
            Instant now) {
        return new Observation(
                test,
                test.getSpec(),
                Optional.empty(),
                true,
                false,
                List.of(),
                pods(),
                probes,
                results,
                now,
                Map.of(),
                steps);
    }

    private static TcpLoadTest after(TcpLoadTest test, Decision decision) {
        test.setStatus(decision.status());
        return test;
    }

    /** A search test told its start at T0 + 500 ms, its runners running. */
    private static TcpLoadTest started() {
        TcpLoadTest test = searchTest();
        TcpLoadTestStatus status = new TcpLoadTestStatus();
        status.setPhase(Phase.Running);
        status.setStartAtMs(T0.toEpochMilli() + 500);
        status.setStartTime(Instant.ofEpochMilli(status.getStartAtMs()).toString());
        test.setStatus(status);
        return test;
    }

    /** A search started, its first step recorded in the status (not yet told). */
    private static TcpLoadTest firstStepRecorded() {
        TcpLoadTest test = started();
        return after(
                test,
                StatusComputer.next(
                        seen(
                                test,
                                probes(RUNNING),
                                Map.of(),
                                StepResults.NONE,
                                T0.plusMillis(600))));
    }

    @Test
    void eachStepIsRecordedBeforeItIsToldAndJudgedOnEveryRunnersResultsMerged() {
        TcpLoadTest test = started();
        Instant now = T0.plusMillis(600);

        Decision first =
                StatusComputer.next(seen(test, probes(RUNNING), Map.of(), StepResults.NONE, now));

        // Recorded, written first, told only by the decision made from the status as written.
        assertThat(first.writeFirst()).isTrue();
        assertThat(first.step()).isEmpty();
        CapacityStatus capacity = first.status().getCapacity();
        assertThat(capacity.getCurrent().getNumber()).isEqualTo(1);
        assertThat(capacity.getCurrent().getTargetRate()).isEqualTo(100.0);
        assertThat(capacity.getCurrent().getKind()).isEqualTo("grow");
        long atMs = T0.toEpochMilli() + 500 + SearchProgress.FIRST_STEP_AFTER.toMillis();
        assertThat(capacity.getCurrent().getStartAtMs()).isEqualTo(atMs);
        assertThat(first.status().getMessage())
                .isEqualTo("Capacity search: step 1 (grow) at 100/s on 2 runners.");

        Decision tell =
                StatusComputer.next(
                        seen(after(test, first), probes(RUNNING), Map.of(), StepResults.NONE, now));
        assertThat(tell.writeFirst()).isFalse();
        assertThat(tell.step()).contains(new StepInstruction(1, 100, 0, 2_000, atMs));
        assertThat(tell.requeue()).isPresent();

        // One runner's result is not enough.
        Instant ended = Instant.ofEpochMilli(atMs + 2_100);
        Decision half =
                StatusComputer.next(
                        seen(
                                after(test, tell),
                                probes(RUNNING),
                                Map.of(),
                                new StepResults(1, Map.of(0, share(100, 1_000))),
                                ended));
        assertThat(half.status().getCapacity().getSteps()).isEmpty();
        assertThat(half.status().getCapacity().getCurrent().getNumber()).isEqualTo(1);

        Decision judged =
                StatusComputer.next(
                        seen(
                                after(test, half),
                                probes(RUNNING),
                                Map.of(),
                                new StepResults(1, shares(100, 1_000)),
                                ended));

        SearchStep row = judged.status().getCapacity().getSteps().get(0);
        assertThat(row.getNumber()).isEqualTo(1);
        assertThat(row.getHeld()).as("%s", row.getReasons()).isTrue();
        assertThat(row.getAchievedRate()).isEqualTo(100.0);
        assertThat(row.getP99Ms()).isCloseTo(1.0, offset(0.01));
        assertThat(row.getStartAtMs()).isEqualTo(atMs);
        assertThat(judged.events())
                .extracting(Event::reason, Event::message)
                .contains(tuple(EventReason.StepJudged, "Step 1 (grow) at 100/s: held."));
        // Grown fourfold, but never past the maximum.
        assertThat(judged.writeFirst()).isTrue();
        assertThat(judged.status().getCapacity().getCurrent().getNumber()).isEqualTo(2);
        assertThat(judged.status().getCapacity().getCurrent().getTargetRate()).isEqualTo(400.0);
        assertThat(judged.status().getCapacity().getCurrent().getStartAtMs())
                .isEqualTo(ended.plus(StatusComputer.START_LEAD).toEpochMilli());

        // Stateless: a second look at the same status and results decides the same.
        TcpLoadTest again = started();
        again.setStatus(half.status());
        Decision same =
                StatusComputer.next(
                        seen(
                                again,
                                probes(RUNNING),
                                Map.of(),
                                new StepResults(1, shares(100, 1_000)),
                                ended));
        assertThat(same.status().getCapacity().getCurrent().getTargetRate()).isEqualTo(400.0);
    }

    @Test
    void aSearchRunsToItsCapacityAndTheRunnersLastStepIsTheSummary() {
        TcpLoadTest test = firstStepRecorded();
        // 100 held, 400 failed (slow), then bisected to 10%: 200 held, 283 failed, 238 held,
        // 259 held (259 * 1.1 > 283), then confirmed.
        int steps = 0;
        Instant now = T0.plusMillis(600);
        while (test.getStatus().getCapacity().getCurrent() != null && steps < 20) {
            var current = test.getStatus().getCapacity().getCurrent();
            double rate = current.getTargetRate();
            long latencyUs = rate > 270 ? 100_000 : 1_000;
            now = Instant.ofEpochMilli(current.getStartAtMs() + 2_100);
            Decision decision =
                    StatusComputer.next(
                            seen(
                                    test,
                                    probes(RUNNING),
                                    Map.of(),
                                    new StepResults(current.getNumber(), shares(rate, latencyUs)),
                                    now));
            test = after(test, decision);
            steps++;
            if (test.getStatus().getCapacity().getCurrent() == null) {
                assertThat(decision.endSteps()).isTrue();
            }
        }
        CapacityStatus capacity = test.getStatus().getCapacity();
        assertThat(capacity.getEnd()).as(capacity.getMessage()).isEqualTo("found");
        assertThat(capacity.getRate()).isBetween(238.0, 270.0);
        SearchStep last = capacity.getSteps().get(capacity.getSteps().size() - 1);
        assertThat(last.getKind()).isEqualTo("confirm");
        assertThat(capacity.getConfirmation().getNumber()).isEqualTo(last.getNumber());
        assertThat(capacity.getWallTimeMs()).isPositive();
        assertThat(test.getStatus().getPhase()).isEqualTo(Phase.Running);

        // The runners, told the end, each report their last step (the confirmation).
        Decision waiting =
                StatusComputer.next(seen(test, probes(RUNNING), Map.of(), StepResults.NONE, now));
        assertThat(waiting.endSteps()).isTrue();
        assertThat(waiting.status().getPhase()).isEqualTo(Phase.Running);
        Decision done =
                StatusComputer.next(
                        seen(
                                test,
                                probes(FINISHED),
                                shares(capacity.getRate(), 1_000),
                                StepResults.NONE,
                                now.plusSeconds(1)));
        assertThat(done.status().getPhase())
                .as(done.status().getMessage())
                .isEqualTo(Phase.Succeeded);
        assertThat(done.status().getMessage())
                .startsWith(
                        "Capacity "
                                + SearchSpec.formatRate(capacity.getRate())
                                + " requests/sec (SLO p99 < 50ms): ");
        assertThat(done.finishRunners()).isTrue();
    }

    @Test
    void theThresholdsAreJudgedOnTheConfirmationStep() {
        TcpLoadTest test = started();
        test.getSpec().setThresholds(List.of("p99 < 0.5ms"));
        CapacityStatus capacity = new CapacityStatus();
        capacity.setEnd("found");
        capacity.setRate(250.0);
        capacity.setMessage("250/s held, and held again for its confirmation step");
        SearchStep confirmation = new SearchStep();
        confirmation.setNumber(6);
        confirmation.setKind("confirm");
        confirmation.setTargetRate(250.0);
        confirmation.setStartAtMs(T0.toEpochMilli() + 20_000);
        capacity.setSteps(List.of(confirmation));
        test.getStatus().setCapacity(capacity);

        // Each runner's last step, the confirmation, answered in 1 ms: over the threshold.
        Decision done =
                StatusComputer.next(
                        seen(
                                test,
                                probes(FINISHED),
                                shares(250, 1_000),
                                StepResults.NONE,
                                T0.plusSeconds(23)));

        assertThat(done.status().getPhase()).isEqualTo(Phase.Failed);
        assertThat(done.status().getMessage()).startsWith("Thresholds missed: p99 ");
        assertThat(done.status().getCapacity().getRate()).isEqualTo(250.0);
        assertThat(done.events()).extracting(Event::reason).contains(EventReason.ThresholdsMissed);
    }

    @Test
    void aMinimumThatFailsAlreadyEndsTheSearchAndFailsTheTestWithTheStepsFigures() {
        TcpLoadTest test = firstStepRecorded();
        long atMs = test.getStatus().getCapacity().getCurrent().getStartAtMs();
        Instant ended = Instant.ofEpochMilli(atMs + 2_100);

        Decision judged =
                StatusComputer.next(
                        seen(
                                test,
                                probes(RUNNING),
                                Map.of(),
                                new StepResults(1, shares(100, 200_000)),
                                ended));

        CapacityStatus capacity = judged.status().getCapacity();
        assertThat(capacity.getEnd()).isEqualTo("minimum_failed");
        assertThat(capacity.getMessage())
                .startsWith("the range's minimum, 100/s, failed already (p99 ")
                .endsWith("; lower it");
        assertThat(capacity.getSteps())
                .singleElement()
                .satisfies(row -> assertThat(row.getHeld()).isFalse());
        assertThat(judged.endSteps()).isTrue();

        Decision done =
                StatusComputer.next(
                        seen(
                                after(test, judged),
                                probes(FINISHED),
                                shares(100, 200_000),
                                StepResults.NONE,
                                ended.plusSeconds(1)));
        assertThat(done.status().getPhase()).isEqualTo(Phase.Failed);
        assertThat(done.status().getMessage())
                .startsWith("The capacity search found no capacity: the range's minimum, 100/s");
        assertThat(done.events()).extracting(Event::reason).contains(EventReason.CapacityNotFound);
    }

    @Test
    void aRunnerThatDoesNotReportAStepByItsDeadlineEndsTheSearchNamingIt() {
        TcpLoadTest test = firstStepRecorded();
        long atMs = test.getStatus().getCapacity().getCurrent().getStartAtMs();
        Instant late =
                Instant.ofEpochMilli(atMs + 2_000)
                        .plusMillis(RunnerInvocations.load(test.getSpec()).timeoutMs())
                        .plus(SearchProgress.STEP_GRACE);

        Decision almost =
                StatusComputer.next(
                        seen(
                                test,
                                probes(RUNNING),
                                Map.of(),
                                new StepResults(1, Map.of(0, share(100, 1_000))),
                                late.minusMillis(1)));
        assertThat(almost.status().getPhase()).isEqualTo(Phase.Running);
        assertThat(almost.step()).as("told again only near its instant").isEmpty();

        Decision failed =
                StatusComputer.next(
                        seen(
                                test,
                                probes(RUNNING),
                                Map.of(),
                                new StepResults(1, Map.of(0, share(100, 1_000))),
                                late));

        assertThat(failed.status().getPhase()).isEqualTo(Phase.Failed);
        assertThat(failed.status().getMessage())
                .isEqualTo(
                        "The capacity search stopped: runner 1 (pod pay-runners-1-abcde) did not"
                                + " report step 1 by "
                                + late
                                + "; the search stopped after 0 steps; no rate held.");
        assertThat(failed.status().getCapacity().getEnd()).isEqualTo("stopped");
        assertThat(failed.status().getCapacity().getCurrent()).isNull();
        assertThat(failed.endSteps()).isTrue();
        assertThat(failed.finishRunners()).isTrue();

        // Failed, its runners are told again that the search has ended until they are gone.
        Decision after =
                StatusComputer.next(
                        seen(
                                after(test, failed),
                                probes(RUNNING),
                                Map.of(),
                                StepResults.NONE,
                                late.plusSeconds(2)));
        assertThat(after.endSteps()).isTrue();
    }

    @Test
    void aRunnerLostInAStepEndsTheSearchKeepingTheStepsJudged() {
        TcpLoadTest test = firstStepRecorded();
        long atMs = test.getStatus().getCapacity().getCurrent().getStartAtMs();
        Instant ended = Instant.ofEpochMilli(atMs + 2_100);
        test =
                after(
                        test,
                        StatusComputer.next(
                                seen(
                                        test,
                                        probes(RUNNING),
                                        Map.of(),
                                        new StepResults(1, shares(100, 1_000)),
                                        ended)));
        assertThat(test.getStatus().getCapacity().getCurrent().getNumber()).isEqualTo(2);

        Map<Integer, RunnerPod> pods = pods();
        pods.put(
                1,
                new RunnerPod(
                        1,
                        "pay-runners-1-abcde",
                        "Failed",
                        "10.0.0.3",
                        "OOMKilled: exit code 137"));
        Decision lost =
                StatusComputer.next(
                        new Observation(
                                test,
                                test.getSpec(),
                                Optional.empty(),
                                true,
                                false,
                                List.of(),
                                pods,
                                Map.of(0, RUNNING),
                                Map.of(),
                                ended.plusSeconds(1),
                                Map.of(),
                                StepResults.NONE));

        assertThat(lost.status().getPhase()).isEqualTo(Phase.Failed);
        assertThat(lost.status().getMessage())
                .startsWith(
                        "The capacity search stopped: runner 1 (pod pay-runners-1-abcde) lost at ")
                .contains("OOMKilled: exit code 137 (in step 2)")
                .endsWith(
                        "; the search stopped after 1 step; the highest rate that held was 100/s,"
                                + " not confirmed.");
        assertThat(lost.status().getCapacity().getSteps()).hasSize(1);
        assertThat(lost.status().getCapacity().getRate()).isEqualTo(100.0);
        assertThat(lost.endSteps()).isTrue();
    }
}
