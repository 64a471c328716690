package io.tcpload.operator.status;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ClockEstimateTest {
    @Test
    void aReadingTakesTheRunnersClockForTheMiddleOfTheRoundTrip() {
        // Sent at 1000, back at 1400 on the operator's clock; the runner said 51200 on its own.
        ClockSample sample = ClockSample.of(1_000, 51_200, 1_400);

        assertThat(sample.offsetUs()).isEqualTo(50_000);
        assertThat(sample.roundTripUs()).isEqualTo(400);
    }

    @Test
    void noClockOrAClockGoneBackIsNoReading() {
        assertThat(ClockSample.of(1_000, 0, 1_400).known()).isFalse();
        assertThat(ClockSample.of(1_400, 5_000, 1_000).known()).isFalse();
        assertThat(ClockEstimate.NONE.offsetUs()).isZero();
    }

    @Test
    void theShortestRoundTripOfTheLastReadingsWins() {
        ClockEstimate estimate =
                ClockEstimate.NONE
                        .with(new ClockSample(58_000, 9_000))
                        .with(new ClockSample(50_100, 200))
                        .with(ClockSample.NONE)
                        .with(new ClockSample(47_000, 4_000));

        assertThat(estimate.offsetUs()).isEqualTo(50_100);
    }

    @Test
    void readingsOlderThanTheWindowAreLeftOut() {
        ClockEstimate estimate = ClockEstimate.NONE.with(new ClockSample(-9_000, 10));
        for (int i = 0; i < ClockEstimate.WINDOW; i++) {
            estimate = estimate.with(new ClockSample(3_000, 500));
        }

        assertThat(estimate.offsetUs()).as("a clock stepped since is followed").isEqualTo(3_000);
    }
}
