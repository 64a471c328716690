package io.tcpload.runner.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tcpload.runner.report.JsonResult;
import io.tcpload.runner.serve.DemoServer;
import io.tcpload.runner.serve.ServeOptions;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.testing.Corpus;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code --search} through the real command line against the demo target's workers, whose capacity
 * is known: eight workers of 4 ms serve 2,000 requests a second.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class CapacitySearchCliTest {
    private static final Pattern CAPACITY =
            Pattern.compile("(?m)^Capacity: ([0-9.]+) requests/sec \\(SLO p99 < 250ms\\)$");

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
    void findsTheKneeOfEightWorkersOfFourMillisecondsWithinFivePercentBelowNeverAbove()
            throws Exception {
        try (DemoServer target =
                DemoServer.start(
                        Corpus.profile("01_tiny", 1), ServeOptions.defaults().withWorkers(8, 4))) {
            Path json = dir.resolve("search.json");
            Path html = dir.resolve("search.html");
            // A latency bound a loaded machine's stalls do not break: the backlog finds the knee.
            CliResult result =
                    CliResult.run(
                            "-t2",
                            "-c256",
                            "-k",
                            "--search",
                            "p99 < 250ms",
                            "--search-range",
                            "500:4000",
                            "--search-step",
                            "3s",
                            "--search-warmup",
                            "1s",
                            "--warmup",
                            "2s",
                            "--json",
                            json.toString(),
                            "--html",
                            html.toString(),
                            profile(target.port()).toString());

            assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
            Matcher capacity = CAPACITY.matcher(result.out());
            assertThat(capacity.find()).as(result.out()).isTrue();
            double found = Double.parseDouble(capacity.group(1));
            assertThat(found).as(result.out()).isBetween(2000 * 0.95, 2000.0);
            assertThat(result.out())
                    .contains("held, and held again for its confirmation step")
                    .containsPattern("(?m)^  \\d+ steps in .*: [0-9.]+ s a step$")
                    .contains("Backlog", "Verdict", "grow", "bisect", "confirm");
            assertThat(result.err()).contains("tcpload-runner: step 1 (grow) at 500/s: held");

            JsonNode root = new ObjectMapper().readTree(Files.readString(json));
            JsonNode search = root.get("search");
            assertThat(search.get("end").asText()).isEqualTo("found");
            // The report rounds the rate to whole requests; the JSON keeps it exact.
            assertThat(search.get("capacity").asDouble()).isCloseTo(found, within(0.5));
            JsonNode steps = search.get("steps");
            assertThat(steps.size()).isEqualTo(search.get("stepCount").asInt());
            assertThat(steps.size()).isLessThanOrEqualTo(12);
            JsonNode last = steps.get(steps.size() - 1);
            assertThat(last.get("kind").asText()).isEqualTo("confirm");
            assertThat(last.get("held").asBoolean()).isTrue();
            // Every step holds its own result, histograms included, readable as any result.
            for (JsonNode step : steps) {
                RunSummary own = JsonResult.read(step.get("result").toString());
                assertThat(own.latencyUs().getTotalCount()).isEqualTo(own.counts().requests());
                assertThat(own.counts().requests()).isPositive();
            }
            // The top-level figures are the confirmation's.
            RunSummary headline = JsonResult.read(Files.readString(json));
            assertThat(headline.counts())
                    .isEqualTo(JsonResult.read(last.get("result").toString()).counts());
            String page = Files.readString(html);
            assertThat(page).contains("id=\"knee\"", "id=\"steps\"", "Capacity: ");
        }
    }

    @Test
    void aMinimumThatAlreadyFailsIsExitStatusTwoWithItsFigures() throws Exception {
        try (DemoServer target =
                DemoServer.start(
                        Corpus.profile("01_tiny", 1), ServeOptions.defaults().withWorkers(1, 10))) {
            // 100 a second: ten times what one worker of 10 ms serves.
            CliResult result =
                    CliResult.run(
                            "-c16",
                            "-k",
                            "--search",
                            "p99 < 5s",
                            "--search-range",
                            "1000:2000",
                            "--search-step",
                            "2s",
                            "--search-warmup",
                            "0",
                            profile(target.port()).toString());

            assertThat(result.exitCode()).as(result.out() + result.err()).isEqualTo(2);
            assertThat(result.out())
                    .contains("Capacity: not found (SLO p99 < 5s)")
                    .contains("the range's minimum, 1000/s, failed already")
                    .containsPattern("(?m)^ +1 +grow +1000 ");
            assertThat(result.err()).contains("the range's minimum, 1000/s, failed already");
        }
    }

    @Test
    void aRangeTheConnectionsCannotCarryNamesTheConnectionsItNeeds() throws Exception {
        try (DemoServer target =
                DemoServer.start(
                        Corpus.profile("01_tiny", 1),
                        ServeOptions.defaults().withWorkers(64, 20))) {
            // 20 ms each: 100,000 a second would need about 2,000 in flight; 4 connections hold 4.
            CliResult result =
                    CliResult.run(
                            "-c4",
                            "-k",
                            "--search",
                            "p99 < 5s",
                            "--search-range",
                            "50:100000",
                            "--search-step",
                            "2s",
                            "--search-warmup",
                            "0",
                            profile(target.port()).toString());

            assertThat(result.exitCode()).as(result.out() + result.err()).isEqualTo(2);
            assertThat(result.out())
                    .contains("Capacity: not found")
                    .containsPattern("needs about \\d+ requests in flight by Little's law")
                    .contains("and the connections hold 4; give at least -c");
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "no range|--search=p99 < 50ms|--search needs --search-range MIN:MAX",
                "tps alone|--search=tps >= 10,--search-range=1:10|bounds no latency and no errors",
                "bad term|--search=p99 <,--search-range=1:10|--search: 'p99 <' is not METRIC OP",
                "range upside down|--search=p99 < 1s,--search-range=10:1|0 < MIN < MAX (got 10:1)",
                "range form|--search=p99 < 1s,--search-range=10|'10' is not MIN:MAX",
                "with a rate|--search=p99 < 1s,--search-range=1:10,-R,5|leave out -R/--rate",
                "with a duration|--search=p99 < 1s,--search-range=1:10,-d,5s"
                        + "|leave out -d/--duration",
                "short step|--search=p99 < 1s,--search-range=1:10,--search-step=1500ms"
                        + "|--search-step must be whole seconds from 2s",
                "precision|--search=p99 < 1s,--search-range=1:10,--search-precision=60%"
                        + "|--search-precision must be from 0.1% to 50% (got 60%)",
                "flags without a search|--search-range=1:10|give --search 'p99 < 50ms'",
            })
    void badSearchFlagsAreExitStatusTwoNamingTheFlag(String name, String flags, String message)
            throws Exception {
        String[] given = flags.split(",");
        String[] args = new String[given.length + 1];
        System.arraycopy(given, 0, args, 0, given.length);
        args[given.length] = profile(1).toString();
        CliResult result = CliResult.run(args);
        assertThat(result.exitCode()).as(result.err()).isEqualTo(2);
        assertThat(result.err()).contains(message);
        assertThat(result.out()).doesNotContain("Capacity");
    }
}
