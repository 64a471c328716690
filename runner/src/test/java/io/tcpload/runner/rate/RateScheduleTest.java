package io.tcpload.runner.rate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Constant-rate schedules, simulated: no clock, no sockets. */
class RateScheduleTest {

    @ParameterizedTest
    @ValueSource(longs = {1_000, 10_000, 30_000})
    void theKthSendFiresAtKTimesThePeriodRoundedWithNoDriftAfterTenMillionSends(long rate) {
        long sends = 10_000_000L;
        long durationMs = sends * 1000 / rate + 1;
        RateSchedule schedule = RateSchedule.constant(rate, durationMs);
        FireTimes times = schedule.fireTimes();

        for (long k = 0; k < sends; k++) {
            long expected = roundedDivision(k * 1_000_000_000L, rate);
            long actual = times.next();
            if (actual != expected) {
                assertThat(actual).as("send %d at %d/s", k, rate).isEqualTo(expected);
            }
        }
        assertThat(schedule.fireTimeNs(sends - 1))
                .isEqualTo(roundedDivision((sends - 1) * 1_000_000_000L, rate));
    }

    @Test
    void aConstantScheduleHoldsRateTimesDurationSendsAllInsideTheRun() {
        RateSchedule schedule = RateSchedule.constant(1000, 2000);

        assertThat(schedule.totalDurationMs()).isEqualTo(2000);
        assertThat(schedule.totalSends()).isEqualTo(2000);
        assertThat(schedule.expectedTotal()).isEqualTo(2000.0);
        assertThat(schedule.fireTimeNs(0)).isZero();
        assertThat(schedule.fireTimeNs(1999)).isEqualTo(1_999_000_000L);
        assertThat(schedule.fireTimeNs(2000)).isEqualTo(RateSchedule.END);

        FireTimes times = schedule.fireTimes();
        long count = 0;
        while (times.next() != RateSchedule.END) {
            count++;
        }
        assertThat(count).isEqualTo(2000);
        assertThat(times.next()).isEqualTo(RateSchedule.END);
        assertThat(times.returned()).isEqualTo(2000);
    }

    @Test
    void aFractionalRateRoundsEachTimeFromItsIndex() {
        RateSchedule schedule = RateSchedule.constant(3, 1000);

        // 1e9 / 3 = 333333333.33 ns: each time is rounded on its own, never accumulated.
        assertThat(schedule.totalSends()).isEqualTo(3);
        assertThat(schedule.fireTimeNs(1)).isEqualTo(333_333_333L);
        assertThat(schedule.fireTimeNs(2)).isEqualTo(666_666_667L);
        assertThat(schedule.rateAt(500_000_000L)).isEqualTo(3.0);
    }

    @ParameterizedTest
    @ValueSource(longs = {1_000, 10_000, 30_000})
    void theSlicesOfEveryLoopAndRunnerTogetherAreTheSingleSequence(long rate) {
        RateSchedule schedule = RateSchedule.constant(rate, 2000);
        long total = schedule.totalSends();
        assertThat(total).isEqualTo(rate * 2);

        for (int runners = 1; runners <= 2; runners++) {
            for (int loops = 1; loops <= 3; loops++) {
                long[] union = new long[(int) total];
                int[] hits = new int[(int) total];
                for (int r = 0; r < runners; r++) {
                    for (int i = 0; i < loops; i++) {
                        FireTimes slice = schedule.fireTimes(r, runners, i, loops);
                        long previous = Long.MIN_VALUE;
                        long count = 0;
                        for (long index = slice.nextIndex(); ; index = slice.nextIndex()) {
                            long time = slice.next();
                            if (time == RateSchedule.END) {
                                break;
                            }
                            assertThat(index % runners).isEqualTo(r);
                            assertThat((index / runners) % loops).isEqualTo(i);
                            assertThat(time).isGreaterThanOrEqualTo(previous);
                            previous = time;
                            union[(int) index] = time;
                            hits[(int) index]++;
                            count++;
                        }
                        assertThat(slice.size()).isEqualTo(count);
                        assertThat(slice.returned()).isEqualTo(count);
                    }
                }
                FireTimes single = schedule.fireTimes();
                for (int k = 0; k < total; k++) {
                    assertThat(hits[k])
                            .as("send %d, %d runners, %d loops", k, runners, loops)
                            .isEqualTo(1);
                    assertThat(union[k]).isEqualTo(single.next());
                }
            }
        }
    }

    @Test
    void eachSliceKnowsHowManyOfItsSendsAreDueByAGivenTime() {
        RateSchedule schedule = RateSchedule.constant(10_000, 1000);
        List<FireTimes> slices =
                List.of(
                        schedule.fireTimes(0, 2, 0, 3),
                        schedule.fireTimes(0, 2, 1, 3),
                        schedule.fireTimes(0, 2, 2, 3),
                        schedule.fireTimes(1, 2, 0, 3),
                        schedule.fireTimes(1, 2, 1, 3),
                        schedule.fireTimes(1, 2, 2, 3));

        for (long t = 0; t <= 1_000_000_000L; t += 1_234_567L) {
            long sum = 0;
            for (FireTimes slice : slices) {
                sum += slice.sendsBefore(t);
            }
            assertThat(sum).as("at %d ns", t).isEqualTo(schedule.sendsBefore(t));
        }
        // At 100 us, sends 0 (runner 0, loop 0) and 1 (runner 1, loop 0) are due: at 0 and 100 us
        // only the first is strictly before.
        assertThat(slices.get(0).sendsBefore(100_000)).isEqualTo(1);
        assertThat(slices.get(3).sendsBefore(100_000)).isZero();
        assertThat(slices.get(3).sendsBefore(100_001)).isEqualTo(1);
    }

