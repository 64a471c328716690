package io.tcpload.runner.stats;

import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * What a constant-rate or staged run adds to its summary (wrk2's view). The run's {@code latencyUs}
 * is then the corrected latency, measured from each request's intended send time; this holds the
 * uncorrected one, measured from the actual write. Histograms belong to the summary: read only.
 *
 * @param requestedRate the constant rate asked for ({@code -R}), or 0 when stages set the rate
 * @param planned the sends the schedule planned for the time the run lasted
 * @param sent the sends taken from the schedule: written, or failed as their request could not be
 *     built (a {@code $(length)} that does not fit, a missing value), which are not written
 * @param late sends written more than {@link #LATE_US} after their intended time
 * @param uncorrectedUs latency from the actual write to the response, in µs
 * @param lagUs for every send, how long after its intended time it was written (or failed to be
 *     built), in µs
 * @param stages one row per {@code --stages} stage; empty for a constant rate
 */
public record RateSummary(
        double requestedRate,
        long planned,
        long sent,
        long late,
        Histogram uncorrectedUs,
        Histogram lagUs,
        List<StageResult> stages) {

    /** A send written later than this after its intended time counts as behind schedule. */
    public static final long LATE_US = 1_000;

    public RateSummary {
        stages = List.copyOf(stages);
    }
}
