package io.tcpload.operator.status;

import io.tcpload.operator.children.RunnerInvocations;
import io.tcpload.operator.crd.CapacityStatus;
import io.tcpload.operator.crd.CurrentStep;
import io.tcpload.operator.crd.SearchStep;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.operator.crd.TcpLoadTestStatus;
import io.tcpload.operator.results.ResultMerge;
import io.tcpload.operator.results.SearchSummaries;
import io.tcpload.operator.status.StatusComputer.Builder;
import io.tcpload.runner.contract.Stopped;
import io.tcpload.runner.search.CapacitySearch;
import io.tcpload.runner.search.SearchSpec;
import io.tcpload.runner.search.StepFigures;
import io.tcpload.runner.search.Verdict;
import io.tcpload.runner.stats.RunSummary;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The status of a capacity search while it runs ({@code spec.search}), one look at a time, for
 * {@link StatusComputer}: stateless as it is, everything it needs is in the observed state, the
 * recorded steps included.
 */
final class SearchProgress {
    /**
     * How long after the start a capacity search's first step begins: the runners send at the
     * range's minimum from the start, which warms the code paths and the target up.
     */
    static final Duration FIRST_STEP_AFTER = Duration.ofSeconds(1);

    /**
     * Beyond a step's warm-up, length and request timeout, how long every runner has to report it
     * before the search ends Failed, naming the runners that did not.
     */
    static final Duration STEP_GRACE = Duration.ofSeconds(10);

    /**
     * A step is told again on every look until this long past its instant (a runner takes the same
     * step twice without change, and refuses an instant ten seconds past): an operator restarted
     * between recording a step and telling it tells it then.
     */
    static final Duration RETELL_WITHIN = Duration.ofSeconds(5);

    /** How often a step's results are asked for once it has ended: the next step waits on them. */
    static final Duration STEP_RESULT_POLL = Duration.ofMillis(200);

