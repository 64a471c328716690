package io.tcpload.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.Quantity;
import io.tcpload.operator.children.RunnerPolicy;
import io.tcpload.operator.crd.RunnerPodSettings;
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

    @Test
    void withoutRunnerDefaultsOrAllowListsTheOperatorsOwnApply() {
        OperatorSettings settings = OperatorSettings.fromEnvironment(name -> null);

        RunnerPolicy policy = settings.runnerPolicy();
        assertThat(policy.image()).isEqualTo(OperatorSettings.DEFAULT_RUNNER_IMAGE);
        assertThat(policy.images().allowsAny()).isTrue();
        assertThat(policy.serviceAccounts().allowsAny()).isTrue();
        RunnerPodSettings effective = policy.effective(new RunnerPodSettings());
        assertThat(effective.getResources()).isEqualTo(RunnerPolicy.defaultResources());
        assertThat(effective.getNodeSelector()).isEmpty();
    }

    /**
     * The chart renders an empty object when no defaults are given: the same as none, read without
     * binding JSON; a copy of settings that set nothing is new, and one that sets a field keeps it.
     */
    @Test
    void theChartsEmptyRunnerDefaultsAreNoDefaults() {
        for (String json : new String[] {"{}", " { }\n", ""}) {
            RunnerPodSettings defaults =
                    OperatorSettings.fromEnvironment(
                                    name -> name.equals("TCPLOAD_RUNNER_DEFAULTS") ? json : null)
                            .runnerDefaults();
            assertThat(RunnerPolicy.unset(defaults)).as("'%s'", json).isTrue();
        }
        RunnerPodSettings blank = new RunnerPodSettings();
        assertThat(RunnerPolicy.copyOf(blank)).isNotSameAs(blank);

        RunnerPodSettings one = new RunnerPodSettings();
        one.setPriorityClassName("load");
        assertThat(RunnerPolicy.unset(one)).isFalse();
        RunnerPodSettings copy = RunnerPolicy.copyOf(one);
        assertThat(copy).isNotSameAs(one);
        assertThat(copy.getPriorityClassName()).isEqualTo("load");
        RunnerPodSettings labelled = new RunnerPodSettings();
        labelled.setLabels(Map.of("team", "payments"));
        assertThat(RunnerPolicy.unset(labelled)).isFalse();
        assertThat(RunnerPolicy.copyOf(labelled).getLabels()).containsEntry("team", "payments");
    }

    @Test
    void theRunnerDefaultsAreReadFromJson() {
        Map<String, String> env =
                Map.of(
                        "TCPLOAD_RUNNER_DEFAULTS",
                        "{\"imagePullSecrets\":[{\"name\":\"registry\"}],"
                                + "\"nodeSelector\":{\"pool\":\"load\"},"
                                + "\"tolerations\":[{\"key\":\"load\",\"operator\":\"Exists\"}],"
                                + "\"resources\":{\"requests\":{\"cpu\":\"2\"}},"
                                + "\"imagePullPolicy\":\"IfNotPresent\"}",
                        "TCPLOAD_ALLOWED_RUNNER_IMAGES",
                        "registry.example.com/load/*",
                        "TCPLOAD_ALLOWED_RUNNER_SERVICE_ACCOUNTS",
                        "loader");

        OperatorSettings settings = OperatorSettings.fromEnvironment(env::get);

        RunnerPodSettings defaults = settings.runnerDefaults();
        assertThat(defaults.getImagePullSecrets())
                .extracting(LocalObjectReference::getName)
                .containsExactly("registry");
        assertThat(defaults.getNodeSelector()).containsExactly(Map.entry("pool", "load"));
        assertThat(defaults.getTolerations())
                .singleElement()
                .satisfies(t -> assertThat(t.getKey()).isEqualTo("load"));
        assertThat(defaults.getResources().getRequests()).containsEntry("cpu", new Quantity("2"));
        assertThat(defaults.getImagePullPolicy()).isEqualTo("IfNotPresent");
        assertThat(settings.allowedRunnerImages().patterns())
                .containsExactly("registry.example.com/load/*");
        assertThat(settings.allowedRunnerServiceAccounts().allows("loader")).isTrue();
        defaults.getNodeSelector().put("pool", "changed");
        assertThat(settings.runnerDefaults().getNodeSelector())
                .as("the settings hand out copies")
                .containsEntry("pool", "load");
    }

    @Test
    void runnerDefaultsThatAreNotRunnerSettingsStopTheOperatorByName() {
        assertRefused(
                "{\"nodeSelector\": {\"pool\": \"load\"",
                "TCPLOAD_RUNNER_DEFAULTS is not JSON (line 1, column ");
        assertRefused(
                "{\"nodeSelecter\": {}}",
                "TCPLOAD_RUNNER_DEFAULTS: unknown field 'nodeSelecter'; the fields are"
                        + " spec.runner's: affinity, annotations,");
        assertRefused(
                "{\"tolerations\": {\"key\": \"load\"}}",
                "TCPLOAD_RUNNER_DEFAULTS.tolerations: Cannot deserialize");
        assertRefused(
                "{\"image\": \"runner:2\"}",
                "TCPLOAD_RUNNER_DEFAULTS.image: give the runner image in TCPLOAD_RUNNER_IMAGE"
                        + " instead");
        assertRefused(
                "{\"imagePullPolicy\": \"Sometimes\"}",
                "TCPLOAD_RUNNER_DEFAULTS.imagePullPolicy: must be Always, IfNotPresent or Never.");
        assertRefused(
                "{\"volumes\": [{\"name\": \"results\", \"emptyDir\": {}}]}",
                "TCPLOAD_RUNNER_DEFAULTS.volumes[0].name: 'results' is a volume of the operator's"
                        + " own");
        assertThatThrownBy(
                        () ->
                                OperatorSettings.fromEnvironment(
                                        Map.of("TCPLOAD_ALLOWED_RUNNER_IMAGES", "a*b")::get))
                .hasMessageStartingWith("TCPLOAD_ALLOWED_RUNNER_IMAGES: 'a*b' has a '*'");
    }

    private static void assertRefused(String json, String message) {
        assertThatThrownBy(
                        () ->
                                OperatorSettings.fromEnvironment(
                                        Map.of("TCPLOAD_RUNNER_DEFAULTS", json)::get))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(message);
    }
}
