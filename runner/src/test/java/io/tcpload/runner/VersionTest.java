package io.tcpload.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.testing.Pom;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The version the runner reports is the POM's, filled in by the build. */
class VersionTest {
    @Test
    void theNumberIsThePomsVersion() {
        assertThat(Version.NUMBER).isEqualTo(Pom.projectVersion());
    }

    @Test
    void versionPrintsThePomsVersion() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(new ByteArrayOutputStream(), true)) {
            code = RunnerMain.execute(o, e, "--version");
        }

        assertThat(code).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .isEqualTo("tcpload-runner " + Pom.projectVersion() + System.lineSeparator());
    }

    /**
     * Named as the images profile names what it pushes: the project version by default, or what
     * {@code -Dimage.registry} and {@code -Dimage.tag} say (Maven hands them to the tests too).
     */
    @Test
    void theRunnerImageIsTaggedWithTheVersion() {
        String registry = System.getProperty("image.registry", "ghcr.io/tcpload");
        String tag = System.getProperty("image.tag", Pom.projectVersion());

        assertThat(Version.RUNNER_IMAGE).isEqualTo(registry + "/tcpload-runner:" + tag);
    }
}
