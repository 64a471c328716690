package io.tcpload.runner.rate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tcpload.runner.stats.Histograms;
import io.tcpload.runner.testing.StallPattern;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The stall experiment without sockets: an open-loop client at a constant rate against a target
 * that freezes S ms every P ms, simulated from the fire times alone. The corrected latency (from
 * the intended send time) must match the analytic truth; this checks the schedule and the histogram
 * arithmetic end to end.
 */
class StallSimulationTest {

    @ParameterizedTest
    @CsvSource({"10000, 1000, 200, 1", "10000, 1000, 200, 3", "2000, 500, 150, 2"})
    void correctedLatencyPercentilesMatchTheTruthWithinOnePercent(
            long rate, long periodMs, long stallMs, int loops) {
        StallPattern pattern = new StallPattern(periodMs, stallMs);
        RateSchedule schedule = RateSchedule.constant(rate, 5_000);

        // One histogram per loop, merged at the end as the engine will merge its loops.
        Histogram merged = Histograms.create();
        for (int loop = 0; loop < loops; loop++) {
            Histogram latencyUs = Histograms.create();
            FireTimes times = schedule.fireTimes(loop, loops);
            for (long fire = times.next(); fire != RateSchedule.END; fire = times.next()) {
                long responseNs = pattern.releaseAtNs(fire);
                Histograms.record(latencyUs, (responseNs - fire) / 1000);
            }
            merged.add(latencyUs);
        }

        assertThat(merged.getTotalCount()).isEqualTo(rate * 5);
        for (double q : new double[] {0.90, 0.99, 0.999}) {
            double truthUs = pattern.waitQuantileMs(q) * 1000;
            assertThat((double) merged.getValueAtPercentile(q * 100))
                    .as("p%s", q * 100)
                    .isCloseTo(truthUs, within(truthUs * 0.01));
        }
        double meanTruthUs = pattern.meanWaitMs() * 1000;
        assertThat(merged.getMean()).isCloseTo(meanTruthUs, within(meanTruthUs * 0.01));
    }

    @Test
    void belowTheStalledShareTheLatencyIsZero() {
        StallPattern pattern = new StallPattern(1000, 200);
        RateSchedule schedule = RateSchedule.constant(10_000, 5_000);
        Histogram latencyUs = Histograms.create();
        FireTimes times = schedule.fireTimes();
        for (long fire = times.next(); fire != RateSchedule.END; fire = times.next()) {
            Histograms.record(latencyUs, (pattern.releaseAtNs(fire) - fire) / 1000);
        }

        // 80% of the sends land outside a stall.
        assertThat(latencyUs.getValueAtPercentile(79)).isZero();
        assertThat(latencyUs.getCountAtValue(0)).isEqualTo(40_000);
    }
}
