package io.tcpload.operator.status;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Condition;
import io.tcpload.operator.children.RunnerInvocations;
import io.tcpload.operator.crd.CapacityStatus;
import io.tcpload.operator.crd.LatencySummary;
import io.tcpload.operator.crd.Phase;
import io.tcpload.operator.crd.ResultSummary;
import io.tcpload.operator.crd.RunnerStatus;
import io.tcpload.operator.crd.TcpLoadTest;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.operator.crd.TcpLoadTestStatus;
import io.tcpload.operator.results.DryRunSummaries;
import io.tcpload.operator.results.ResultMerge;
import io.tcpload.operator.results.StartSkew;
import io.tcpload.operator.results.StatusSummaries;
import io.tcpload.operator.results.Thresholds;
import io.tcpload.runner.Version;
import io.tcpload.runner.contract.RunnerInvocation.Load;
import io.tcpload.runner.contract.RunnerLimits;
import io.tcpload.runner.contract.RunnerProtocol;
import io.tcpload.runner.contract.Stopped;
import io.tcpload.runner.report.DryRunResult;
import io.tcpload.runner.search.SearchSpec;
import io.tcpload.runner.slo.Threshold;
import io.tcpload.runner.stats.RunSummary;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Collectors;

/**
 * The test's state machine as one pure function: from what a reconcile observed to the next status
 * and the actions leading there. Nothing here talks to the cluster or the runners, and nothing is
 * remembered between calls: everything needed to go on is in the status, the Job and the runners,
 * so an operator restarted at any point carries on. Local mode ({@code tcpload run}) drives it too,
 * its in-process runners shown as pods, so both write one status for one test.
 *
 * <pre>
 * Pending  --valid-->   Starting (children created)      --invalid--> Failed
 * Starting --all ready--> start instant set (written at once) --told--> Running
 * Starting --startTimeoutSeconds or a pod failed--> Failed (runners deleted)
 * Running  --every runner reported or failed--> Succeeded | Failed (runners told to finish)
 * Succeeded, Failed --ttlSecondsAfterFinished--> children deleted
 * A dry run: Starting --its one pod ended--> Succeeded | Failed by the verdicts
 * A capacity search: Running --each step's results from every runner--> next step recorded
 *   (written at once), then told | the search ended (runners told) --every runner reported-->
 *   Succeeded | Failed; a runner lost or late in a step --> Failed, the steps so far kept
 * </pre>
 */
public final class StatusComputer {
    /** What this operator is, in messages about runners of another version. */
    static final String OPERATOR_VERSION = "tcpload " + Version.NUMBER;

    /** How far ahead the start instant is set: time to tell every runner. */
    public static final Duration START_LEAD = Duration.ofMillis(500);

    /** How often a starting or running test is looked at (live TPS in the status). */
    public static final Duration POLL = Duration.ofSeconds(2);

    /**
     * How long a runner pod may wait for its image before the test fails: a registry that is slow
     * or briefly away gets a few pull attempts, a wrong image name or missing credentials do not
     * wait for {@code startTimeoutSeconds}.
     */
    static final Duration IMAGE_PULL_GRACE = Duration.ofSeconds(60);

    /** Waiting reasons after which a container never starts by itself. */
    private static final List<String> NEVER_STARTS =
            List.of(
                    "InvalidImageName",
                    "ErrImageNeverPull",
                    "CreateContainerConfigError",
                    "CreateContainerError");

    /** Waiting reasons that end only if the image becomes pullable. */
    private static final List<String> PULL_FAILURES = List.of("ErrImagePull", "ImagePullBackOff");

    /** kstatus' conditions, which Flux, Argo CD and {@code kubectl wait} understand. */
    public static final String READY = "Ready";

    public static final String RECONCILING = "Reconciling";
    public static final String STALLED = "Stalled";

    /**
     * How long a running runner may stay unreachable before it is declared lost (its node gone, its
     * network cut): long enough for a busy runner or a brief network fault, short enough that the
     * others' figures are not held back for the Kubernetes node controller's five minutes.
     */
    public static final Duration LOST_AFTER = Duration.ofSeconds(20);

    /** How often a test with a terminating runner is looked at: its partial result is near. */
    static final Duration TERMINATING_POLL = Duration.ofMillis(250);

    /** Beyond duration and timeout, how long the runners have to report before they fail. */
    static final Duration REPORT_GRACE = Duration.ofSeconds(60);

    private static final ObjectMapper COPIER = new ObjectMapper();

    private StatusComputer() {}

    public static Decision next(Observation seen) {
        TcpLoadTestStatus previous = seen.test().getStatus();
        TcpLoadTestStatus status =
                previous == null
                        ? new TcpLoadTestStatus()
                        : COPIER.convertValue(previous, TcpLoadTestStatus.class);
        Phase phase = status.getPhase() == null ? Phase.Pending : status.getPhase();
        Builder next = new Builder(status, seen.now(), generation(seen));
        // Seen, whether accepted or refused: tools compare it with metadata.generation.
        status.setObservedGeneration(generation(seen));
        if (phase == Phase.Pending) {
            return pending(seen, next);
        }
        guardSpec(seen, next);
        if (RunnerInvocations.dryRun(seen.runSpec()) && !phase.finished()) {
            return dryRunning(seen, next);
        }
        if (!phase.finished()) {
            Optional<Decision> incompatible = incompatible(seen, next, phase == Phase.Starting);
            if (incompatible.isPresent()) {
                return incompatible.get();
            }
            Optional<Decision> mismatch = instantMismatch(seen, next, phase == Phase.Starting);
            if (mismatch.isPresent()) {
                return mismatch.get();
            }
            clockOffsets(seen, next.status);
        }
        return switch (phase) {
            case Starting -> starting(seen, next);
            case Running -> running(seen, next);
            default -> finished(seen, next);
        };
    }

