package io.tcpload.runner.rate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StagesTest {

    @Test
    void parsesTheIssueExample() {
        assertThat(Stages.parse("30s:1000,1m:5000,30s:5000"))
                .containsExactly(
                        new Stage(30_000, 1000), new Stage(60_000, 5000), new Stage(30_000, 5000));
    }

    @Test
    void acceptsEveryDurationUnitSiRatesSpacesAndPauses() {
        assertThat(Stages.parse(" 500ms:5k , 10s:2.5K,2m:0, 1h:1M ,15:0.5"))
                .containsExactly(
                        new Stage(500, 5000),
                        new Stage(10_000, 2500),
                        new Stage(120_000, 0),
                        new Stage(3_600_000, 1_000_000),
                        new Stage(15_000, 0.5));
        assertThat(Stages.parse("1S:1g")).containsExactly(new Stage(1000, 1e9));
    }

    @Test
    void theParsedStagesMakeASchedule() {
        RateSchedule schedule = RateSchedule.stages(0, Stages.parse("30s:1000,1m:5000,30s:5000"));

        assertThat(schedule.totalDurationMs()).isEqualTo(120_000);
        // 15 000 up to 1000, 180 000 from 1000 to 5000, 150 000 flat.
        assertThat(schedule.totalSends()).isEqualTo(345_000);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "''|--stages: no stage given",
                "'   '|--stages: no stage given",
                "30s:1000,,1m:5|--stages: stage 2 is empty",
                "30s:1000,|--stages: stage 2 is empty",
                "30s1000|--stages: stage 1 '30s1000' is not DURATION:RATE",
                "30s:1:2|--stages: stage 1 '30s:1:2' is not DURATION:RATE",
                "10s:5,1x:5|--stages: stage 2 duration '1x' is not a duration",
                ":5|--stages: stage 1 duration '' is not a duration",
                "0s:5|--stages: stage 1 duration '0s' must be positive",
                "-5s:5|--stages: stage 1 duration '-5s' must be positive",
                "1.5s:5|--stages: stage 1 duration '1.5s' is not a duration",
                "9999999999999h:5|--stages: stage 1 duration '9999999999999h' is not a duration",
                "10s:-5|--stages: stage 1 rate '-5' must not be negative",
                "10s:abc|--stages: stage 1 rate 'abc' is not a rate",
                "10s:|--stages: stage 1 rate '' is not a rate",
                "10s:1e3|--stages: stage 1 rate '1e3' is not a rate",
                "10s:NaN|--stages: stage 1 rate 'NaN' is not a rate",
                "10s:1.2.3|--stages: stage 1 rate '1.2.3' is not a rate",
                "10s:2G|--stages: stage 1 rate '2G' is above the highest rate",
            })
    void badStagesAreRejectedNamingTheStageAndThePart(String text, String message) {
        assertThatThrownBy(() -> Stages.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(message);
    }

    @Test
    void aHugeListIsRejectedBeforeAnyWork() {
        String many = "1s:1,".repeat(Stages.MAX_STAGES) + "1s:1";

        assertThatThrownBy(() -> Stages.parse(many))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most 10000");
        assertThat(Stages.parse("1s:1,".repeat(Stages.MAX_STAGES - 1) + "1s:1"))
                .hasSize(Stages.MAX_STAGES);
    }

    @Test
    void stagesThatLastTooLongInAllAreRejected() {
        String stage = "2562047h:1,";
        assertThatThrownBy(() -> Stages.parse(stage.repeat(3) + "1s:1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("stage 2: the stages last too long in all");
    }

    @Test
    void rateParsesTheFlagValueOfR() {
        assertThat(Stages.rate("-R", "1000")).isEqualTo(1000.0);
        assertThat(Stages.rate("-R", "2.5k")).isEqualTo(2500.0);
        assertThatThrownBy(() -> Stages.rate("-R", "fast"))
                .hasMessage("-R 'fast' is not a rate (examples: 1000, 5k, 2.5k, 0)");
    }
}
