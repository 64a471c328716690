package io.tcpload.runner.report;

/**
 * Which optional parts the console report prints.
 *
 * @param latencyDistribution the percentile lines ({@code --latency})
 * @param trace the per-second table after the report ({@code --trace})
 * @param uncorrectedLatency in rate mode, also the uncorrected latency distribution ({@code -U})
 */
public record ReportOptions(
        boolean latencyDistribution, boolean trace, boolean uncorrectedLatency) {

    /** wrktcp's default: no percentiles, no trace. */
    public static final ReportOptions DEFAULT = new ReportOptions(false, false, false);
}
