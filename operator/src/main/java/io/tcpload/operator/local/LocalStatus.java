package io.tcpload.operator.local;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.tcpload.operator.crd.CapacityStatus;
import io.tcpload.operator.crd.Phase;
import io.tcpload.operator.crd.TcpLoadTest;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.operator.crd.TcpLoadTestStatus;
import io.tcpload.operator.status.Decision;
import io.tcpload.operator.status.Observation;
import io.tcpload.operator.status.RunnerPod;
import io.tcpload.operator.status.RunnerProbe;
import io.tcpload.operator.status.StatusComputer;
import io.tcpload.operator.validation.Failure;
import io.tcpload.runner.contract.Stopped;
import io.tcpload.runner.stats.RunSummary;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A local run's status, from the operator's own state machine ({@link StatusComputer}): the
 * in-process runners are shown to it as runner pods on loopback would be, step by step (created,
 * all ready, started, ended), so that {@code tcpload run} prints the phase, conditions, summary and
 * runner rows the operator would write for the same test and results. Pure: times are arguments.
 *
 * <p>Not thread-safe; one local run drives it from one thread.
 */
final class LocalStatus {
    /** The address the in-process runners are shown at: they have no pod, only this machine. */
    private static final String LOOPBACK = "127.0.0.1";

    /** The reason of a run stopped by a signal. */
    static final String INTERRUPTED = "Interrupted";

    private final TcpLoadTest test;
    private final TcpLoadTestSpec spec;

    /**
     * @param test the test as read from the file; its status is ignored and then kept here
     * @param spec the spec it runs (with a duration override or a demo target applied)
     */
    LocalStatus(TcpLoadTest test, TcpLoadTestSpec spec) {
        this.test = new TcpLoadTest();
        this.test.setMetadata(test.getMetadata() == null ? new ObjectMeta() : test.getMetadata());
        this.test.setSpec(spec);
        this.spec = spec;
    }

    /** The status of a test refused by validation: the state machine fails it at once. */
    static TcpLoadTestStatus invalid(TcpLoadTest test, Failure failure, Instant now) {
        LocalStatus local = new LocalStatus(test, test.getSpec());
        return local.step(Optional.of(failure), Map.of(), Map.of(), Map.of(), now).status();
    }

    /** The test is valid: the machine accepts it and would create its runners. */
    TcpLoadTestStatus accepted(Instant now) {
        return step(Optional.empty(), Map.of(), Map.of(), Map.of(), now).status();
    }

    /**
     * Every runner is ready: the machine records the start instant, and returns it (epoch
     * milliseconds), at which the runners are to begin.
     */
    long allReady(Instant now) {
        Map<Integer, RunnerPod> pods = new HashMap<>();
        Map<Integer, RunnerProbe> probes = new HashMap<>();
        RunnerProbe ready = RunnerProbe.inState(RunnerProbe.State.READY);
        for (int i = 0; i < spec.getRunners(); i++) {
            pods.put(i, new RunnerPod(i, null, "Running", LOOPBACK, null));
            probes.put(i, ready);
        }
        step(Optional.empty(), pods, probes, Map.of(), now);
        Long startAtMs = test.getStatus().getStartAtMs();
        if (startAtMs == null) {
            throw new IllegalStateException(
                    "the state machine set no start instant: " + test.getStatus().getMessage());
        }
        // Told: the test is Running from the instant on.
        step(Optional.empty(), pods, probes, Map.of(), now);
        return startAtMs;
    }

    /**
     * Every runner ended, as {@code outcomes} (in index order) say: the machine merges the results,
     * judges the thresholds and gives the final status.
     */
    TcpLoadTestStatus ended(List<RunnerOutcome> outcomes, Instant now) {
        return ended(outcomes, now, Optional.empty());
    }

