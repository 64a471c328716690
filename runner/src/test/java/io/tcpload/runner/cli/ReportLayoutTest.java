package io.tcpload.runner.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.serve.DemoServer;
import io.tcpload.runner.serve.ServeOptions;
import io.tcpload.runner.testing.Corpus;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report of a real run, through the command line, against the golden layout in {@code
 * cli/latency-trace.txt}: every number is masked as {@code N} and runs of spaces are compared as
 * one, since right-aligned cells shift with the numbers' widths; the cells' own widths are checked
 * apart on the stats rows.
 */
class ReportLayoutTest {
    @TempDir Path dir;

    static String mask(String line) {
        return line.replaceAll("\\d+(\\.\\d+)?[a-zA-Z%]*", "N")
                .replaceAll(" +", " ")
                .stripTrailing();
    }

    private static List<String> golden() throws IOException {
        try (InputStream in =
                ReportLayoutTest.class.getResourceAsStream("/cli/latency-trace.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    @Test
    void aRunWithLatencyAndTracePrintsWrktcpsLayout() throws Exception {
        try (DemoServer server =
                DemoServer.start(Corpus.profile("01_tiny", 1), ServeOptions.defaults())) {
            Path profile = dir.resolve("layout.ini");
            Files.writeString(
                    profile,
                    "[common]\nhost = 127.0.0.1\nport = "
                            + server.port()
                            + "\n[request]\nreq_body = this is a test\n",
                    StandardCharsets.UTF_8);
            CliResult result =
                    CliResult.run("-t1", "-c2", "-d1s", "--latency", "--trace", profile.toString());

            assertThat(result.exitCode()).as(result.err()).isZero();
            // stdout is not a terminal here: progress lines go to stderr, the report stays clean.
            assertThat(result.out()).doesNotContain("\r");
            assertThat(result.err()).contains("Time:1s");
            List<String> lines = result.out().lines().toList();
            assertThat(lines.stream().map(ReportLayoutTest::mask).toList())
                    .as(result.out())
                    .containsExactlyElementsOf(golden());
            assertThat(lines.stream().filter(l -> l.matches(" +[0-9.]+% .*")))
                    .extracting(l -> l.trim().split(" +")[0])
                    .containsExactly("50%", "75%", "90%", "99%", "99.9%", "99.99%");
            // wrktcp's stats cells have fixed widths: every row is as long as wrktcp's.
            for (String line : lines) {
                if (line.startsWith("    Latency ") || line.startsWith("    Req/Sec ")) {
                    assertThat(line)
                            .hasSize("    Latency     2.81ms    4.48ms  45.08ms   94.08%".length());
                }
            }
        }
    }
}
