package io.tcpload.runner.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.report.JsonResult;
import io.tcpload.runner.serve.DemoServer;
import io.tcpload.runner.serve.ServeOptions;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.testing.Corpus;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code -R}, {@code --stages} and {@code -U} through the real command line. */
class RateFlagsTest {
    @TempDir Path dir;

    private Path profile(int port) throws Exception {
        Path file = dir.resolve("tiny.ini");
        Files.writeString(
                file,
                Corpus.text("01_tiny.ini").replaceAll("(?m)^port = \\d+$", "port = " + port),
                StandardCharsets.UTF_8);
        return file;
    }

    @Test
    void constantRatePrintsWrk2sReportAndWritesBothHistograms() throws Exception {
        try (DemoServer target =
                DemoServer.start(Corpus.profile("01_tiny", 1), ServeOptions.defaults())) {
            Path json = dir.resolve("result.json");
            CliResult result =
                    CliResult.run(
                            "-t1",
                            "-c10",
                            "-k",
                            "-d2s",
                            "-R",
                            "500",
                            "--latency",
                            "-U",
                            "--json",
                            json.toString(),
                            profile(target.port()).toString());

            assertThat(result.exitCode()).as(result.err()).isZero();
            assertThat(result.out())
                    .contains(
                            "Latency Distribution (HdrHistogram - Recorded Latency)",
                            "Latency Distribution (HdrHistogram - Uncorrected Latency",
                            " 99.999%",
                            "100.000%",
                            "Detailed Percentile spectrum:",
                            "Behind schedule: ",
                            "  1000 requests in ");
            RunSummary summary = JsonResult.read(Files.readString(json));
            assertThat(summary.rate()).isNotNull();
            assertThat(summary.rate().planned()).isEqualTo(1_000);
            assertThat(summary.rate().sent()).isEqualTo(1_000);
            assertThat(summary.rate().uncorrectedUs().getTotalCount()).isEqualTo(1_000);
            assertThat(summary.latencyUs().getTotalCount()).isEqualTo(1_000);
        }
    }

    @Test
    void stagesPrintTheStageTable() throws Exception {
        try (DemoServer target =
                DemoServer.start(Corpus.profile("01_tiny", 1), ServeOptions.defaults())) {
            CliResult result =
                    CliResult.run(
                            "-t1",
                            "-c10",
                            "-k",
                            "--stages",
                            "1s:200,1s:200",
                            profile(target.port()).toString());

            assertThat(result.exitCode()).as(result.err()).isZero();
            assertThat(result.out())
                    .startsWith("Running 2s loadtest @ ")
                    .contains("  Stages:", "0->200")
                    // 300 planned: all sent, or on a loaded machine the few that found every
                    // connection waiting for an answer counted as not sent.
                    .containsPattern("  300 requests in |Not sent: [1-9] of 300 planned sends");
        }
    }

    @Test
    void stagesAndDurationTogetherAreRefused() throws Exception {
        CliResult result = CliResult.run("-d5s", "--stages", "1s:100", profile(9).toString());
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).contains("--stages sets the duration");
    }

    @Test
    void badRatesAndStagesAreNamed() throws Exception {
        CliResult zero = CliResult.run("-R", "0", profile(9).toString());
        assertThat(zero.exitCode()).isEqualTo(2);
        assertThat(zero.err()).contains("-R/--rate");
        CliResult stages = CliResult.run("--stages", "1s:abc", profile(9).toString());
        assertThat(stages.exitCode()).isEqualTo(2);
        assertThat(stages.err()).contains("--stages", "stage 1");
    }
}