    private static Decision pending(Observation seen, Builder next) {
        TcpLoadTestStatus status = next.status;
        long generation = generation(seen);
        status.setObservedGeneration(generation);
        if (seen.invalid().isPresent()) {
            String message = seen.invalid().get().toString();
            next.condition(TcpLoadTestStatus.PROFILE_VALID, false, "InvalidSpec", message);
            status.setPhase(Phase.Failed);
            status.setMessage(message);
            status.setCompletionTime(seen.now().toString());
            next.event(EventReason.InvalidSpec, message);
            return next.build();
        }
        int runners = RunnerInvocations.pods(seen.runSpec());
        next.condition(
                TcpLoadTestStatus.PROFILE_VALID, true, "Valid", "The spec and profile are valid.");
        next.condition(
                TcpLoadTestStatus.SPEC_ACCEPTED,
                true,
                "Accepted",
                "Generation " + generation + " runs.");
        next.condition(
                TcpLoadTestStatus.RUNNERS_READY,
                false,
                "Starting",
                "0 of " + runners + " runners ready.");
        status.setPhase(Phase.Starting);
        boolean dryRun = RunnerInvocations.dryRun(seen.runSpec());
        status.setMessage(
                dryRun
                        ? "Starting the dry run's runner pod."
                        : "Starting " + runners + " runner pods.");
        status.setRunners(rows(seen));
        next.createChildren = true;
        next.event(
                EventReason.RunnersCreated,
                dryRun
                        ? "Created the Job of the dry run's runner pod."
                        : "Created the Job of " + runners + " runner pods.");
        next.requeue = Optional.of(Duration.ofSeconds(1));
        return next.build();
    }

    /** A test runs once: a spec changed after the start is refused, with a condition saying so. */
    private static void guardSpec(Observation seen, Builder next) {
        if (!seen.specChanged()) {
            return;
        }
        long generation = generation(seen);
        boolean newlyRefused =
                !isFalse(next.status, TcpLoadTestStatus.SPEC_ACCEPTED, "ChangedAfterStart");
        String message =
                "Generation "
                        + generation
                        + " was refused: a test runs once, and this one had started with another"
                        + " spec, which it goes on with. Create a new TcpLoadTest to run the"
                        + " changed spec.";
        next.condition(TcpLoadTestStatus.SPEC_ACCEPTED, false, "ChangedAfterStart", message);
        if (newlyRefused) {
            next.event(EventReason.SpecChangeRefused, message);
        }
    }

    /**
     * A runner of another version cannot be driven (its paths or its figures may mean other
     * things): the test stops at once, naming both versions, instead of misreading it.
     */
    private static Optional<Decision> incompatible(
            Observation seen, Builder next, boolean beforeStart) {
        for (var entry : seen.probes().entrySet()) {
            RunnerProbe probe = entry.getValue();
            if (!probe.incompatible()) {
                continue;
            }
            RunnerPod pod = seen.pods().get(entry.getKey());
            String runner = pod == null ? "runner " + entry.getKey() : runnerName(pod);
            String message =
                    capitalized(runner)
                            + " is "
                            + (probe.runnerVersion().isEmpty()
                                    ? "a runner of unknown version"
                                    : probe.runnerVersion())
                            + " speaking runner protocol "
                            + probe.protocolVersion()
                            + "; this operator is "
                            + OPERATOR_VERSION
                            + " and speaks protocol "
                            + RunnerProtocol.VERSION
                            + ". Use a runner image of the operator's version (spec.runner.image, or"
                            + " the chart's default).";
            String condition =
                    beforeStart ? TcpLoadTestStatus.RUNNERS_READY : TcpLoadTestStatus.COMPLETED;
            next.condition(condition, false, "RunnerIncompatible", message);
            return Optional.of(next.fail(EventReason.RunnerIncompatible, message, true));
        }
        return Optional.empty();
    }

