package io.tcpload.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.contract.Stopped;
import io.tcpload.runner.report.JsonResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tcpload runner} in a JVM of its own, stopped by SIGTERM: the command takes the signal as
 * the runner's own main does, so the report is printed, the files say the result is partial, and
 * the exit status is 143.
 */
@DisabledOnOs(OS.WINDOWS)
@Timeout(120)
class TcpLoadMainSignalTest {
    private static final Path PROFILE =
            Path.of("..", "examples", "profiles", "quickstart.ini").toAbsolutePath().normalize();

    @TempDir Path dir;

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    @Test
    void sigtermToTheRunnerCommandMarksItsResultStopped() throws Exception {
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Path json = dir.resolve("result.json");
        Path html = dir.resolve("report.html");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child =
                new ProcessBuilder(
                                java,
                                "-XX:TieredStopAtLevel=1",
                                "-cp",
                                System.getProperty("java.class.path"),
                                "io.tcpload.operator.TcpLoadMain",
                                "runner",
                                "-c2",
                                "-d60s",
                                "--demo-target",
                                "--json",
                                json.toString(),
                                "--html",
                                html.toString(),
                                PROFILE.toString())
                        .redirectOutput(out.toFile())
                        .redirectError(err.toFile())
                        .start();
        try {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> !child.isAlive() || read(err).contains("Time:1s"));
            assertThat(child.isAlive()).as(read(err)).isTrue();

            Process kill = new ProcessBuilder("kill", "-TERM", String.valueOf(child.pid())).start();
            assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();

            assertThat(child.waitFor(30, TimeUnit.SECONDS))
                    .as("the run ends soon after the signal")
                    .isTrue();
            assertThat(child.exitValue()).as(read(err)).isEqualTo(143);
            assertThat(read(out)).contains("requests in ");
            assertThat(read(err)).contains("stopped by SIGTERM after ", "the result is partial");
            Stopped stopped = JsonResult.stopped(read(json)).orElseThrow();
            assertThat(stopped.signal()).isEqualTo("SIGTERM");
            assertThat(stopped.afterMs()).isBetween(1_000L, 60_000L);
            assertThat(read(html)).contains("stopped by SIGTERM after ");
        } finally {
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
