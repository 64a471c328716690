package io.tcpload.operator.status;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.tcpload.operator.crd.Phase;
import io.tcpload.operator.crd.ResultSummary;
import io.tcpload.operator.crd.RunnerStatus;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.operator.crd.TcpLoadTestStatus;
import io.tcpload.operator.results.StartSkew;
import io.tcpload.operator.results.StatusSummaries;
import io.tcpload.operator.results.Thresholds;
import io.tcpload.operator.validation.Failure;
import io.tcpload.runner.stats.RunSummary;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Collectors;

/**
 * The status of a test at its end, the same whether the runners ran as pods or in-process: the
 * phase, the four conditions with reasons and messages, the merged summary and each runner's line.
 * Pure: the times are arguments, nothing is read from a clock or the cluster.
 */
public final class FinishedStatus {
    /** Condition reasons, in CamelCase as Kubernetes expects. */
    public static final String REASON_VALID = "Valid";

    public static final String REASON_INVALID = "Invalid";
    public static final String REASON_STARTED = "Started";
    public static final String REASON_NOT_STARTED = "NotStarted";
    public static final String REASON_FINISHED = "Finished";
    public static final String REASON_RUNNER_FAILED = "RunnerFailed";
    public static final String REASON_MET = "AllMet";
    public static final String REASON_MISSED = "Missed";
    public static final String REASON_NOT_EVALUATED = "NotEvaluated";

    private static final String TRUE = "True";
    private static final String FALSE = "False";
    private static final String UNKNOWN = "Unknown";

    private FinishedStatus() {}

    /**
     * The status of a test whose runners all ended.
     *
     * @param spec the test's spec (for its thresholds)
     * @param merged the runners' results merged with {@code ResultMerge.merge}; empty when no
     *     runner reported
     * @param runners every runner's outcome, in index order
     * @param startTime when the load started
     * @param completionTime when the last runner ended; also the conditions' transition time
     * @throws IllegalArgumentException when a threshold does not parse (validation refuses those)
     */
    public static TcpLoadTestStatus finished(
            TcpLoadTestSpec spec,
            Optional<RunSummary> merged,
            List<RunnerOutcome> runners,
            Instant startTime,
            Instant completionTime) {
        String at = completionTime.toString();
        TcpLoadTestStatus status = new TcpLoadTestStatus();
        status.setStartTime(startTime.toString());
        status.setCompletionTime(at);
        status.setRunners(runners.stream().map(FinishedStatus::runnerStatus).toList());
        status.setStartSkewMs(startSkewMs(runners).orElse(null));
        Optional<ResultSummary> summary = merged.map(StatusSummaries::from);
        status.setSummary(summary.orElse(null));

        List<Condition> conditions = new ArrayList<>();
        conditions.add(
                condition(
                        TcpLoadTestStatus.PROFILE_VALID,
                        TRUE,
                        REASON_VALID,
                        "The spec and its profile are valid.",
                        at));
        conditions.add(
                condition(
                        TcpLoadTestStatus.RUNNERS_READY,
                        TRUE,
                        REASON_STARTED,
                        runners.size() + " of " + runners.size() + " runners started together.",
                        at));
        List<RunnerOutcome> failed =
                runners.stream().filter(runner -> runner.result().isEmpty()).toList();
        if (!failed.isEmpty() || summary.isEmpty()) {
            String message = runnerFailures(failed);
            conditions.add(
                    condition(
                            TcpLoadTestStatus.COMPLETED, FALSE, REASON_RUNNER_FAILED, message, at));
            conditions.add(
                    condition(
                            TcpLoadTestStatus.THRESHOLDS_MET,
                            UNKNOWN,
                            REASON_NOT_EVALUATED,
                            "Not judged: not every runner reported.",
                            at));
            status.setPhase(Phase.Failed);
            status.setMessage(message);
            status.setConditions(conditions);
            return status;
        }
        conditions.add(
                condition(
                        TcpLoadTestStatus.COMPLETED,
                        TRUE,
                        REASON_FINISHED,
                        "Every runner ran to its end and reported.",
                        at));
        List<Thresholds.Miss> misses = Thresholds.evaluate(spec.getThresholds(), summary.get());
        if (misses.isEmpty()) {
            String message =
                    spec.getThresholds().isEmpty()
                            ? "No thresholds were set."
                            : "All " + spec.getThresholds().size() + " thresholds held.";
            conditions.add(
                    condition(TcpLoadTestStatus.THRESHOLDS_MET, TRUE, REASON_MET, message, at));
            status.setPhase(Phase.Succeeded);
            status.setMessage("Passed: " + message);
        } else {
            String message =
                    misses.stream().map(Thresholds.Miss::message).collect(Collectors.joining("; "));
            conditions.add(
                    condition(TcpLoadTestStatus.THRESHOLDS_MET, FALSE, REASON_MISSED, message, at));
            status.setPhase(Phase.Failed);
            status.setMessage("Thresholds missed: " + message);
        }
        status.setConditions(conditions);
        return status;
    }