    /**
     * The operator acts only on the instant it recorded: a runner told another (or one while none
     * is recorded) was steered by something else, and the test fails saying so instead of following
     * it. Written before anything is done: a reconcile handed a stale copy, which lacks the instant
     * the runners were told, has its write refused and does nothing.
     */
    private static Optional<Decision> instantMismatch(
            Observation seen, Builder next, boolean beforeStart) {
        Long recorded = next.status.getStartAtMs();
        for (var entry : seen.probes().entrySet()) {
            long told = entry.getValue().startAtEpochMs();
            if (told <= 0 || (recorded != null && told == recorded)) {
                continue;
            }
            RunnerPod pod = seen.pods().get(entry.getKey());
            String runner = pod == null ? "runner " + entry.getKey() : runnerName(pod);
            String message =
                    capitalized(runner)
                            + " was told to start at "
                            + Instant.ofEpochMilli(told)
                            + (recorded == null
                                    ? ", before this test recorded any start instant"
                                    : ", not at this test's start instant "
                                            + Instant.ofEpochMilli(recorded))
                            + ": something other than this operator steered it. Only the operator"
                            + " holds the runners' token; see who else can reach the runner pods'"
                            + " port.";
            String condition =
                    beforeStart ? TcpLoadTestStatus.RUNNERS_READY : TcpLoadTestStatus.COMPLETED;
            next.condition(condition, false, "StartInstantMismatch", message);
            next.writeFirst = true;
            return Optional.of(next.fail(EventReason.StartInstantMismatch, message, beforeStart));
        }
        return Optional.empty();
    }

    /**
     * The largest clock offset of the runners that answered, in milliseconds to the microsecond;
     * kept as it was when none answered (after the runners have gone).
     */
    static void clockOffsets(Observation seen, TcpLoadTestStatus status) {
        OptionalLong largestUs =
                seen.probes().values().stream()
                        .filter(probe -> probe.state() != RunnerProbe.State.UNREACHABLE)
                        .mapToLong(probe -> Math.abs(probe.offsetUs()))
                        .max();
        if (largestUs.isPresent()) {
            status.setMaxClockOffsetMs(largestUs.getAsLong() / 1000.0);
        }
    }

    private static Decision starting(Observation seen, Builder next) {
        TcpLoadTestStatus status = next.status;
        TcpLoadTestSpec spec = seen.runSpec();
        int runners = spec.getRunners();
        status.setRunners(rows(seen));
        next.createChildren = !seen.jobExists() && status.getStartAtMs() == null;
        if (!seen.refusals().isEmpty()) {
            String message = "The cluster refused the runner pods: " + seen.refusals().get(0);
            next.condition(TcpLoadTestStatus.RUNNERS_READY, false, "RunnersRefused", message);
            return next.fail(EventReason.RunnersRefused, message, true);
        }
        Instant startingSince =
                transition(status, TcpLoadTestStatus.RUNNERS_READY).orElse(seen.now());
        Optional<RunnerPod> cannotStart =
                seen.pods().values().stream()
                        .filter(
                                pod ->
                                        cannotStart(
                                                pod, Duration.between(startingSince, seen.now())))
                        .findFirst();
        if (cannotStart.isPresent()) {
            RunnerPod pod = cannotStart.get();
            String message = capitalized(runnerName(pod)) + " cannot start: " + pod.problem() + ".";
            next.condition(TcpLoadTestStatus.RUNNERS_READY, false, "RunnerCannotStart", message);
            return next.fail(EventReason.RunnerFailed, message, true);
        }
        Optional<RunnerPod> failedPod =
                seen.pods().values().stream().filter(RunnerPod::failed).findFirst();
        if (failedPod.isPresent()) {
            RunnerPod pod = failedPod.get();
            String message =
                    capitalized(runnerName(pod))
                            + " failed before the start: "
                            + describe(pod)
                            + ".";
            next.condition(TcpLoadTestStatus.RUNNERS_READY, false, "RunnerFailed", message);
            return next.fail(EventReason.RunnerFailed, message, true);
        }
        if (status.getStartAtMs() != null) {
            // The instant is recorded: tell it (again; runners accept the same instant twice).
            status.setPhase(Phase.Running);
            status.setStartTime(Instant.ofEpochMilli(status.getStartAtMs()).toString());
            status.setMessage("Running on " + runners + " runners.");
            next.startAtMs = OptionalLong.of(status.getStartAtMs());
            next.event(EventReason.Started, "The runners start at " + status.getStartTime() + ".");
            // A search records its first step at once, to begin a second after the start.
            next.requeue =
                    Optional.of(RunnerInvocations.search(spec) ? Duration.ofMillis(1) : POLL);
            return next.build();
        }
        List<Integer> notReady = new ArrayList<>();
        for (int i = 0; i < runners; i++) {
            RunnerPod pod = seen.pods().get(i);
            RunnerProbe probe = seen.probes().getOrDefault(i, RunnerProbe.UNREACHABLE);
            if (pod == null || !pod.running() || !probe.state().ready()) {
                notReady.add(i);
            }
        }
        if (notReady.isEmpty()) {
            long startAtMs = seen.now().plus(START_LEAD).toEpochMilli();
            status.setStartAtMs(startAtMs);
            String message = "All " + runners + " runners are ready.";
            next.condition(TcpLoadTestStatus.RUNNERS_READY, true, "AllReady", message);
            next.event(EventReason.RunnersReady, message);
            // Recorded first, told next: an operator restarted in between tells the same instant.
            next.writeFirst = true;
            next.requeue = Optional.of(Duration.ofMillis(1));
            return next.build();
        }
        Instant deadline = startingSince.plusSeconds(spec.getStartTimeoutSeconds());
        if (!seen.now().isBefore(deadline)) {
            String reasons =
                    Grouped.join(notReady.stream().map(i -> notReadyReason(i, seen)).toList());
            String message =
                    notReady.size()
                            + " of "
                            + runners
                            + " runners were not ready within "
                            + spec.getStartTimeoutSeconds()
                            + " s: "
                            + reasons
                            + ".";
            next.condition(TcpLoadTestStatus.RUNNERS_READY, false, "StartTimeout", message);
            return next.fail(EventReason.StartTimeout, message, true);
        }
        String message = (runners - notReady.size()) + " of " + runners + " runners ready.";
        next.condition(TcpLoadTestStatus.RUNNERS_READY, false, "Starting", message);
        status.setMessage(message);
        Duration untilDeadline = Duration.between(seen.now(), deadline);
        next.requeue =
                Optional.of(
                        untilDeadline.compareTo(Duration.ofSeconds(1)) < 0
                                ? untilDeadline
                                : Duration.ofSeconds(1));
        return next.build();
    }

