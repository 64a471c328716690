package io.tcpload.runner.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.slo.Slo;
import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.CountsBuilder;
import org.junit.jupiter.api.Test;

class VerdictTest {

    /** A step of 10 s at 100/s whose every connect was refused: nothing answered, no backlog. */
    private static StepFigures refused() {
        Counts counts = CountsBuilder.counts().connectErrors(1_000).build();
        Slo.Figures empty = new Slo.Figures(0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0);
        return new StepFigures(100, 10, counts, 0, 100, 0, 0, empty);
    }

    private static SearchSpec spec(String slo) {
        return new SearchSpec(Slo.parse(slo), 100, 400, 10_000, 500, 0.02, 64);
    }

    @Test
    void aStepWithNoResponsesDoesNotHoldItsLatency() {
        Verdict verdict = Verdict.judge(spec("p99 < 50ms"), refused());

        assertThat(verdict.held()).isFalse();
        assertThat(verdict.reasons()).containsExactly("p99 < 50ms: no responses to measure");
    }

    @Test
    void aStepWithNoResponsesDoesNotHoldAnObjectiveOfRatiosThatErrorsMeet() {
        Verdict verdict = Verdict.judge(spec("errorRatio <= 1"), refused());

        assertThat(verdict.held()).isFalse();
        assertThat(verdict.reasons()).containsExactly("no response");
    }
}
