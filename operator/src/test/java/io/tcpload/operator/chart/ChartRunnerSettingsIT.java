package io.tcpload.operator.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.tcpload.operator.OperatorSettings;
import io.tcpload.operator.children.DesiredResources;
import io.tcpload.operator.children.RunnerPolicy;
import io.tcpload.operator.children.Specs;
import io.tcpload.operator.crd.RunnerPodSettings;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The chart's runner defaults and allow-lists reach the operator: rendered by real Helm, the
 * operator container's environment is read by the operator's own {@link OperatorSettings}, and the
 * runner pods it would create carry them under the test's own settings.
 */
class ChartRunnerSettingsIT {
    @Test
    void byDefaultTheOperatorsOwnRunnerDefaultsApplyAndEveryNameIsAllowed() {
        Map<String, String> env = operatorEnvironment(Scenario.DEFAULTS);

        assertThat(env)
                .containsEntry("TCPLOAD_RUNNER_DEFAULTS", "{}")
                .containsEntry("TCPLOAD_ALLOWED_RUNNER_IMAGES", "")
                .containsEntry("TCPLOAD_ALLOWED_RUNNER_SERVICE_ACCOUNTS", "");
        OperatorSettings settings = OperatorSettings.fromEnvironment(env::get);
        assertThat(settings.allowedRunnerImages().allowsAny()).isTrue();
        assertThat(settings.allowedRunnerServiceAccounts().allowsAny()).isTrue();
        Container runner = runnerPod(settings, Specs.valid()).getContainers().get(0);
        assertThat(runner.getResources()).isEqualTo(RunnerPolicy.defaultResources());
        assertThat(runner.getImagePullPolicy()).isNull();
    }

    @Test
    void theChartsRunnerDefaultsLieUnderEachTestsOwnSettings() {
        OperatorSettings settings =
                OperatorSettings.fromEnvironment(
                        operatorEnvironment(Scenario.RUNNER_DEFAULTS_AND_ALLOW_LISTS)::get);
        TcpLoadTestSpec spec = Specs.valid();
        spec.getRunner().setNodeSelector(Map.of("pool", "perf"));

        PodSpec pod = runnerPod(settings, spec);

        assertThat(pod.getNodeSelector())
                .as("the test wins")
                .containsExactly(Map.entry("pool", "perf"));
        assertThat(pod.getTolerations())
                .singleElement()
                .satisfies(t -> assertThat(t.getKey()).isEqualTo("load"));
        assertThat(pod.getImagePullSecrets())
                .extracting(LocalObjectReference::getName)
                .containsExactly("registry");
        assertThat(pod.getSecurityContext().getFsGroup()).isEqualTo(2000L);
        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        Container runner = pod.getContainers().get(0);
        assertThat(runner.getImagePullPolicy()).isEqualTo("IfNotPresent");
        assertThat(runner.getResources().getRequests())
                .containsEntry("cpu", new Quantity("2"))
                .containsEntry("memory", new Quantity("1Gi"));
        assertThat(runner.getResources().getLimits()).containsEntry("memory", new Quantity("2Gi"));
        RunnerPodSettings defaults = settings.runnerDefaults();
        assertThat(defaults.getAnnotations()).containsEntry("sidecar.istio.io/inject", "false");
    }

    @Test
    void theAllowListsReachTheOperatorAsGiven() {
        OperatorSettings settings =
                OperatorSettings.fromEnvironment(
                        operatorEnvironment(Scenario.RUNNER_DEFAULTS_AND_ALLOW_LISTS)::get);

        assertThat(settings.allowedRunnerImages().patterns())
                .containsExactly("registry.example.com/load/*", "ghcr.io/tcpload/*");
        assertThat(settings.allowedRunnerServiceAccounts().patterns())
                .containsExactly("loader", "perf-*");
        assertThat(settings.allowedRunnerImages().allows(settings.runnerImage())).isTrue();
    }

    @Test
    void theSchemaRefusesWhatTheOperatorWouldRefuse() {
        assertThatThrownBy(
                        () ->
                                HelmChart.template(
                                        HelmChart.values(
                                                "runnerDefaults.nodeSelecter",
                                                Map.of("pool", "load"))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("nodeSelecter");
        assertThatThrownBy(
                        () ->
                                HelmChart.template(
                                        HelmChart.values(
                                                "runnerPolicy.allowedImages", List.of("a*/b"))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("allowedImages");
        assertThatThrownBy(
                        () ->
                                HelmChart.template(
                                        HelmChart.values(
                                                "runnerPolicy.allowedServiceAccounts",
                                                List.of("a,b"))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("allowedServiceAccounts");
        assertThatThrownBy(
                        () ->
                                HelmChart.template(
                                        HelmChart.values("runnerImage.pullPolicy", "Sometimes")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("pullPolicy");
    }

    private static PodSpec runnerPod(OperatorSettings settings, TcpLoadTestSpec spec) {
        return DesiredResources.job(
                        Specs.test("pay", spec), settings.runnerPolicy(), settings.runnerPort())
                .getSpec()
                .getTemplate()
                .getSpec();
    }

    /** The operator container's variables, a downward-API field as the kubelet resolves it. */
    private static Map<String, String> operatorEnvironment(Scenario scenario) {
        Deployment deployment =
                HelmChart.ofType(HelmChart.render(scenario), Deployment.class).get(0);
        Map<String, String> env = new HashMap<>();
        for (EnvVar variable :
                deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv()) {
            if (variable.getValueFrom() != null) {
                assertThat(variable.getValueFrom().getFieldRef().getFieldPath())
                        .isEqualTo("metadata.namespace");
                env.put(variable.getName(), HelmChart.NAMESPACE);
            } else {
                env.put(variable.getName(), variable.getValue());
            }
        }
        // The mounted key's file is not here; the settings under test do not depend on it.
        env.remove(OperatorSettings.CONTROL_KEY_FILE_VARIABLE);
        return env;
    }
}
