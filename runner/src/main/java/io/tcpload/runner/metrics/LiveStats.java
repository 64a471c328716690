package io.tcpload.runner.metrics;

import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.RunSummary.ErrorCount;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * What {@code /stats} answers: the run's state after its last completed second. Immutable.
 *
 * @param phase {@code waiting} (before the load can start), {@code ready} (waiting for the start
 *     instant of a distributed test), {@code running} or {@code finished}
 * @param second the last completed second, 1-based (0 before the first)
 * @param openConnections connections open at the end of that second
 * @param cumulative totals since the start
 * @param lastSecond that second alone
 * @param latencyUs latency percentiles since the start, in microseconds
 * @param connectUs connect-time percentiles since the start, in microseconds
 * @param startEpochUs when the load really began, in microseconds since the epoch (0 before)
 */
public record LiveStats(
        String phase,
        int second,
        int openConnections,
        Counts cumulative,
        LastSecond lastSecond,
        Percentiles latencyUs,
        Percentiles connectUs,
        long startEpochUs) {

    static final LiveStats WAITING =
            new LiveStats(
                    "waiting",
                    0,
                    0,
                    Counts.ZERO,
                    new LastSecond(0, 0, 0, Percentiles.EMPTY, List.of()),
                    Percentiles.EMPTY,
                    Percentiles.EMPTY,
                    0);

    LiveStats withPhase(String newPhase) {
        return new LiveStats(
                newPhase,
                second,
                openConnections,
                cumulative,
                lastSecond,
                latencyUs,
                connectUs,
                startEpochUs);
    }

    LiveStats started(long epochUs) {
        return new LiveStats(
                "running",
                second,
                openConnections,
                cumulative,
                lastSecond,
                latencyUs,
                connectUs,
                epochUs);
    }

    /**
     * One second.
     *
     * @param successTps responses judged successful in that second
     * @param failureTps responses judged failed in that second
     * @param errors socket-level errors in that second
     * @param latencyUs that second's latency percentiles, in microseconds
     * @param errorMessages that second's error messages, most frequent first
     */
    public record LastSecond(
            long successTps,
            long failureTps,
            long errors,
            Percentiles latencyUs,
            List<ErrorCount> errorMessages) {
        public LastSecond {
            errorMessages = List.copyOf(errorMessages);
        }
    }

    /**
     * Percentiles of a histogram, as HdrHistogram reports them (0 when it is empty).
     *
     * @param count values recorded
     * @param mean their mean
     */
    public record Percentiles(
            long count, double mean, long p50, long p90, long p99, long p999, long max) {
        static final Percentiles EMPTY = new Percentiles(0, 0, 0, 0, 0, 0, 0);

        static Percentiles of(Histogram histogram) {
            if (histogram.getTotalCount() == 0) {
                return EMPTY;
            }
            return new Percentiles(
                    histogram.getTotalCount(),
                    histogram.getMean(),
                    histogram.getValueAtPercentile(50),
                    histogram.getValueAtPercentile(90),
                    histogram.getValueAtPercentile(99),
                    histogram.getValueAtPercentile(99.9),
                    histogram.getMaxValue());
        }
    }
}