    /**
     * A dry run ({@code spec.dryRun}): one runner pod sends each request once and ends, its
     * exchange in its termination message. Starting until it ends; then Succeeded when every
     * response was a success, Failed otherwise, the exchange in {@code status.dryRun} either way. A
     * pod that ends without an exchange (a profile its runner refuses, a crash) fails the test with
     * what it said.
     */
    private static Decision dryRunning(Observation seen, Builder next) {
        TcpLoadTestStatus status = next.status;
        TcpLoadTestSpec spec = seen.runSpec();
        status.setRunners(rows(seen));
        next.createChildren = !seen.jobExists() && status.getCompletionTime() == null;
        if (!seen.refusals().isEmpty()) {
            String message = "The cluster refused the runner pod: " + seen.refusals().get(0);
            next.condition(TcpLoadTestStatus.RUNNERS_READY, false, "RunnersRefused", message);
            return next.fail(EventReason.RunnersRefused, message, true);
        }
        Instant startingSince =
                transition(status, TcpLoadTestStatus.RUNNERS_READY).orElse(seen.now());
        RunnerPod pod = seen.pods().get(0);
        if (pod != null && cannotStart(pod, Duration.between(startingSince, seen.now()))) {
            String message = capitalized(runnerName(pod)) + " cannot start: " + pod.problem() + ".";
            next.condition(TcpLoadTestStatus.RUNNERS_READY, false, "RunnerCannotStart", message);
            return next.fail(EventReason.RunnerFailed, message, true);
        }
        if (pod != null && (pod.failed() || "Succeeded".equals(pod.phase()))) {
            Optional<DryRunResult> result = dryRunResult(pod.terminationMessage());
            if (result.isEmpty()) {
                String message =
                        "The dry run's "
                                + runnerName(pod)
                                + " ended without its exchange: "
                                + describe(pod)
                                + ".";
                next.condition(TcpLoadTestStatus.COMPLETED, false, "RunnerFailed", message);
                return next.fail(EventReason.RunnerFailed, message, false);
            }
            status.setDryRun(DryRunSummaries.from(result.get()));
            String message = DryRunSummaries.sentence(result.get());
            next.condition(TcpLoadTestStatus.RUNNERS_READY, true, "DryRun", message);
            next.condition(TcpLoadTestStatus.COMPLETED, true, "DryRun", message);
            if (!result.get().passed()) {
                return next.fail(EventReason.DryRunFailed, message, false);
            }
            status.setPhase(Phase.Succeeded);
            status.setMessage(message);
            status.setCompletionTime(seen.now().toString());
            next.event(EventReason.Succeeded, message);
            next.requeue = Optional.of(POLL);
            return next.build();
        }
        // Each request may wait its timeout, and the pod first has its start timeout.
        Duration bound =
                Duration.ofSeconds(spec.getStartTimeoutSeconds())
                        .plusMillis(
                                RunnerInvocations.load(spec).timeoutMs()
                                        * (RunnerLimits.REQUEST_NAMES_MAX + 1L))
                        .plus(REPORT_GRACE);
        Instant deadline = startingSince.plus(bound);
        if (!seen.now().isBefore(deadline)) {
            String message =
                    "The dry run did not end within "
                            + bound.toSeconds()
                            + " s: "
                            + (pod == null
                                    ? "its runner has no pod"
                                    : runnerName(pod) + ": " + describe(pod))
                            + ".";
            next.condition(TcpLoadTestStatus.COMPLETED, false, "StartTimeout", message);
            return next.fail(EventReason.StartTimeout, message, true);
        }
        String message =
                pod != null && pod.running()
                        ? "Dry run on " + runnerName(pod) + "."
                        : "Waiting for the dry run's runner pod.";
        next.condition(TcpLoadTestStatus.RUNNERS_READY, false, "Starting", message);
        status.setMessage(message);
        next.requeue = Optional.of(Duration.ofSeconds(1));
        return next.build();
    }

