package io.tcpload.runner.stats;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.rate.RateSchedule;
import io.tcpload.runner.rate.Stages;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** Rate mode's per-loop figures. */
class PacedStatsTest {
    private static final long MS = 1_000_000;

    @Test
    void aSendThatCouldNotBeBuiltIsTakenAndFailsInItsStage() {
        RateSchedule schedule = RateSchedule.stages(0, Stages.parse("1s:100,1s:100"));
        PacedStats stats = new PacedStats(schedule);

        stats.recordSend(100 * MS, 20_000);
        stats.recordResponse(100 * MS, true, 300, 280);
        stats.recordUnsent(1_500 * MS, 3_000_000);

        Histogram uncorrected = Histograms.create();
        Histogram lag = Histograms.create();
        long[] sentAndLate = stats.drainInto(uncorrected, lag);
        // Both sends were taken from the schedule; the second left 3 ms late, and failed unbuilt.
        assertThat(sentAndLate).containsExactly(2, 1);
        assertThat(lag.getTotalCount()).isEqualTo(2);
        assertThat(uncorrected.getTotalCount()).isEqualTo(1);

        List<PacedStats.StageTally> tallies = PacedStats.StageTally.forStages(2);
        stats.addStagesTo(tallies);
        StageResult first = tallies.get(0).toResult(1, schedule.stages().get(0), 0);
        StageResult second = tallies.get(1).toResult(2, schedule.stages().get(1), 100);
        assertThat(first.sent()).isEqualTo(1);
        assertThat(first.counts().successes()).isEqualTo(1);
        assertThat(second.sent()).isEqualTo(1);
        assertThat(second.counts().requests()).isEqualTo(1);
        assertThat(second.counts().failures()).isEqualTo(1);
        assertThat(second.counts().errors()).isZero();
        assertThat(second.latencyUs().getTotalCount()).isZero();
    }
}
