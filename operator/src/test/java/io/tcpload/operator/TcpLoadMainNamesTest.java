package io.tcpload.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.testing.Pom;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each command of {@code tcpload} calls itself what the user typed, in its usage, its errors and
 * its version: the runner and the demo target are the runner jar's commands, whose own name ({@code
 * tcpload-runner}) means nothing to someone who typed {@code tcpload serve}.
 */
class TcpLoadMainNamesTest {
    private static final Path PROFILE =
            Path.of("..", "examples", "profiles", "quickstart.ini").toAbsolutePath().normalize();

    @TempDir Path dir;

    private record Printed(int exitStatus, String out, String err) {
        String both() {
            return out + err;
        }
    }

    private static Printed tcpload(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = TcpLoadMain.execute(o, e, args);
        }
        return new Printed(
                code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** {@code PROFILE} and {@code DIR} in {@code line} stand for a real profile and a folder. */
    private String[] args(String line) {
        return line.replace("PROFILE", PROFILE.toString())
                .replace("DIR", dir.toString())
                .split(" ");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "run --help, tcpload run",
        "runner --help, tcpload runner",
        "serve --help, tcpload serve",
        "runner serve --help, tcpload runner serve",
    })
    void usageNamesTheCommandTyped(String line, String name) {
        Printed printed = tcpload(args(line));

        assertThat(printed.exitStatus()).as(printed.both()).isZero();
        assertThat(printed.out()).startsWith("Usage: " + name + " ");
        assertThat(printed.both()).doesNotContain("tcpload-runner");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "--version, tcpload",
        "run --version, tcpload run",
        "runner --version, tcpload runner",
        "serve --version, tcpload serve",
        "serve -V, tcpload serve",
        "runner serve --version, tcpload runner serve",
    })
    void versionNamesTheCommandTyped(String line, String name) {
        Printed printed = tcpload(args(line));

        assertThat(printed.exitStatus()).as(printed.both()).isZero();
        assertThat(printed.out())
                .isEqualTo(name + " " + Pom.projectVersion() + System.lineSeparator());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "run | tcpload run: Missing required option: '--file=FILE'",
                "run --bogus -f x.yaml | tcpload run: Unknown option: '--bogus'",
                "run -f DIR/missing.yaml | tcpload run: the test file ",
                "runner | tcpload runner: give a profile file or a URL",
                "runner --bogus PROFILE | tcpload runner: Unknown option: '--bogus'",
                "runner -c0 PROFILE | tcpload runner: ",
                "runner --json DIR/none/r.json PROFILE | tcpload runner: --json: cannot write ",
                "runner --test-json DIR/t.json PROFILE | tcpload runner: --test-json",
                "serve | tcpload serve: Missing required parameter: 'PROFILE'",
                "serve --bogus PROFILE | tcpload serve: Unknown option: '--bogus'",
                "serve --tls-key DIR/k.pem PROFILE | tcpload serve: --tls-key needs --tls-cert",
                "runner serve | tcpload runner serve: Missing required parameter: 'PROFILE'",
            })
    void errorsNameTheCommandTyped(String line, String start) {
        Printed printed = tcpload(args(line));

        assertThat(printed.exitStatus()).as(printed.both()).isEqualTo(2);
        assertThat(printed.err()).startsWith(start);
        assertThat(printed.both()).doesNotContain("tcpload-runner");
    }
}
