package io.tcpload.operator.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tcpload.operator.crd.ErrorCounts;
import io.tcpload.operator.crd.LatencySummary;
import io.tcpload.operator.crd.RequestSummary;
import io.tcpload.operator.crd.ResultSummary;
import io.tcpload.runner.slo.Threshold;
import io.tcpload.runner.slo.Threshold.Metric;
import io.tcpload.runner.slo.Threshold.Operator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ThresholdsTest {

    @Test
    void parsesTheGrammar() {
        assertThat(Threshold.parse("p99 < 250ms"))
                .isEqualTo(new Threshold("p99 < 250ms", Metric.P99, Operator.LT, 250));
        assertThat(Threshold.parse("p99.9<=1.5s").limit()).isEqualTo(1500);
        assertThat(Threshold.parse("p99.99 < 800us").limit()).isEqualTo(0.8);
        assertThat(Threshold.parse("mean < 20").limit()).isEqualTo(20);
        assertThat(Threshold.parse("successRatio >= 0.99").operator()).isEqualTo(Operator.GE);
        assertThat(Threshold.parse(" errorRatio <= 0.01 ").metric()).isEqualTo(Metric.ERROR_RATIO);
        assertThat(Threshold.parse("tps > 1000").limit()).isEqualTo(1000);
    }

    @Test
    void refusesWhatIsNotAThreshold() {
        assertThatThrownBy(() -> Threshold.parse("p99 250ms"))
                .hasMessageContaining("METRIC OP VALUE");
        assertThatThrownBy(() -> Threshold.parse("p95 < 10ms"))
                .hasMessageContaining("unknown metric 'p95'");
        assertThatThrownBy(() -> Threshold.parse("p99 < 10min"))
                .hasMessageContaining("not us, ms or s");
        assertThatThrownBy(() -> Threshold.parse("tps > 10ms"))
                .hasMessageContaining("plain number");
        assertThatThrownBy(() -> Threshold.parse("successRatio >= 99"))
                .hasMessageContaining("0 to 1");
        assertThatThrownBy(() -> Threshold.parse("p99 == 5"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void reportsTheThresholdsThatDidNotHold() {
        ResultSummary summary = new ResultSummary();
        LatencySummary latency = new LatencySummary();
        latency.setP99Ms(312.5);
        latency.setP50Ms(12.0);
        summary.setLatency(latency);
        summary.setRequests(9_000L);
        summary.setSuccessRatio(0.995);
        summary.setErrorRatio(0.005);
        summary.setTps(900.0);

        List<Threshold.Miss> misses =
                Thresholds.evaluate(
                        List.of(
                                "p99 < 250ms",
                                "p50 <= 12ms",
                                "successRatio >= 0.99",
                                "errorRatio <= 0.01",
                                "tps >= 1000"),
                        summary);

        assertThat(misses)
                .extracting(Threshold.Miss::message)
                .containsExactly("p99 < 250ms: measured 312.5ms", "tps >= 1000: measured 900.0");
    }

    @Test
    void noThresholdsNoMisses() {
        assertThat(Thresholds.evaluate(List.of(), new ResultSummary())).isEmpty();
    }

    private static ResultSummary mix() {
        ResultSummary summary = new ResultSummary();
        LatencySummary latency = new LatencySummary();
        latency.setP99Ms(40.0);
        summary.setLatency(latency);
        summary.setRequests(10_000L);
        summary.setTps(1000.0);
        summary.setSuccessRatio(0.995);
        summary.setErrorRatio(0.005);
        RequestSummary authorise = new RequestSummary();
        authorise.setName("authorise");
        authorise.setRequests(9_000L);
        authorise.setP99Ms(10.0);
        authorise.setTps(900.0);
        authorise.setSuccessRatio(1.0);
        authorise.setErrorRatio(0.0);
        RequestSummary transfer = new RequestSummary();
        transfer.setName("transfer");
        transfer.setRequests(1_000L);
        transfer.setP99Ms(250.0);
        transfer.setMaxMs(400.0);
        transfer.setTps(100.0);
        transfer.setSuccessRatio(0.95);
        transfer.setErrorRatio(0.05);
        summary.setByRequest(List.of(authorise, transfer));
        return summary;
    }

    @Test
    void aThresholdNamingARequestIsJudgedOnItsRowAlone() {
        ResultSummary summary = mix();

        List<Threshold.Miss> misses =
                Thresholds.evaluate(
                        List.of(
                                "p99 < 50ms",
                                "p99{request=authorise} < 20ms",
                                "p99{request=transfer} < 200ms",
                                "tps{request=authorise} >= 800",
                                "successRatio{request=transfer} >= 0.99",
                                "max{request=transfer} < 1s"),
                        summary);

        assertThat(misses)
                .extracting(Threshold.Miss::message)
                .containsExactly(
                        "p99{request=transfer} < 200ms: measured 250.0ms",
                        "successRatio{request=transfer} >= 0.99: measured 0.9500");
    }

    @Test
    void aThresholdNamingARequestTheResultLacksIsMissedNeverPassed() {
        assertThat(Thresholds.evaluate(List.of("p99{request=reversal} > 0"), mix()))
                .extracting(Threshold.Miss::message)
                .containsExactly(
                        "p99{request=reversal} > 0: the profile has no request 'reversal'; its"
                                + " requests are authorise, transfer");
        ResultSummary plain = mix();
        plain.setByRequest(null);
        assertThat(Thresholds.evaluate(List.of("p99{request=reversal} > 0"), plain))
                .extracting(Threshold.Miss::message)
                .containsExactly(
                        "p99{request=reversal} > 0: the profile has no request 'reversal': it has"
                                + " no [request.NAME] sections");
    }

    /** What a run against a closed port reports: connect errors, and an empty histogram's 0s. */
    private static ResultSummary refused() {
        ResultSummary summary = new ResultSummary();
        LatencySummary latency = new LatencySummary();
        latency.setP50Ms(0.0);
        latency.setP75Ms(0.0);
        latency.setP90Ms(0.0);
        latency.setP99Ms(0.0);
        latency.setP999Ms(0.0);
        latency.setP9999Ms(0.0);
        latency.setMeanMs(0.0);
        latency.setMaxMs(0.0);
        summary.setLatency(latency);
        summary.setRequests(0L);
        ErrorCounts errors = new ErrorCounts();
        errors.setConnect(24L);
        summary.setErrors(errors);
        summary.setTps(0.0);
        summary.setSuccessRatio(0.0);
        summary.setErrorRatio(1.0);
        return summary;
    }

    @Test
    void aLatencyThresholdOnNoResponsesIsMissedNeverPassed() {
        List<String> latencies = new ArrayList<>();
        for (Metric metric : Metric.values()) {
            if (metric.latency()) {
                latencies.add(metric.written() + " < 250ms");
            }
        }
        latencies.add("max <= 1ms");

        assertThat(Thresholds.evaluate(latencies, refused()))
                .extracting(Threshold.Miss::message)
                .containsExactlyElementsOf(
                        latencies.stream().map(t -> t + ": no responses to measure").toList());
    }

    @Test
    void onNoResponsesTheRatesAndTheErrorsAreStillMeasured() {
        assertThat(
                        Thresholds.evaluate(
                                List.of("tps < 10", "errorRatio <= 0.01", "successRatio >= 0.99"),
                                refused()))
                .extracting(Threshold.Miss::message)
                .containsExactly(
                        "errorRatio <= 0.01: measured 1.000",
                        "successRatio >= 0.99: measured 0.000");
    }

    @Test
    void aRatioOfNothingAttemptedIsMissed() {
        ResultSummary idle = refused();
        idle.setErrors(new ErrorCounts());
        idle.setErrorRatio(0.0);

        assertThat(Thresholds.evaluate(List.of("errorRatio < 0.01"), idle))
                .extracting(Threshold.Miss::message)
                .containsExactly("errorRatio < 0.01: no requests to measure");
    }

    @Test
    void aNamedRequestWithNoResponsesIsMissedOnItsLatencyAndRatios() {
        ResultSummary summary = mix();
        RequestSummary transfer = summary.getByRequest().get(1);
        transfer.setRequests(0L);
        transfer.setP99Ms(0.0);
        transfer.setErrorRatio(0.0);

        assertThat(
                        Thresholds.evaluate(
                                List.of(
                                        "p99{request=transfer} < 200ms",
                                        "errorRatio{request=transfer} <= 0.01",
                                        "p99{request=authorise} < 20ms"),
                                summary))
                .extracting(Threshold.Miss::message)
                .containsExactly(
                        "p99{request=transfer} < 200ms: no responses to measure",
                        "errorRatio{request=transfer} <= 0.01: no requests to measure");
    }
}
