package io.tcpload.operator.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.marcnuri.helm.LintResult;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code helm lint --strict} passes for the default values and for every switch. */
class ChartLintIT {
    @TempDir Path workDir;

    @ParameterizedTest
    @EnumSource(Scenario.class)
    void lintsCleanly(Scenario scenario) {
        LintResult result = HelmChart.lint(scenario.values, workDir);

        assertThat(result.isFailed()).as("lint failed: %s", result.getMessages()).isFalse();
        // Strict lint turns warnings into failures; informational notes (icon) are allowed.
        assertThat(result.getMessages())
                .as("lint messages")
                .allSatisfy(message -> assertThat(message).startsWith("[INFO]"));
    }

    @ParameterizedTest
    @EnumSource(Scenario.class)
    void rendersObjects(Scenario scenario) {
        assertThat(HelmChart.render(scenario)).isNotEmpty();
    }
}
