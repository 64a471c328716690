package io.tcpload.runner.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.RunBuilder;
import io.tcpload.runner.stats.RunInfo;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.stats.SecondSample;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Our console output has the shape of real wrktcp output: with every number masked, each line
 * wrktcp prints is the line we print. Lines only we print (99.9% and 99.99%, Connect, Non-2xx) are
 * left out of the comparison.
 */
class WrktcpCorpusLayoutTest {
    private static final Pattern NUMBER = Pattern.compile("\\d+(\\.\\d+)?[a-zA-Z]*");

    /** Column padding depends on the width of each number, so spaces before a number collapse. */
    private static final Pattern SPACES_BEFORE_NUMBER = Pattern.compile(" +N");

    @ParameterizedTest
    @ValueSource(
            strings = {
                "01_tiny.latency_trace",
                "05_json_code",
                "01_tiny",
                "02_xml_body",
                "09_http"
            })
    void maskedOutputMatchesWrktcpLineForLine(String name) throws IOException {
        String corpus = ConsoleReportTest.resource("/wrktcp-corpus/" + name + ".stdout.txt");
        List<String> corpusLines = Arrays.asList(corpus.split("\n", -1));
        List<String> progress = progressLines(corpusLines.get(2));
        String corpusReport = String.join("\n", corpusLines.subList(3, corpusLines.size()));
        ReportOptions options =
                new ReportOptions(
                        corpusReport.contains("Latency Distribution"),
                        corpusReport.contains("Trace Details"),
                        false);
        RunSummary summary =
                summaryLike(
                        name.replaceFirst("\\..*", "") + ".ini",
                        corpusLines.get(1),
                        progress.size(),
                        corpus.contains("Failure responses"));

        assertThat(masked(ConsoleReport.banner(summary.info())))
                .isEqualTo(masked(String.join("\n", corpusLines.subList(0, 2)) + "\n"));
        Counts cumulative = Counts.ZERO;
        for (int i = 0; i < progress.size(); i++) {
            SecondSample second = summary.seconds().get(i);
            cumulative = cumulative.plus(second.counts());
            assertThat(masked(ConsoleReport.progressLine(second, cumulative)))
                    .as("progress line %d", i + 1)
                    .isEqualTo(masked(progress.get(i)));
        }
        assertThat(masked(withoutOurLines(ConsoleReport.render(summary, options))))
                .isEqualTo(masked(corpusReport));
    }

    @Test
    void maskingKeepsTheTextAroundNumbers() {
        assertThat(masked("    Latency     1.01ms    1.23ms   9.75ms   87.23%"))
                .isEqualTo("    Latency N N N N%");
        assertThat(masked("Requests/sec:    916.34    (Success:916.34/Failure:0.00)"))
                .isEqualTo("Requests/sec: N    (Success:N/Failure:N)");
    }

    /** Each {@code \r}-led progress line of a corpus output line, without the {@code \r}. */
    private static List<String> progressLines(String line) {
        assertThat(line).startsWith("\r");
        return Arrays.asList(line.substring(1).split("\r"));
    }

    private static String masked(String text) {
        String numbers = NUMBER.matcher(text).replaceAll("N");
        return SPACES_BEFORE_NUMBER.matcher(numbers).replaceAll(" N");
    }

    private static String withoutOurLines(String report) {
        List<String> kept = new ArrayList<>();
        for (String line : report.split("\n", -1)) {
            boolean ours =
                    line.startsWith("   99.9%")
                            || line.startsWith("  99.99%")
                            || line.startsWith("    Connect ")
                            || line.startsWith("  Non-2xx or 3xx responses:");
            if (!ours) {
                kept.add(line);
            }
        }
        return String.join("\n", kept);
    }

    /**
     * A plausible run with the corpus run's thread and connection counts and the given number of
     * seconds, with our extra lines present so that the comparison proves they are the only extra.
     */
    private static RunSummary summaryLike(
            String profileName, String threadsLine, int seconds, boolean failures) {
        String[] words = threadsLine.trim().split(" ");
        int threads = Integer.parseInt(words[0]);
        int connections = Integer.parseInt(words[3]);
        List<SecondSample> series = new ArrayList<>();
        Counts total = Counts.ZERO;
        for (int i = 1; i <= seconds; i++) {
            long failed = failures ? 410 : 0;
            Counts counts = Summaries.counts(900, 900 - failed, failed, 0, 0, 0, 0, 19_000, 1);
            series.add(new SecondSample(i, counts, 800, 2_000, 4_000, 9_000));
            total = total.plus(counts);
        }
        return RunBuilder.aRun()
                .info(
                        new RunInfo(
                                "127.0.0.1:18101",
                                profileName,
                                threads,
                                connections,
                                seconds * 1000L,
                                5_000,
                                false,
                                1,
                                "epoll"))
                .runtimeUs(seconds * 1_004_000L)
                .counts(total)
                .latencyUs(Summaries.histogram(800, 5, 1200, 3, 9000, 1))
                .connectUs(Summaries.histogram(60, 2, 90, 1))
                .requestRate(Summaries.histogram(800, 2, 1000, 3))
                .seconds(series)
                .build();
    }
}