    /**
     * A capacity search while it runs ({@code spec.search}): steps on every runner together, each
     * recorded in the status before it is told (the instant with it), each judged on every runner's
     * results merged exactly, and the next one chosen by replaying the recorded steps through the
     * runner's own {@link CapacitySearch}. Once it ends, the runners are told, and the test ends as
     * any run on their results (each its last step's: the confirmation's).
     */
    static Decision searching(Observation seen, Builder next) {
        TcpLoadTestStatus status = next.status;
        TcpLoadTestSpec spec = seen.runSpec();
        int runners = spec.getRunners();
        SearchSpec search = RunnerInvocations.searchSpec(spec);
        long timeoutMs = RunnerInvocations.load(spec).timeoutMs();
        CapacityStatus capacity =
                status.getCapacity() == null ? new CapacityStatus() : status.getCapacity();
        capacity.setSlo(search.slo().text());
        status.setCapacity(capacity);
        List<SearchStep> steps = capacity.getSteps();
        if (capacity.getEnd() != null) {
            // Told again on every look until each runner has ended and reported.
            next.endSteps = true;
            SearchStep last = steps.isEmpty() ? null : steps.get(steps.size() - 1);
            long lastStartMs =
                    last == null || last.getStartAtMs() == null
                            ? status.getStartAtMs()
                            : last.getStartAtMs();
            long lastWarmupMs = search.warmupMs(last == null ? 1 : last.getNumber());
            Instant reportBy =
                    Instant.ofEpochMilli(lastStartMs + lastWarmupMs + search.stepMs())
                            .plusMillis(timeoutMs)
                            .plus(StatusComputer.REPORT_GRACE);
            return StatusComputer.running(seen, next, reportBy);
        }
        status.setRunners(StatusComputer.rows(seen, status.getRunners()));
        Instant startAt = Instant.ofEpochMilli(status.getStartAtMs());
        CurrentStep current = capacity.getCurrent();
        String during =
                current == null ? "before the first step" : "in step " + current.getNumber();
        List<Grouped.Item> lost = new ArrayList<>();
        for (int i = 0; i < runners; i++) {
            RunnerPod pod = seen.pods().get(i);
            String name = pod == null ? "runner " + i : StatusComputer.runnerName(pod);
            if (seen.results().containsKey(i)) {
                Stopped stopped = seen.stopped().get(i);
                lost.add(
                        new Grouped.Item(
                                i,
                                name,
                                "ended its run "
                                        + during
                                        + (stopped == null ? "" : ": " + stopped.describe())));
                continue;
            }
            StatusComputer.lost(i, seen, status, startAt)
                    .ifPresent(
                            item ->
                                    lost.add(
                                            new Grouped.Item(
                                                    item.index(),
                                                    item.who(),
                                                    item.why() + " (" + during + ")")));
        }
        if (!lost.isEmpty()) {
            return stopSearch(seen, next, search, Grouped.join(lost));
        }
        CapacitySearch replay = SearchSteps.replay(search, steps);
        if (current == null) {
            long atMs =
                    Math.max(
                            startAt.plus(FIRST_STEP_AFTER).toEpochMilli(),
                            seen.now().plus(StatusComputer.START_LEAD).toEpochMilli());
            return recordStep(seen, next, replay.next().orElseThrow(), atMs);
        }
        StepInstruction told = instruction(current, search);
        StepResults results = seen.stepResults();
        if (results.number() == told.number() && results.byRunner().size() == runners) {
            // In index order, so that a merge is the same on every look.
            RunSummary merged =
                    ResultMerge.merge(new ArrayList<>(new TreeMap<>(results.byRunner()).values()));
            CapacitySearch.Order order = replay.next().orElseThrow();
            StepFigures figures = StepFigures.of(merged, order.rate());
            CapacitySearch.Step judged =
                    new CapacitySearch.Step(order, figures, Verdict.judge(search, figures));
            SearchStep row = SearchSummaries.step(judged);
            row.setStartAtMs(current.getStartAtMs());
            List<SearchStep> judgedRows = new ArrayList<>(steps);
            judgedRows.add(row);
            capacity.setSteps(judgedRows);
            next.event(
                    EventReason.StepJudged,
                    "Step "
                            + order.number()
                            + " ("
                            + order.kind().written()
                            + ") at "
                            + SearchSpec.formatRate(order.rate())
                            + "/s: "
                            + judged.verdict().describe()
                            + ".");
            // The next step as the recorded rows give it, on every look alike.
            replay = SearchSteps.replay(search, judgedRows);
            if (replay.next().isPresent() && judgedRows.size() < CapacityStatus.STEPS_MAX) {
                return recordStep(
                        seen,
                        next,
                        replay.next().get(),
                        seen.now().plus(StatusComputer.START_LEAD).toEpochMilli());
            }
            String note = "";
            if (replay.next().isPresent()) {
                replay.stop();
                note = " (the status holds at most " + CapacityStatus.STEPS_MAX + " steps)";
            }
            CapacitySearch.Outcome outcome = replay.outcome().orElseThrow();
            answer(capacity, outcome, outcome.message() + note, seen.now());
            next.endSteps = true;
            status.setMessage(
                    "The capacity search has ended ("
                            + capacity.getEnd()
                            + "); waiting for the runners' results.");
            next.requeue = Optional.of(StatusComputer.TERMINATING_POLL);
            return next.build();
        }
        Instant deadline =
                Instant.ofEpochMilli(told.endEpochMs()).plusMillis(timeoutMs).plus(STEP_GRACE);
        if (!seen.now().isBefore(deadline)) {
            List<Grouped.Item> late = new ArrayList<>();
            for (int i = 0; i < runners; i++) {
                if (results.number() == told.number() && results.byRunner().containsKey(i)) {
                    continue;
                }
                RunnerPod pod = seen.pods().get(i);
                late.add(
                        new Grouped.Item(
                                i,
                                pod == null ? "runner " + i : StatusComputer.runnerName(pod),
                                "did not report step " + told.number() + " by " + deadline));
            }
            return stopSearch(seen, next, search, Grouped.join(late));
        }
        if (seen.now().isBefore(Instant.ofEpochMilli(told.atEpochMs()).plus(RETELL_WITHIN))) {
            next.step = Optional.of(told);
        }
        status.setSummary(StatusComputer.live(seen, startAt));
        status.setMessage(
                "Capacity search: step "
                        + told.number()
                        + " ("
                        + current.getKind()
                        + ") at "
                        + SearchSpec.formatRate(told.ratePerSecond())
                        + "/s on "
                        + runners
                        + " runners; "
                        + steps.size()
                        + (steps.size() == 1 ? " step" : " steps")
                        + " judged.");
        long untilEndMs = told.endEpochMs() - seen.now().toEpochMilli();
        next.requeue =
                Optional.of(
                        untilEndMs <= 0
                                ? STEP_RESULT_POLL
                                : Duration.ofMillis(
                                        Math.min(untilEndMs + 20, StatusComputer.POLL.toMillis())));
        return next.build();
    }