    @Test
    void sendsBeforeIsTheExactCountOfTheSequenceAndTheCeilingOfTheIntegral() {
        RateSchedule schedule = RateSchedule.constant(30_000, 1000);
        FireTimes times = schedule.fireTimes();
        long[] all = new long[(int) schedule.totalSends()];
        for (int k = 0; k < all.length; k++) {
            all[k] = times.next();
        }
        for (long t = 0; t <= 1_000_000_000L; t += 777_777L) {
            long counted = countBelow(all, t);
            assertThat(schedule.sendsBefore(t)).as("at %d ns", t).isEqualTo(counted);
            assertThat(schedule.expectedSends(t)).isCloseTo(30_000 * t / 1e9, within(1e-6));
            assertThat((double) counted)
                    .isCloseTo(Math.ceil(schedule.expectedSends(t)), within(1.0));
        }
    }

    @Test
    void peekShowsTheWaitingSendAndDueAtCountsTheBacklog() {
        // 1000/s over 2 loops: loop 1 takes the odd sends, at 1, 3, 5, ... ms.
        FireTimes times = RateSchedule.constant(1000, 1000).fireTimes(1, 2);

        assertThat(times.peek()).isEqualTo(1_000_000L);
        assertThat(times.peek()).isEqualTo(1_000_000L);
        assertThat(times.dueAt(999_999L)).isZero();
        assertThat(times.dueAt(1_000_000L)).isEqualTo(1);
        // A stall of 10 ms on the engine's side: five sends wait, none lost, none shifted.
        assertThat(times.dueAt(10_000_000L)).isEqualTo(5);
        assertThat(times.next()).isEqualTo(1_000_000L);
        assertThat(times.next()).isEqualTo(3_000_000L);
        assertThat(times.dueAt(10_000_000L)).isEqualTo(3);
        assertThat(times.peek()).isEqualTo(5_000_000L);
        assertThat(times.dueAt(Long.MAX_VALUE)).isEqualTo(498);
        while (times.next() != RateSchedule.END) {
            // drain
        }
        assertThat(times.peek()).isEqualTo(RateSchedule.END);
        assertThat(times.dueAt(Long.MAX_VALUE)).isZero();
        assertThat(times.returned()).isEqualTo(500);
    }

    @Test
    void nextDoesNotAllocate() {
        java.lang.management.ThreadMXBean bean =
                java.lang.management.ManagementFactory.getThreadMXBean();
        org.junit.jupiter.api.Assumptions.assumeTrue(
                bean instanceof com.sun.management.ThreadMXBean);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
        RateSchedule schedule =
                RateSchedule.stages(0, List.of(new Stage(10_000, 100_000), new Stage(10_000, 0)));
        FireTimes times = schedule.fireTimes(1, 2);
        long sink = 0;
        for (int i = 0; i < 10_000; i++) {
            sink += times.next(); // warm up
        }
        long thread = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(thread);
        for (int i = 0; i < 500_000; i++) {
            sink += times.next();
        }
        long allocated = threads.getThreadAllocatedBytes(thread) - before;
        assertThat(sink).isNotZero();
        // 500 000 calls: even one small object each would be megabytes.
        assertThat(allocated).isLessThan(64 * 1024);
    }

    @Test
    void badArgumentsAreRejectedWithTheirValue() {
        assertThatThrownBy(() -> RateSchedule.constant(0, 1000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("rate must be positive");
        assertThatThrownBy(() -> RateSchedule.constant(Double.NaN, 1000))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RateSchedule.constant(2e9, 1000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1000000000");
        assertThatThrownBy(() -> RateSchedule.stages(-1, List.of(new Stage(1000, 1))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
        assertThatThrownBy(() -> RateSchedule.stages(0, List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one stage");
        // 1e9/s for ten years is more sends than doubles count exactly.
        assertThatThrownBy(() -> RateSchedule.constant(1e9, 315_360_000_000L))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("2^53");
        RateSchedule schedule = RateSchedule.constant(100, 1000);
        assertThatThrownBy(() -> schedule.fireTimes(2, 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("loop index 2 is outside 0..1");
        assertThatThrownBy(() -> schedule.fireTimes(0, 0, 0, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("runner count 0");
        assertThatThrownBy(() -> schedule.fireTimeNs(-1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** {@code round(numerator / denominator)} for positive longs, halves up, in exact integers. */
    private static long roundedDivision(long numerator, long denominator) {
        return (2 * numerator + denominator) / (2 * denominator);
    }

    private static long countBelow(long[] sorted, long limit) {
        long count = 0;
        for (long value : sorted) {
            if (value < limit) {
                count++;
            }
        }
        return count;
    }
}
