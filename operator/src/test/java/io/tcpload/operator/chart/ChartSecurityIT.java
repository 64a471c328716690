package io.tcpload.operator.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.tcpload.operator.children.RestrictedPodSecurity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The operator pod: non-root, read-only, no privileges, probed, bounded, with its images. */
class ChartSecurityIT {
    @ParameterizedTest
    @EnumSource(Scenario.class)
    void thePodRunsAsNonRootWithTheRuntimeDefaultSeccompProfile(Scenario scenario) {
        PodSecurityContext pod = podSpec(scenario).getSecurityContext();

        assertThat(pod.getRunAsNonRoot()).isTrue();
        // The image's user (65532) runs: a fixed id would be refused by OpenShift's restricted-v2.
        assertThat(pod.getRunAsUser()).isNull();
        assertThat(pod.getRunAsGroup()).isNull();
        assertThat(pod.getFsGroup()).isNull();
        assertThat(pod.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    }

    /** What an API server enforcing Pod Security's restricted level checks. */
    @ParameterizedTest
    @EnumSource(Scenario.class)
    void thePodMeetsPodSecurityRestricted(Scenario scenario) {
        assertThat(RestrictedPodSecurity.violations(podSpec(scenario))).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Scenario.class)
    void theContainerHasAReadOnlyRootAndNoPrivileges(Scenario scenario) {
        PodSpec pod = podSpec(scenario);
        assertThat(pod.getContainers()).hasSize(1);
        assertThat(pod.getInitContainers()).isNullOrEmpty();
        assertThat(pod.getHostNetwork()).isNotEqualTo(Boolean.TRUE);
        assertThat(pod.getHostPID()).isNotEqualTo(Boolean.TRUE);
        SecurityContext container = pod.getContainers().get(0).getSecurityContext();

        assertThat(container.getReadOnlyRootFilesystem()).isTrue();
        assertThat(container.getAllowPrivilegeEscalation()).isFalse();
        assertThat(container.getRunAsNonRoot()).isTrue();
        assertThat(container.getPrivileged()).isNotEqualTo(Boolean.TRUE);
        assertThat(container.getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(container.getCapabilities().getAdd()).isNullOrEmpty();
        // Only emptyDirs and the control key: no host paths, no other secrets beyond the service
        // account token.
        assertThat(pod.getVolumes())
                .allSatisfy(
                        v -> {
                            if (v.getSecret() != null) {
                                assertThat(v.getSecret().getSecretName()).endsWith("-control-key");
                                assertThat(v.getSecret().getDefaultMode()).isEqualTo(0400);
                            } else {
                                assertThat(v.getEmptyDir()).isNotNull();
                            }
                        });
    }

    @Test
    void theJvmGetsAWritableTmpOnTheReadOnlyRoot() {
        PodSpec pod = podSpec(Scenario.DEFAULTS);
        Volume tmp =
                pod.getVolumes().stream()
                        .filter(v -> v.getName().equals("tmp"))
                        .findFirst()
                        .orElseThrow();

        assertThat(tmp.getEmptyDir().getSizeLimit()).isNotNull();
        assertThat(pod.getContainers().get(0).getVolumeMounts())
                .anySatisfy(
                        m -> {
                            assertThat(m.getName()).isEqualTo("tmp");
                            assertThat(m.getMountPath()).isEqualTo("/tmp");
                        });
    }

    @Test
    void probesUseTheHealthEndpointsOnTheHttpPort() {
        Container container = podSpec(Scenario.DEFAULTS).getContainers().get(0);

        assertThat(container.getPorts())
                .singleElement()
                .satisfies(
                        p -> {
                            assertThat(p.getName()).isEqualTo("http");
                            assertThat(p.getContainerPort()).isEqualTo(8080);
                        });
        assertProbe(container.getLivenessProbe(), "/healthz");
        assertProbe(container.getStartupProbe(), "/healthz");
        assertProbe(container.getReadinessProbe(), "/readyz");
    }

    @Test
    void resourcesAreRequestedAndMemoryIsBounded() {
        Container container = podSpec(Scenario.DEFAULTS).getContainers().get(0);

        assertThat(container.getResources().getRequests()).containsKeys("cpu", "memory");
        assertThat(container.getResources().getLimits()).containsKey("memory");
    }

    @Test
    void theImagesDefaultToTheAppVersion() {
        String appVersion = String.valueOf(HelmChart.chartMetadata().get("appVersion"));
        Container container = podSpec(Scenario.DEFAULTS).getContainers().get(0);

        assertThat(container.getImage())
                .isEqualTo("ghcr.io/tcpload/tcpload-operator:" + appVersion);
        assertThat(container.getEnv())
                .anySatisfy(
                        e -> {
                            assertThat(e.getName()).isEqualTo("TCPLOAD_RUNNER_IMAGE");
                            assertThat(e.getValue())
                                    .isEqualTo("ghcr.io/tcpload/tcpload-runner:" + appVersion);
                        });
    }

    private static void assertProbe(Probe probe, String path) {
        assertThat(probe).isNotNull();
        assertThat(probe.getHttpGet().getPath()).isEqualTo(path);
        assertThat(probe.getHttpGet().getPort().getStrVal()).isEqualTo("http");
        assertThat(probe.getPeriodSeconds()).isPositive();
        assertThat(probe.getFailureThreshold()).isPositive();
    }

    private static PodSpec podSpec(Scenario scenario) {
        return HelmChart.ofType(HelmChart.render(scenario), Deployment.class)
                .get(0)
                .getSpec()
                .getTemplate()
                .getSpec();
    }
}
