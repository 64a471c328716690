package io.tcpload.operator.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tcpload.operator.crd.ResultSummary;
import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.CountsBuilder;
import io.tcpload.runner.stats.Histograms;
import io.tcpload.runner.stats.RateSummary;
import io.tcpload.runner.stats.RunBuilder;
import io.tcpload.runner.stats.RunInfo;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.stats.RunSummary.AddressCount;
import io.tcpload.runner.stats.RunSummary.ErrorCount;
import io.tcpload.runner.stats.RunSummary.RequestStats;
import io.tcpload.runner.stats.SecondSample;
import io.tcpload.runner.stats.StageResult;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class ResultMergeTest {
    private static final RunInfo INFO =
            new RunInfo("pay:9000", "profile.ini", 2, 10, 30_000, 5_000, false, 1, "epoll");

    @Test
    void mergedPercentilesAreThoseOfAllResponsesNotAnAverage() {
        // A fast runner (990 x 1 ms, 10 x 2 ms) and a slow one (1000 x 100 ms).
        RunSummary fast = runner(1_000_000, 990, 1_000, 10, 2_000);
        RunSummary slow = runner(1_200_000, 1000, 100_000, 0, 0);

        RunSummary merged = ResultMerge.merge(List.of(fast, slow));

        Histogram union = Histograms.create();
        union.add(fast.latencyUs());
        union.add(slow.latencyUs());
        for (double percentile : new double[] {50, 75, 90, 99, 99.9, 99.99}) {
            assertThat(merged.latencyUs().getValueAtPercentile(percentile))
                    .isEqualTo(union.getValueAtPercentile(percentile));
        }
        // 1000 of the 2000 responses are fast: the merged median is fast and the 75th slow,
        // where averaging the runners' 75th percentiles would say about 50 ms.
        assertThat(merged.latencyUs().getValueAtPercentile(50)).isLessThan(2_100);
        assertThat(merged.latencyUs().getValueAtPercentile(75)).isGreaterThan(99_000);
        assertThat(merged.latencyUs().getTotalCount()).isEqualTo(2000);
    }

    @Test
    void countsAreSummedAndTheRuntimeIsTheLongest() {
        RunSummary a = runner(1_000_000, 100, 1_000, 0, 0);
        RunSummary b = runner(1_300_000, 50, 1_000, 0, 0);
        RunSummary merged = ResultMerge.merge(List.of(a, b));
        assertThat(merged.runtimeUs()).isEqualTo(1_300_000);
        assertThat(merged.counts()).isEqualTo(a.counts().plus(b.counts()));
        assertThat(merged.info().connections()).isEqualTo(20);
        assertThat(merged.errorMessages())
                .containsExactly(new ErrorCount("connect refused", 2), new ErrorCount("eof", 0));
        assertThat(merged.seconds()).hasSize(1);
        assertThat(merged.seconds().get(0).counts().requests()).isEqualTo(150);
    }

    @Test
    void aPartialLastSecondMergesSecondBySecondAndKeepsItsLength() {
        Counts whole = CountsBuilder.counts().successes(1_000).build();
        Counts half = CountsBuilder.counts().successes(500).build();
        RunSummary a =
                RunBuilder.aRun()
                        .info(INFO)
                        .runtimeUs(1_500_000)
                        .counts(whole.plus(half))
                        .seconds(
                                List.of(
                                        new SecondSample(1, whole, 1, 1, 1, 1),
                                        new SecondSample(2, half, 1, 1, 1, 1, 500_000)))
                        .build();
        RunSummary b =
                RunBuilder.from(a)
                        .seconds(
                                List.of(
                                        new SecondSample(1, whole, 1, 1, 1, 1),
                                        new SecondSample(2, half, 1, 1, 1, 1, 499_000)))
                        .build();

        List<SecondSample> merged = ResultMerge.merge(List.of(a, b)).seconds();

        assertThat(merged)
                .extracting(SecondSample::durationUs)
                .containsExactly(SecondSample.SECOND_US, 500_000L);
        assertThat(merged.get(1).perSecond(merged.get(1).counts().successes())).isEqualTo(2_000.0);
    }

    @Test
    void retriedRequestsAndPerAddressCountsAreSummedAddressByAddress() {
        RunSummary a =
                withAddresses(
                        runner(1_000_000, 100, 1_000, 0, 0),
                        7,
                        List.of(
                                new AddressCount("10.0.0.1:9000", 60, 1),
                                new AddressCount("10.0.0.2:9000", 40, 0)));
        RunSummary b =
                withAddresses(
                        runner(1_000_000, 50, 1_000, 0, 0),
                        3,
                        List.of(
                                new AddressCount("10.0.0.2:9000", 30, 2),
                                new AddressCount("10.0.0.3:9000", 20, 0)));

        RunSummary merged = ResultMerge.merge(List.of(a, b));

        assertThat(merged.counts().retried()).isEqualTo(10);
        assertThat(merged.addresses())
                .containsExactly(
                        new AddressCount("10.0.0.1:9000", 60, 1),
                        new AddressCount("10.0.0.2:9000", 70, 2),
                        new AddressCount("10.0.0.3:9000", 20, 0));
    }

    private static RunSummary withAddresses(
            RunSummary summary, long retried, List<AddressCount> addresses) {
        return RunBuilder.from(summary)
                .counts(CountsBuilder.from(summary.counts()).retried(retried).build())
                .addresses(addresses)
                .build();
    }

    @Test
    void aMixsRowsMergeRequestNameByRequestNameExactly() {
        RunSummary a = withRows(runner(1_000_000, 100, 1_000, 0, 0), "pay", 70, 1_000, "ask", 30);
        RunSummary b = withRows(runner(1_000_000, 100, 1_000, 0, 0), "ask", 40, 5_000, "pay", 60);

        List<RequestStats> rows = ResultMerge.merge(List.of(a, b)).byRequest();

        assertThat(rows).extracting(RequestStats::name).containsExactly("pay", "ask");
        assertThat(rows).extracting(RequestStats::requests).containsExactly(130L, 70L);
        assertThat(rows).extracting(RequestStats::failures).containsExactly(2L, 2L);
        Histogram pay = Histograms.create();
        pay.add(a.byRequest().get(0).latencyUs());
        pay.add(b.byRequest().get(1).latencyUs());
        assertThat(rows.get(0).latencyUs()).isEqualTo(pay);
        assertThat(rows.get(1).latencyUs().getMaxValue()).isGreaterThanOrEqualTo(4_990);
        // Inputs untouched.
        assertThat(a.byRequest().get(0).requests()).isEqualTo(70);
        assertThat(a.byRequest().get(0).latencyUs().getTotalCount()).isEqualTo(70);
    }

    /** Two rows, the first {@code n1} at {@code v1} us, the second {@code n2} at 2 * v1 us. */
    private static RunSummary withRows(
            RunSummary summary, String name1, int n1, long v1, String name2, int n2) {
        Histogram first = Histograms.create();
        first.recordValueWithCount(v1, n1);
        Histogram second = Histograms.create();
        second.recordValueWithCount(2 * v1, n2);
        return RunBuilder.from(summary)
                .byRequest(
                        List.of(
                                new RequestStats(name1, n1, n1 - 1, 1, first),
                                new RequestStats(name2, n2, n2 - 1, 1, second)))
                .build();
    }

    @Test
    void theMergedStartIsTheEarliestKnownOne() {
        RunSummary a = started(runner(1_000_000, 100, 1_000, 0, 0), 5_000_000);
        RunSummary b = started(runner(1_000_000, 100, 1_000, 0, 0), 4_990_000);
        RunSummary unknown = runner(1_000_000, 100, 1_000, 0, 0);

        assertThat(ResultMerge.merge(List.of(a, unknown, b)).startEpochUs()).isEqualTo(4_990_000);
        assertThat(ResultMerge.merge(List.of(unknown)).startEpochUs()).isZero();
    }

    private static RunSummary started(RunSummary run, long startEpochUs) {
        return RunBuilder.from(run).startedAtEpochUs(startEpochUs).build();
    }

    @Test
    void rateModeFiguresMergeExactlyStageByStage() {
        RunSummary a = paced(runner(1_000_000, 100, 1_000, 0, 0), 500, 1_000, 3);
        RunSummary b = paced(runner(1_000_000, 100, 1_000, 0, 0), 500, 2_000, 1);

        RateSummary merged = ResultMerge.merge(List.of(a, b)).rate();

        assertThat(merged.requestedRate()).isEqualTo(1_000);
        assertThat(merged.planned()).isEqualTo(2_000);
        assertThat(merged.sent()).isEqualTo(2_000);
        assertThat(merged.late()).isEqualTo(4);
        assertThat(merged.uncorrectedUs().getTotalCount()).isEqualTo(2_000);
        assertThat(merged.uncorrectedUs().getMaxValue()).isEqualTo(2_000);
        StageResult stage = merged.stages().get(0);
        assertThat(stage.targetRate()).isEqualTo(1_000);
        assertThat(stage.sent()).isEqualTo(2_000);
        assertThat(stage.counts().requests()).isEqualTo(200);
        assertThat(stage.latencyUs().getTotalCount()).isEqualTo(2_000);
        // The runners' own histograms are left as they were.
        assertThat(a.rate().stages().get(0).latencyUs().getTotalCount()).isEqualTo(1_000);
        assertThat(ResultMerge.merge(List.of(a, runner(1_000_000, 1, 1, 0, 0))).rate()).isNull();
    }

    /** {@code run} paced at {@code rate}/s, each send's uncorrected latency {@code valueUs}. */
    private static RunSummary paced(RunSummary run, double rate, long valueUs, long late) {
        Histogram uncorrected = Histograms.create();
        uncorrected.recordValueWithCount(valueUs, 1_000);
        Histogram stageLatency = Histograms.create();
        stageLatency.recordValueWithCount(valueUs, 1_000);
        StageResult stage = new StageResult(1, 2_000, 0, rate, 1_000, run.counts(), stageLatency);
        return RunBuilder.from(run)
                .rate(
                        new RateSummary(
                                rate,
                                1_000,
                                1_000,
                                late,
                                uncorrected,
                                Histograms.create(),
                                List.of(stage)))
                .build();
    }

    @Test
    void theStatusSummaryCarriesEveryFigure() {
        RunSummary merged = ResultMerge.merge(List.of(runner(2_000_000, 990, 1_000, 10, 250_000)));
        ResultSummary summary = StatusSummaries.from(merged);
        assertThat(summary.getRuntimeMs()).isEqualTo(2000);
        assertThat(summary.getRequests()).isEqualTo(1000);
        assertThat(summary.getSuccesses()).isEqualTo(995);
        assertThat(summary.getFailures()).isEqualTo(5);
        assertThat(summary.getErrors().getConnect()).isEqualTo(1);
        assertThat(summary.getErrors().getTimeout()).isEqualTo(4);
        assertThat(summary.getTps()).isEqualTo(500.0);
        assertThat(summary.getSuccessTps()).isEqualTo(497.5);
        assertThat(summary.getFailureTps()).isEqualTo(2.5);
        // 995 successes of 1000 responses plus 5 socket errors.
        assertThat(summary.getSuccessRatio()).isEqualTo(995.0 / 1005);
        assertThat(summary.getErrorRatio()).isEqualTo(10.0 / 1005);
        assertThat(summary.getSuccessPercent()).isEqualTo(99.0);
        assertThat(summary.getLatency().getP50Ms()).isCloseTo(1.0, within(0.001));
        assertThat(summary.getLatency().getP99Ms()).isCloseTo(1.0, within(0.001));
        assertThat(summary.getLatency().getP999Ms()).isCloseTo(250.0, within(0.25));
        assertThat(summary.getLatency().getMaxMs()).isCloseTo(250.0, within(0.25));
        assertThat(summary.getLatency().getStdevMs()).isGreaterThan(0);
        assertThat(summary.getConnectP99Ms()).isCloseTo(0.3, within(0.001));
        assertThat(summary.getBytesRead()).isEqualTo(64_000);
    }

    /** A runner whose latencies are {@code n1} x {@code v1} µs and {@code n2} x {@code v2} µs. */
    private static RunSummary runner(long runtimeUs, int n1, long v1, int n2, long v2) {
        Histogram latency = Histograms.create();
        latency.recordValueWithCount(v1, n1);
        if (n2 > 0) {
            latency.recordValueWithCount(v2, n2);
        }
        Histogram connect = Histograms.create();
        connect.recordValueWithCount(300, 10);
        long requests = n1 + n2;
        Counts counts =
                CountsBuilder.counts()
                        .successes(requests - 5)
                        .failures(5)
                        .connectErrors(1)
                        .timeouts(4)
                        .bytesRead(requests * 64)
                        .bytesWritten(requests * 80)
                        .build();
        return RunBuilder.aRun()
                .info(INFO)
                .runtimeUs(runtimeUs)
                .counts(counts)
                .latencyUs(latency)
                .connectUs(connect)
                .seconds(List.of(new SecondSample(1, counts, v1, v1, v1, v1)))
                .errorMessages(
                        List.of(
                                new ErrorCount("connect refused", 1),
                                new ErrorCount("eof", n2 > 0 ? 1 : 0)))
                .build();
    }
}
