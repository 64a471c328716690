package io.tcpload.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.testing.Pom;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The version the tcpload command and the operator report is the POM's. */
class TcpLoadMainVersionTest {
    @Test
    void versionPrintsThePomsVersion() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(new ByteArrayOutputStream(), true)) {
            code = TcpLoadMain.execute(o, e, "--version");
        }

        assertThat(code).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .isEqualTo("tcpload " + Pom.projectVersion() + System.lineSeparator());
    }

    /**
     * The runner image the operator falls back on is the one the images profile builds with it:
     * tagged with the project version unless {@code -Dimage.tag} says otherwise.
     */
    @Test
    void theDefaultRunnerImageIsTaggedWithThePomsVersion() {
        String registry = System.getProperty("image.registry", "ghcr.io/tcpload");
        String tag = System.getProperty("image.tag", Pom.projectVersion());

        assertThat(OperatorSettings.DEFAULT_RUNNER_IMAGE)
                .isEqualTo(registry + "/tcpload-runner:" + tag);
    }
}
