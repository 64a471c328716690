package io.tcpload.operator.local;

import io.tcpload.operator.results.ResultMerge;
import io.tcpload.runner.endpoint.StepChannel;
import io.tcpload.runner.report.SearchReport;
import io.tcpload.runner.search.CapacitySearch;
import io.tcpload.runner.search.SearchResult;
import io.tcpload.runner.search.SearchSpec;
import io.tcpload.runner.search.StepFigures;
import io.tcpload.runner.stats.RunSummary;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The orchestrator of a local capacity search: it tells each step to every in-process runner's
 * {@link StepChannel} at one instant, waits for every runner's result of it, merges them exactly
 * ({@link ResultMerge}) and records the merge in the runner's own {@link CapacitySearch}, which
 * judges it by the runner's rules and chooses the next step. A runner that stops or does not finish
 * a step in time ends the search where it stands, with what held so far.
 *
 * <p>One search per instance, on the calling thread.
 */
final class LocalSearch {
    /** How far ahead each step's instant is set: every runner hears of it before it comes. */
    static final long STEP_LEAD_MS = 200;

    /**
     * How long after the start the first step begins: the runners send at the range's minimum from
     * the start (their schedule's first rate), which warms the code paths and the target up, and
     * every runner has begun and waits for the step by then.
     */
    static final long FIRST_STEP_AFTER_MS = 1_000;

    /** Beyond a step's warm-up, length and timeout, how long its results may take. */
    static final long STEP_GRACE_MS = 10_000;

    private static final long POLL_MS = 10;

    /**
     * How the search ended.
     *
     * @param result the outcome and every step's merged result
     * @param headline each runner's own result of the step the capacity rests on (the confirmation
     *     that held, else the last step), in index order; empty before any step
     * @param lost for each runner, why it was lost, or empty
     * @param outcomes each runner's end as the status shows it (filled in by the caller)
     */
    record Ended(
            SearchResult result,
            Optional<List<RunSummary>> headline,
            List<Optional<String>> lost,
            List<RunnerOutcome> outcomes) {}

    private final SearchSpec spec;
    private final List<StepChannel> channels;
    private final List<Future<List<RunSummary>>> runners;
    private final long timeoutMs;
    private final PrintStream err;

    /**
     * @param channels each runner's steps, in index order
     * @param runners each runner's run, to see one that ended early
     * @param timeoutMs the test's request timeout: a step's last responses may take it
     * @param err where each step's line goes as it ends
     */
    LocalSearch(
            SearchSpec spec,
            List<StepChannel> channels,
            List<Future<List<RunSummary>>> runners,
            long timeoutMs,
            PrintStream err) {
        this.spec = spec;
        this.channels = channels;
        this.runners = runners;
        this.timeoutMs = timeoutMs;
        this.err = err;
    }

    /** Runs the search from the runners' start at {@code startAtMs} to its end. */
    Ended run(long startAtMs) throws InterruptedException {
        CapacitySearch search = new CapacitySearch(spec);
        List<RunSummary> merged = new ArrayList<>();
        List<List<RunSummary>> byRunner = new ArrayList<>();
        List<Optional<String>> lost =
                new ArrayList<>(Collections.nCopies(channels.size(), Optional.empty()));
        long firstNs = 0;
        String lostAt = null;
        try {
            while (search.next().isPresent() && lostAt == null) {
                CapacitySearch.Order order = search.next().get();
                long nowMs = System.currentTimeMillis();
                long atMs = Math.max(startAtMs + FIRST_STEP_AFTER_MS, nowMs + STEP_LEAD_MS);
                if (firstNs == 0) {
                    firstNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(atMs - nowMs);
                }
                long warmupMs = spec.warmupMs(order.number());
                StepChannel.Request request =
                        new StepChannel.Request(
                                order.number(), order.rate(), warmupMs, spec.stepMs(), atMs, 0);
                for (int i = 0; i < channels.size(); i++) {
                    StepChannel.PostOutcome taken = channels.get(i).post(request);
                    if (taken != StepChannel.PostOutcome.TAKEN) {
                        lost.set(i, Optional.of("refused step " + order.number() + ": " + taken));
                    }
                }
                long deadlineNs =
                        System.nanoTime()
                                + TimeUnit.MILLISECONDS.toNanos(
                                        atMs
                                                - nowMs
                                                + warmupMs
                                                + spec.stepMs()
                                                + timeoutMs
                                                + STEP_GRACE_MS);
                List<RunSummary> results = await(order.number(), deadlineNs, lost);
                if (lost.stream().anyMatch(Optional::isPresent)) {
                    int first = firstLost(lost);
                    lostAt = "runner " + first + " " + lost.get(first).get();
                    break;
                }
                RunSummary step = ResultMerge.merge(results);
                CapacitySearch.Step judged = search.record(StepFigures.of(step, order.rate()));
                err.println(LocalRun.NAME + ": " + SearchReport.stepLine(judged));
                merged.add(step);
                byRunner.add(results);
            }
        } finally {
            channels.forEach(StepChannel::end);
        }
        if (search.outcome().isEmpty()) {
            search.stop();
        }
        CapacitySearch.Outcome outcome = search.outcome().orElseThrow();
        if (lostAt != null) {
            outcome =
                    new CapacitySearch.Outcome(
                            outcome.end(),
                            outcome.capacity(),
                            lostAt + "; the search " + outcome.message(),
                            outcome.steps());
        }
        long wallMs =
                firstNs == 0
                        ? 0
                        : Math.max(0, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - firstNs));
        return new Ended(
                new SearchResult(outcome, merged, wallMs),
                byRunner.isEmpty()
                        ? Optional.empty()
                        : Optional.of(byRunner.get(byRunner.size() - 1)),
                lost,
                List.of());
    }

    /**
     * Every runner's result of step {@code number}, in index order; a runner that ended, forgot the
     * step or took too long is marked in {@code lost} instead.
     */
    private List<RunSummary> await(int number, long deadlineNs, List<Optional<String>> lost)
            throws InterruptedException {
        List<RunSummary> results = new ArrayList<>(Collections.nCopies(channels.size(), null));
        while (true) {
            boolean all = true;
            for (int i = 0; i < channels.size(); i++) {
                if (results.get(i) != null || lost.get(i).isPresent()) {
                    continue;
                }
                StepChannel.StepResult result = channels.get(i).result(number);
                if (result.state() == StepChannel.ResultState.DONE) {
                    results.set(i, result.summary().orElseThrow());
                } else if (result.state() == StepChannel.ResultState.UNKNOWN
                        || runners.get(i).isDone()) {
                    lost.set(i, Optional.of("stopped during step " + number));
                } else {
                    all = false;
                }
            }
            if (all || lost.stream().anyMatch(Optional::isPresent)) {
                return results;
            }
            if (System.nanoTime() - deadlineNs > 0) {
                for (int i = 0; i < channels.size(); i++) {
                    if (results.get(i) == null && lost.get(i).isEmpty()) {
                        lost.set(i, Optional.of("did not finish step " + number + " in time"));
                    }
                }
                return results;
            }
            Thread.sleep(POLL_MS);
        }
    }

    private static int firstLost(List<Optional<String>> lost) {
        for (int i = 0; i < lost.size(); i++) {
            if (lost.get(i).isPresent()) {
                return i;
            }
        }
        return -1;
    }
}
