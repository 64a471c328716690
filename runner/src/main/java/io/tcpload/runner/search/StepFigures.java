package io.tcpload.runner.search;

import io.tcpload.runner.slo.Slo;
import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.stats.SecondSample;
import java.util.ArrayList;
import java.util.List;

/**
 * What one step of a search measured, the warm-up left out: what the objective is judged on, and
 * the backlog, which says whether the rate was more than the service serves even while the latency
 * of what it answered still looks good. Pure; made from the step's result (one runner's, or every
 * runner's merged).
 *
 * <p>The backlog at a moment is the requests asked for by then (the step's constant rate from its
 * start) less those that got an answer or an error: requests in flight plus requests waiting for a
 * connection. Below capacity it settles at the rate times the latency (Little's law); above it, it
 * grows for as long as the step lasts.
 *
 * @param targetRate the step's rate, requests per second for the whole test
 * @param seconds the whole seconds the step was measured
 * @param counts the step's totals
 * @param achievedRate complete responses per second over the step
 * @param secondHalfRate responses and errors per second over the second half of the step
 * @param backlogAtMid the backlog at the middle of the step: the least at the end of any whole
 *     second of its first half, so that a stall that happens to hold answers back at one of those
 *     instants does not read as a smaller growth after it
 * @param backlogAtEnd the backlog at the end of the step
 * @param figures what the objective's terms are measured on
 * @param backlogBySecond the backlog at the end of each second of the step, in order
 */
public record StepFigures(
        double targetRate,
        int seconds,
        Counts counts,
        double achievedRate,
        double secondHalfRate,
        long backlogAtMid,
        long backlogAtEnd,
        Slo.Figures figures,
        List<Long> backlogBySecond) {

    public StepFigures {
        backlogBySecond = List.copyOf(backlogBySecond);
    }

    /** Figures without the per-second backlog (a simulated step): it grows evenly mid to end. */
    public StepFigures(
            double targetRate,
            int seconds,
            Counts counts,
            double achievedRate,
            double secondHalfRate,
            long backlogAtMid,
            long backlogAtEnd,
            Slo.Figures figures) {
        this(
                targetRate,
                seconds,
                counts,
                achievedRate,
                secondHalfRate,
                backlogAtMid,
                backlogAtEnd,
                figures,
                evenly(seconds, backlogAtMid, backlogAtEnd));
    }

    private static List<Long> evenly(int seconds, long atMid, long atEnd) {
        List<Long> series = new ArrayList<>();
        int mid = seconds / 2;
        for (int k = 1; k <= seconds; k++) {
            series.add(
                    k <= mid
                            ? atMid
                            : atMid
                                    + Math.round(
                                            (double) (atEnd - atMid)
                                                    * (k - mid)
                                                    / (seconds - mid)));
        }
        return series;
    }

    /** The figures of {@code step}, a step run at {@code targetRate} (the whole test's). */
    public static StepFigures of(RunSummary step, double targetRate) {
        List<SecondSample> samples = step.seconds();
        int seconds = 0;
        for (SecondSample sample : samples) {
            seconds = Math.max(seconds, sample.second());
        }
        int mid = seconds / 2;
        long[] doneIn = new long[seconds + 1];
        for (SecondSample sample : samples) {
            doneIn[sample.second()] += sample.counts().requests() + sample.counts().errors();
        }
        List<Long> backlog = new ArrayList<>();
        long answered = 0;
        long answeredInSecondHalf = 0;
        long leastInFirstHalf = Long.MAX_VALUE;
        for (int k = 1; k <= seconds; k++) {
            answered += doneIn[k];
            long atK = Math.max(0, askedBefore(targetRate, k) - answered);
            backlog.add(atK);
            if (k <= mid) {
                leastInFirstHalf = Math.min(leastInFirstHalf, atK);
            } else {
                answeredInSecondHalf += doneIn[k];
            }
        }
        long atEnd = backlog.isEmpty() ? 0 : backlog.get(backlog.size() - 1);
        double runtimeSeconds = step.runtimeUs() / 1e6;
        return new StepFigures(
                targetRate,
                seconds,
                step.counts(),
                runtimeSeconds <= 0 ? 0 : step.counts().requests() / runtimeSeconds,
                seconds - mid <= 0 ? 0 : (double) answeredInSecondHalf / (seconds - mid),
                mid == 0 ? 0 : leastInFirstHalf,
                atEnd,
                Slo.Figures.of(step),
                backlog);
    }

    /**
     * The sends a constant schedule at {@code rate} fires in its first {@code seconds}: send k at k
     * / rate, the first at 0.
     */
    static long askedBefore(double rate, int seconds) {
        return seconds <= 0 ? 0 : (long) Math.ceil(rate * seconds);
    }

    /** How much the backlog grew over the second half. */
    public long backlogGrowth() {
        return backlogAtEnd - backlogAtMid;
    }

    /**
     * Whether the backlog grew through the second half: by more than {@code allowed} at the end,
     * and at the end of every second of the second half by more than half the even share of it that
     * second would have, so that one stall holding answers back at the last instant is not taken
     * for a queue that grows.
     */
    public boolean backlogGrewBeyond(long allowed) {
        if (backlogGrowth() <= allowed) {
            return false;
        }
        int mid = seconds / 2;
        int half = backlogBySecond.size() - mid;
        for (int k = mid + 1; k <= backlogBySecond.size(); k++) {
            double share = (double) allowed * (k - mid) / half / 2;
            if (backlogBySecond.get(k - 1) - backlogAtMid <= share) {
                return false;
            }
        }
        return true;
    }

    /** Socket errors and failure responses. */
    public long errors() {
        return counts.failures() + counts.errors();
    }
}
