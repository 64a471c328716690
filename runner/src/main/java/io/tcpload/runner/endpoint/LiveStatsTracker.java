package io.tcpload.runner.endpoint;

import io.tcpload.runner.client.ProgressListener;
import io.tcpload.runner.contract.LivePhase;
import io.tcpload.runner.contract.LiveStats;
import io.tcpload.runner.contract.LiveStats.LastSecond;
import io.tcpload.runner.contract.LiveStats.Percentiles;
import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.Histograms;
import io.tcpload.runner.stats.SecondSample;
import org.HdrHistogram.Histogram;

/**
 * Keeps the run's {@link LiveStats} for {@code /stats} and {@code /readyz} from the engine's
 * per-second progress.
 *
 * <p>Threading: the progress calls and {@link #finished} come from the thread that runs the engine,
 * one at a time; {@link #stats} and {@link #ready} may be called from any thread at any time.
 */
public final class LiveStatsTracker implements ProgressListener {
    private final Histogram latencyTotalUs = Histograms.create();
    private final Histogram connectTotalUs = Histograms.create();
    private volatile LiveStats stats;

    /**
     * @param runnerVersion what {@code /stats} says this runner is
     */
    public LiveStatsTracker(String runnerVersion) {
        stats = LiveStats.waiting(runnerVersion);
    }

    @Override
    public void onReady() {
        stats = stats.withPhase(LivePhase.READY);
    }

    /** The load runs; with a warm-up, its measured part has not begun yet. */
    @Override
    public void onStart(long startEpochUs) {
        stats = stats.withPhase(LivePhase.RUNNING);
    }

    /** The warm-up's connections: the one figure of a warm-up shown, so that it is not 0. */
    @Override
    public void onWarmingUp(int openConnections) {
        stats = stats.withOpenConnections(openConnections);
    }

    /**
     * The measured run began at {@code startEpochUs}: the start shown is the one the result says,
     * not the warm-up's.
     */
    @Override
    public void onMeasuredStart(long startEpochUs) {
        stats = stats.started(startEpochUs);
    }

    /**
     * A second's figures; its rates over its real length, as the progress line gives them, so that
     * a run's last second, cut short, shows the rate it ran at rather than its counts.
     */
    @Override
    public void onSecond(Progress progress) {
        SecondSample second = progress.second();
        Counts counts = second.counts();
        latencyTotalUs.add(progress.latencyUs());
        connectTotalUs.add(progress.connectUs());
        LiveStats now = stats;
        stats =
                now.withPhase(
                                now.phase() == LivePhase.FINISHED
                                        ? LivePhase.FINISHED
                                        : LivePhase.RUNNING)
                        .withSecond(
                                second.second(),
                                progress.openConnections(),
                                progress.cumulative(),
                                new LastSecond(
                                        second.perSecond(counts.successes()),
                                        second.perSecond(counts.failures()),
                                        counts.errors(),
                                        Percentiles.of(progress.latencyUs()),
                                        progress.errors(),
                                        second.durationUs()),
                                Percentiles.of(latencyTotalUs),
                                Percentiles.of(connectTotalUs));
    }

    /** The run is over; the figures stay as they were. */
    public void finished() {
        stats = stats.withPhase(LivePhase.FINISHED);
    }

    /** Whether the load has started, or waits armed for its start instant. */
    public boolean ready() {
        return stats.phase().ready();
    }

    /** The state after the last completed second. */
    public LiveStats stats() {
        return stats;
    }
}
