package io.tcpload.operator.status;

import io.tcpload.operator.crd.TcpLoadTest;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.operator.validation.Failure;
import io.tcpload.runner.contract.Stopped;
import io.tcpload.runner.stats.RunSummary;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Everything a reconcile saw, the input of {@link StatusComputer}. Immutable (the maps are copied).
 *
 * @param test the resource as read (its status is the previous one)
 * @param runSpec the spec the test runs: the one recorded on its Job once created, else the
 *     resource's (so that a spec changed later is never half-applied)
 * @param invalid why the spec is refused, when it was validated and is invalid
 * @param jobExists whether the runner Job exists
 * @param specChanged whether the resource's spec differs from the one the Job was created for
 * @param refusals what the cluster said when it refused to run the runner pods (the Job
 *     controller's {@code FailedCreate}, the kubelet's {@code FailedMount}), each a sentence
 * @param pods runner pods by index
 * @param probes each reachable or tried runner's {@code /stats}, by index
 * @param results final results fetched from the runners, by index
 * @param now the wall clock
 * @param stopped for results that are partial, why their runner stopped early (a signal), by index
 * @param stepResults a capacity search's current step's results, from the runners that have it
 */
public record Observation(
        TcpLoadTest test,
        TcpLoadTestSpec runSpec,
        Optional<Failure> invalid,
        boolean jobExists,
        boolean specChanged,
        List<String> refusals,
        Map<Integer, RunnerPod> pods,
        Map<Integer, RunnerProbe> probes,
        Map<Integer, RunSummary> results,
        Instant now,
        Map<Integer, Stopped> stopped,
        StepResults stepResults) {
    public Observation {
        refusals = List.copyOf(refusals);
        pods = Map.copyOf(pods);
        probes = Map.copyOf(probes);
        results = Map.copyOf(results);
        stopped = Map.copyOf(stopped);
    }

    /** What was seen of a test that is not in a step of a capacity search. */
    public Observation(
            TcpLoadTest test,
            TcpLoadTestSpec runSpec,
            Optional<Failure> invalid,
            boolean jobExists,
            boolean specChanged,
            List<String> refusals,
            Map<Integer, RunnerPod> pods,
            Map<Integer, RunnerProbe> probes,
            Map<Integer, RunSummary> results,
            Instant now,
            Map<Integer, Stopped> stopped) {
        this(
                test,
                runSpec,
                invalid,
                jobExists,
                specChanged,
                refusals,
                pods,
                probes,
                results,
                now,
                stopped,
                StepResults.NONE);
    }

    /** What was seen, every result whole. */
    public Observation(
            TcpLoadTest test,
            TcpLoadTestSpec runSpec,
            Optional<Failure> invalid,
            boolean jobExists,
            boolean specChanged,
            List<String> refusals,
            Map<Integer, RunnerPod> pods,
            Map<Integer, RunnerProbe> probes,
            Map<Integer, RunSummary> results,
            Instant now) {
        this(
                test,
                runSpec,
                invalid,
                jobExists,
                specChanged,
                refusals,
                pods,
                probes,
                results,
                now,
                Map.of());
    }

    /** What was seen of a test whose spec is the one run and that the cluster refused nothing. */
    public Observation(
            TcpLoadTest test,
            TcpLoadTestSpec runSpec,
            Optional<Failure> invalid,
            boolean jobExists,
            Map<Integer, RunnerPod> pods,
            Map<Integer, RunnerProbe> probes,
            Map<Integer, RunSummary> results,
            Instant now) {
        this(
                test, runSpec, invalid, jobExists, false, List.of(), pods, probes, results, now,
                Map.of());
    }
}
