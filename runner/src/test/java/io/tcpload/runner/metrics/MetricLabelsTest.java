package io.tcpload.runner.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.contract.RunnerProtocol;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MetricLabelsTest {
    private static final Map<String, String> ENV =
            Map.of(
                    RunnerProtocol.TEST_VARIABLE, "nightly",
                    RunnerProtocol.NAMESPACE_VARIABLE, "load",
                    RunnerProtocol.RUNNER_INDEX_VARIABLE, "3");

    @Test
    void flagsWinOverTheEnvironment() {
        MetricLabels labels = MetricLabels.resolve("smoke", "team-a", "7", 0, ENV::get);

        assertThat(labels).isEqualTo(new MetricLabels("smoke", "team-a", "7"));
    }

    @Test
    void theEnvironmentFillsMissingFlags() {
        MetricLabels labels = MetricLabels.resolve(null, " ", null, 0, ENV::get);

        assertThat(labels).isEqualTo(new MetricLabels("nightly", "load", "3"));
    }

    @Test
    void theRunnerLabelFallsBackToTheRunnerIndexAndUnsetLabelsAreLeftOut() {
        MetricLabels labels = MetricLabels.resolve(null, null, null, 2, name -> null);

        assertThat(labels.asMap()).containsExactly(Map.entry("runner", "2"));
    }
}
