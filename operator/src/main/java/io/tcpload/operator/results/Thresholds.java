package io.tcpload.operator.results;

import static java.util.stream.Collectors.joining;

import io.tcpload.operator.crd.ErrorCounts;
import io.tcpload.operator.crd.LatencySummary;
import io.tcpload.operator.crd.RequestSummary;
import io.tcpload.operator.crd.ResultSummary;
import io.tcpload.runner.slo.Threshold;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Judges a merged result against the test's thresholds: a threshold on the whole test against the
 * summary, one naming a request ({@code p99{request=transfer} < 200ms}) against that request's row.
 * Pure.
 */
public final class Thresholds {
    private Thresholds() {}

    /**
     * The thresholds that did not hold, in the order given; empty when all held.
     *
     * @throws IllegalArgumentException when a threshold does not parse (validation refuses those
     *     before a test starts)
     */
    public static List<Threshold.Miss> evaluate(List<String> thresholds, ResultSummary summary) {
        List<Threshold.Miss> misses = new ArrayList<>();
        for (String text : thresholds) {
            Threshold threshold = Threshold.parse(text);
            if (threshold.request().isPresent()) {
                String name = threshold.request().get();
                Optional<RequestSummary> row = row(summary, name);
                if (row.isEmpty()) {
                    // Validation refuses these when it reads the profile; one in a Secret it
                    // cannot read is judged missed here, never passed.
                    misses.add(new Threshold.Miss(threshold, Double.NaN, noRequest(name, summary)));
                    continue;
                }
                // A row's ratios are of its own responses: socket errors belong to no name.
                long requests = count(row.get().getRequests());
                threshold
                        .judge(measure(threshold.metric(), row.get()), requests, requests)
                        .ifPresent(misses::add);
                continue;
            }
            long requests = count(summary.getRequests());
            threshold
                    .judge(
                            measure(threshold.metric(), summary),
                            requests,
                            requests + errors(summary.getErrors()))
                    .ifPresent(misses::add);
        }
        return misses;
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
