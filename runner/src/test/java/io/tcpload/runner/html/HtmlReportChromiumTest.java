package io.tcpload.runner.html;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tcpload.runner.stats.RunSummary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTML report opened in real headless Chromium, offline: the rendered DOM holds the charts and
 * the run's numbers, and a screenshot is left for people to look at. Skipped where Chromium is not
 * installed.
 */
class HtmlReportChromiumTest {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path SCREENSHOT = Path.of("target", "html-report", "report.png");

    @Test
    void chromiumRendersTheChartsAndTheNumbers(@TempDir Path dir) throws Exception {
        assumeTrue(
                Files.isExecutable(CHROMIUM),
                "Chromium is not installed at " + CHROMIUM + " (apt-get install chromium)");
        RunSummary summary = Runs.steady(900);
        Path report = dir.resolve("report.html");
        HtmlReport.write(summary, report);

        String dom = chromium(dir, "--dump-dom", report.toUri().toString());

        assertThat(dom)
                .contains("<svg class=\"chart\" id=\"tps\"")
                .contains("id=\"latency\"", "id=\"spectrum\"", "id=\"errors\"")
                .contains("<tr><th>requests</th><td>909000</td></tr>")
                .contains("<tr><th>requests/sec</th><td>1010.00</td></tr>")
                .contains("900 seconds drawn as 600 buckets")
                .contains("data-name=\"p99\"");

        Files.createDirectories(SCREENSHOT.getParent());
        Files.deleteIfExists(SCREENSHOT);
        chromium(
                dir,
                "--screenshot=" + SCREENSHOT.toAbsolutePath(),
                "--window-size=1280,2000",
                report.toUri().toString());
        assertThat(SCREENSHOT).isNotEmptyFile();
        System.out.println("HTML report screenshot: " + SCREENSHOT.toAbsolutePath());
    }

    /** Runs headless Chromium with no network use and returns what it printed on stdout. */
    private static String chromium(Path dir, String... args)
            throws IOException, InterruptedException {
        List<String> command =
                new ArrayList<>(
                        List.of(
                                CHROMIUM.toString(),
                                "--headless",
                                "--no-sandbox",
                                "--disable-gpu",
                                "--disable-background-networking",
                                "--disable-component-update",
                                "--disable-sync",
                                "--no-first-run",
                                "--user-data-dir=" + dir.resolve("profile")));
        command.addAll(List.of(args));
        Path stdout = dir.resolve("chromium.out");
        Process process =
                new ProcessBuilder(command)
                        .redirectOutput(stdout.toFile())
                        .redirectError(dir.resolve("chromium.err").toFile())
                        .start();
        try {
            assertThat(process.waitFor(90, TimeUnit.SECONDS))
                    .as("chromium finished within 90 s")
                    .isTrue();
        } finally {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        assertThat(process.exitValue())
                .as("chromium: %s", Files.readString(dir.resolve("chromium.err")))
                .isZero();
        return Files.readString(stdout, StandardCharsets.UTF_8);
    }
}
