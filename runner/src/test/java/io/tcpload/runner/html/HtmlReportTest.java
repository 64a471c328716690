package io.tcpload.runner.html;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.contract.Stopped;
import io.tcpload.runner.stats.Histograms;
import io.tcpload.runner.stats.RunBuilder;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.stats.RunSummary.RequestStats;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HtmlReportTest {
    private static final Pattern POLYLINE = Pattern.compile("<polyline [^>]*points=\"([^\"]*)\"");

    @Test
    void theReportHoldsParametersSummaryAndEveryChart() {
        String html = HtmlReport.render(Runs.steady(30));

        assertThat(html)
                .startsWith("<!DOCTYPE html>")
                .contains("<table id=\"parameters\">")
                .contains("<tr><th>connections</th><td>20</td></tr>")
                .contains("<tr><th>requests</th><td>30300</td></tr>")
                .contains("<tr><th>successes</th><td>30000</td></tr>")
                .contains("<tr><th>requests/sec</th><td>1010.00</td></tr>")
                .contains("connect 2, read 0, write 0, timeout 0")
                .contains("<td>1.00ms</td>")
                .contains("<td>25.01ms</td>")
                .contains("id=\"tps\"", "id=\"latency\"", "id=\"spectrum\"", "id=\"errors\"")
                .contains("data-name=\"success\"", "data-name=\"failure\"")
                .contains("data-name=\"p50\"", "data-name=\"p90\"", "data-name=\"p99\"")
                .contains("99.9%")
                .contains("pay&lt;ments&gt;.ini")
                .doesNotContain("pay<ments>");
    }

    @Test
    void aMixHasATableByRequestAndARunOfOneRequestNone() {
        RunSummary base = Runs.steady(30);
        Histogram slow = Histograms.create();
        slow.recordValueWithCount(2_000, 10);
        RunSummary mix =
                RunBuilder.from(base)
                        .byRequest(
                                List.of(
                                        new RequestStats("pay<&>", 10, 9, 1, slow),
                                        new RequestStats("idle", 0, 0, 0, Histograms.create())))
                        .build();

        String html = HtmlReport.render(mix);

        assertThat(html)
                .contains("<table id=\"by-request\">")
                .contains(
                        "<tr><th>pay&lt;&amp;&gt;</th><td>10</td><td>9</td><td>1</td>"
                                + "<td>2.00ms</td><td>2.00ms</td><td>2.00ms</td><td>2.00ms</td>"
                                + "</tr>")
                .contains("<tr><th>idle</th><td>0</td><td>0</td><td>0</td><td>-</td>");
        assertThat(HtmlReport.render(base)).doesNotContain("by-request");
    }

    @Test
    void aRunStoppedBySignalSaysItsResultIsPartialAndAWholeRunSaysNothing() {
        RunSummary run = Runs.steady(30);

        String stopped = HtmlReport.render(run, Optional.of(new Stopped("SIGTERM", 12_345)));

        assertThat(stopped)
                .contains(
                        "<h1>tcpload report</h1>\n<p id=\"stopped\" class=\"stopped\">stopped by"
                                + " SIGTERM after 12.3 s: the result is partial</p>");
        assertThat(HtmlReport.render(run, Optional.empty()))
                .isEqualTo(HtmlReport.render(run))
                .doesNotContain("id=\"stopped\"");
    }

    @Test
    void theReportFetchesNothing() {
        String html = HtmlReport.render(Runs.steady(30));

        assertThat(html)
                .doesNotContain("<script")
                .doesNotContain("src=")
                .doesNotContain("href=")
                .doesNotContain("url(")
                .doesNotContain("@import");
    }

    @Test
    void aShortRunDrawsOnePointPerSecond() {
        String html = HtmlReport.render(Runs.steady(30));

        assertThat(pointsOfFirstSeries(html)).isEqualTo(30);
        assertThat(html).doesNotContain("band");
    }

    @Test
    void tenMinuteAndTenHourRunsRenderWithAtMostSixHundredPointsPerSeries(@TempDir Path dir)
            throws Exception {
        RunSummary tenMinutes = Runs.steady(600);
        RunSummary tenHours = Runs.steady(36_000);

        String shortHtml = HtmlReport.render(tenMinutes);
        Path file = dir.resolve("long.html");
        HtmlReport.write(tenHours, file);
        String longHtml = Files.readString(file);

        assertThat(pointsOfFirstSeries(shortHtml)).isEqualTo(600);
        assertThat(pointsOfFirstSeries(longHtml)).isEqualTo(600);
        assertThat(longHtml)
                .contains("36000 seconds drawn as 600 buckets")
                .contains("class=\"band\"")
                .contains("<tr><th>requests</th><td>36360000</td></tr>");
        // Both stay small: the size depends on the drawn points, not the run's length.
        assertThat(longHtml.length()).isLessThan(400_000);
        assertThat(Files.size(file)).isLessThan(3L * shortHtml.length());
    }

    @Test
    void percentileLabelsFollowTheLogScale() {
        assertThat(HtmlReport.percentileLabel(1)).isEqualTo("0%");
        assertThat(HtmlReport.percentileLabel(10)).isEqualTo("90%");
        assertThat(HtmlReport.percentileLabel(1_000)).isEqualTo("99.9%");
        assertThat(HtmlReport.percentileLabel(100_000)).isEqualTo("99.999%");
    }

    @Test
    void axisTicksFallOnWholeTimesAndWholeCounts() {
        assertThat(SvgChart.timeStep(29 / 8.0)).isEqualTo(5);
        assertThat(SvgChart.timeStep(599 / 8.0)).isEqualTo(120);
        assertThat(SvgChart.timeStep(35_999 / 8.0)).isEqualTo(7_200);
        assertThat(SvgChart.timeStep(10 * 86_400 / 8.0)).isEqualTo(2 * 86_400);
        assertThat(SvgChart.wholeCeiling(0)).isEqualTo(4);
        assertThat(SvgChart.wholeCeiling(3)).isEqualTo(4);
        assertThat(SvgChart.wholeCeiling(9)).isEqualTo(12);
        assertThat(SvgChart.wholeCeiling(17)).isEqualTo(20);
        assertThat(SvgChart.wholeCeiling(830)).isEqualTo(1000);
        assertThat(HtmlReport.elapsed(0)).isEqualTo("0s");
        assertThat(HtmlReport.elapsed(45)).isEqualTo("45s");
        assertThat(HtmlReport.elapsed(90)).isEqualTo("1m30s");
        assertThat(HtmlReport.elapsed(600)).isEqualTo("10m");
        assertThat(HtmlReport.elapsed(5_400)).isEqualTo("1h30m");
        assertThat(HtmlReport.elapsed(36_000)).isEqualTo("10h");
    }

    @Test
    void aClosedLoopRunHasNoRateSection() {
        String html = HtmlReport.render(Runs.steady(30));

        assertThat(html)
                .doesNotContain("id=\"rate\"")
                .doesNotContain("id=\"stages\"")
                .contains("<tr><th>latency</th>")
                .contains(">10s</text>", ">30s</text>");
        // Two connect errors at most in a second: the errors axis counts 0 to 4 in whole steps.
        String errors = html.substring(html.indexOf("id=\"errors\""));
        assertThat(errors).contains(">4</text>", ">3</text>").doesNotContain(">2.5</text>");
    }

    private static int pointsOfFirstSeries(String html) {
        Matcher matcher = POLYLINE.matcher(html);
        assertThat(matcher.find()).isTrue();
        return matcher.group(1).trim().split(" ").length;
    }
}
