package io.tcpload.runner.stats;

import io.tcpload.runner.rate.RateSchedule;
import io.tcpload.runner.rate.Stage;
import io.tcpload.runner.stats.RunSummary.ErrorCount;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The collector's bookkeeping, apart from the event loops and the clock: once a second every loop's
 * {@link LoopStats} (and, in rate mode, {@link PacedStats}) is drained into it, the second is
 * closed into a {@link SecondSample}, and at the end it assembles the {@link RunSummary}. Keeping
 * it free of threads and time lets a test replay a long run's seconds through exactly the code a
 * real run uses.
 *
 * <p>Threading: one second's drains may run on different threads (each loop's own), but one at a
 * time, each handed over with a happens-before edge (the collector awaits each loop's task before
 * submitting the next); everything else runs on the collector's thread.
 */
public final class RunTally {
    private final Histogram latencyTotal = Histograms.create();
    private final Histogram connectTotal = Histograms.create();
    private final Histogram handshakeTotal = Histograms.create();
    private final Histogram rateTotal = Histograms.create();
    private final Histogram secondLatency = Histograms.create();
    private final Histogram secondConnect = Histograms.create();
    private final Histogram secondHandshake = Histograms.create();
    private final Map<String, Long> errorsTotal = new HashMap<>();
    private final AddressCounts addressesTotal = new AddressCounts();

    /** Per named request of a mix, sized by the first loop that counts any; null until then. */
    private NamedStats namedTotal;

    /** The same for the second being drained; it joins the total when the next one begins. */
    private NamedStats secondNamed;

    private final List<SecondSample> seconds = new ArrayList<>();
    private final Histogram uncorrectedTotal;
    private final Histogram lagTotal;
    private Map<String, Long> secondErrors = new HashMap<>();
    private Counts secondCounts = Counts.ZERO;
    private Counts total = Counts.ZERO;
    private int openConnections;
    private int secondOpenConnections;
    private long secondSent;
    private long secondLate;
    private long sentTotal;
    private long lateTotal;

    /**
     * @param paced whether the run is in rate mode, so that sends, their lag and the uncorrected
     *     latency are kept too
     */
    public RunTally(boolean paced) {
        this.uncorrectedTotal = paced ? Histograms.create() : null;
        this.lagTotal = paced ? Histograms.create() : null;
    }

    /** Starts a second: what the previous second drained is forgotten (its totals stay). */
    public void beginSecond() {
        if (secondNamed != null) {
            secondNamed.moveTo(namedTotal);
        }
        secondLatency.reset();
        secondConnect.reset();
        secondHandshake.reset();
        secondErrors = new HashMap<>();
        secondCounts = Counts.ZERO;
        secondOpenConnections = 0;
        secondSent = 0;
        secondLate = 0;
    }

    /** Moves what {@code loop} recorded since its last drain into this second. */
    public void drain(LoopStats loop) {
        Counts counts =
                loop.drainInto(
                        secondLatency, secondConnect, secondHandshake, rateTotal, secondErrors);
        secondCounts = secondCounts.plus(counts);
        secondOpenConnections += loop.openConnections();
        loop.drainAddressesInto(addressesTotal);
        if (loop.namedSize() > 0) {
            if (namedTotal == null) {
                namedTotal = new NamedStats(loop.namedSize());
                secondNamed = new NamedStats(loop.namedSize());
            }
            loop.drainNamedInto(secondNamed);
        }
    }

    /** Rate mode: moves what {@code loop} recorded of its sends into this second. */
    public void drainPaced(PacedStats loop) {
        long[] interval = loop.drainInto(uncorrectedTotal, lagTotal);
        secondSent += interval[0];
        secondLate += interval[1];
    }

    /**
     * Closes second {@code second} (from 1): its figures join the totals, and it becomes a sample
     * of the series unless it is a last, partial second in which nothing completed.
     *
     * @param durationUs how long the second lasted: {@link SecondSample#SECOND_US}, or less for a
     *     run's last, partial one, so that its rates are over its own length
     * @return the sample, or null when the second is left out of the series
     */
    public SecondSample endSecond(int second, long durationUs) {
        openConnections = secondOpenConnections;
        latencyTotal.add(secondLatency);
        connectTotal.add(secondConnect);
        handshakeTotal.add(secondHandshake);
        secondErrors.forEach((message, count) -> errorsTotal.merge(message, count, Long::sum));
        total = total.plus(secondCounts);
        sentTotal += secondSent;
        lateTotal += secondLate;
        if (durationUs < SecondSample.SECOND_US && secondCounts.requests() == 0) {
            return null;
        }
        SecondSample sample =
                new SecondSample(
                        second,
                        secondCounts,
                        secondLatency.getValueAtPercentile(50),
                        secondLatency.getValueAtPercentile(90),
                        secondLatency.getValueAtPercentile(99),
                        secondLatency.getMaxValue(),
                        durationUs);
        seconds.add(sample);
        return sample;
    }

