package io.tcpload.runner.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run whose duration is not whole seconds ends on a partial second: the progress line and the
 * trace give its rate over its own length, not its count as if it had lasted a second. Rate mode
 * makes the truth known: every second, the partial one too, runs at the rate asked for.
 */
class PartialSecondTest {
    private static final int RATE = 200;

    /**
     * The least rate a second may show: above the half that the last half second would show as a
     * whole one, and below the rate by what a stall of 200 ms on a busy machine takes from it.
     */
    private static final double LEAST = RATE * 0.6;

    /** The most: a second may also complete responses that a stall held over from the last. */
    private static final double MOST = RATE * 1.5;

    private static final Pattern TRACE_ROW =
            Pattern.compile("(?m)^ +(\\d+)s +([0-9.]+) +[0-9.]+[a-z]+$");
    private static final Pattern PROGRESS = Pattern.compile("Time:(\\d+)s TPS:([0-9.]+)/");

    @Test
    void theLastPartialSecondIsARateOverItsOwnLength(@TempDir Path dir) throws Exception {
        Path profile = dir.resolve("tiny.ini");
        Files.writeString(
                profile,
                "[common]\nhost = 127.0.0.1\nport = 1\n[request]\nreq_body = this is a test\n");

        CliResult result =
                CliResult.run(
                        "--demo-target",
                        "-c4",
                        "-k",
                        "-R",
                        Integer.toString(RATE),
                        "-d1500ms",
                        "--trace",
                        profile.toString());

        assertThat(result.exitCode()).as(result.err()).isZero();
        Matcher trace = TRACE_ROW.matcher(result.out());
        int rows = 0;
        while (trace.find()) {
            rows++;
            assertThat(Double.parseDouble(trace.group(2)))
                    .as("trace, second %s:%n%s", trace.group(1), result.out())
                    .isBetween(LEAST, MOST);
        }
        assertThat(rows).as(result.out()).isEqualTo(2);
        Matcher progress = PROGRESS.matcher(result.err());
        int lines = 0;
        while (progress.find()) {
            lines++;
            assertThat(Double.parseDouble(progress.group(2)))
                    .as("progress, second %s:%n%s", progress.group(1), result.err())
                    .isBetween(LEAST, MOST);
        }
        assertThat(lines).as(result.err()).isEqualTo(2);
    }
}
