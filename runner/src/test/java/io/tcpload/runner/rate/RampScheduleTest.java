package io.tcpload.runner.rate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Ramps and pauses, simulated: no clock, no sockets. */
class RampScheduleTest {

    /** Up from 0, flat, down to 0, a pause, then up again. */
    private static final List<Stage> SHAPE =
            List.of(
                    new Stage(10_000, 1000),
                    new Stage(5_000, 1000),
                    new Stage(10_000, 0),
                    new Stage(3_000, 0),
                    new Stage(7_000, 3000));

    @Test
    void theRunLastsTheSumOfTheStagesAndTheRateFollowsTheRamps() {
        RateSchedule schedule = RateSchedule.stages(0, SHAPE);

        assertThat(schedule.totalDurationMs()).isEqualTo(35_000);
        assertThat(schedule.rateAt(0)).isZero();
        assertThat(schedule.rateAt(5_000_000_000L)).isCloseTo(500, within(1e-9));
        assertThat(schedule.rateAt(12_000_000_000L)).isEqualTo(1000);
        assertThat(schedule.rateAt(20_000_000_000L)).isCloseTo(500, within(1e-9));
        assertThat(schedule.rateAt(26_000_000_000L)).isZero();
        assertThat(schedule.rateAt(31_500_000_000L)).isCloseTo(1500, within(1e-9));
        assertThat(schedule.rateAt(35_000_000_000L)).isZero();
        assertThat(schedule.rateAt(-1)).isZero();
        assertThat(schedule.stageAt(10_000_000_000L)).isEqualTo(1);
        assertThat(schedule.stageStartNs(4)).isEqualTo(28_000_000_000L);
        // 5000 + 5000 + 5000 + 0 + 10500
        assertThat(schedule.expectedTotal()).isEqualTo(25_500.0);
        assertThat(schedule.totalSends()).isEqualTo(25_500);
    }

    @Test
    void sendsPerSecondFollowTheRampWithinOneSend() {
        RateSchedule schedule = RateSchedule.stages(0, SHAPE);
        long[] times = all(schedule);

        for (int second = 0; second < 35; second++) {
            long from = second * 1_000_000_000L;
            long to = from + 1_000_000_000L;
            long counted = countIn(times, from, to);
            double expected = integral(to) - integral(from);
            assertThat((double) counted).as("second %d", second).isCloseTo(expected, within(1.0));
        }
    }

    @Test
    void theExpectedSendsFunctionMatchesTheGeneratedCount() {
        RateSchedule schedule = RateSchedule.stages(0, SHAPE);
        long[] times = all(schedule);

        for (long t = 0; t <= 36_000_000_000L; t += 9_876_543L) {
            long generated = countIn(times, Long.MIN_VALUE, t);
            assertThat(schedule.sendsBefore(t)).as("at %d ns", t).isEqualTo(generated);
            double truth = integral(Math.min(t, 35_000_000_000L));
            assertThat(schedule.expectedSends(t)).isCloseTo(truth, within(1e-6));
            // The first send fires at 0, so the count is the integral rounded up.
            assertThat((double) generated).isCloseTo(Math.ceil(truth - 1e-9), within(1.0));
        }
    }

    @Test
    void eachSendFiresWhereTheIntegralReachesItsIndex() {
        RateSchedule schedule = RateSchedule.stages(0, SHAPE);
        long[] times = all(schedule);

        for (int k = 0; k < times.length; k++) {
            if (k > 0) {
                assertThat(times[k]).isGreaterThanOrEqualTo(times[k - 1]);
            }
            // Solving I(t) = k and rounding to the nanosecond leaves I within a rate-nanosecond.
            assertThat(integral(times[k])).as("send %d", k).isCloseTo(k, within(1e-5));
        }
    }

    @Test
    void aPauseHoldsNoSendAndTheRampAfterItStartsAtItsStart() {
        RateSchedule schedule = RateSchedule.stages(0, SHAPE);
        long[] times = all(schedule);

        long pauseStart = 25_000_000_000L;
        long pauseEnd = 28_000_000_000L;
        assertThat(countIn(times, pauseStart, pauseEnd)).isZero();
        // 15000 sends make I reach 15000 exactly at the end of the ramp down: that send waits for
        // the rate to become positive again.
        assertThat(times[15_000]).isEqualTo(pauseEnd);
        assertThat(times[14_999]).isLessThan(pauseStart);
    }