    /**
     * As {@link #ended(List, Instant)}; with {@code signal}, each result is shown to the machine as
     * a runner pod's stopped by that signal is (its process ended by it, its result sealed as
     * partial), so that it marks the result partial and judges no thresholds on it.
     */
    private TcpLoadTestStatus ended(
            List<RunnerOutcome> outcomes, Instant now, Optional<String> signal) {
        Map<Integer, RunnerPod> pods = new HashMap<>();
        Map<Integer, RunSummary> results = new HashMap<>();
        Map<Integer, Stopped> stopped = new HashMap<>();
        for (RunnerOutcome outcome : outcomes) {
            int i = outcome.index();
            if (outcome.result().isPresent()) {
                RunSummary result = outcome.result().get();
                results.put(i, result);
                if (signal.isPresent()) {
                    // A runner pod's process exits 128 + the signal: its pod ends Failed.
                    pods.put(i, new RunnerPod(i, null, "Failed", LOOPBACK, null));
                    stopped.put(i, new Stopped(signal.get(), result.runtimeUs() / 1000));
                } else {
                    pods.put(i, new RunnerPod(i, null, "Succeeded", LOOPBACK, null));
                }
            } else {
                String why = outcome.message().orElse("no result");
                pods.put(i, new RunnerPod(i, null, "Failed", LOOPBACK, why));
            }
        }
        return step(Optional.empty(), pods, Map.of(), results, stopped, now).status();
    }

    /**
     * A dry run's runner ended with {@code exitStatus}, leaving {@code exchange} (its JSON, as a
     * pod's termination message) or nothing: the machine writes the exchange and the verdict.
     */
    TcpLoadTestStatus dryRunEnded(int exitStatus, Optional<String> exchange, Instant now) {
        boolean succeeded = exitStatus == 0;
        RunnerPod pod =
                new RunnerPod(
                        0,
                        null,
                        succeeded ? "Succeeded" : "Failed",
                        LOOPBACK,
                        succeeded ? null : "Error: exit code " + exitStatus,
                        null,
                        now,
                        exchange.orElse(null));
        return step(Optional.empty(), Map.of(0, pod), Map.of(), Map.of(), now).status();
    }

    /**
     * The run was interrupted (by {@code signal}): the runners were stopped early, so whatever they
     * report is partial. The machine is shown their results as partial, so that it fails the test
     * and judges no thresholds, as it does for runners stopped by a signal in a cluster; the reason
     * is then said as local mode's own, {@value #INTERRUPTED}, so that a partial run is never taken
     * for a whole one.
     */
    TcpLoadTestStatus interrupted(List<RunnerOutcome> outcomes, Instant now, String signal) {
        TcpLoadTestStatus status = ended(outcomes, now, Optional.of(signal));
        String message =
                "Interrupted by "
                        + signal
                        + ": the runners were stopped early; the summary covers the load until"
                        + " then, not the whole test.";
        if (status.getStartTime() != null && Instant.parse(status.getStartTime()).isAfter(now)) {
            // Stopped before the start instant: the load never started.
            status.setStartTime(null);
            message =
                    "Interrupted by "
                            + signal
                            + " before the start: the runners were stopped and sent nothing.";
        }
        return interrupted(status, message, now);
    }

    /**
     * The run was interrupted by {@code signal} while it was set up, after the test was validated
     * and before any runner started: the machine, which has accepted the test, is told nothing
     * more, and the test fails as an interrupted run does, with no start and no runner.
     */
    TcpLoadTestStatus interruptedBeforeRunners(Instant now, String signal) {
        TcpLoadTestStatus status =
                step(Optional.empty(), Map.of(), Map.of(), Map.of(), now).status();
        // The machine lists the runners it would create; none was.
        status.setRunners(new ArrayList<>());
        status.setCompletionTime(now.toString());
        return interrupted(
                status,
                "Interrupted by "
                        + signal
                        + " before the runners started: none ran and nothing was sent.",
                now);
    }

