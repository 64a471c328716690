package io.tcpload.runner.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --html} and {@code --metrics-port} on the command line, against the demo target. */
class ObservabilityFlagsTest {
    private static final Pattern REQUESTS = Pattern.compile("(?m)^ +(\\d+) requests in ");

    @Test
    void aRunWritesItsHtmlReportAndServesMetricsWhileItRuns(@TempDir Path dir) throws Exception {
        Path profile = dir.resolve("tiny.ini");
        Files.writeString(
                profile,
                "[common]\nhost = 127.0.0.1\nport = 1\n[request]\nreq_body = this is a test\n");
        Path html = dir.resolve("report.html");

        CliResult result =
                CliResult.run(
                        "--demo-target",
                        "-c2",
                        "-d1500ms",
                        "--metrics-port",
                        "0",
                        "--metrics-label-test",
                        "smoke",
                        "--html",
                        html.toString(),
                        profile.toString());

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.err()).containsPattern("metrics on http://127\\.0\\.0\\.1:\\d+/metrics");
        Matcher requests = REQUESTS.matcher(result.out());
        assertThat(requests.find()).as(result.out()).isTrue();
        String report = Files.readString(html);
        assertThat(report)
                .contains("id=\"tps\"")
                .contains("<tr><th>requests</th><td>" + requests.group(1) + "</td></tr>");
    }

    @Test
    void aMetricsPortOutOfRangeIsABadFlag(@TempDir Path dir) throws Exception {
        Path profile = dir.resolve("tiny.ini");
        Files.writeString(
                profile,
                "[common]\nhost = 127.0.0.1\nport = 1\n[request]\nreq_body = this is a test\n");

        CliResult result = CliResult.run("--metrics-port", "70000", profile.toString());

        assertThat(result.exitCode()).isEqualTo(RunCommand.EXIT_INVALID);
        assertThat(result.err()).contains("--metrics-port must be from 0 to 65535");
    }
}
