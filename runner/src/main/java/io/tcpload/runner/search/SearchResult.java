package io.tcpload.runner.search;

import io.tcpload.runner.search.CapacitySearch.Outcome;
import io.tcpload.runner.stats.RunSummary;
import java.util.List;

/**
 * A finished capacity search: its outcome and every step's own result (its histograms included), in
 * the order run, and how long the search took. The results go in hand with {@link Outcome#steps}:
 * the n-th result is the n-th step's.
 *
 * @param outcome how the search ended and every step's verdict
 * @param stepResults each step's result, measured part only
 * @param wallTimeMs from the first step's start to the last one's end, warm-ups and decisions
 *     included
 */
public record SearchResult(Outcome outcome, List<RunSummary> stepResults, long wallTimeMs) {
    public SearchResult {
        stepResults = List.copyOf(stepResults);
        if (stepResults.size() != outcome.steps().size()) {
            throw new IllegalArgumentException(
                    outcome.steps().size()
                            + " steps judged but "
                            + stepResults.size()
                            + " results");
        }
    }

    /** The result the capacity rests on: the confirmation that held, else the last step's. */
    public RunSummary headline() {
        return stepResults.get(stepResults.size() - 1);
    }

    /** Whether any step ran. */
    public boolean anyStep() {
        return !stepResults.isEmpty();
    }
}
