package io.tcpload.runner.stats;

import java.util.ArrayList;
import java.util.List;

/**
 * A run's per-second rows folded into at most a bounded number, for the result an orchestrator
 * fetches: a 24-hour run has 86,400 seconds, and an operator holding a hundred runners' results
 * must not hold them all. Pure.
 *
 * <p>The width of a row follows from the duration asked for, not from the rows a runner happened to
 * record, so that every runner of one test folds alike and the orchestrator can still add their
 * rows second by second. A folded row is labelled with its first second; its counts and durations
 * are summed (its rates are over all of its seconds) and its percentiles are the worst of its
 * seconds (an upper bound, as merging runners gives).
 */
public final class SecondRows {
    /** At most this many rows in a fetched result: two-minute rows for a day's run. */
    public static final int MAX_ROWS = 720;

    private SecondRows() {}

    /** How many seconds one row of a run of {@code durationMs} holds: 1 up to the bound. */
    public static int secondsPerRow(long durationMs, int maxRows) {
        if (maxRows < 1) {
            throw new IllegalArgumentException("maxRows must be at least 1, got " + maxRows);
        }
        long seconds = Math.max(1, (durationMs + 999) / 1000);
        return (int) Math.max(1, (seconds + maxRows - 1) / maxRows);
    }

    /** The rows folded {@code width} seconds to a row. */
    public static List<SecondSample> fold(List<SecondSample> seconds, int width) {
        if (width <= 1) {
            return seconds;
        }
        List<SecondSample> rows = new ArrayList<>();
        SecondSample row = null;
        for (SecondSample second : seconds) {
            int label = (second.second() - 1) / width * width + 1;
            if (row != null && row.second() == label) {
                row =
                        new SecondSample(
                                label,
                                row.counts().plus(second.counts()),
                                Math.max(row.latencyP50Us(), second.latencyP50Us()),
                                Math.max(row.latencyP90Us(), second.latencyP90Us()),
                                Math.max(row.latencyP99Us(), second.latencyP99Us()),
                                Math.max(row.latencyMaxUs(), second.latencyMaxUs()),
                                row.durationUs() + second.durationUs());
            } else {
                if (row != null) {
                    rows.add(row);
                }
                row =
                        new SecondSample(
                                label,
                                second.counts(),
                                second.latencyP50Us(),
                                second.latencyP90Us(),
                                second.latencyP99Us(),
                                second.latencyMaxUs(),
                                second.durationUs());
            }
        }
        if (row != null) {
            rows.add(row);
        }
        return rows;
    }
}
