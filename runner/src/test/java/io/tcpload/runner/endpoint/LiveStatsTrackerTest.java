package io.tcpload.runner.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.client.ProgressListener.Progress;
import io.tcpload.runner.contract.LivePhase;
import io.tcpload.runner.contract.LiveStats;
import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.CountsBuilder;
import io.tcpload.runner.stats.Histograms;
import io.tcpload.runner.stats.SecondSample;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LiveStatsTrackerTest {
    private final LiveStatsTracker tracker = new LiveStatsTracker("tcpload-runner 9.9");

    private static Counts counts(long successes, long failures) {
        return new Counts(successes + failures, successes, failures, 0, 0, 0, 0, 0, 0, 0);
    }

    private static Histogram histogram(long value, long count) {
        Histogram histogram = Histograms.create();
        histogram.recordValueWithCount(value, count);
        return histogram;
    }

    private static Progress progress(int second, Counts counts, Counts cumulative, Histogram h) {
        return new Progress(
                new SecondSample(second, counts, 0, 0, 0, 0),
                cumulative,
                h,
                Histograms.create(),
                List.of(),
                4);
    }

    @Test
    void liveStatsFollowThePhasesAndMergeTheSeconds() {
        assertThat(tracker.ready()).isFalse();
        assertThat(tracker.stats().phase()).isEqualTo(LivePhase.WAITING);
        assertThat(tracker.stats().runnerVersion()).isEqualTo("tcpload-runner 9.9");

        tracker.onReady();
        assertThat(tracker.ready()).isTrue();
        tracker.onStart(1_000_000);
        tracker.onMeasuredStart(1_000_000);
        Counts first = counts(8, 2);
        tracker.onSecond(progress(1, first, first, histogram(100, 10)));
        Counts second = counts(10, 0);
        tracker.onSecond(progress(2, second, first.plus(second), histogram(1_000, 10)));

        LiveStats stats = tracker.stats();
        assertThat(stats.phase()).isEqualTo(LivePhase.RUNNING);
        assertThat(stats.startEpochUs()).isEqualTo(1_000_000);
        assertThat(stats.second()).isEqualTo(2);
        assertThat(stats.cumulative().requests()).isEqualTo(20);
        assertThat(stats.lastSecond().successTps()).isEqualTo(10);
        assertThat(stats.lastSecond().failureTps()).isZero();
        assertThat(stats.lastSecond().durationUs()).isEqualTo(SecondSample.SECOND_US);
        assertThat(stats.lastSecond().latencyUs().p99()).isEqualTo(1_000);
        assertThat(stats.latencyUs().count()).isEqualTo(20);
        assertThat(stats.latencyUs().p50()).isEqualTo(100);
        assertThat(stats.latencyUs().max()).isEqualTo(1_000);

        tracker.finished();
        assertThat(tracker.stats().phase()).isEqualTo(LivePhase.FINISHED);
        assertThat(tracker.stats().cumulative().requests()).isEqualTo(20);
    }

    @Test
    void aRunsLastPartialSecondShowsItsRatesOverItsRealLength() {
        tracker.onStart(1_000_000);
        tracker.onMeasuredStart(1_000_000);
        Counts whole = counts(100, 4);
        tracker.onSecond(progress(1, whole, whole, histogram(100, 104)));
        // The run ends half-way through its second second: half the responses, the same rates.
        Counts half = CountsBuilder.counts().successes(50).failures(2).connectErrors(3).build();
        tracker.onSecond(
                new Progress(
                        new SecondSample(2, half, 0, 0, 0, 0, 500_000),
                        whole.plus(half),
                        histogram(100, 52),
                        Histograms.create(),
                        List.of(),
                        4));
        tracker.finished();

        LiveStats stats = tracker.stats();
        assertThat(stats.second()).isEqualTo(2);
        assertThat(stats.lastSecond().durationUs()).isEqualTo(500_000);
        assertThat(stats.lastSecond().successTps()).isEqualTo(100.0);
        assertThat(stats.lastSecond().failureTps()).isEqualTo(4.0);
        assertThat(stats.lastSecond().tps()).isEqualTo(104.0);
        assertThat(stats.lastSecond().errors()).as("a count, not a rate").isEqualTo(3);
        assertThat(stats.cumulative().requests()).isEqualTo(156);
        assertThat(LiveStats.fromJson(stats.toJson())).isEqualTo(stats);
    }

    @Test
    void aWarmupShowsItsConnectionsAndTheStartIsTheMeasuredRuns() {
        tracker.onReady();
        tracker.onStart(1_000_000);
        tracker.onWarmingUp(3);

        LiveStats warming = tracker.stats();
        assertThat(warming.phase()).isEqualTo(LivePhase.RUNNING);
        assertThat(warming.openConnections()).isEqualTo(3);
        assertThat(warming.second()).isZero();
        assertThat(warming.cumulative().requests()).isZero();
        assertThat(warming.startEpochUs()).as("the measured run has not begun").isZero();

        tracker.onMeasuredStart(3_000_000);
        Counts first = counts(8, 2);
        tracker.onSecond(progress(1, first, first, histogram(100, 10)));

        LiveStats measured = tracker.stats();
        assertThat(measured.startEpochUs()).isEqualTo(3_000_000);
        assertThat(measured.second()).isEqualTo(1);
        assertThat(measured.openConnections()).isEqualTo(4);
    }

    @Test
    void theJsonReadsBackAsTheSameStats() {
        Counts first = counts(8, 2);
        tracker.onStart(5);
        tracker.onSecond(progress(1, first, first, histogram(100, 10)));

        assertThat(LiveStats.fromJson(tracker.stats().toJson())).isEqualTo(tracker.stats());
    }

    @Test
    void aRunnerOfAnotherVersionIsReadFarEnoughToSaySo() {
        LiveStats older = LiveStats.fromJson("{\"phase\":\"running\",\"second\":3}");
        assertThat(older.protocolVersion()).isZero();
        assertThat(older.phase()).isEqualTo(LivePhase.RUNNING);

        LiveStats newer =
                LiveStats.fromJson(
                        "{\"protocolVersion\":7,\"runnerVersion\":\"tcpload-runner 7.0\","
                                + "\"phase\":\"warming\",\"somethingNew\":{\"x\":1}}");
        assertThat(newer.protocolVersion()).isEqualTo(7);
        assertThat(newer.runnerVersion()).isEqualTo("tcpload-runner 7.0");
        assertThat(newer.phase()).isEqualTo(LivePhase.WAITING);
    }
}
