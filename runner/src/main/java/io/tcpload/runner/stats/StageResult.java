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

    /** The same stage with {@code newLatencyUs} as its latency histogram. */
    public StageResult withLatency(Histogram newLatencyUs) {
        return new StageResult(stage, durationMs, fromRate, targetRate, sent, counts, newLatencyUs);
    }

    /**
     * This stage plus another runner's share of it: rates, sends and counts added, the other's
     * latencies added into this one's histogram (which must be this merge's own).
     */
    public StageResult plus(StageResult other) {
        latencyUs.add(other.latencyUs);
        return new StageResult(
                stage,
                durationMs,
                fromRate + other.fromRate,
                targetRate + other.targetRate,
                sent + other.sent,
                counts.plus(other.counts),
                latencyUs);
    }
}