    /** The latencies of the current second; reused by the next one. */
    public Histogram secondLatency() {
        return secondLatency;
    }

    /** The connect times of the current second; reused by the next one. */
    public Histogram secondConnect() {
        return secondConnect;
    }

    /** The TLS handshake times of the current second; reused by the next one. */
    public Histogram secondHandshake() {
        return secondHandshake;
    }

    /** The current second's error messages with their counts, most frequent first. */
    public List<ErrorCount> secondErrors() {
        return sorted(secondErrors);
    }

    /**
     * Per named request of a mix, what the current (just closed) second got; null without a mix.
     * Reused by the next second.
     */
    public NamedStats secondByRequest() {
        return secondNamed;
    }

    /** Totals up to the last closed second. */
    public Counts total() {
        return total;
    }

    /** Connections open at the end of the last closed second, over every loop. */
    public int openConnections() {
        return openConnections;
    }

    /** Rate mode: sends written in the current second. */
    public long secondSent() {
        return secondSent;
    }

    /** Rate mode: of those, the ones written more than 1 ms late. */
    public long secondLate() {
        return secondLate;
    }

    /**
     * The run's summary; the tally's histograms and series go into it, so the tally must not be
     * used afterwards.
     *
     * @param startEpochUs when the first event loop began its load, on the wall clock
     * @param lastStartEpochUs when the last one did (the two make this runner's own start skew)
     * @param rate what rate mode adds ({@link #rateSummary}), or null for a closed-loop run
     */
    public RunSummary summary(
            RunInfo info,
            long runtimeUs,
            long startEpochUs,
            long lastStartEpochUs,
            RateSummary rate) {
        return summary(info, runtimeUs, startEpochUs, lastStartEpochUs, rate, List.of());
    }

    /**
     * As {@link #summary(RunInfo, long, long, long, RateSummary)}, with the per-address counts.
     *
     * @param addressNames the target's addresses, {@code ip:port}, by the numbers the loops counted
     *     them under
     */
    public RunSummary summary(
            RunInfo info,
            long runtimeUs,
            long startEpochUs,
            long lastStartEpochUs,
            RateSummary rate,
            List<String> addressNames) {
        return summary(
                info, runtimeUs, startEpochUs, lastStartEpochUs, rate, addressNames, List.of());
    }

    /**
     * As {@link #summary(RunInfo, long, long, long, RateSummary, List)}, with a row per named
     * request of a mix.
     *
     * @param requestNames the mix's request names by index; empty without a mix
     */
    public RunSummary summary(
            RunInfo info,
            long runtimeUs,
            long startEpochUs,
            long lastStartEpochUs,
            RateSummary rate,
            List<String> addressNames,
            List<String> requestNames) {
        if (secondNamed != null) {
            secondNamed.moveTo(namedTotal);
        }
        NamedStats named = namedTotal != null ? namedTotal : new NamedStats(requestNames.size());
        return new RunSummary(
                info,
                runtimeUs,
                total,
                latencyTotal,
                connectTotal,
                rateTotal,
                seconds,
                sorted(errorsTotal),
                startEpochUs,
                lastStartEpochUs,
                rate,
                addressesTotal.named(addressNames),
                handshakeTotal,
                named.rows(requestNames));
    }

    /**
     * Rate mode: the summary's wrk2 part for runner {@code runnerIndex} of {@code runnerCount},
     * whose share of the schedule is 1 / {@code runnerCount}.
     *
     * @param stageTallies every loop's per-stage figures added up (see {@link
     *     PacedStats#addStagesTo}); empty for a constant rate
     * @param runtimeNs how long the measured run lasted, which sets the sends planned
     */
    public RateSummary rateSummary(
            RateSchedule schedule,
            boolean staged,
            int runnerIndex,
            int runnerCount,
            List<PacedStats.StageTally> stageTallies,
            long runtimeNs) {
        List<StageResult> stages = new ArrayList<>();
        if (staged) {
            double share = runnerCount;
            double fromRate = schedule.startRate();
            for (int i = 0; i < stageTallies.size(); i++) {
                Stage stage = schedule.stages().get(i);
                stages.add(
                        stageTallies
                                .get(i)
                                .toResult(
                                        i + 1,
                                        new Stage(stage.durationMs(), stage.targetRate() / share),
                                        fromRate / share));
                fromRate = stage.targetRate();
            }
        }
        long planned = schedule.fireTimes(runnerIndex, runnerCount, 0, 1).sendsBefore(runtimeNs);
        return new RateSummary(
                staged ? 0 : schedule.startRate() / runnerCount,
                planned,
                sentTotal,
                lateTotal,
                uncorrectedTotal,
                lagTotal,
                stages);
    }

    private static List<ErrorCount> sorted(Map<String, Long> errors) {
        List<ErrorCount> list = new ArrayList<>();
        errors.forEach((message, count) -> list.add(new ErrorCount(message, count)));
        list.sort(
                Comparator.comparingLong(ErrorCount::count)
                        .reversed()
                        .thenComparing(ErrorCount::message));
        return list;
    }
}
