package io.tcpload.runner.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.report.DryRunResult;
import io.tcpload.runner.report.JsonResult;
import io.tcpload.runner.stats.RunSummary;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A request whose {@code $(length)} does not fit its 4-digit field, as the command line shows it:
 * the report, {@code --json} and the dry run tell the same fate (not sent, a failed request) with
 * the same reason, and none calls it a socket error.
 */
class LengthOverflowCliTest {
    private static final String REASON =
            "$(length) of 12024 body bytes does not fit req_len_len = 4 digits (at most 9999)";

    @TempDir Path dir;

    /** A profile whose body takes the next line of {@code lines}. */
    private Path profile(String... lines) throws Exception {
        Files.writeString(
                dir.resolve("lines.txt"),
                String.join("\n", lines) + "\n",
                StandardCharsets.US_ASCII);
        return profileSending("<req><data>$(DATA)</data></req>", "DATA = FILE, lines.txt");
    }

    /** A profile with a 4-digit length field that sends {@code body} (its line 6). */
    private Path profileSending(String body, String... parameterLines) throws Exception {
        List<String> lines =
                new ArrayList<>(
                        List.of(
                                "[common]",
                                "host = 127.0.0.1",
                                "port = 9000",
                                "[request]",
                                "req_len_len = 4",
                                "req_body = " + body,
                                "[response]",
                                "rsp_code_type = xml",
                                "rsp_code_location_tag = <retCode>"));
        if (parameterLines.length > 0) {
            lines.add("[parameters]");
            lines.addAll(List.of(parameterLines));
        }
        Path file = dir.resolve("big.ini");
        Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.US_ASCII);
        return file;
    }

    /**
     * A request that varies in nothing and does not fit its length field would fail every send: the
     * run is refused before it starts, naming the line, as the dry run is.
     */
    @Test
    void aRequestThatCanNeverFitIsRefusedBeforeTheRun() throws Exception {
        Path file = profileSending("x".repeat(12_000));
        String expected =
                "request body template (line 6): $(length) of 12000 body bytes does not fit"
                        + " req_len_len = 4 digits (at most 9999), and nothing in the request"
                        + " varies: no request could be sent";

        for (String mode : new String[] {"-d1s", "--test"}) {
            CliResult result = CliResult.run("--demo-target", mode, file.toString());

            assertThat(result.exitCode()).as(mode + result.out() + result.err()).isEqualTo(2);
            assertThat(result.err()).contains(expected).doesNotContain("\tat ");
            assertThat(result.out()).doesNotContain("requests in");
        }
    }

    @Test
    void theReportAndTheJsonCountAFailedRequestWithItsReason() throws Exception {
        Path file = profile("short", "x".repeat(12_000));
        Path json = dir.resolve("result.json");

        CliResult result =
                CliResult.run(
                        "--demo-target",
                        "-k",
                        "-c1",
                        "-d500ms",
                        "--json",
                        json.toString(),
                        file.toString());

        assertThat(result.exitCode()).as(result.err()).isZero();
        RunSummary read = JsonResult.read(Files.readString(json, StandardCharsets.UTF_8));
        long failures = read.counts().failures();
        assertThat(failures).isPositive();
        assertThat(read.counts().errors()).isZero();
        assertThat(read.counts().requests()).isEqualTo(read.counts().successes() + failures);
        assertThat(read.errorMessages())
                .singleElement()
                .isEqualTo(new RunSummary.ErrorCount(REASON, failures));
        // The report: the same requests and failures, no socket error line.
        assertThat(result.out())
                .contains("  " + read.counts().requests() + " requests in ")
                .contains("  Failure responses: " + failures + "\n")
                .doesNotContain("Socket errors");
        // The error summary names the reason once, with its count, and never a stack trace.
        Matcher summary =
                Pattern.compile("Errors:\\n\\s+(\\d+)  " + Pattern.quote(REASON) + "\\n")
                        .matcher(result.err());
        assertThat(summary.find()).as(result.err()).isTrue();
        assertThat(Long.parseLong(summary.group(1))).isEqualTo(failures);
        assertThat(result.err()).doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void theDryRunShowsTheRequestNotSentWithTheSameReason() throws Exception {
        Path file = profile("x".repeat(12_000), "short");
        Path json = dir.resolve("dry.json");

        CliResult result =
                CliResult.run(
                        "--test", "--demo-target", "--test-json", json.toString(), file.toString());

        assertThat(result.exitCode()).as(result.out() + result.err()).isEqualTo(1);
        assertThat(result.out()).contains("  not sent: " + REASON + "\n  verdict: failure\n");
        DryRunResult dry = DryRunResult.read(Files.readString(json, StandardCharsets.UTF_8));
        assertThat(dry.exchanges())
                .singleElement()
                .satisfies(
                        exchange -> {
                            assertThat(exchange.verdict()).isEqualTo("failure");
                            assertThat(exchange.requestBytes()).isZero();
                            assertThat(exchange.error()).isEqualTo("not sent: " + REASON);
                        });
    }
}
