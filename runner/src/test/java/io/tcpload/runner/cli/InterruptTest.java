package io.tcpload.runner.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.serve.DemoServer;
import io.tcpload.runner.serve.ServeOptions;
import io.tcpload.runner.testing.Corpus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C ends a run early with its report, as wrktcp does: the runner is started as a separate
 * process against a demo target in this one, and interrupted with SIGINT.
 */
@DisabledOnOs(OS.WINDOWS)
class InterruptTest {
    @TempDir Path dir;

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    @Test
    void sigintPrintsTheReportAndEnds() throws Exception {
        try (DemoServer server =
                DemoServer.start(Corpus.profile("01_tiny", 1), ServeOptions.defaults())) {
            Path profile = dir.resolve("interrupted.ini");
            Files.writeString(
                    profile,
                    "[common]\nhost = 127.0.0.1\nport = "
                            + server.port()
                            + "\n[request]\nreq_body = this is a test\n",
                    StandardCharsets.UTF_8);
            Path out = dir.resolve("out.txt");
            Path err = dir.resolve("err.txt");
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Process child =
                    new ProcessBuilder(
                                    List.of(
                                            java,
                                            "-XX:TieredStopAtLevel=1",
                                            "-cp",
                                            System.getProperty("java.class.path"),
                                            "io.tcpload.runner.RunnerMain",
                                            "-d60s",
                                            "-c2",
                                            profile.toString()))
                            .redirectOutput(out.toFile())
                            .redirectError(err.toFile())
                            .start();
            try {
                // The banner is out and the first second has been reported.
                Awaitility.await()
                        .atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(50))
                        .until(
                                () ->
                                        !child.isAlive()
                                                || (read(out).contains("2 connections")
                                                        && read(err).contains("Time:1s")));
                assertThat(child.isAlive()).as(read(err)).isTrue();

                Process kill =
                        new ProcessBuilder("kill", "-INT", String.valueOf(child.pid())).start();
                assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
                assertThat(kill.exitValue()).isZero();

                assertThat(child.waitFor(10, TimeUnit.SECONDS))
                        .as("the runner ends soon after SIGINT")
                        .isTrue();
                String report = read(out);
                assertThat(report)
                        .as(read(err))
                        .startsWith("Running 1m loadtest @ 127.0.0.1:" + server.port())
                        .contains("requests in ", "Requests/sec:", "Transfer/sec:");
                assertThat(report).doesNotContain("Socket errors");
            } finally {
                child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
