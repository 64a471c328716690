package io.tcpload.runner.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SecondRowsTest {
    private static List<SecondSample> seconds(int count) {
        List<SecondSample> rows = new ArrayList<>();
        for (int s = 1; s <= count; s++) {
            rows.add(
                    new SecondSample(
                            s,
                            new Counts(s, s, 0, 0, 0, 0, 0, 10, 10, 0),
                            s,
                            2L * s,
                            3L * s,
                            4L * s));
        }
        return rows;
    }

    @Test
    void aDaysRunFitsTheBoundAndAShortOneKeepsEverySecond() {
        assertThat(SecondRows.secondsPerRow(24 * 3_600_000L, SecondRows.MAX_ROWS)).isEqualTo(120);
        assertThat(SecondRows.secondsPerRow(720_000, SecondRows.MAX_ROWS)).isEqualTo(1);
        assertThat(SecondRows.secondsPerRow(721_000, SecondRows.MAX_ROWS)).isEqualTo(2);
        assertThat(SecondRows.secondsPerRow(0, SecondRows.MAX_ROWS)).isEqualTo(1);
        assertThatThrownBy(() -> SecondRows.secondsPerRow(1000, 0))
                .isInstanceOf(IllegalArgumentException.class);

        List<SecondSample> day = seconds(86_400);
        List<SecondSample> rows = SecondRows.fold(day, 120);
        assertThat(rows).hasSize(720);
        assertThat(rows.stream().mapToLong(r -> r.counts().requests()).sum())
                .isEqualTo(day.stream().mapToLong(r -> r.counts().requests()).sum());
    }

    @Test
    void aFoldedRowSumsItsCountsAndKeepsTheWorstPercentilesUnderItsFirstSecond() {
        List<SecondSample> rows = SecondRows.fold(seconds(7), 3);

        assertThat(rows).extracting(SecondSample::second).containsExactly(1, 4, 7);
        assertThat(rows.get(1).counts().requests()).isEqualTo(4 + 5 + 6);
        assertThat(rows.get(1).latencyP99Us()).isEqualTo(18);
        assertThat(rows.get(1).latencyMaxUs()).isEqualTo(24);
        assertThat(rows.get(2).counts().requests()).isEqualTo(7);
    }

    @Test
    void aFoldedRowLastsItsSecondsTogetherAPartialLastOneIncluded() {
        List<SecondSample> run = new ArrayList<>(seconds(6));
        SecondSample last = run.remove(5);
        run.add(
                new SecondSample(
                        last.second(),
                        last.counts(),
                        last.latencyP50Us(),
                        last.latencyP90Us(),
                        last.latencyP99Us(),
                        last.latencyMaxUs(),
                        250_000));

        List<SecondSample> rows = SecondRows.fold(run, 4);

        assertThat(rows)
                .extracting(SecondSample::durationUs)
                .containsExactly(4_000_000L, 1_250_000L);
        // 5 + 6 requests over 1.25 s.
        assertThat(rows.get(1).perSecond(rows.get(1).counts().requests())).isEqualTo(8.8);
    }

    @Test
    void runnersWithMissingSecondsStillFoldOntoTheSameLabels() {
        List<SecondSample> gappy = new ArrayList<>(seconds(9));
        gappy.remove(3);
        gappy.remove(0);

        assertThat(SecondRows.fold(gappy, 3))
                .extracting(SecondSample::second)
                .containsExactly(1, 4, 7);
        assertThat(SecondRows.fold(seconds(3), 1)).isEqualTo(seconds(3));
    }
}