    @Test
    void aLeadingPauseDelaysTheFirstSendAndATrailingPauseEndsTheSequence() {
        RateSchedule schedule =
                RateSchedule.stages(
                        0,
                        List.of(new Stage(2_000, 0), new Stage(1_000, 100), new Stage(2_000, 0)));

        // 0 -> 100 over 1 s: 50 sends; 100 -> 0 over 2 s: 100 more.
        assertThat(schedule.totalSends()).isEqualTo(150);
        assertThat(schedule.fireTimeNs(0)).isEqualTo(2_000_000_000L);
        assertThat(schedule.fireTimeNs(149)).isLessThan(5_000_000_000L);

        RateSchedule trailing =
                RateSchedule.stages(100, List.of(new Stage(1_000, 100), new Stage(1_000, 0)));
        // 100 from the flat second, 50 from the ramp down; a pause after it adds none.
        assertThat(trailing.totalSends()).isEqualTo(150);
        RateSchedule paused =
                RateSchedule.stages(
                        100,
                        List.of(new Stage(1_000, 100), new Stage(1_000, 0), new Stage(5_000, 0)));
        assertThat(paused.totalSends()).isEqualTo(150);
        assertThat(all(paused)[149]).isLessThan(2_000_000_000L);
        assertThat(paused.fireTimeNs(150)).isEqualTo(RateSchedule.END);
    }

    @Test
    void theFirstStageRampsFromTheStartingRate() {
        RateSchedule schedule = RateSchedule.stages(2000, List.of(new Stage(1_000, 4000)));

        assertThat(schedule.rateAt(0)).isEqualTo(2000);
        assertThat(schedule.totalSends()).isEqualTo(3000);
        // The first gap is close to 1/2000 s, the last close to 1/4000 s.
        long[] times = all(schedule);
        assertThat(times[1] - times[0]).isBetween(499_000L, 500_000L);
        assertThat(times[2999] - times[2998]).isBetween(250_000L, 251_000L);
    }

    @Test
    void slicesOfARampTogetherAreTheSingleSequence() {
        RateSchedule schedule = RateSchedule.stages(0, SHAPE);
        long[] single = all(schedule);
        List<Long> union = new ArrayList<>();
        long[] merged = new long[single.length];
        for (int r = 0; r < 2; r++) {
            for (int i = 0; i < 3; i++) {
                FireTimes slice = schedule.fireTimes(r, 2, i, 3);
                for (long index = slice.nextIndex(); ; index = slice.nextIndex()) {
                    long time = slice.next();
                    if (time == RateSchedule.END) {
                        break;
                    }
                    merged[(int) index] = time;
                    union.add(time);
                }
            }
        }
        assertThat(union).hasSize(single.length);
        assertThat(merged).isEqualTo(single);
    }

    /** The test's own integral of {@link #SHAPE}, segment by segment. */
    private static double integral(long ns) {
        double t = ns / 1e9;
        double[][] segments = {
            // start s, duration s, from, to
            {0, 10, 0, 1000},
            {10, 5, 1000, 1000},
            {15, 10, 1000, 0},
            {25, 3, 0, 0},
            {28, 7, 0, 3000}
        };
        double sum = 0;
        for (double[] s : segments) {
            double inside = Math.max(0, Math.min(t - s[0], s[1]));
            double slope = (s[3] - s[2]) / s[1];
            sum += s[2] * inside + slope * inside * inside / 2;
        }
        return sum;
    }

    private static long[] all(RateSchedule schedule) {
        long[] times = new long[(int) schedule.totalSends()];
        FireTimes iterator = schedule.fireTimes();
        for (int k = 0; k < times.length; k++) {
            times[k] = iterator.next();
        }
        assertThat(iterator.next()).isEqualTo(RateSchedule.END);
        return times;
    }

    /** Times in {@code [from, to)}. */
    private static long countIn(long[] times, long from, long to) {
        long count = 0;
        for (long time : times) {
            if (time >= from && time < to) {
                count++;
            }
        }
        return count;
    }
}
