package io.tcpload.operator.results;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.stats.RunBuilder;
import io.tcpload.runner.stats.RunInfo;
import io.tcpload.runner.stats.RunSummary;
import java.util.List;
import org.junit.jupiter.api.Test;

class StartSkewTest {
    private static final RunInfo INFO =
            new RunInfo("127.0.0.1:1", "profile.ini", 2, 2, 2_000, 5_000, false, 1, "epoll");

    /** A runner whose first event loop began at {@code firstUs} and its last at {@code lastUs}. */
    private static RunSummary began(long firstUs, long lastUs) {
        return RunBuilder.aRun()
                .info(INFO)
                .runtimeUs(2_000_000)
                .startEpochUs(firstUs)
                .lastStartEpochUs(lastUs)
                .build();
    }

    @Test
    void theSpreadRunsFromTheFirstLoopOfAnyRunnerToTheLastLoopOfAny() {
        List<RunSummary> runners =
                List.of(
                        began(1_700_000_000_001_000L, 1_700_000_000_001_500L),
                        began(1_700_000_000_001_200L, 1_700_000_000_004_000L),
                        began(1_700_000_000_002_000L, 1_700_000_000_002_100L));

        assertThat(StartSkew.spreadUs(runners)).hasValue(3_000);
        assertThat(StartSkew.spreadMs(runners)).hasValue(3);
        assertThat(StartSkew.firstStartEpochUs(runners)).isEqualTo(1_700_000_000_001_000L);
        assertThat(StartSkew.lastStartEpochUs(runners)).isEqualTo(1_700_000_000_004_000L);
    }

    @Test
    void aLateLoopInsideOneRunnerCountsAsMuchAsALateRunner() {
        assertThat(StartSkew.spreadUs(List.of(began(5_000_000, 5_000_700)))).hasValue(700);
    }

    @Test
    void millisecondsAreRoundedToTheNearest() {
        assertThat(StartSkew.spreadMs(List.of(began(1_000_000, 1_001_499)))).hasValue(1);
        assertThat(StartSkew.spreadMs(List.of(began(1_000_000, 1_001_500)))).hasValue(2);
        assertThat(StartSkew.spreadMs(List.of(began(1_000_000, 1_000_000)))).hasValue(0);
    }

    @Test
    void runnersWithoutAStartAreLeftOutAndNoneKnownMeansNoFigure() {
        List<RunSummary> oneUnknown = List.of(began(0, 0), began(9_000_000, 9_000_250));

        assertThat(StartSkew.spreadUs(oneUnknown)).hasValue(250);
        assertThat(StartSkew.spreadUs(List.of(began(0, 0), began(0, 0)))).isEmpty();
        assertThat(StartSkew.spreadMs(List.of())).isEmpty();
        assertThat(StartSkew.firstStartEpochUs(List.of(began(0, 0)))).isZero();
    }

    @Test
    void aResultWithoutItsLastLoopsStartCountsItsFirst() {
        // Written before runners reported their loops' spread: the last start reads as unknown.
        List<RunSummary> runners = List.of(began(3_000_000, 0), began(3_004_000, 3_004_100));

        assertThat(StartSkew.spreadUs(runners)).hasValue(4_100);
        assertThat(StartSkew.lastStartEpochUs(List.of(began(3_000_000, 0)))).isEqualTo(3_000_000);
    }

    @Test
    void onOneClockARunnerWhoseClockIsAheadIsBroughtBackByItsOffset() {
        java.util.Map<Integer, RunSummary> runners =
                java.util.Map.of(
                        0, began(1_700_000_000_000_000L, 1_700_000_000_000_000L),
                        1, began(1_700_000_000_050_400L, 1_700_000_000_050_400L));

        assertThat(StartSkew.spreadUs(runners, java.util.Map.of(1, 50_000L))).hasValue(400);
        assertThat(StartSkew.spreadUs(runners, java.util.Map.of())).hasValue(50_400);
    }
}
