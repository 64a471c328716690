package io.tcpload.operator.results;

import io.tcpload.runner.stats.RunSummary;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * How far apart the runners of a test really began, from what each runner measured itself: from the
 * first event loop of any runner to begin to the last one, so that a late loop inside a runner
 * counts as much as a late runner. Pure.
 */
public final class StartSkew {
    private StartSkew() {}

    /**
     * The spread of the runners' starts, in microseconds; empty when no runner knows its start.
     * Runners whose start is unknown (0) are left out.
     */
    public static OptionalLong spreadUs(List<RunSummary> runners) {
        long first = firstStartEpochUs(runners);
        return first == 0
                ? OptionalLong.empty()
                : OptionalLong.of(lastStartEpochUs(runners) - first);
    }

    /**
     * The spread of the runners' starts on one clock, in microseconds: each runner's start (on its
     * own clock) less its clock's offset from that one ({@code offsetsUs} by runner index; 0 when
     * absent); empty when no runner knows its start.
     */
    public static OptionalLong spreadUs(
            Map<Integer, RunSummary> runners, Map<Integer, Long> offsetsUs) {
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (Map.Entry<Integer, RunSummary> runner : runners.entrySet()) {
            RunSummary summary = runner.getValue();
            if (summary.startEpochUs() <= 0) {
                continue;
            }
            long offsetUs = offsetsUs.getOrDefault(runner.getKey(), 0L);
            first = Math.min(first, summary.startEpochUs() - offsetUs);
            last =
                    Math.max(
                            last,
                            Math.max(summary.startEpochUs(), summary.lastStartEpochUs())
                                    - offsetUs);
        }
        return first == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(last - first);
    }

    /** {@link #spreadUs(Map, Map)} in whole milliseconds, rounded to the nearest. */
    public static OptionalLong spreadMs(
            Map<Integer, RunSummary> runners, Map<Integer, Long> offsetsUs) {
        OptionalLong us = spreadUs(runners, offsetsUs);
        return us.isEmpty() ? us : OptionalLong.of(Math.round(us.getAsLong() / 1000.0));
    }

    /** {@link #spreadUs} in whole milliseconds, rounded to the nearest. */
    public static OptionalLong spreadMs(List<RunSummary> runners) {
        OptionalLong us = spreadUs(runners);
        return us.isEmpty() ? us : OptionalLong.of(Math.round(us.getAsLong() / 1000.0));
    }

    /** The first start of any runner, microseconds since the epoch; 0 when none is known. */
    public static long firstStartEpochUs(List<RunSummary> runners) {
        return runners.stream()
                .mapToLong(RunSummary::startEpochUs)
                .filter(us -> us > 0)
                .min()
                .orElse(0);
    }

    /**
     * The last start of any runner's last event loop, microseconds since the epoch; 0 when none is
     * known. A result that lacks its last loop's start counts its first.
     */
    public static long lastStartEpochUs(List<RunSummary> runners) {
        return runners.stream()
                .filter(runner -> runner.startEpochUs() > 0)
                .mapToLong(runner -> Math.max(runner.startEpochUs(), runner.lastStartEpochUs()))
                .max()
                .orElse(0);
    }
}
