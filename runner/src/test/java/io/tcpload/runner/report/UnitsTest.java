package io.tcpload.runner.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class UnitsTest {

    @Test
    void timeSwitchesToMillisecondsAt85PercentAndToSecondsAtOneSecond() {
        assertThat(Units.time(0)).isEqualTo("0.00us");
        assertThat(Units.time(470)).isEqualTo("470.00us");
        assertThat(Units.time(849)).isEqualTo("849.00us");
        assertThat(Units.time(850)).isEqualTo("0.85ms");
        assertThat(Units.time(900)).isEqualTo("0.90ms");
        assertThat(Units.time(9_750)).isEqualTo("9.75ms");
        // wrktcp never reaches "s" from the microsecond scale: just below a second stays in ms.
        assertThat(Units.time(999_999)).isEqualTo("1000.00ms");
        assertThat(Units.time(1_000_000)).isEqualTo("1.00s");
        assertThat(Units.time(1_040_000)).isEqualTo("1.04s");
        assertThat(Units.time(60_000_000)).isEqualTo("1.00m");
        // and never hours: minutes keep growing.
        assertThat(Units.time(7_200_000_000.0)).isEqualTo("120.00m");
    }

    @Test
    void binaryUsesPowersOf1024WithoutTheTrailingB() {
        assertThat(Units.binary(0)).isEqualTo("0.00");
        assertThat(Units.binary(21)).isEqualTo("21.00");
        assertThat(Units.binary(870)).isEqualTo("870.00");
        assertThat(Units.binary(871)).isEqualTo("0.85K");
        assertThat(Units.binary(14_254)).isEqualTo("13.92K");
        assertThat(Units.binary(1_436_549)).isEqualTo("1.37M");
        assertThat(Units.binary(5.0 * 1024 * 1024 * 1024)).isEqualTo("5.00G");
        assertThat(Units.binary(2000.0 * 1024 * 1024 * 1024 * 1024)).isEqualTo("2000.00T");
    }

    @Test
    void metricUsesPowersOf1000() {
        assertThat(Units.metric(9.8)).isEqualTo("9.80");
        assertThat(Units.metric(137.72)).isEqualTo("137.72");
        assertThat(Units.metric(843.09)).isEqualTo("843.09");
        assertThat(Units.metric(920)).isEqualTo("0.92k");
        assertThat(Units.metric(980)).isEqualTo("0.98k");
        assertThat(Units.metric(1050)).isEqualTo("1.05k");
        assertThat(Units.metric(14_290)).isEqualTo("14.29k");
        assertThat(Units.metric(2_500_000)).isEqualTo("2.50M");
    }

    @Test
    void durationHasNoDecimalsAndRoundsLikeWrktcp() {
        assertThat(Units.duration(1_000)).isEqualTo("1s");
        assertThat(Units.duration(10_000)).isEqualTo("10s");
        assertThat(Units.duration(50_000)).isEqualTo("50s");
        assertThat(Units.duration(60_000)).isEqualTo("1m");
        assertThat(Units.duration(90_000)).isEqualTo("2m");
        assertThat(Units.duration(500)).isEqualTo("500ms");
    }

    @Test
    void decimalsRoundTheExactBinaryValueTiesToEvenAsPrintfDoes() {
        // 0.125 is exact in binary: a true tie, printf gives the even neighbour.
        assertThat(Units.fixed2(0.125)).isEqualTo("0.12");
        assertThat(Units.fixed2(0.375)).isEqualTo("0.38");
        // 1.005 is stored as 1.00499999..., so printf rounds down; String.format would say 1.01.
        assertThat(Units.fixed2(1.005)).isEqualTo("1.00");
        assertThat(Units.fixed(1.5, 0)).isEqualTo("2");
        assertThat(Units.fixed(2.5, 0)).isEqualTo("2");
    }
}
