package io.tcpload.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.testing.Pom;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The runner's own jar calls itself {@code tcpload-runner}, and its demo target {@code
 * tcpload-runner serve}, in usage, errors and version alike.
 */
class RunnerMainNamesTest {
    private record Printed(int exitStatus, String out, String err) {}

    private static Printed runner(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = RunnerMain.execute(o, e, args);
        }
        return new Printed(
                code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theDemoTargetPrintsItsNameAndVersion() {
        Printed printed = runner("serve", "--version");

        assertThat(printed.exitStatus()).isZero();
        assertThat(printed.out())
                .isEqualTo("tcpload-runner serve " + Pom.projectVersion() + System.lineSeparator());
    }

    @Test
    void theDemoTargetsUsageAndErrorsNameIt() {
        assertThat(runner("serve", "--help").out()).startsWith("Usage: tcpload-runner serve ");

        Printed missing = runner("serve");
        assertThat(missing.exitStatus()).isEqualTo(2);
        assertThat(missing.err())
                .startsWith("tcpload-runner serve: Missing required parameter: 'PROFILE'");
    }

    @Test
    void theRunnersUsageAndErrorsNameIt() {
        assertThat(runner("--help").out()).startsWith("Usage: tcpload-runner ");

        Printed bogus = runner("--bogus", "p.ini");
        assertThat(bogus.exitStatus()).isEqualTo(2);
        assertThat(bogus.err()).startsWith("tcpload-runner: Unknown option: '--bogus'");
    }
}