    /**
     * The run was interrupted by {@code signal} before its test was read and validated: the machine
     * has nothing to judge, so the status says no more than that, in the conditions an interrupted
     * run has.
     */
    static TcpLoadTestStatus interruptedBeforeValidation(Instant now, String signal) {
        TcpLoadTestStatus status = new TcpLoadTestStatus();
        for (String type :
                List.of(StatusComputer.RECONCILING, StatusComputer.STALLED, StatusComputer.READY)) {
            Condition condition = new Condition();
            condition.setType(type);
            status.getConditions().add(condition);
        }
        status.setCompletionTime(now.toString());
        return interrupted(
                status,
                "Interrupted by "
                        + signal
                        + " before the runners started, while the test was read and validated:"
                        + " nothing was sent.",
                now);
    }

    /**
     * {@code status} as an interrupted run's: Failed with {@code message}, {@code Completed} False
     * and {@code Stalled} True for {@value #INTERRUPTED}, {@code Ready} False, and no {@code
     * ThresholdsMet}.
     */
    private static TcpLoadTestStatus interrupted(
            TcpLoadTestStatus status, String message, Instant now) {
        status.setPhase(Phase.Failed);
        status.setMessage(message);
        List<Condition> conditions = new ArrayList<>();
        for (Condition condition : status.getConditions()) {
            switch (condition.getType()) {
                case TcpLoadTestStatus.COMPLETED, TcpLoadTestStatus.THRESHOLDS_MET -> {
                    // Replaced below; thresholds are not judged on a partial result.
                }
                case StatusComputer.STALLED ->
                        conditions.add(condition(condition, "True", INTERRUPTED, message, now));
                case StatusComputer.READY, StatusComputer.RECONCILING ->
                        conditions.add(condition(condition, "False", "Failed", message, now));
                default -> conditions.add(condition);
            }
        }
        Condition completed = new Condition();
        completed.setType(TcpLoadTestStatus.COMPLETED);
        conditions.add(condition(completed, "False", INTERRUPTED, message, now));
        status.setConditions(conditions);
        return status;
    }

    /**
     * {@code condition} as {@code status} with {@code reason} and {@code message}, its transition
     * time kept unless its status changes.
     */
    private static Condition condition(
            Condition condition, String status, String reason, String message, Instant now) {
        Condition changed = new Condition();
        changed.setType(condition.getType());
        changed.setObservedGeneration(condition.getObservedGeneration());
        changed.setStatus(status);
        changed.setReason(reason);
        changed.setMessage(message);
        changed.setLastTransitionTime(
                status.equals(condition.getStatus()) && condition.getLastTransitionTime() != null
                        ? condition.getLastTransitionTime()
                        : now.toString());
        return changed;
    }

    /**
     * The capacity search has ended with {@code capacity}, as the operator records a search's end
     * before its runners report: the machine then judges the runners' results (each the step the
     * capacity rests on) as the operator would, and a search that found no capacity fails the test,
     * saying why.
     */
    void searched(CapacityStatus capacity) {
        if (test.getStatus() == null) {
            test.setStatus(new TcpLoadTestStatus());
        }
        test.getStatus().setCapacity(capacity);
    }

    private Decision step(
            Optional<Failure> invalid,
            Map<Integer, RunnerPod> pods,
            Map<Integer, RunnerProbe> probes,
            Map<Integer, RunSummary> results,
            Instant now) {
        return step(invalid, pods, probes, results, Map.of(), now);
    }

    private Decision step(
            Optional<Failure> invalid,
            Map<Integer, RunnerPod> pods,
            Map<Integer, RunnerProbe> probes,
            Map<Integer, RunSummary> results,
            Map<Integer, Stopped> stopped,
            Instant now) {
        Decision decision =
                StatusComputer.next(
                        new Observation(
                                test, spec, invalid, true, false, List.of(), pods, probes, results,
                                now, stopped));
        test.setStatus(decision.status());
        return decision;
    }
}
