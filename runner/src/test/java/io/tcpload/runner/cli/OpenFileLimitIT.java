package io.tcpload.runner.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tcpload.runner.RunnerMain;
import io.tcpload.runner.report.JsonResult;
import io.tcpload.runner.stats.RunSummary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A runner asked for more connections than its open-file limit allows, as a child JVM under {@code
 * prlimit}: it warns before the run, counts the connections it cannot open as connect errors with
 * their reason, goes on with the others, and writes its report, JSON and HTML.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class OpenFileLimitIT {
    private static final Path PRLIMIT = Path.of("/usr/bin/prlimit");

    @TempDir Path dir;

    @Test
    void runningOutOfFileDescriptorsStillGivesTheReport() throws Exception {
        assumeTrue(Files.isExecutable(PRLIMIT), "prlimit is not installed (util-linux)");
        Path profile = Path.of("..", "examples", "profiles", "quickstart.ini").toAbsolutePath();
        Path json = dir.resolve("r.json");
        Path html = dir.resolve("r.html");
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process process =
                new ProcessBuilder(
                                List.of(
                                        PRLIMIT.toString(),
                                        "--nofile=400",
                                        Path.of(System.getProperty("java.home"), "bin", "java")
                                                .toString(),
                                        "-cp",
                                        System.getProperty("java.class.path"),
                                        RunnerMain.class.getName(),
                                        "--demo-target",
                                        "-t2",
                                        "-c1000",
                                        "-k",
                                        // Connections open gradually: long enough for the
                                        // last of them to reach the limit on a loaded machine.
                                        "-d5s",
                                        "--json=" + json,
                                        "--html=" + html,
                                        profile.toString()))
                        .redirectOutput(out.toFile())
                        .redirectError(err.toFile())
                        .start();
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("the runner did not finish: " + read(err));
        }

        String errors = read(err);
        assertThat(process.exitValue()).as(errors).isZero();
        assertThat(errors)
                .contains("warning: 1000 connections", "limit of 400", "ulimit -n")
                .doesNotContain("event loop task failed", "\tat ", "Exception");
        assertThat(read(out)).contains("requests in", "Socket errors: connect ");
        RunSummary result = JsonResult.read(Files.readString(json));
        assertThat(result.counts().requests()).isPositive();
        // Which side meets the limit first depends on scheduling: the runner, whose sockets that
        // cannot be made are connect errors, or the demo target in the same process, whose
        // failed accepts are reported once a second (its clients then wait and time out).
        boolean runnerSide = result.counts().connectErrors() > 0;
        boolean targetSide =
                errors.contains("serve: cannot accept a connection")
                        && errors.contains("Too many open files");
        assertThat(runnerSide || targetSide).as(errors).isTrue();
        if (runnerSide) {
            assertThat(errors)
                    .contains("Errors:", "connect: cannot open a socket: too many open files");
            assertThat(result.errorMessages())
                    .anySatisfy(
                            e ->
                                    assertThat(e.message())
                                            .contains("cannot open a socket: too many open files"));
        }
        if (targetSide) {
            // Once a second at most, never once per failed accept.
            assertThat(errors.split("serve: cannot accept a connection", -1).length - 1)
                    .isLessThanOrEqualTo(8);
        }
        assertThat(Files.readString(html)).contains("socket errors");
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file) : "";
    }
}
