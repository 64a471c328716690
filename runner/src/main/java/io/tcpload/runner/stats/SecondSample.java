package io.tcpload.runner.stats;

/**
 * One second of a run, for the progress line, {@code --trace} and the JSON series.
 *
 * @param second 1-based second since the start
 * @param counts what happened in that second alone
 * @param latencyP50Us median latency of the responses completed in that second (0 if none)
 * @param latencyP90Us 90th percentile of that second (0 if none)
 * @param latencyP99Us 99th percentile of that second (0 if none)
 * @param latencyMaxUs maximum of that second (0 if none)
 */
public record SecondSample(
        int second,
        Counts counts,
        long latencyP50Us,
        long latencyP90Us,
        long latencyP99Us,
        long latencyMaxUs) {}
