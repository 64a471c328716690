package io.tcpload.operator.results;

import static java.util.stream.Collectors.joining;

import io.tcpload.operator.crd.ErrorCounts;
import io.tcpload.operator.crd.LatencySummary;
import io.tcpload.operator.crd.RequestSummary;
import io.tcpload.operator.crd.ResultSummary;
import io.tcpload.runner.slo.Threshold;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Judges a merged result against the test's thresholds: a threshold on the whole test against the
 * summary, one naming a request ({@code p99{request=transfer} < 200ms}) against that request's row.
 * Pure.
 */
public final class Thresholds {
    private Thresholds() {}

    /**
     * A threshold that did not hold, with the measured value, or one that could not be judged: it
     * names a request the result has no row of, or there was nothing to measure it on (no responses
     * for a latency, see {@link Threshold#unmeasurable}); {@code unmeasured} says which, NaN
     * measured.
     */
    public record Miss(Threshold threshold, double measured, String unmeasured) {
        public Miss(Threshold threshold, double measured) {
            this(threshold, measured, null);
        }

        /** {@code p99 < 250ms: measured 312.5ms}. */
        public String message() {
            if (unmeasured != null) {
                return threshold.text() + ": " + unmeasured;
            }
            String unit = threshold.metric().latency() ? "ms" : "";
            return threshold.text()
                    + ": measured "
                    + String.format(Locale.ROOT, "%.4g", measured)
                    + unit;
        }
    }

    /**
     * The thresholds that did not hold, in the order given; empty when all held.
     *
     * @throws IllegalArgumentException when a threshold does not parse (validation refuses those
     *     before a test starts)
     */
    public static List<Miss> evaluate(List<String> thresholds, ResultSummary summary) {
        List<Miss> misses = new ArrayList<>();
        for (String text : thresholds) {
            Threshold threshold = Threshold.parse(text);
            if (threshold.request().isPresent()) {
                String name = threshold.request().get();
                Optional<RequestSummary> row = row(summary, name);
                if (row.isEmpty()) {
                    // Validation refuses these when it reads the profile; one in a Secret it
                    // cannot read is judged missed here, never passed.
                    misses.add(new Miss(threshold, Double.NaN, noRequest(name, summary)));
                    continue;
                }
                // A row's ratios are of its own responses: socket errors belong to no name.
                long requests = count(row.get().getRequests());
                judge(threshold, requests, requests, measure(threshold.metric(), row.get()))
                        .ifPresent(misses::add);
                continue;
            }
            long requests = count(summary.getRequests());
            judge(
                            threshold,
                            requests,
                            requests + errors(summary.getErrors()),
                            measure(threshold.metric(), summary))
                    .ifPresent(misses::add);
        }
        return misses;
    }

    /**
     * The miss of {@code threshold} on a figure of {@code responses} responses out of {@code
     * attempts}, if it did not hold or there was nothing to measure it on.
     */
    private static Optional<Miss> judge(
            Threshold threshold, long responses, long attempts, double measured) {
        Optional<String> unmeasurable = threshold.unmeasurable(responses, attempts);
        if (unmeasurable.isPresent()) {
            return Optional.of(new Miss(threshold, Double.NaN, unmeasurable.get()));
        }
        return threshold.operator().holds(measured, threshold.limit())
                ? Optional.empty()
                : Optional.of(new Miss(threshold, measured));
    }

    /** A count the summary may lack (none counted): 0. */
    private static long count(Long value) {
        return value == null ? 0 : value;
    }

    private static long errors(ErrorCounts errors) {
        return errors == null
                ? 0
                : count(errors.getConnect())
                        + count(errors.getRead())
                        + count(errors.getWrite())
                        + count(errors.getTimeout())
                        + count(errors.getTls());
    }

    private static Optional<RequestSummary> row(ResultSummary summary, String name) {
        List<RequestSummary> rows = summary.getByRequest();
        return rows == null
                ? Optional.empty()
                : rows.stream().filter(row -> name.equals(row.getName())).findFirst();
    }

    /** Why a request's threshold cannot be judged: the result has no row of that name. */
    private static String noRequest(String name, ResultSummary summary) {
        List<RequestSummary> rows = summary.getByRequest();
        return rows == null || rows.isEmpty()
                ? "the profile has no request '" + name + "': it has no [request.NAME] sections"
                : "the profile has no request '"
                        + name
                        + "'; its requests are "
                        + rows.stream().map(RequestSummary::getName).collect(joining(", "));
    }

    /** One named request's figure, from its row. */
    static double measure(Threshold.Metric metric, RequestSummary row) {
        return switch (metric) {
            case P50 -> row.getP50Ms();
            case P75 -> row.getP75Ms();
            case P90 -> row.getP90Ms();
            case P99 -> row.getP99Ms();
            case P999 -> row.getP999Ms();
            case P9999 -> row.getP9999Ms();
            case MEAN -> row.getMeanMs();
            case MAX -> row.getMaxMs();
            case SUCCESS_RATIO -> row.getSuccessRatio();
            case ERROR_RATIO -> row.getErrorRatio();
            case TPS -> row.getTps();
        };
    }

    static double measure(Threshold.Metric metric, ResultSummary summary) {
        LatencySummary latency = summary.getLatency();
        return switch (metric) {
            case P50 -> latency.getP50Ms();
            case P75 -> latency.getP75Ms();
            case P90 -> latency.getP90Ms();
            case P99 -> latency.getP99Ms();
            case P999 -> latency.getP999Ms();
            case P9999 -> latency.getP9999Ms();
            case MEAN -> latency.getMeanMs();
            case MAX -> latency.getMaxMs();
            case SUCCESS_RATIO -> summary.getSuccessRatio();
            case ERROR_RATIO -> summary.getErrorRatio();
            case TPS -> summary.getTps();
        };
    }
}
