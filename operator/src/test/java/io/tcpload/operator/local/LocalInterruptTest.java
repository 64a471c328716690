package io.tcpload.operator.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.contract.Stopped;
import io.tcpload.runner.report.JsonResult;
import io.tcpload.runner.testing.Fifos;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code tcpload run} stopped by a real signal, in a JVM of its own: the runners stop, what they
 * did is merged and printed with a status that says it was interrupted, the files asked for are
 * written, no temporary file is left, and the exit status is 128 + the signal.
 */
@Timeout(120)
class LocalInterruptTest {
    @TempDir Path dir;

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** {@code tcpload run ARGS} in a JVM of its own, temporary files in {@code tmp}. */
    private Process tcploadRun(Path tmp, String... args) throws IOException {
        List<String> command =
                new ArrayList<>(
                        List.of(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                "-XX:TieredStopAtLevel=1",
                                "-Djava.io.tmpdir=" + tmp,
                                "-cp",
                                System.getProperty("java.class.path"),
                                "io.tcpload.operator.TcpLoadMain",
                                "run"));
        command.addAll(List.of(args));
        return new ProcessBuilder(command)
                .redirectOutput(dir.resolve("out.txt").toFile())
                .redirectError(dir.resolve("err.txt").toFile())
                .start();
    }

    /** Sends {@code signal} (INT, TERM) to {@code child}, as kill(1) does. */
    private static void send(String signal, Process child) throws Exception {
        Process kill =
                new ProcessBuilder("kill", "-" + signal, String.valueOf(child.pid())).start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }

    @ParameterizedTest(name = "SIG{0}")
    @CsvSource({"INT, 130", "TERM, 143"})
    void aSignalStopsTheRunnersAndTheirWorkIsStillReported(String signal, int exitStatus)
            throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Path json = dir.resolve("result.json");
        Process child =
                tcploadRun(
                        tmp,
                        "-f",
                        Examples.FOLDER.resolve("distributed.yaml").toString(),
                        "--demo-target",
                        "-d",
                        "60s",
                        "--json",
                        json.toString());
        try {
            // Running, and for long enough that every runner has answers to report: counted from
            // when the runners are being started, which a loaded machine may take seconds to reach.
            Awaitility.await()
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> !child.isAlive() || read(err).contains("connections for"));
            long startedNs = System.nanoTime();
            Awaitility.await()
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .until(
                            () ->
                                    !child.isAlive()
                                            || System.nanoTime() - startedNs
                                                    > TimeUnit.SECONDS.toNanos(5));
            assertThat(child.isAlive()).as(read(err)).isTrue();

            send(signal, child);

            assertThat(child.waitFor(30, TimeUnit.SECONDS))
                    .as("the run ends soon after the signal")
                    .isTrue();
            assertThat(child.exitValue()).as(read(out) + read(err)).isEqualTo(exitStatus);
            String report = read(out);
            assertThat(report)
                    .containsPattern("(?m)^ +[1-9][0-9]* requests in ")
                    .contains("  phase: Failed\n")
                    .contains("reason: Interrupted")
                    .contains("Interrupted by SIG" + signal);
            assertThat(read(json)).contains("\"format\"");
            // The merged result says it is partial, as each runner's would.
            Stopped stopped = JsonResult.stopped(read(json)).orElseThrow();
            assertThat(stopped.signal()).isEqualTo("SIG" + signal);
            assertThat(stopped.afterMs()).isBetween(1_000L, 60_000L);
            try (Stream<Path> left = Files.list(tmp)) {
                assertThat(left).as("no temporary files are left").isEmpty();
            }
        } finally {
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /**
     * A capacity search stopped by a signal: the steps that ran are reported and written, and the
     * files say the search was stopped, as a stopped run's do.
     */
    @ParameterizedTest(name = "SIG{0}")
    @CsvSource({"INT, 130", "TERM, 143"})
    void aSignalStopsASearchAndItsFilesSayItWasStopped(String signal, int exitStatus)
            throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Path json = dir.resolve("search.json");
        Path html = dir.resolve("search.html");
        Process child =
                tcploadRun(
                        tmp,
                        "-f",
                        Examples.FOLDER.resolve("capacity.yaml").toString(),
                        "--demo-target",
                        "--json",
                        json.toString(),
                        "--html",
                        html.toString());
        try {
            // About ten steps of 3.5 s: the signal comes after the first, in the middle.
            Awaitility.await()
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> !child.isAlive() || read(err).contains("step 1 (grow)"));
            assertThat(child.isAlive()).as(read(out) + read(err)).isTrue();

            send(signal, child);

            assertThat(child.waitFor(30, TimeUnit.SECONDS))
                    .as("the search ends soon after the signal")
                    .isTrue();
            assertThat(child.exitValue()).as(read(out) + read(err)).isEqualTo(exitStatus);
            assertThat(read(out))
                    .contains("Capacity: ")
                    .contains("  phase: Failed\n")
                    .contains("reason: Interrupted");
            Stopped stopped = JsonResult.stopped(read(json)).orElseThrow();
            assertThat(stopped.signal()).isEqualTo("SIG" + signal);
            assertThat(stopped.afterMs()).isBetween(3_000L, 60_000L);
            assertThat(read(json)).contains("\"end\" : \"stopped\"");
            assertThat(read(html))
                    .contains("<p id=\"stopped\" class=\"stopped\">stopped by SIG" + signal)
                    .contains(": the result is partial</p>");
        } finally {
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /**
     * A signal while the run still sets up, before any runner starts (here it is still reading its
     * test file, from a pipe whose writer has sent nothing yet), ends it as an interrupted run
     * ends: the status block says it was interrupted, no file is left behind, and the exit status
     * is 128 + the signal.
     */
    @ParameterizedTest(name = "SIG{0}")
    @CsvSource({"INT, 130", "TERM, 143"})
    void aSignalWhileTheRunSetsUpPrintsTheInterruptedStatus(String signal, int exitStatus)
            throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Path test = Fifos.create(dir.resolve("test.yaml"));
        Path opened = dir.resolve("opened.txt");
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Path json = dir.resolve("result.json");
        Process child =
                tcploadRun(tmp, "-f", test.toString(), "--demo-target", "--json", json.toString());
        // The test file's writer opens the pipe (which waits for the run to open it to read), says
        // so, and then holds it open without a byte: the run waits in its setup, reading the test
        // file, until the signal.
        Process writer =
                new ProcessBuilder(
                                "sh",
                                "-c",
                                "exec 3>\"$0\"; echo opened; exec sleep 120",
                                test.toString())
                        .redirectOutput(opened.toFile())
                        .start();
        try {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> !child.isAlive() || read(opened).contains("opened"));
            assertThat(child.isAlive()).as(read(out) + read(err)).isTrue();

            send(signal, child);

            assertThat(child.waitFor(30, TimeUnit.SECONDS))
                    .as("the run ends soon after the signal, though its test file never came")
                    .isTrue();
            assertThat(child.exitValue()).as(read(out) + read(err)).isEqualTo(exitStatus);
            assertThat(read(out))
                    .contains("status:\n")
                    .contains("  phase: Failed\n")
                    .contains("reason: Interrupted")
                    .contains("Interrupted by SIG" + signal + " before the runners started")
                    .doesNotContain("requests in ");
            // Interrupted, not a test file that cannot be read, and never a stack trace.
            assertThat(read(err)).doesNotContain("cannot be read", "Exception", "\tat ");
            assertThat(json).doesNotExist();
            try (Stream<Path> left = Files.list(tmp)) {
                assertThat(left).as("no temporary files are left").isEmpty();
            }
        } finally {
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            writer.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
