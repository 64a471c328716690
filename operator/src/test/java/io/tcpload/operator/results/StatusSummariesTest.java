package io.tcpload.operator.results;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.operator.crd.RequestSummary;
import io.tcpload.operator.crd.ResultSummary;
import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.Histograms;
import io.tcpload.runner.stats.RunBuilder;
import io.tcpload.runner.stats.RunInfo;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.stats.RunSummary.RequestStats;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class StatusSummariesTest {
    private static final RunInfo INFO =
            new RunInfo("pay:9000", "mix.ini", 1, 2, 2_000, 5_000, true, 1, "nio");
    private static final String[] NAMES = {"authorise", "balance", "reversal"};

    @Test
    void theRowsOfSeveralRunnersAddUpToTheTotalsAfterTheMerge() {
        List<RunSummary> runners = new ArrayList<>();
        for (int runner = 0; runner < 4; runner++) {
            runners.add(runner(runner));
        }

        RunSummary merged = ResultMerge.merge(runners);
        ResultSummary summary = StatusSummaries.from(merged);

        List<RequestSummary> rows = summary.getByRequest();
        assertThat(rows).extracting(RequestSummary::getName).containsExactly(NAMES);
        assertThat(rows.stream().mapToLong(RequestSummary::getRequests).sum())
                .isEqualTo(summary.getRequests());
        assertThat(rows.stream().mapToLong(RequestSummary::getSuccesses).sum())
                .isEqualTo(summary.getSuccesses());
        assertThat(rows.stream().mapToLong(RequestSummary::getFailures).sum())
                .isEqualTo(summary.getFailures());
        for (int i = 0; i < NAMES.length; i++) {
            // Each name's percentiles are those of its responses on every runner together.
            Histogram union = Histograms.create();
            long requests = 0;
            for (RunSummary runner : runners) {
                union.add(runner.byRequest().get(i).latencyUs());
                requests += runner.byRequest().get(i).requests();
            }
            RequestSummary row = rows.get(i);
            assertThat(row.getRequests()).isEqualTo(requests);
            assertThat(row.getP50Ms()).isEqualTo(union.getValueAtPercentile(50) / 1000.0);
            assertThat(row.getP90Ms()).isEqualTo(union.getValueAtPercentile(90) / 1000.0);
            assertThat(row.getP99Ms()).isEqualTo(union.getValueAtPercentile(99) / 1000.0);
            assertThat(row.getP999Ms()).isEqualTo(union.getValueAtPercentile(99.9) / 1000.0);
            assertThat(row.getTps()).isEqualTo(requests / 2.0);
            assertThat(row.getSuccessRatio() + row.getErrorRatio()).isEqualTo(1.0);
        }
        // The reversals are the slow ones on every runner; the merge keeps them apart.
        assertThat(rows.get(2).getP50Ms()).isGreaterThan(rows.get(0).getP99Ms());
        Histogram total = Histograms.create();
        merged.byRequest().forEach(row -> total.add(row.latencyUs()));
        assertThat(total).isEqualTo(merged.latencyUs());
    }

    @Test
    void aProfileOfOneRequestHasNoRows() {
        RunSummary plain = runner(0);
        RunSummary single = RunBuilder.from(plain).byRequest(List.of()).build();

        assertThat(StatusSummaries.from(single).getByRequest()).isNull();
    }

    /**
     * Runner {@code r}: a 70/20/10 mix whose counts differ from runner to runner, the reversals
     * slow, one failure per name; the totals are the rows added.
     */
    private static RunSummary runner(int r) {
        int[] counts = {700 + 7 * r, 200 + 2 * r, 100 + r};
        long[] latencyUs = {1_000 + 100 * r, 2_000 + 100 * r, 50_000 + 1_000 * r};
        List<RequestStats> rows = new ArrayList<>();
        Histogram latency = Histograms.create();
        long requests = 0;
        for (int i = 0; i < NAMES.length; i++) {
            Histogram own = Histograms.create();
            own.recordValueWithCount(latencyUs[i], counts[i] - 1);
            own.recordValue(latencyUs[i] * 3);
            rows.add(new RequestStats(NAMES[i], counts[i], counts[i] - 1, 1, own));
            latency.add(own);
            requests += counts[i];
        }
        Counts total =
                new Counts(requests, requests - 3, 3, 0, 0, 0, 0, requests * 64, requests * 80, 0);
        return RunBuilder.aRun()
                .info(INFO)
                .runtimeUs(2_000_000)
                .counts(total)
                .latencyUs(latency)
                .byRequest(rows)
                .build();
    }
}