    /** A dry run's exchange from its runner's termination message; empty when it is not one. */
    private static Optional<DryRunResult> dryRunResult(String terminationMessage) {
        if (terminationMessage == null || terminationMessage.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(DryRunResult.read(terminationMessage));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static Decision running(Observation seen, Builder next) {
        if (RunnerInvocations.search(seen.runSpec())) {
            return SearchProgress.searching(seen, next);
        }
        Load load = RunnerInvocations.load(seen.runSpec());
        Instant reportBy =
                Instant.ofEpochMilli(next.status.getStartAtMs())
                        .plusMillis(load.totalDurationMs())
                        .plusMillis(load.timeoutMs())
                        .plus(REPORT_GRACE);
        return running(seen, next, reportBy);
    }

    /**
     * Why runner {@code i}, which has not reported, is lost: its pod deleted or failed, or
     * unreachable for {@link #LOST_AFTER}; empty while it may still report.
     */
    static Optional<Grouped.Item> lost(
            int i, Observation seen, TcpLoadTestStatus status, Instant startAt) {
        RunnerPod pod = seen.pods().get(i);
        Optional<Instant> unreachableSince =
                Optional.ofNullable(status.getRunners().get(i).getUnreachableSince())
                        .map(Instant::parse);
        if (pod == null) {
            return Optional.of(
                    new Grouped.Item(
                            i, "runner " + i, "lost: its pod was deleted before it reported"));
        }
        if (pod.failed()) {
            return Optional.of(
                    new Grouped.Item(
                            i,
                            runnerName(pod),
                            "lost"
                                    + at(
                                            pod.endedAt() == null ? seen.now() : pod.endedAt(),
                                            startAt)
                                    + ": "
                                    + describe(pod)));
        }
        if (unreachableSince.isPresent()
                && !seen.now().isBefore(unreachableSince.get().plus(LOST_AFTER))) {
            // A runner on a lost node: its pod looks as it was, and no answer comes.
            return Optional.of(
                    new Grouped.Item(
                            i,
                            runnerName(pod),
                            "lost"
                                    + at(unreachableSince.get(), startAt)
                                    + ": unreachable for "
                                    + LOST_AFTER.toSeconds()
                                    + " s (its node may be lost)"));
        }
        return Optional.empty();
    }

    /** Every runner reports by {@code reportBy} or is counted lost. */
    static Decision running(Observation seen, Builder next, Instant reportBy) {
        TcpLoadTestStatus status = next.status;
        TcpLoadTestSpec spec = seen.runSpec();
        int runners = spec.getRunners();
        List<RunnerStatus> previousRows = status.getRunners();
        status.setRunners(rows(seen, previousRows));
        Instant startAt = Instant.ofEpochMilli(status.getStartAtMs());
        List<Grouped.Item> lost = new ArrayList<>();
        List<Integer> pending = new ArrayList<>();
        boolean terminating = false;
        for (int i = 0; i < runners; i++) {
            if (seen.results().containsKey(i)) {
                continue;
            }
            Optional<Grouped.Item> gone = lost(i, seen, status, startAt);
            if (gone.isPresent()) {
                lost.add(gone.get());
            } else {
                pending.add(i);
                terminating |= seen.pods().get(i).terminating() != null;
            }
        }
        if (!pending.isEmpty() && seen.now().isBefore(reportBy)) {
            status.setSummary(live(seen, startAt));
            status.setMessage(
                    "Running: " + seen.results().size() + " of " + runners + " runners reported.");
            // A runner told to go seals its result within moments: fetched as soon as it is.
            next.requeue = Optional.of(terminating ? TERMINATING_POLL : POLL);
            return next.build();
        }
        for (int i : pending) {
            lost.add(new Grouped.Item(i, "runner " + i, "lost: it did not report by " + reportBy));
        }
        List<Grouped.Item> partial = new ArrayList<>();
        for (RunnerStatus row : status.getRunners()) {
            if (Boolean.TRUE.equals(row.getPartial())) {
                partial.add(
                        new Grouped.Item(
                                row.getIndex(),
                                "runner "
                                        + row.getIndex()
                                        + (row.getPod() == null
                                                ? ""
                                                : " (pod " + row.getPod() + ")"),
                                row.getMessage() + ": partial"));
            }
        }
        List<RunSummary> collected = new ArrayList<>(seen.results().values());
        if (!collected.isEmpty()) {
            RunSummary merged = ResultMerge.merge(collected);
            status.setSummary(StatusSummaries.from(merged));
            // From when each runner's loops really began, as the runners measured it themselves,
            // each on its own clock brought to the operator's by its offset.
            Map<Integer, Long> offsetsUs = new HashMap<>();
            seen.probes().forEach((index, probe) -> offsetsUs.put(index, probe.offsetUs()));
            OptionalLong skewMs = StartSkew.spreadMs(seen.results(), offsetsUs);
            status.setStartSkewMs(skewMs.isPresent() ? skewMs.getAsLong() : null);
        } else {
            status.setSummary(null);
        }
        status.setCompletionTime(seen.now().toString());
        next.finishRunners = true;
        if (!lost.isEmpty() || !partial.isEmpty()) {
            // Never presented as a whole result: the summary says what it covers.
            List<String> parts = new ArrayList<>();
            parts.add(
                    (collected.size() - partial.size())
                            + " of "
                            + runners
                            + " runners whole"
                            + (partial.isEmpty() ? "" : ", " + partial.size() + " partial"));
            List<Grouped.Item> incomplete = new ArrayList<>(lost);
            incomplete.addAll(partial);
            parts.add(Grouped.join(incomplete));
            String coverage = String.join("; ", parts);
            if (status.getSummary() != null) {
                status.getSummary().setCoverage(coverage);
            }
            String message =
                    (collected.isEmpty() ? "No runner reported a result: " : "Incomplete result: ")
                            + coverage
                            + ".";
            next.condition(
                    TcpLoadTestStatus.COMPLETED,
                    false,
                    lost.isEmpty() ? "PartialResult" : "RunnerFailed",
                    message);
            return next.fail(EventReason.RunnerFailed, message, false);
        }
        next.condition(
                TcpLoadTestStatus.COMPLETED,
                true,
                "AllReported",
                "Every runner reported its result.");
        CapacityStatus capacity = RunnerInvocations.search(spec) ? status.getCapacity() : null;
        if (capacity != null && !SearchProgress.answered(capacity)) {
            return next.fail(
                    EventReason.CapacityNotFound,
                    "The capacity search found no capacity: " + capacity.getMessage() + ".",
                    false);
        }
        // A search's runners each report the last step's result: the confirmation that held.
        List<Threshold.Miss> misses =
                Thresholds.evaluate(spec.getThresholds(), status.getSummary());
        if (!misses.isEmpty()) {
            String message =
                    "Thresholds missed: "
                            + misses.stream()
                                    .map(Threshold.Miss::message)
                                    .collect(Collectors.joining("; "))
                            + ".";
            next.condition(TcpLoadTestStatus.THRESHOLDS_MET, false, "ThresholdsMissed", message);
            return next.fail(EventReason.ThresholdsMissed, message, false);
        }
        String message =
                spec.getThresholds().isEmpty()
                        ? "Every runner reported; no thresholds were set."
                        : "Every threshold held: " + String.join(", ", spec.getThresholds()) + ".";
        next.condition(TcpLoadTestStatus.THRESHOLDS_MET, true, "ThresholdsMet", message);
        if (capacity != null) {
            message =
                    "Capacity "
                            + SearchSpec.formatRate(capacity.getRate())
                            + " requests/sec (SLO "
                            + capacity.getSlo()
                            + "): "
                            + capacity.getMessage()
                            + ". "
                            + message;
        }
        status.setPhase(Phase.Succeeded);
        status.setMessage(message);
        next.event(EventReason.Succeeded, message);
        // Looked at again soon: the runners are told to finish until their pods end, then the
        // TTL, if any, is waited for.
        next.requeue = Optional.of(POLL);
        return next.build();
    }

    private static Decision finished(Observation seen, Builder next) {
        TcpLoadTestStatus status = next.status;
        if (status.getPhase() == Phase.Failed
                && status.getStartAtMs() == null
                && seen.jobExists()) {
            // Failed before its start (on a reconcile error, say): its runners would wait for an
            // instant that never comes.
            next.deleteChildren = true;
            return next.build();
        }
        boolean anyRunning = seen.pods().values().stream().anyMatch(RunnerPod::running);
        next.finishRunners = anyRunning;
        // A search that failed in a step leaves runners waiting for the next one.
        next.endSteps = anyRunning && RunnerInvocations.search(seen.runSpec());
        if (next.endSteps) {
            // Its runners end their step first, and take a finish only once they hold a result.
            next.requeue = Optional.of(POLL);
        }
        Integer ttl = seen.runSpec().getTtlSecondsAfterFinished();
        if (ttl == null || status.getCompletionTime() == null || !seen.jobExists()) {
            return next.build();
        }
        Instant expiry = Instant.parse(status.getCompletionTime()).plusSeconds(ttl);
        if (seen.now().isBefore(expiry)) {
            Duration untilExpiry = Duration.between(seen.now(), expiry);
            next.requeue =
                    Optional.of(
                            next.endSteps && POLL.compareTo(untilExpiry) < 0 ? POLL : untilExpiry);
            return next.build();
        }
        next.deleteChildren = true;
        next.event(
                EventReason.CleanedUp, "Deleted the runner Job and its pods after " + ttl + " s.");
        return next.build();
    }

    /** While running: counts summed from the runners' live stats; p99 is the worst runner's. */
    static ResultSummary live(Observation seen, Instant startAt) {
        long requests = 0;
        long successes = 0;
        long failures = 0;
        long errors = 0;
        double tps = 0;
        long p99Us = 0;
        for (RunnerProbe probe : seen.probes().values()) {
            requests += probe.requests();
            successes += probe.successes();
            failures += probe.failures();
            errors += probe.errors();
            tps += probe.tps();
            p99Us = Math.max(p99Us, probe.p99Us());
        }
        ResultSummary summary = new ResultSummary();
        summary.setRuntimeMs(Math.max(0, Duration.between(startAt, seen.now()).toMillis()));
        summary.setRequests(requests);
        summary.setSuccesses(successes);
        summary.setFailures(failures);
        summary.setTps(tps);
        long attempts = requests + errors;
        double successRatio = attempts == 0 ? 0 : (double) successes / attempts;
        summary.setSuccessRatio(successRatio);
        summary.setSuccessPercent(Math.round(successRatio * 10_000) / 100.0);
        LatencySummary latency = new LatencySummary();
        latency.setP99Ms(p99Us / 1000.0);
        summary.setLatency(latency);
        return summary;
    }

    /** Each runner's row: its pod, state and figures (final ones once its result is in). */
    static List<RunnerStatus> rows(Observation seen) {
        return rows(seen, List.of());
    }

    /**
     * As {@link #rows(Observation)}, carrying over from the {@code previous} rows since when a
     * running runner has been unreachable.
     */
    static List<RunnerStatus> rows(Observation seen, List<RunnerStatus> previousRows) {
        // By index: past a bound the previous status holds only some runners' rows.
        Map<Integer, RunnerStatus> previous = new HashMap<>();
        for (RunnerStatus row : previousRows) {
            previous.put(row.getIndex(), row);
        }
        List<RunnerStatus> rows = new ArrayList<>();
        for (int i = 0; i < RunnerInvocations.pods(seen.runSpec()); i++) {
            RunnerStatus row = new RunnerStatus();
            row.setIndex(i);
            RunnerPod pod = seen.pods().get(i);
            RunnerProbe probe = seen.probes().get(i);
            RunSummary result = seen.results().get(i);
            row.setPhase(pod == null ? "Pending" : pod.phase());
            row.setPod(pod == null ? null : pod.name());
            long startEpochUs = 0;
            // On the operator's clock, as the start instant and the skew are.
            long offsetUs = probe == null ? 0 : probe.offsetUs();
            if (result != null) {
                row.setRequests(result.counts().requests());
                row.setTps(StatusSummaries.from(result).getTps());
                startEpochUs = result.startEpochUs();
            } else if (probe != null && probe.state() != RunnerProbe.State.UNREACHABLE) {
                row.setRequests(probe.requests());
                row.setTps(probe.tps());
                startEpochUs = probe.startEpochUs();
            }
            if (startEpochUs > 0) {
                row.setStartTime(epochUs(startEpochUs - offsetUs).toString());
            }
            if (pod != null && pod.problem() != null) {
                row.setMessage(pod.problem());
            }
            if (result == null
                    && pod != null
                    && pod.running()
                    && (probe == null || probe.state() == RunnerProbe.State.UNREACHABLE)) {
                RunnerStatus earlier = previous.get(i);
                String since = earlier == null ? null : earlier.getUnreachableSince();
                row.setUnreachableSince(since != null ? since : seen.now().toString());
            }
            RunnerStatus before = previous.get(i);
            if (pod == null && before != null && before.getPod() != null) {
                // Gone since: its last known pod and phase stay on its row.
                row.setPod(before.getPod());
                row.setPhase(before.getPhase());
                row.setMessage(before.getMessage());
            }
            Stopped stopped = seen.stopped().get(i);
            if (stopped != null) {
                row.setPartial(true);
                String message = stopped.describe();
                if (pod != null && pod.terminating() != null) {
                    message +=
                            " ("
                                    + (pod.terminating().equals("deleted")
                                            ? "pod deleted"
                                            : pod.terminating())
                                    + ")";
                } else if (before != null
                        && before.getMessage() != null
                        && before.getMessage().startsWith(message)) {
                    // Why it was told to go, seen while its pod was there.
                    message = before.getMessage();
                }
                row.setMessage(message);
            }
            rows.add(row);
        }
        return rows;
    }

    private static Grouped.Item notReadyReason(int index, Observation seen) {
        RunnerPod pod = seen.pods().get(index);
        if (pod == null) {
            return new Grouped.Item(index, "runner " + index, "has no pod");
        }
        String why;
        if (pod.problem() != null) {
            why = pod.problem();
        } else if (!pod.running()) {
            why = "pod " + pod.phase();
        } else {
            why = "its runner did not report ready";
        }
        return new Grouped.Item(index, runnerName(pod) + ":", why);
    }

    /**
     * Whether {@code pod} will never start by itself: its container is refused (a bad image name, a
     * missing Secret key in its environment), or its image has not been pulled for {@link
     * #IMAGE_PULL_GRACE} since the test began starting.
     */
    static boolean cannotStart(RunnerPod pod, Duration starting) {
        String problem = pod.problem();
        if (problem == null || pod.failed()) {
            return false;
        }
        String reason =
                problem.contains(":") ? problem.substring(0, problem.indexOf(':')) : problem;
        return NEVER_STARTS.contains(reason)
                || (PULL_FAILURES.contains(reason) && starting.compareTo(IMAGE_PULL_GRACE) >= 0);
    }

    /**
     * The status of a test the operator gave up on: every retry of a reconcile failed. It ends
     * Failed with the reason, instead of retrying for ever; its runners are deleted by the next
     * reconcile, if they never started.
     */
    public static TcpLoadTestStatus gaveUp(TcpLoadTest test, String message, Instant now) {
        TcpLoadTestStatus previous = test.getStatus();
        TcpLoadTestStatus status =
                previous == null
                        ? new TcpLoadTestStatus()
                        : COPIER.convertValue(previous, TcpLoadTestStatus.class);
        long generation =
                test.getMetadata().getGeneration() == null ? 1 : test.getMetadata().getGeneration();
        Builder next = new Builder(status, now, generation);
        status.setObservedGeneration(generation);
        next.condition(TcpLoadTestStatus.COMPLETED, false, "ReconcileFailed", message);
        next.fail(EventReason.ReconcileFailed, message, false);
        return next.build().status();
    }

    /** {@code runner 2 (pod NAME)}, or {@code runner 2} for a runner with no pod (local mode). */
    static String runnerName(RunnerPod pod) {
        return pod.name() == null
                ? "runner " + pod.index()
                : "runner " + pod.index() + " (pod " + pod.name() + ")";
    }

    /** {@code " at 41 s"}: how far into the run {@code when} was. */
    private static String at(Instant when, Instant startAt) {
        return " at " + Math.max(0, Duration.between(startAt, when).toSeconds()) + " s";
    }

    private static String describe(RunnerPod pod) {
        return pod.problem() != null ? pod.problem() : "pod " + pod.phase();
    }

    private static String capitalized(String text) {
        return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }

    private static Instant epochUs(long us) {
        return Instant.ofEpochSecond(us / 1_000_000, (us % 1_000_000) * 1000);
    }

    private static long generation(Observation seen) {
        Long generation = seen.test().getMetadata().getGeneration();
        return generation == null ? 1 : generation;
    }

    private static boolean isFalse(TcpLoadTestStatus status, String type, String reason) {
        return status.getConditions().stream()
                .anyMatch(
                        c ->
                                type.equals(c.getType())
                                        && "False".equals(c.getStatus())
                                        && reason.equals(c.getReason()));
    }

    private static Optional<Instant> transition(TcpLoadTestStatus status, String type) {
        return status.getConditions().stream()
                .filter(c -> type.equals(c.getType()) && c.getLastTransitionTime() != null)
                .map(c -> Instant.parse(c.getLastTransitionTime()))
                .findFirst();
    }

    /** The decision under construction. */
    static final class Builder {
        final TcpLoadTestStatus status;
        final Instant now;
        final long generation;
        String failReason;
        final List<Event> events = new ArrayList<>();
        boolean createChildren;
        OptionalLong startAtMs = OptionalLong.empty();
        boolean finishRunners;
        boolean deleteChildren;
        boolean writeFirst;
        Optional<Duration> requeue = Optional.empty();
        Optional<StepInstruction> step = Optional.empty();
        boolean endSteps;

        Builder(TcpLoadTestStatus status, Instant now, long generation) {
            this.status = status;
            this.now = now;
            this.generation = generation;
        }

        void event(EventReason reason, String message) {
            events.add(new Event(reason, message));
        }

        /** Sets a condition; its transition time moves only when its status changes. */
        void condition(String type, boolean holds, String reason, String message) {
            String value = holds ? "True" : "False";
            List<Condition> conditions = new ArrayList<>(status.getConditions());
            Condition existing = null;
            for (Condition condition : conditions) {
                if (type.equals(condition.getType())) {
                    existing = condition;
                }
            }
            String since =
                    existing != null && value.equals(existing.getStatus())
                            ? existing.getLastTransitionTime()
                            : now.toString();
            conditions.remove(existing);
            Condition condition = new Condition();
            condition.setType(type);
            condition.setStatus(value);
            condition.setReason(reason);
            condition.setMessage(message);
            condition.setLastTransitionTime(since);
            condition.setObservedGeneration(generation);
            conditions.add(condition);
            status.setConditions(conditions);
        }

        /** The test failed; before the start its runners are deleted, they would wait forever. */
        Decision fail(EventReason reason, String message, boolean beforeStart) {
            status.setPhase(Phase.Failed);
            status.setMessage(message);
            if (status.getCompletionTime() == null) {
                status.setCompletionTime(now.toString());
            }
            deleteChildren = beforeStart;
            requeue = Optional.of(POLL);
            failReason = reason.name();
            event(reason, message);
            return build();
        }

        /**
         * kstatus' conditions from the phase: Reconciling while the test is on its way, Stalled
         * once it failed, Ready once it succeeded, so that a finished test is seen as finished and
         * a failed one as failed.
         */
        private void toolConditions() {
            Phase phase = status.getPhase() == null ? Phase.Pending : status.getPhase();
            String message = status.getMessage() == null ? phase.name() : status.getMessage();
            condition(RECONCILING, !phase.finished(), phase.name(), message);
            condition(
                    STALLED,
                    phase == Phase.Failed,
                    phase == Phase.Failed
                            ? (failReason != null ? failReason : stalledReason())
                            : phase.name(),
                    message);
            condition(READY, phase == Phase.Succeeded, phase.name(), message);
        }

        /** The reason a test failed in an earlier decision, kept by its Stalled condition. */
        private String stalledReason() {
            return status.getConditions().stream()
                    .filter(c -> STALLED.equals(c.getType()) && "True".equals(c.getStatus()))
                    .map(Condition::getReason)
                    .findFirst()
                    .orElse("Failed");
        }

        Decision build() {
            toolConditions();
            RunnerRows.bound(status);
            return new Decision(
                    status,
                    createChildren,
                    startAtMs,
                    finishRunners,
                    deleteChildren,
                    events,
                    writeFirst,
                    requeue,
                    step,
                    endSteps);
        }
    }
}