    /**
     * Records {@code order} as the current step beginning at {@code atMs}, written at once: the
     * runners are told it by the decision made from the status as written.
     */
    private static Decision recordStep(
            Observation seen, Builder next, CapacitySearch.Order order, long atMs) {
        CurrentStep current = new CurrentStep();
        current.setNumber(order.number());
        current.setKind(order.kind().written());
        current.setTargetRate(order.rate());
        current.setStartAtMs(atMs);
        next.status.getCapacity().setCurrent(current);
        next.status.setMessage(
                "Capacity search: step "
                        + order.number()
                        + " ("
                        + order.kind().written()
                        + ") at "
                        + SearchSpec.formatRate(order.rate())
                        + "/s on "
                        + seen.runSpec().getRunners()
                        + " runners.");
        next.writeFirst = true;
        next.requeue = Optional.of(Duration.ofMillis(1));
        return next.build();
    }

    /** The current step as the runners are told it. */
    private static StepInstruction instruction(CurrentStep current, SearchSpec search) {
        return new StepInstruction(
                current.getNumber(),
                current.getTargetRate(),
                search.warmupMs(current.getNumber()),
                search.stepMs(),
                current.getStartAtMs());
    }

    /**
     * The search ends where it stands, the steps judged so far kept, and the test fails: {@code
     * why} names the runners.
     */
    private static Decision stopSearch(
            Observation seen, Builder next, SearchSpec search, String why) {
        CapacityStatus capacity = next.status.getCapacity();
        CapacitySearch replay = SearchSteps.replay(search, capacity.getSteps());
        replay.stop();
        CapacitySearch.Outcome outcome = replay.outcome().orElseThrow();
        answer(capacity, outcome, why + "; the search " + outcome.message(), seen.now());
        next.status.setCompletionTime(seen.now().toString());
        next.endSteps = true;
        next.finishRunners = true;
        String message = "The capacity search stopped: " + capacity.getMessage() + ".";
        next.condition(TcpLoadTestStatus.COMPLETED, false, "RunnerFailed", message);
        return next.fail(EventReason.RunnerFailed, message, false);
    }

    /** {@code capacity} with the search's answer; the step table is the rows recorded. */
    private static void answer(
            CapacityStatus capacity, CapacitySearch.Outcome outcome, String message, Instant now) {
        List<SearchStep> steps = capacity.getSteps();
        capacity.setRate(outcome.capacity());
        capacity.setEnd(outcome.end().name().toLowerCase(Locale.ROOT));
        capacity.setMessage(message);
        capacity.setConfirmation(
                outcome.confirmation().isPresent() && !steps.isEmpty()
                        ? steps.get(steps.size() - 1)
                        : null);
        capacity.setCurrent(null);
        if (!steps.isEmpty() && steps.get(0).getStartAtMs() != null) {
            capacity.setWallTimeMs(Math.max(0, now.toEpochMilli() - steps.get(0).getStartAtMs()));
        }
    }

    /** Whether the search found a rate that held its confirmation. */
    static boolean answered(CapacityStatus capacity) {
        return "found".equals(capacity.getEnd()) || "range_held".equals(capacity.getEnd());
    }

    private SearchProgress() {}
}
