package io.tcpload.operator.status;

import io.tcpload.operator.crd.SearchStep;
import io.tcpload.runner.search.CapacitySearch;
import io.tcpload.runner.search.SearchSpec;
import io.tcpload.runner.search.StepFigures;
import io.tcpload.runner.search.Verdict;
import io.tcpload.runner.slo.Slo;
import io.tcpload.runner.stats.Counts;
import java.util.List;

/**
 * A capacity search in a cluster as its status keeps it: each judged step is a row of {@code
 * status.capacity.steps}, and the search that goes on is the runner's own {@link CapacitySearch}
 * with every row replayed through it, so that the status computer remembers nothing between calls.
 * Pure.
 */
final class SearchSteps {
    private SearchSteps() {}

    /**
     * The search of {@code spec} with {@code rows} recorded, each with the verdict it was judged
     * with.
     *
     * @throws IllegalStateException when a row is not the step the search would have run (a status
     *     written by something else)
     */
    static CapacitySearch replay(SearchSpec spec, List<SearchStep> rows) {
        CapacitySearch search = new CapacitySearch(spec);
        for (int i = 0; i < rows.size(); i++) {
            SearchStep row = rows.get(i);
            CapacitySearch.Order order =
                    search.next()
                            .orElseThrow(
                                    () ->
                                            new IllegalStateException(
                                                    "status.capacity.steps holds "
                                                            + rows.size()
                                                            + " steps, but the search ended"
                                                            + " after "
                                                            + search.steps().size()));
            if (row.getNumber() == null
                    || row.getNumber() != order.number()
                    || row.getTargetRate() == null
                    || row.getTargetRate() != order.rate()) {
                throw new IllegalStateException(
                        "status.capacity.steps["
                                + i
                                + "] is step "
                                + row.getNumber()
                                + " at "
                                + row.getTargetRate()
                                + "/s, but the search's step "
                                + order.number()
                                + " is at "
                                + order.rate()
                                + "/s");
            }
            search.record(kept(row, spec), verdict(row));
        }
        return search;
    }

    /** The verdict a row was judged with. */
    static Verdict verdict(SearchStep row) {
        return new Verdict(
                Boolean.TRUE.equals(row.getHeld()),
                row.getReasons() == null ? List.of() : row.getReasons());
    }

    /**
     * The figures a row keeps, as far as a replayed search reads them (the first step's mean
     * latency, for the Little's law check); the rest as the row has them, or 0.
     */
    static StepFigures kept(SearchStep row, SearchSpec spec) {
        Slo.Figures figures =
                new Slo.Figures(
                        value(row.getP50Ms()),
                        0,
                        value(row.getP90Ms()),
                        value(row.getP99Ms()),
                        value(row.getP999Ms()),
                        0,
                        value(row.getMeanMs()),
                        0,
                        0,
                        0,
                        value(row.getAchievedRate()));
        return new StepFigures(
                row.getTargetRate(),
                (int) (spec.stepMs() / 1000),
                Counts.ZERO,
                value(row.getAchievedRate()),
                value(row.getAchievedRate()),
                row.getBacklogAtMid() == null ? 0 : row.getBacklogAtMid(),
                row.getBacklogAtEnd() == null ? 0 : row.getBacklogAtEnd(),
                figures);
    }

    private static double value(Double figure) {
        return figure == null ? 0 : figure;
    }
}
