package io.tcpload.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A first word that is no command says so, and which command was probably meant. */
class TcpLoadMainCommandTest {
    private static String errorOf(String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(new ByteArrayOutputStream(), true);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = TcpLoadMain.execute(o, e, args);
        }
        assertThat(code).isEqualTo(2);
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aMistypedCommandIsNamedWithTheOneMeant() {
        assertThat(errorOf("rnu", "-f", "test.yaml"))
                .startsWith(
                        "tcpload: 'rnu' is not a command; did you mean run? The commands are run,"
                                + " runner and serve.")
                .doesNotContain("index 0");
        assertThat(errorOf("bogus"))
                .startsWith(
                        "tcpload: 'bogus' is not a command. The commands are run, runner and serve.");
    }
}
