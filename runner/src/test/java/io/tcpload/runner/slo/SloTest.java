package io.tcpload.runner.slo;

import static io.tcpload.runner.stats.RunBuilder.aRun;
import static io.tcpload.runner.stats.RunBuilder.histogram;
import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.CountsBuilder;
import io.tcpload.runner.stats.RunSummary;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class SloTest {

    private static RunSummary run(Counts counts, Histogram latencyUs) {
        return aRun().counts(counts).latencyUs(latencyUs).runtimeUs(2_000_000).build();
    }

    @Test
    void aLatencyOfNoResponsesIsMissedNotReadAsZero() {
        // A target that refused every connect: the empty histogram reads 0 everywhere.
        Counts refused = CountsBuilder.counts().connectErrors(24).build();
        RunSummary run = run(refused, histogram());
        Slo slo = Slo.parse("p99 < 250ms, max <= 1ms, mean < 5ms");

        assertThat(slo.misses(Slo.Figures.of(run), refused))
                .extracting(Threshold.Miss::message)
                .containsExactly(
                        "p99 < 250ms: no responses to measure",
                        "max <= 1ms: no responses to measure",
                        "mean < 5ms: no responses to measure");
    }

    @Test
    void aRatioOfNothingAttemptedIsMissedButErrorsAloneAreMeasured() {
        Slo slo = Slo.parse("errorRatio < 0.01, successRatio >= 0");
        RunSummary none = run(Counts.ZERO, histogram());
        assertThat(slo.misses(Slo.Figures.of(none), Counts.ZERO))
                .extracting(Threshold.Miss::message)
                .containsExactly(
                        "errorRatio < 0.01: no requests to measure",
                        "successRatio >= 0: no requests to measure");

        Counts refused = CountsBuilder.counts().connectErrors(4).build();
        RunSummary errors = run(refused, histogram());
        assertThat(slo.misses(Slo.Figures.of(errors), refused))
                .extracting(Threshold.Miss::message)
                .containsExactly("errorRatio < 0.01: measured 1.000");
    }

    @Test
    void figuresOfResponsesAreJudgedAsMeasured() {
        Counts answered = CountsBuilder.counts().requests(100).successes(100).build();
        // 99 responses in 2 ms and one in 400 ms.
        RunSummary run = run(answered, histogram(2_000, 99, 400_000, 1));
        Slo slo = Slo.parse("p50 < 5ms, max <= 1ms, tps >= 10");

        assertThat(slo.misses(Slo.Figures.of(run), answered))
                .extracting(Threshold.Miss::message)
                .singleElement()
                .asString()
                .startsWith("max <= 1ms: measured 40");
    }

    @Test
    void aRateOfNoResponsesIsAFigure() {
        Counts refused = CountsBuilder.counts().connectErrors(3).build();
        RunSummary run = run(refused, histogram());
        assertThat(Slo.parse("tps < 100, errorRatio <= 1").misses(Slo.Figures.of(run), refused))
                .isEmpty();
    }
}
