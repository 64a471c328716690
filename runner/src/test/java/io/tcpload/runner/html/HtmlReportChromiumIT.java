package io.tcpload.runner.html;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tcpload.runner.stats.RunSummary;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTML report opened in real headless Chromium, offline: the rendered DOM holds the charts and
 * the run's numbers, and a screenshot is left for people to look at. Skipped where Chromium is not
 * installed.
 */
class HtmlReportChromiumIT {
    private static final Path SCREENSHOT = Path.of("target", "html-report", "report.png");

    @Test
    void chromiumRendersTheChartsAndTheNumbers(@TempDir Path dir) throws Exception {
        assumeTrue(
                Chromium.installed(),
                "Chromium is not installed at " + Chromium.BINARY + " (apt-get install chromium)");
        RunSummary summary = Runs.steady(900);
        Path report = dir.resolve("report.html");
        HtmlReport.write(summary, report);
        Chromium chromium = new Chromium(dir);

        String dom = chromium.dumpDom(report);

        assertThat(dom)
                .contains("<svg class=\"chart\" id=\"tps\"")
                .contains("id=\"latency\"", "id=\"spectrum\"", "id=\"errors\"")
                .contains("<tr><th>requests</th><td>909000</td></tr>")
                .contains("<tr><th>requests/sec</th><td>1010.00</td></tr>")
                .contains("900 seconds drawn as 600 buckets")
                .contains("data-name=\"p99\"");

        chromium.screenshot(report, SCREENSHOT, 1280, 2000);
        System.out.println("HTML report screenshot: " + SCREENSHOT.toAbsolutePath());
    }
}
