package io.tcpload.runner.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.RunBuilder;
import io.tcpload.runner.stats.RunInfo;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.stats.SecondSample;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConsoleReportTest {

    @Test
    void cellsAlignUnitsOnTheRightAndTruncateLikeWrktcp() {
        assertThat(ConsoleReport.cell("23.02ms", 8)).isEqualTo(" 23.02ms");
        assertThat(ConsoleReport.cell("137.72", 8)).isEqualTo("137.72  ");
        assertThat(ConsoleReport.cell("1.42k", 8)).isEqualTo("  1.42k ");
        assertThat(ConsoleReport.cell("356.62ms", 9)).isEqualTo(" 356.62ms");
        assertThat(ConsoleReport.cell("330.36", 10)).isEqualTo("  330.36  ");
        // Too long for the cell: wrktcp's "%*.*s" keeps the first characters.
        assertThat(ConsoleReport.cell("1000.00ms", 8)).isEqualTo("1000.00m");
        assertThat(ConsoleReport.cell("12345.67", 8)).isEqualTo("12345.  ");
    }

    @Test
    void rendersTheFullReportExactlyAsTheGoldenText() throws IOException {
        String expected = resource("/report/everything.txt");

        String actual =
                ConsoleReport.render(Summaries.everything(), new ReportOptions(true, true, false));

        assertThat(actual).isEqualTo(expected);
    }

    @Test
    void defaultReportLeavesOutEveryOptionalLine() {
        String report = ConsoleReport.render(Summaries.everything(), ReportOptions.DEFAULT);

        assertThat(report)
                .doesNotContain("Latency Distribution")
                .doesNotContain("Trace Details")
                .contains("  Socket errors: connect 1, read 0, write 3, timeout 0\n");
        assertThat(report.lines().filter(line -> line.startsWith("     50%"))).isEmpty();
    }

    @Test
    void retriedRequestsGetALineOfTheirOwnOnlyWhenThereAreSome() {
        String plain = ConsoleReport.render(Summaries.everything(), ReportOptions.DEFAULT);
        String retried =
                ConsoleReport.render(
                        Summaries.withRetried(Summaries.everything(), 7), ReportOptions.DEFAULT);

        assertThat(plain).doesNotContain("Retried");
        assertThat(retried)
                .contains(
                        "  Socket errors: connect 1, read 0, write 3, timeout 0\n"
                                + "  Retried requests: 7\n"
                                + "  Failure responses: 2\n");
        // Nothing else moves.
        assertThat(retried.replace("  Retried requests: 7\n", "")).isEqualTo(plain);
    }

    @Test
    void aRunWithoutSamplesPrintsZerosNeverNan() {
        String report =
                ConsoleReport.render(Summaries.empty(), new ReportOptions(true, true, false));

        assertThat(report)
                .isEqualTo(
                        String.join(
                                "\n",
                                "  Thread Stats   Avg      Stdev     Max   +/- Stdev",
                                "    Latency     0.00us    0.00us   0.00us    0.00%",
                                "    Req/Sec     0.00      0.00     0.00      0.00%",
                                "  Latency Distribution",
                                "     50%    0.00us",
                                "     75%    0.00us",
                                "     90%    0.00us",
                                "     99%    0.00us",
                                "   99.9%    0.00us",
                                "  99.99%    0.00us",
                                "  0 requests in 1.00s, 0.00B read",
                                "Requests/sec:      0.00    (Success:0.00/Failure:0.00)",
                                "Transfer/sec:       0.00B",
                                "  Trace Details:",
                                "   Time      Tps        Latency",
                                ""));
    }

    @Test
    void aRunThatTookNoTimeHasZeroRatesRatherThanInfinity() {
        RunSummary base = Summaries.everything();
        RunSummary instant = RunBuilder.from(base).runtimeUs(0).build();

        String report = ConsoleReport.render(instant, ReportOptions.DEFAULT);

        assertThat(report)
                .contains("  10 requests in 0.00us, 13.92KB read\n")
                .contains("Requests/sec:      0.00    (Success:0.00/Failure:0.00)\n")
                .contains("Transfer/sec:       0.00B\n");
    }

    @Test
    void totalsAndRatesMatchWrktcpsLinesForTheSameNumbers() {
        // 01_tiny.stdout.txt: 918 responses of 21 bytes in 1.001812 s.
        RunSummary tiny =
                RunBuilder.aRun()
                        .info(Summaries.TINY_INFO)
                        .runtimeUs(1_001_812)
                        .counts(Summaries.counts(918, 918, 0, 0, 0, 0, 0, 918 * 21, 0))
                        .latencyUs(Summaries.histogram(1000, 1))
                        .requestRate(Summaries.histogram(1000, 1))
                        .build();

        List<String> lines = ConsoleReport.render(tiny, ReportOptions.DEFAULT).lines().toList();

        assertThat(lines)
                .endsWith(
                        "  918 requests in 1.00s, 18.83KB read",
                        "Requests/sec:    916.34    (Success:916.34/Failure:0.00)",
                        "Transfer/sec:     18.79KB");
    }

    @Test
    void statsRowsUseWrktcpsColumns() {
        // The shape of 01_tiny.stdout.txt's rows: a ms latency row, a k/plain/k Req/Sec row.
        RunSummary summary =
                RunBuilder.aRun()
                        .info(Summaries.TINY_INFO)
                        .counts(Summaries.counts(3, 3, 0, 0, 0, 0, 0, 63, 0))
                        .latencyUs(Summaries.histogram(1010, 2, 4000, 1))
                        .requestRate(Summaries.histogram(920, 1, 1300, 1))
                        .build();

        List<String> lines = ConsoleReport.render(summary, ReportOptions.DEFAULT).lines().toList();

        // 4000 falls in a bucket of two values and counts as 4001: latency mean 2007, sample
        // stdev sqrt((997^2 * 2 + 1994^2) / 2) = 1726.86, 2 of 3 within;
        // req/sec mean 1110, stdev sqrt(2 * 190^2) = 268.70, both within.
        assertThat(lines.subList(0, 3))
                .containsExactly(
                        "  Thread Stats   Avg      Stdev     Max   +/- Stdev",
                        "    Latency     2.01ms    1.73ms   4.00ms   66.67%",
                        "    Req/Sec     1.11k   268.70     1.30k   100.00%");
    }

    @Test
    void bannerNamesDurationTargetProfileThreadsAndConnections() {
        assertThat(ConsoleReport.banner(Summaries.TINY_INFO))
                .isEqualTo(
                        "Running 1s loadtest @ 127.0.0.1:18101 using 01_tiny.ini\n"
                                + "  1 threads and 1 connections\n");
        RunInfo long90s = new RunInfo("h:1", "p.ini", 4, 100, 90_000, 5_000, true, 1, "nio");
        assertThat(ConsoleReport.banner(long90s))
                .isEqualTo(
                        "Running 2m loadtest @ h:1 using p.ini\n  4 threads and 100 connections\n");
    }

    @Test
    void progressLineShowsThatSecondAndTheCumulativeErrors() {
        SecondSample second =
                new SecondSample(
                        3,
                        Summaries.counts(1336, 917, 419, 0, 0, 0, 0, 19_251, 0),
                        300,
                        400,
                        470,
                        900);
        Counts cumulative = Summaries.counts(4000, 3000, 1000, 2, 1, 4, 5, 60_000, 0);

        assertThat(ConsoleReport.progressLine(second, cumulative))
                .isEqualTo("  Time:3s TPS:917.00/419.00 Latency:470.00us BPS:18.80KB Error:12  ");
    }

    @Test
    void aPartialLastSecondShowsItsRatesOverItsOwnLength() {
        // Half a second: 458 successes, 209 failures and 9.4 KB are twice that per second.
        SecondSample half =
                new SecondSample(
                        3,
                        Summaries.counts(667, 458, 209, 0, 0, 0, 0, 9_625, 0),
                        300,
                        400,
                        470,
                        900,
                        500_000);
        Counts cumulative = Summaries.counts(4000, 3000, 1000, 2, 1, 4, 5, 60_000, 0);

        assertThat(ConsoleReport.progressLine(half, cumulative))
                .isEqualTo("  Time:3s TPS:916.00/418.00 Latency:470.00us BPS:18.80KB Error:12  ");
    }

    @Test
    void theTraceShowsAPartialLastSecondsRateOverItsOwnLength() {
        Counts whole = Summaries.counts(900, 900, 0, 0, 0, 0, 0, 18_900, 0);
        Counts quarter = Summaries.counts(225, 225, 0, 0, 0, 0, 0, 4_725, 0);
        RunSummary run =
                RunBuilder.from(Summaries.everything())
                        .runtimeUs(1_250_000)
                        .seconds(
                                List.of(
                                        new SecondSample(1, whole, 500, 1000, 1000, 1000),
                                        new SecondSample(
                                                2, quarter, 500, 1000, 2000, 2000, 250_000)))
                        .build();

        String report = ConsoleReport.render(run, new ReportOptions(false, true, false));

        assertThat(report)
                .endsWith(
                        "  Trace Details:\n"
                                + "   Time      Tps        Latency\n"
                                + "     1s     900.00      1.00ms\n"
                                + "     2s     900.00      2.00ms\n");
    }

    static String resource(String name) throws IOException {
        try (InputStream in = ConsoleReportTest.class.getResourceAsStream(name)) {
            assertThat(in).as("test resource %s", name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
