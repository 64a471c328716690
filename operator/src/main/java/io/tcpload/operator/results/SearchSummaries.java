package io.tcpload.operator.results;

import io.tcpload.operator.crd.CapacityStatus;
import io.tcpload.operator.crd.SearchStep;
import io.tcpload.runner.search.CapacitySearch;
import io.tcpload.runner.search.SearchResult;
import io.tcpload.runner.search.SearchSpec;
import io.tcpload.runner.search.StepFigures;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A capacity search's answer as {@code status.capacity}: the rate, the end, the confirmation step
 * and the step table, bounded to {@link CapacityStatus#STEPS_MAX} steps. Pure.
 */
public final class SearchSummaries {
    private SearchSummaries() {}

    /**
     * The status of {@code result}, a search of {@code spec}, every step merged over the runners.
     */
    public static CapacityStatus of(SearchResult result, SearchSpec spec) {
        CapacitySearch.Outcome outcome = result.outcome();
        CapacityStatus status = new CapacityStatus();
        status.setRate(outcome.capacity());
        status.setEnd(outcome.end().name().toLowerCase(Locale.ROOT));
        status.setMessage(outcome.message());
        status.setSlo(spec.slo().text());
        status.setWallTimeMs(result.wallTimeMs());
        outcome.confirmation().map(SearchSummaries::step).ifPresent(status::setConfirmation);
        status.setSteps(steps(outcome.steps()));
        int omitted = outcome.steps().size() - status.getSteps().size();
        status.setStepsOmitted(omitted == 0 ? null : omitted);
        return status;
    }

    /**
     * The steps in the status: all of them up to {@link CapacityStatus#STEPS_MAX}, else the first
     * and the last halves of that.
     */
    static List<SearchStep> steps(List<CapacitySearch.Step> steps) {
        List<SearchStep> rows = new ArrayList<>();
        int most = CapacityStatus.STEPS_MAX;
        for (int i = 0; i < steps.size(); i++) {
            if (steps.size() <= most || i < most / 2 || i >= steps.size() - most / 2) {
                rows.add(step(steps.get(i)));
            }
        }
        return rows;
    }

    /** One step's row. */
    public static SearchStep step(CapacitySearch.Step step) {
        StepFigures figures = step.figures();
        SearchStep row = new SearchStep();
        row.setNumber(step.order().number());
        row.setKind(step.order().kind().written());
        row.setTargetRate(step.order().rate());
        row.setAchievedRate(round(figures.achievedRate()));
        row.setMeanMs(round(figures.figures().meanMs()));
        row.setP50Ms(round(figures.figures().p50Ms()));
        row.setP90Ms(round(figures.figures().p90Ms()));
        row.setP99Ms(round(figures.figures().p99Ms()));
        row.setP999Ms(round(figures.figures().p999Ms()));
        row.setErrors(figures.errors());
        row.setBacklogAtMid(figures.backlogAtMid());
        row.setBacklogAtEnd(figures.backlogAtEnd());
        row.setHeld(step.verdict().held());
        row.setReasons(new ArrayList<>(step.verdict().reasons()));
        return row;
    }

    /** Three decimals: the status says what the report does, not floating-point noise. */
    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
