package io.tcpload.runner.report;

import io.tcpload.runner.format.Quantities;
import io.tcpload.runner.search.CapacitySearch.Outcome;
import io.tcpload.runner.search.CapacitySearch.Step;
import io.tcpload.runner.search.SearchResult;
import io.tcpload.runner.search.SearchSpec;
import io.tcpload.runner.search.StepFigures;
import io.tcpload.runner.slo.Slo;
import java.util.Locale;

/**
 * A capacity search as the console shows it: the {@code Capacity:} line, how the search ended, a
 * table of every step, and the wall time against the number of steps. Pure.
 */
public final class SearchReport {
    private SearchReport() {}

    /** The banner printed before the first step. */
    public static String banner(SearchSpec spec, String target, String profile) {
        return String.format(
                Locale.ROOT,
                "Capacity search @ %s using %s%n  SLO %s, range %s..%s requests/sec, steps of %s"
                        + " (warm-up %s), precision %s%n",
                target,
                profile,
                spec.slo().text(),
                SearchSpec.formatRate(spec.minRate()),
                SearchSpec.formatRate(spec.maxRate()),
                Quantities.formatDurationMs(spec.stepMs()),
                Quantities.formatDurationMs(spec.warmupMs()),
                percent(spec.precision()));
    }

    /** {@code Capacity: 1960 requests/sec (SLO p99 < 50ms)}, or what stands in its place. */
    public static String capacityLine(Outcome outcome, Slo slo) {
        String rate = SearchSpec.formatRate(outcome.capacity());
        String found =
                switch (outcome.end()) {
                    case FOUND -> rate + " requests/sec";
                    case RANGE_HELD -> "at least " + rate + " requests/sec";
                    case STOPPED ->
                            outcome.capacity() > 0
                                    ? "not confirmed, stopped (" + rate + " requests/sec held)"
                                    : "not found, stopped";
                    case UNCONFIRMED -> "not confirmed";
                    case MINIMUM_FAILED, TOO_FEW_CONNECTIONS -> "not found";
                };
        return "Capacity: " + found + " (SLO " + slo.text() + ")";
    }

    /** The whole report after the search. */
    public static String render(SearchResult result, Slo slo) {
        Outcome outcome = result.outcome();
        StringBuilder text = new StringBuilder();
        text.append(capacityLine(outcome, slo)).append('\n');
        text.append("  ").append(outcome.message()).append('\n');
        text.append(
                String.format(
                        Locale.ROOT,
                        "  %4s  %-7s  %9s  %9s  %9s  %9s  %9s  %9s  %7s  %13s  %s%n",
                        "Step",
                        "Kind",
                        "Target",
                        "Achieved",
                        "p50",
                        "p90",
                        "p99",
                        "p99.9",
                        "Errors",
                        "Backlog",
                        "Verdict"));
        for (Step step : outcome.steps()) {
            text.append(row(step)).append('\n');
        }
        int steps = outcome.steps().size();
        if (steps > 0) {
            text.append(
                    String.format(
                            Locale.ROOT,
                            "  %d %s in %s: %.1f s a step%n",
                            steps,
                            steps == 1 ? "step" : "steps",
                            Units.time(result.wallTimeMs() * 1000.0),
                            result.wallTimeMs() / 1000.0 / steps));
        }
        return text.toString();
    }

    /** One step's row. */
    static String row(Step step) {
        StepFigures figures = step.figures();
        Slo.Figures latency = figures.figures();
        String verdict = step.verdict().held() ? "held" : "failed: " + step.verdict().describe();
        return String.format(
                Locale.ROOT,
                "  %4d  %-7s  %9s  %9.1f  %9s  %9s  %9s  %9s  %7d  %13s  %s",
                step.order().number(),
                step.order().kind().written(),
                SearchSpec.formatRate(step.order().rate()),
                figures.achievedRate(),
                Units.time(latency.p50Ms() * 1000),
                Units.time(latency.p90Ms() * 1000),
                Units.time(latency.p99Ms() * 1000),
                Units.time(latency.p999Ms() * 1000),
                figures.errors(),
                figures.backlogAtMid() + " -> " + figures.backlogAtEnd(),
                verdict);
    }

    /** The line printed as a step ends, while the search goes on. */
    public static String stepLine(Step step) {
        StepFigures figures = step.figures();
        return String.format(
                Locale.ROOT,
                "step %d (%s) at %s/s: %s; achieved %.1f/s, p99 %s, backlog %d -> %d",
                step.order().number(),
                step.order().kind().written(),
                SearchSpec.formatRate(step.order().rate()),
                step.verdict().held() ? "held" : "failed: " + step.verdict().describe(),
                figures.achievedRate(),
                Units.time(figures.figures().p99Ms() * 1000),
                figures.backlogAtMid(),
                figures.backlogAtEnd());
    }

    /** Whether the outcome is an answer (0), bad input (2) or no answer (1). */
    public static int exitStatus(Outcome outcome) {
        return switch (outcome.end()) {
            case FOUND, RANGE_HELD -> 0;
            case MINIMUM_FAILED, TOO_FEW_CONNECTIONS -> 2;
            case UNCONFIRMED, STOPPED -> 1;
        };
    }

    static String percent(double fraction) {
        double percent = fraction * 100;
        return (percent == Math.rint(percent)
                        ? String.valueOf((long) percent)
                        : String.format(Locale.ROOT, "%.2g", percent))
                + "%";
    }
}
