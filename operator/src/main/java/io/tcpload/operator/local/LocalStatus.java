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
        Map<Integer, RunnerPod> pods = new HashMap<>();
        Map<Integer, RunSummary> results = new HashMap<>();
        for (RunnerOutcome outcome : outcomes) {
            int i = outcome.index();
            if (outcome.result().isPresent()) {
                pods.put(i, new RunnerPod(i, null, "Succeeded", LOOPBACK, null));
                results.put(i, outcome.result().get());
            } else {
                String why = outcome.message().orElse("no result");
                pods.put(i, new RunnerPod(i, null, "Failed", LOOPBACK, why));
            }
        }
        return step(Optional.empty(), pods, Map.of(), results, now).status();
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
     * report is partial. The machine's status for their results is kept, and marked failed, so that
     * a partial run is never taken for a whole one.
     */
    TcpLoadTestStatus interrupted(List<RunnerOutcome> outcomes, Instant now, String signal) {
        TcpLoadTestStatus status = ended(outcomes, now);
        String message =
                "Interrupted by "
                        + signal
                        + ": the runners were stopped early; the summary covers the load until"
                        + " then, not the whole test.";
        status.setPhase(Phase.Failed);
        status.setMessage(message);
        List<Condition> conditions = new ArrayList<>(status.getConditions());
        conditions.removeIf(c -> TcpLoadTestStatus.COMPLETED.equals(c.getType()));
        Condition completed = new Condition();
        completed.setType(TcpLoadTestStatus.COMPLETED);
        completed.setStatus("False");
        completed.setReason(INTERRUPTED);
        completed.setMessage(message);
        completed.setLastTransitionTime(now.toString());
        conditions.add(completed);
        status.setConditions(conditions);
        return status;
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
        Decision decision =
                StatusComputer.next(
                        new Observation(test, spec, invalid, true, pods, probes, results, now));
        test.setStatus(decision.status());
        return decision;
    }
}
