package io.tcpload.runner.session;

import io.tcpload.runner.client.ProgressListener;
import io.tcpload.runner.client.StepDriver;
import io.tcpload.runner.client.StepOrder;
import io.tcpload.runner.report.SearchReport;
import io.tcpload.runner.search.CapacitySearch;
import io.tcpload.runner.search.SearchResult;
import io.tcpload.runner.search.SearchSpec;
import io.tcpload.runner.search.StepFigures;
import io.tcpload.runner.stats.RunSummary;
import java.io.PrintStream;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A capacity search run by one runner alone: its {@link CapacitySearch} decides each step from this
 * runner's own results, on the session's kept-open connections. Each step's end is told on {@code
 * log} and in the metrics (the current step and the best rate so far).
 */
public final class SearchRun {
    private SearchRun() {}

    /**
     * Runs the search to its end (or to a stop: what held so far is then the outcome).
     *
     * @param name what its lines on {@code log} begin with: the command as the user typed it
     * @throws java.util.concurrent.CancellationException when stopped before the start
     */
    public static SearchResult run(
            RunSession session, SearchSpec spec, String name, PrintStream log)
            throws InterruptedException {
        CapacitySearch search = new CapacitySearch(spec);
        long[] firstStartNs = {0};
        StepDriver driver =
                previous -> {
                    if (previous.isPresent()) {
                        double rate = search.next().orElseThrow().rate();
                        CapacitySearch.Step step =
                                search.record(StepFigures.of(previous.get(), rate));
                        log.println(name + ": " + SearchReport.stepLine(step));
                    }
                    Optional<CapacitySearch.Order> next = search.next();
                    if (next.isEmpty()) {
                        return Optional.empty();
                    }
                    if (firstStartNs[0] == 0) {
                        firstStartNs[0] = System.nanoTime();
                    }
                    CapacitySearch.Order order = next.get();
                    session.metrics()
                            .ifPresent(
                                    m ->
                                            m.searchStep(
                                                    order.number(),
                                                    order.rate(),
                                                    search.bestSoFar()));
                    return Optional.of(
                            new StepOrder(
                                    order.number(),
                                    order.rate(),
                                    spec.warmupMs(order.number()),
                                    spec.stepMs()));
                };
        List<RunSummary> results = session.runSteps(ProgressListener.NONE, driver);
        if (search.outcome().isEmpty()) {
            search.stop();
        }
        long wallMs =
                firstStartNs[0] == 0
                        ? 0
                        : TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - firstStartNs[0]);
        // A signal's stop is said, and marks the outputs partial, as a plain run's does.
        session.searchEnded(wallMs);
        return new SearchResult(search.outcome().orElseThrow(), results, wallMs);
    }
}
