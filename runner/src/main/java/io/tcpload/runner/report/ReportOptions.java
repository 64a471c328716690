package io.tcpload.runner.report;

/**
 * Which optional parts the console report prints.
 *
 * @param latencyDistribution the percentile lines ({@code --latency})
 * @param trace the per-second table after the report ({@code --trace})
 * @param rateMode the run was paced at a constant rate, so latency counts from the intended send
 *     time; the layout does not change yet
 */
public record ReportOptions(boolean latencyDistribution, boolean trace, boolean rateMode) {

    /** wrktcp's default: no percentiles, no trace, closed model. */
    public static final ReportOptions DEFAULT = new ReportOptions(false, false, false);
}
