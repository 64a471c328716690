package io.tcpload.operator.children;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.VolumeProjection;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.tcpload.operator.crd.ConfigMapKey;
import io.tcpload.operator.crd.DataFile;
import io.tcpload.operator.crd.ProfileSource;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.runner.contract.RunnerProtocol;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DesiredResourcesTest {
    private static final String IMAGE = "ghcr.io/tcpload/runner:0.1.0";

    @Test
    void theConfigMapHoldsTheInlineProfileAndFiles() {
        TcpLoadTestSpec spec = Specs.valid();
        spec.setFiles(
                List.of(
                        DataFile.inline("accounts.txt", "1001\n1002\n"),
                        DataFile.fromConfigMap("cards.txt", new ConfigMapKey("data", "cards"))));
        ConfigMap map = DesiredResources.configMap(Specs.test("pay", spec));
        assertThat(map.getMetadata().getName()).isEqualTo("pay-profile");
        assertThat(map.getMetadata().getNamespace()).isEqualTo("load");
        assertThat(map.getData())
                .containsExactly(
                        Map.entry("profile.ini", Specs.PROFILE),
                        Map.entry("accounts.txt", "1001\n1002\n"));
        assertOwnedAndLabelled(
                map.getMetadata().getOwnerReferences(), map.getMetadata().getLabels());
    }

    @Test
    void theJobIsIndexedWithOnePodPerRunnerAndNoRetries() {
        TcpLoadTestSpec spec = Specs.valid();
        spec.setRunners(4);
        spec.setConnections(40);
        spec.setTtlSecondsAfterFinished(600);
        Job job = DesiredResources.job(Specs.test("pay", spec), IMAGE);
        assertThat(job.getMetadata().getName()).isEqualTo("pay-runners");
        assertOwnedAndLabelled(
                job.getMetadata().getOwnerReferences(), job.getMetadata().getLabels());
        assertThat(job.getSpec().getCompletionMode()).isEqualTo("Indexed");
        assertThat(job.getSpec().getCompletions()).isEqualTo(4);
        assertThat(job.getSpec().getParallelism()).isEqualTo(4);
        assertThat(job.getSpec().getBackoffLimit()).isZero();
        assertThat(job.getSpec().getTtlSecondsAfterFinished()).isEqualTo(600);
        PodSpec pod = job.getSpec().getTemplate().getSpec();
        assertThat(pod.getRestartPolicy()).isEqualTo("Never");
        assertThat(job.getSpec().getTemplate().getMetadata().getLabels())
                .containsEntry("app.kubernetes.io/name", "tcpload-runner")
                .containsEntry("tcpload.io/test", "pay");
        Container runner = pod.getContainers().get(0);
        assertThat(runner.getImage()).isEqualTo(IMAGE);
        assertThat(runner.getArgs())
                .isEqualTo(RunnerInvocations.forPod(spec, RunnerProtocol.DEFAULT_PORT).toArgs());
        assertThat(runner.getPorts())
                .singleElement()
                .satisfies(
                        port -> {
                            assertThat(port.getName()).isEqualTo("metrics");
                            assertThat(port.getContainerPort()).isEqualTo(8080);
                        });
        assertThat(runner.getEnv())
                .anySatisfy(
                        env -> {
                            assertThat(env.getName()).isEqualTo("TCPLOAD_BIND_HOST");
                            assertThat(env.getValueFrom().getFieldRef().getFieldPath())
                                    .isEqualTo("status.podIP");
                        });
    }

    @Test
    void podsRunAsNonRootOnAReadOnlyRootFilesystem() {
        PodSpec pod =
                DesiredResources.job(Specs.test("pay", Specs.valid()), IMAGE)
                        .getSpec()
                        .getTemplate()
                        .getSpec();
        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSecurityContext().getRunAsUser()).isNotZero();
        assertThat(pod.getSecurityContext().getSeccompProfile().getType())
                .isEqualTo("RuntimeDefault");
        Container runner = pod.getContainers().get(0);
        assertThat(runner.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        assertThat(runner.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(runner.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        // Writable places: the results and the JVM's scratch space, both emptyDirs.
        assertThat(runner.getVolumeMounts())
                .filteredOn(mount -> !Boolean.TRUE.equals(mount.getReadOnly()))
                .extracting(mount -> mount.getMountPath())
                .containsExactlyInAnyOrder("/results", "/tmp");
        assertThat(pod.getVolumes()).filteredOn(volume -> volume.getEmptyDir() != null).hasSize(2);
    }

    @Test
    void theProfileVolumeJoinsTheUsersConfigMapKeys() {
        TcpLoadTestSpec spec = Specs.valid();
        spec.setProfile(null);
        spec.setProfileFrom(ProfileSource.configMap("profiles", "pay.ini"));
        spec.setFiles(
                List.of(DataFile.fromConfigMap("cards.txt", new ConfigMapKey("data", "cards"))));
        PodSpec pod =
                DesiredResources.job(Specs.test("pay", spec), IMAGE)
                        .getSpec()
                        .getTemplate()
                        .getSpec();
        List<VolumeProjection> sources =
                pod.getVolumes().stream()
                        .filter(volume -> volume.getProjected() != null)
                        .findFirst()
                        .orElseThrow()
                        .getProjected()
                        .getSources();
        assertThat(sources).hasSize(3);
        assertThat(sources.get(0).getConfigMap().getName()).isEqualTo("pay-profile");
        assertThat(sources.get(1).getConfigMap().getName()).isEqualTo("profiles");
        assertThat(sources.get(1).getConfigMap().getItems().get(0).getKey()).isEqualTo("pay.ini");
        assertThat(sources.get(1).getConfigMap().getItems().get(0).getPath())
                .isEqualTo("profile.ini");
        assertThat(sources.get(2).getConfigMap().getItems().get(0).getPath())
                .isEqualTo("cards.txt");
    }

    @Test
    void runnerSettingsReachThePod() {
        TcpLoadTestSpec spec = Specs.valid();
        spec.getRunner().setImage("registry.local/runner:dev");
        spec.getRunner().setImagePullPolicy("Always");
        spec.getRunner().setNodeSelector(Map.of("pool", "load"));
        spec.getRunner().setServiceAccountName("loader");
        spec.getRunner().setPriorityClassName("batch-low");
        spec.getRunner().setLabels(Map.of("team", "payments"));
        spec.getRunner().setAnnotations(Map.of("note", "q3"));
        spec.getRunner().setEnv(List.of(new EnvVar("TZ", "Asia/Shanghai", null)));
        spec.getRunner()
                .setResources(
                        new ResourceRequirementsBuilder()
                                .addToLimits("cpu", new Quantity("2"))
                                .build());
        Job job = DesiredResources.job(Specs.test("pay", spec), IMAGE);
        PodSpec pod = job.getSpec().getTemplate().getSpec();
        Container runner = pod.getContainers().get(0);
        assertThat(runner.getImage()).isEqualTo("registry.local/runner:dev");
        assertThat(runner.getImagePullPolicy()).isEqualTo("Always");
        assertThat(runner.getEnv())
                .extracting(EnvVar::getName)
                .containsExactly("TCPLOAD_BIND_HOST", "TCPLOAD_NAMESPACE", "TCPLOAD_TEST", "TZ");
        assertThat(runner.getResources().getLimits()).containsKey("cpu");
        assertThat(pod.getNodeSelector()).containsEntry("pool", "load");
        assertThat(pod.getServiceAccountName()).isEqualTo("loader");
        assertThat(pod.getPriorityClassName()).isEqualTo("batch-low");
        assertThat(job.getSpec().getTemplate().getMetadata().getLabels())
                .containsEntry("team", "payments")
                .containsEntry("tcpload.io/test", "pay");
        assertThat(job.getSpec().getTemplate().getMetadata().getAnnotations())
                .containsEntry("note", "q3");
    }

    private static void assertOwnedAndLabelled(
            List<OwnerReference> owners, Map<String, String> labels) {
        assertThat(owners).hasSize(1);
        OwnerReference owner = owners.get(0);
        assertThat(owner.getKind()).isEqualTo("TcpLoadTest");
        assertThat(owner.getApiVersion()).isEqualTo("tcpload.io/v1alpha1");
        assertThat(owner.getName()).isEqualTo("pay");
        assertThat(owner.getUid()).isEqualTo("0b5f4c1e-uid");
        assertThat(owner.getController()).isTrue();
        assertThat(labels)
                .containsEntry("app.kubernetes.io/name", "tcpload-runner")
                .containsEntry("tcpload.io/test", "pay");
    }
}
