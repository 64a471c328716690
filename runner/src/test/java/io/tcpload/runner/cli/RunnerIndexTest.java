package io.tcpload.runner.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tcpload.runner.RunnerMain;
import io.tcpload.runner.contract.RunnerInvocation;
import io.tcpload.runner.profile.Target;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A runner pod of an Indexed Job learns its index from the environment; --shared and --target are
 * the operator's other flags. Observed through the checks that run before any connection opens.
 */
class RunnerIndexTest {
    private static final String PROFILE =
            Path.of("..", "examples", "profiles", "quickstart.ini").toString();

    @Test
    void theIndexComesFromJobCompletionIndexWhenNoFlagGivesIt() {
        Result result = run(Map.of("JOB_COMPLETION_INDEX", "5"), "--runner-count=2", PROFILE);
        assertThat(result.code).isEqualTo(RunCommand.EXIT_INVALID);
        assertThat(result.err).contains("(got 5 of 2)");
    }

    @Test
    void tcploadRunnerIndexWinsOverJobCompletionIndex() {
        Result result =
                run(
                        Map.of("TCPLOAD_RUNNER_INDEX", "3", "JOB_COMPLETION_INDEX", "1"),
                        "--runner-count=2",
                        PROFILE);
        assertThat(result.err).contains("(got 3 of 2)");
    }

    @Test
    void theFlagWinsOverTheEnvironment() {
        Result result =
                run(
                        Map.of("JOB_COMPLETION_INDEX", "1"),
                        "--runner-index=4",
                        "--runner-count=2",
                        PROFILE);
        assertThat(result.err).contains("(got 4 of 2)");
    }

    @Test
    void aNonNumericIndexIsAClearError() {
        Result result = run(Map.of("JOB_COMPLETION_INDEX", "two"), PROFILE);
        assertThat(result.code).isEqualTo(RunCommand.EXIT_INVALID);
        assertThat(result.err).contains("JOB_COMPLETION_INDEX must be a runner index (got 'two')");
    }

    @Test
    void sharedTakesThisRunnersShareOfTheConnections() {
        // 5 connections over 2 runners: runner 0 opens 3, runner 1 opens 2, fewer than 3 threads.
        Result result =
                run(
                        Map.of("JOB_COMPLETION_INDEX", "1"),
                        "--shared",
                        "--runner-count=2",
                        "-t3",
                        "-c5",
                        PROFILE);
        assertThat(result.err).contains("-c/--connections (2) must be at least -t/--threads (3)");
    }

    @Test
    void targetParsesHostAndPort() {
        assertThat(target("pay.svc:9000")).isEqualTo(new Target("pay.svc", 9000));
        assertThat(target("[::1]:80")).isEqualTo(new Target("::1", 80));
        assertThatThrownBy(() -> target("pay.svc")).hasMessageContaining("not HOST:PORT");
        assertThatThrownBy(() -> target("pay.svc:0")).hasMessageContaining("1..65535");
        Result result = run(Map.of(), "--target=nohost", PROFILE);
        assertThat(result.code).isEqualTo(RunCommand.EXIT_INVALID);
        assertThat(result.err).contains("--target: 'nohost' is not HOST:PORT");
    }

    private static Target target(String hostPort) {
        return RunnerInvocation.parse(List.of("--target=" + hostPort, PROFILE))
                .target()
                .orElseThrow();
    }

    private record Result(int code, String err) {}

    private static Result run(Map<String, String> environment, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = RunnerMain.execute(o, e, environment::get, args);
        }
        return new Result(code, err.toString(StandardCharsets.UTF_8));
    }
}