    /** The status of a test refused by validation: nothing was started. */
    public static TcpLoadTestStatus invalid(Failure failure, Instant now) {
        String at = now.toString();
        TcpLoadTestStatus status = new TcpLoadTestStatus();
        status.setPhase(Phase.Failed);
        status.setCompletionTime(at);
        status.setMessage("Invalid: " + failure);
        List<Condition> conditions = new ArrayList<>();
        conditions.add(
                condition(
                        TcpLoadTestStatus.PROFILE_VALID,
                        FALSE,
                        REASON_INVALID,
                        failure.toString(),
                        at));
        conditions.add(
                condition(
                        TcpLoadTestStatus.RUNNERS_READY,
                        FALSE,
                        REASON_NOT_STARTED,
                        "No runner was started: the spec is invalid.",
                        at));
        status.setConditions(conditions);
        return status;
    }

    static RunnerStatus runnerStatus(RunnerOutcome outcome) {
        RunnerStatus status = new RunnerStatus();
        status.setIndex(outcome.index());
        status.setPod(outcome.pod().orElse(null));
        status.setPhase(outcome.result().isPresent() ? "Succeeded" : "Failed");
        outcome.result()
                .ifPresent(
                        result -> {
                            ResultSummary summary = StatusSummaries.from(result);
                            status.setRequests(summary.getRequests());
                            status.setTps(summary.getTps());
                        });
        status.setStartTime(outcome.startTime().map(Instant::toString).orElse(null));
        status.setMessage(outcome.message().orElse(null));
        return status;
    }

    /**
     * Between the first and the last start of a runner's load, as the runners measured them, when
     * every runner reported one.
     */
    static Optional<Long> startSkewMs(List<RunnerOutcome> runners) {
        if (runners.isEmpty()
                || runners.stream()
                        .anyMatch(
                                r ->
                                        r.result().isEmpty()
                                                || r.result().get().startEpochUs() == 0)) {
            return Optional.empty();
        }
        OptionalLong skewMs =
                StartSkew.spreadMs(runners.stream().map(r -> r.result().get()).toList());
        return skewMs.isPresent() ? Optional.of(skewMs.getAsLong()) : Optional.empty();
    }

    private static String runnerFailures(List<RunnerOutcome> failed) {
        if (failed.isEmpty()) {
            return "No runner reported a result.";
        }
        return failed.stream()
                .map(
                        runner ->
                                "runner "
                                        + runner.index()
                                        + " failed: "
                                        + runner.message().orElse("no result"))
                .collect(Collectors.joining("; "));
    }

    private static Condition condition(
            String type, String status, String reason, String message, String at) {
        return new ConditionBuilder()
                .withType(type)
                .withStatus(status)
                .withReason(reason)
                .withMessage(message)
                .withLastTransitionTime(at)
                .build();
    }
}
