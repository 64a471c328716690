package io.tcpload.runner.stats;

import io.tcpload.runner.rate.RateSchedule;
import io.tcpload.runner.rate.Stage;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * The rate-mode statistics of one event loop: how late each send left, the uncorrected latency, and
 * what happened in each stage. Requests belong to the stage of their intended send time.
 *
 * <p>Threading: single writer, like {@link LoopStats}: every method runs on the owning event loop,
 * and the collector reads only through tasks it submits to that loop.
 */
public final class PacedStats {
    private final RateSchedule schedule;
    private final Histogram uncorrectedUs = Histograms.create();
    private final Histogram lagUs = Histograms.create();
    private final StageTally[] stages;

    private long sent;
    private long late;

    public PacedStats(RateSchedule schedule) {
        this.schedule = schedule;
        this.stages = new StageTally[schedule.stages().size()];
    }

    /**
     * A send written {@code lagNs} after its intended time, which was {@code intendedNs} into the
     * run.
     */
    public void recordSend(long intendedNs, long lagNs) {
        long lagMicros = lagNs / 1000;
        sent++;
        if (lagMicros > RateSummary.LATE_US) {
            late++;
        }
        Histograms.record(lagUs, lagMicros);
        StageTally tally = stage(intendedNs);
        if (tally != null) {
            tally.sent++;
        }
    }

    /**
     * A send whose request could not be built ({@code $(length)} does not fit, a value is missing),
     * taken from the schedule {@code lagNs} after its intended time, which was {@code intendedNs}
     * into the run: not written, and a failure of its stage without a latency. It counts among the
     * sends, since the schedule's send was taken, so that it is not reported as one still waiting
     * for a connection.
     */
    public void recordUnsent(long intendedNs, long lagNs) {
        recordSend(intendedNs, lagNs);
        StageTally tally = stage(intendedNs);
        if (tally != null) {
            tally.requests++;
            tally.failures++;
        }
    }

    /** A response to a send intended {@code intendedNs} into the run. */
    public void recordResponse(
            long intendedNs, boolean success, long correctedMicros, long uncorrectedMicros) {
        Histograms.record(uncorrectedUs, uncorrectedMicros);
        StageTally tally = stage(intendedNs);
        if (tally != null) {
            tally.requests++;
            if (success) {
                tally.successes++;
            } else {
                tally.failures++;
            }
            Histograms.record(tally.latencyUs, correctedMicros);
        }
    }

    /**
     * An error, counted in the stage of {@code elapsedNs} into the run: the intended send time of
     * the request it failed, or when it happened for one that failed no request.
     */
    public void recordError(long elapsedNs, ErrorKind kind) {
        StageTally tally = stage(elapsedNs);
        if (tally != null) {
            tally.errors[kind.ordinal()]++;
        }
    }

    private StageTally stage(long elapsedNs) {
        int index = schedule.stageAt(Math.max(0, elapsedNs));
        if (index < 0 || index >= stages.length) {
            return null;
        }
        StageTally tally = stages[index];
        if (tally == null) {
            tally = new StageTally();
            stages[index] = tally;
        }
        return tally;
    }

    /**
     * Moves the sends, the late ones and the uncorrected and lag histograms recorded since the last
     * call into the accumulators; returns {sent, late} of that interval.
     */
    public long[] drainInto(Histogram uncorrectedOut, Histogram lagOut) {
        uncorrectedOut.add(uncorrectedUs);
        lagOut.add(lagUs);
        uncorrectedUs.reset();
        lagUs.reset();
        long[] interval = {sent, late};
        sent = 0;
        late = 0;
        return interval;
    }

    /** Adds this loop's per-stage figures into {@code totals}, one entry per stage. */
    public void addStagesTo(List<StageTally> totals) {
        for (int i = 0; i < stages.length; i++) {
            if (stages[i] != null) {
                totals.get(i).add(stages[i]);
            }
        }
    }

    /** One stage's figures, summed over loops by the collector. */
    public static final class StageTally {
        private final Histogram latencyUs = Histograms.create();
        private final long[] errors = new long[ErrorKind.values().length];
        private long sent;
        private long requests;
        private long successes;
        private long failures;

        public static List<StageTally> forStages(int count) {
            List<StageTally> list = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                list.add(new StageTally());
            }
            return list;
        }

        void add(StageTally other) {
            latencyUs.add(other.latencyUs);
            for (int k = 0; k < errors.length; k++) {
                errors[k] += other.errors[k];
            }
            sent += other.sent;
            requests += other.requests;
            successes += other.successes;
            failures += other.failures;
        }

        /** This stage's row of the report. */
        public StageResult toResult(int number, Stage stage, double fromRate) {
            Counts counts =
                    new Counts(
                            requests,
                            successes,
                            failures,
                            errors[ErrorKind.CONNECT.ordinal()],
                            errors[ErrorKind.READ.ordinal()],
                            errors[ErrorKind.WRITE.ordinal()],
                            errors[ErrorKind.TIMEOUT.ordinal()],
                            0,
                            0,
                            0,
                            0,
                            errors[ErrorKind.TLS.ordinal()]);
            return new StageResult(
                    number,
                    stage.durationMs(),
                    fromRate,
                    stage.targetRate(),
                    sent,
                    counts,
                    latencyUs);
        }
    }
}
