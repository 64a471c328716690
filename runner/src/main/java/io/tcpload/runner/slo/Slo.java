package io.tcpload.runner.slo;

import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.RunSummary;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * A service level objective: thresholds in the one threshold syntax ({@link Threshold}), all of
 * which must hold, written as one comma-separated text ({@code p99 < 50ms, errorRatio < 0.001}).
 * What {@code --search} holds each step to. Immutable; {@link #parse} and {@link #misses} are pure.
 *
 * @param text the objective as written, for messages and the report
 * @param terms its thresholds, in the order written
 */
public record Slo(String text, List<Threshold> terms) {

    public Slo {
        terms = List.copyOf(terms);
    }

    /**
     * Parses {@code METRIC OP VALUE[, METRIC OP VALUE...]}.
     *
     * @throws IllegalArgumentException saying which term is wrong and why; an objective without a
     *     latency or error term (a {@code tps} bound alone says nothing of how the service holds
     *     up), or with a term on one named request, is refused too
     */
    public static Slo parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException(
                    "is empty; write it as 'p99 < 50ms' or 'p99 < 50ms, errorRatio < 0.001'");
        }
        List<Threshold> terms = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            if (part.isBlank()) {
                throw new IllegalArgumentException(
                        "'" + text.strip() + "' has an empty term between its commas");
            }
            Threshold term = Threshold.parse(part);
            if (term.request().isPresent()) {
                throw new IllegalArgumentException(
                        "'"
                                + term.text()
                                + "': a capacity is the whole test's; an objective on one named"
                                + " request is not taken");
            }
            terms.add(term);
        }
        boolean bounds =
                terms.stream()
                        .anyMatch(
                                t ->
                                        t.metric().latency()
                                                || t.metric() == Threshold.Metric.ERROR_RATIO
                                                || t.metric() == Threshold.Metric.SUCCESS_RATIO);
        if (!bounds) {
            throw new IllegalArgumentException(
                    "'"
                            + text.strip()
                            + "' bounds no latency and no errors; a capacity is the rate held"
                            + " within a latency (p99 < 50ms) or an error ratio (errorRatio <"
                            + " 0.001)");
        }
        return new Slo(text.strip(), terms);
    }

    /**
     * The terms that did not hold for {@code figures}, measured over {@code counts}, in the order
     * written. A term {@code counts} give nothing to measure on (a latency with no responses) is
     * missed.
     */
    public List<Threshold.Miss> misses(Figures figures, Counts counts) {
        List<Threshold.Miss> misses = new ArrayList<>();
        for (Threshold term : terms) {
            term.judge(
                            figures.of(term.metric()),
                            counts.requests(),
                            counts.requests() + counts.errors())
                    .ifPresent(misses::add);
        }
        return misses;
    }

    /**
     * What an objective's terms are measured on: latencies in milliseconds, ratios from 0 to 1, and
     * the rate of responses.
     *
     * <p>Socket errors are attempts that got no judged response: they count against success, as the
     * operator's status counts them.
     */
    public record Figures(
            double p50Ms,
            double p75Ms,
            double p90Ms,
            double p99Ms,
            double p999Ms,
            double p9999Ms,
            double meanMs,
            double maxMs,
            double successRatio,
            double errorRatio,
            double tps) {

        /** The figures of a run (or of one step of a search). */
        public static Figures of(RunSummary run) {
            Histogram latency = run.latencyUs();
            Counts counts = run.counts();
            long attempts = counts.requests() + counts.errors();
            double seconds = run.runtimeUs() / 1e6;
            return new Figures(
                    percentileMs(latency, 50),
                    percentileMs(latency, 75),
                    percentileMs(latency, 90),
                    percentileMs(latency, 99),
                    percentileMs(latency, 99.9),
                    percentileMs(latency, 99.99),
                    latency.getTotalCount() == 0 ? 0 : latency.getMean() / 1000.0,
                    latency.getTotalCount() == 0 ? 0 : latency.getMaxValue() / 1000.0,
                    attempts == 0 ? 0 : (double) counts.successes() / attempts,
                    attempts == 0 ? 0 : (double) (counts.failures() + counts.errors()) / attempts,
                    seconds <= 0 ? 0 : counts.requests() / seconds);
        }

        /** The figure {@code metric} names. */
        public double of(Threshold.Metric metric) {
            return switch (metric) {
                case P50 -> p50Ms;
                case P75 -> p75Ms;
                case P90 -> p90Ms;
                case P99 -> p99Ms;
                case P999 -> p999Ms;
                case P9999 -> p9999Ms;
                case MEAN -> meanMs;
                case MAX -> maxMs;
                case SUCCESS_RATIO -> successRatio;
                case ERROR_RATIO -> errorRatio;
                case TPS -> tps;
            };
        }

        private static double percentileMs(Histogram histogram, double percentile) {
            return histogram.getTotalCount() == 0
                    ? 0
                    : histogram.getValueAtPercentile(percentile) / 1000.0;
        }
    }
}
