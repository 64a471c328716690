package io.tcpload.runner.stats;

import org.HdrHistogram.Histogram;

/**
 * What happened during one {@code --stages} stage, for the per-stage table of the report. The rates
 * are per second of the stage's planned duration.
 *
 * @param stage the stage's number, from 1
 * @param durationMs the stage's planned duration, positive
 * @param fromRate the requested rate at the stage's start
 * @param targetRate the requested rate at its end (equal to {@code fromRate} when flat)
 * @param sent requests written during the stage: the achieved rate
 * @param counts responses and errors of requests sent during the stage
 * @param latencyUs corrected latency (from the intended send time) of those responses; read only
 */
public record StageResult(
        int stage,
        long durationMs,
        double fromRate,
        double targetRate,
        long sent,
        Counts counts,
        Histogram latencyUs) {

    public StageResult {
        if (durationMs < 1) {
            throw new IllegalArgumentException("stage duration must be positive");
        }
    }
}
