package io.tcpload.runner.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ResponseTimingTest {
    private static final long MS = 1_000_000L;

    @Test
    void withoutDelayOrStallsEveryResponseIsImmediate() {
        ResponseTiming timing = ResponseTiming.of(ServeOptions.defaults(), 0);
        assertThat(timing.immediate()).isTrue();
        assertThat(timing.waitNs(123 * MS)).isZero();
    }

    @Test
    void aResponseDueInAStallWaitsForItsEnd() {
        ResponseTiming timing =
                ResponseTiming.of(ServeOptions.defaults().withStalls(1_000, 200), 5 * MS);
        assertThat(timing.immediate()).isFalse();
        assertThat(timing.waitNs(5 * MS)).isEqualTo(200 * MS);
        assertThat(timing.waitNs(55 * MS)).isEqualTo(150 * MS);
        assertThat(timing.waitNs(205 * MS)).isZero();
        assertThat(timing.waitNs(900 * MS)).isZero();
        assertThat(timing.waitNs(1_105 * MS)).isEqualTo(100 * MS);
    }

    @Test
    void theDelayAppliesOutsideStallsAndTheLongerWaitWins() {
        ResponseTiming timing =
                ResponseTiming.of(
                        ServeOptions.defaults().withDelayMs(30).withStalls(1_000, 200), 0);
        assertThat(timing.waitNs(500 * MS)).isEqualTo(30 * MS);
        assertThat(timing.waitNs(190 * MS)).isEqualTo(30 * MS);
        assertThat(timing.waitNs(100 * MS)).isEqualTo(100 * MS);
    }

    @Test
    void aStallAsLongAsItsPeriodIsRefused() {
        assertThatThrownBy(() -> ServeOptions.defaults().withStalls(100, 100))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("shorter than its period");
    }
}
