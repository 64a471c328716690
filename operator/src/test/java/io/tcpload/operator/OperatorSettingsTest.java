package io.tcpload.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OperatorSettingsTest {
    @Test
    void anEmptyEnvironmentWatchesAllNamespacesWithoutLeaderElection() {
        OperatorSettings settings = OperatorSettings.fromEnvironment(name -> null);

        assertThat(settings.watchNamespaces()).isEmpty();
        assertThat(settings.leaderElection()).isFalse();
        assertThat(settings.runnerPort()).isEqualTo(8080);
        assertThat(settings.httpPort()).isEqualTo(8080);
        assertThat(settings.runnerImage()).isEqualTo(OperatorSettings.DEFAULT_RUNNER_IMAGE);
    }

    @Test
    void theChartsVariablesAreRead() {
        Map<String, String> env =
                Map.of(
                        "TCPLOAD_WATCH_NAMESPACES", " perf, staging ,",
                        "TCPLOAD_RUNNER_IMAGE", "registry.local/runner:1",
                        "TCPLOAD_LEADER_ELECTION", "true",
                        "TCPLOAD_LEASE_NAMESPACE", "tcpload-system",
                        "TCPLOAD_RUNNER_PORT", "9090");

        OperatorSettings settings = OperatorSettings.fromEnvironment(env::get);

        assertThat(settings.watchNamespaces()).isEqualTo(Set.of("perf", "staging"));
        assertThat(settings.runnerImage()).isEqualTo("registry.local/runner:1");
        assertThat(settings.leaderElection()).isTrue();
        assertThat(settings.leaseNamespace()).isEqualTo("tcpload-system");
        assertThat(settings.runnerPort()).isEqualTo(9090);
    }

    @Test
    void badValuesAreRefusedByName() {
        assertThatThrownBy(
                        () ->
                                OperatorSettings.fromEnvironment(
                                        Map.of("TCPLOAD_RUNNER_PORT", "http")::get))
                .hasMessageContaining("TCPLOAD_RUNNER_PORT must be a port");
        assertThatThrownBy(
                        () ->
                                OperatorSettings.fromEnvironment(
                                        Map.of("TCPLOAD_LEADER_ELECTION", "true")::get))
                .hasMessageContaining("TCPLOAD_LEASE_NAMESPACE");
    }
}
