package io.tcpload.operator.results;

import io.tcpload.operator.crd.LatencySummary;
import io.tcpload.operator.crd.ResultSummary;
import io.tcpload.runner.slo.Threshold;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Judges a merged result against the test's thresholds. Pure. */
public final class Thresholds {
    private Thresholds() {}

    /** A threshold that did not hold, with the measured value. */
    public record Miss(Threshold threshold, double measured) {
        /** {@code p99 < 250ms: measured 312.5ms}. */
        public String message() {
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
            double measured = measure(threshold.metric(), summary);
            if (!threshold.operator().holds(measured, threshold.limit())) {
                misses.add(new Miss(threshold, measured));
            }
        }
        return misses;
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
