package io.tcpload.operator.children;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvFromSourceBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSecurityContextBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraintBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.VolumeProjection;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.tcpload.operator.crd.ClientCertificate;
import io.tcpload.operator.crd.ConfigMapKey;
import io.tcpload.operator.crd.DataFile;
import io.tcpload.operator.crd.KeySource;
import io.tcpload.operator.crd.ProfileSource;
import io.tcpload.operator.crd.RunnerPodSettings;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.operator.crd.TlsSettings;
import io.tcpload.runner.contract.RunnerProtocol;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
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
    void aDryRunsJobHasOnePodRunningTheRunnersTestAndTheRunSpecSaysSo() {
        TcpLoadTestSpec spec = Specs.valid();
        spec.setRunners(4);
        spec.setConnections(40);
        spec.setDryRun(true);
        Job job = DesiredResources.job(Specs.test("pay", spec), IMAGE);

        assertThat(job.getSpec().getCompletions()).isOne();
        assertThat(job.getSpec().getParallelism()).isOne();
        Container runner = job.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(runner.getArgs())
                .isEqualTo(RunnerInvocations.podArgs(spec, RunnerProtocol.DEFAULT_PORT))
                .contains("--test");
        // A spec changed after the start is read back from the Job: still a dry run of 4.
        TcpLoadTestSpec changed = Specs.valid();
        TcpLoadTestSpec run = RunRecord.runSpec(job, changed);
        assertThat(run.getDryRun()).isTrue();
        assertThat(run.getRunners()).isEqualTo(4);
        assertThat(run.getDryRunShowValues()).isNull();
        // And one that shows its values still does.
        spec.setDryRunShowValues(true);
        Job showing = DesiredResources.job(Specs.test("pay", spec), IMAGE);
        assertThat(RunRecord.runSpec(showing, Specs.valid()).getDryRunShowValues()).isTrue();
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
        // One runner's failure fails its index only; none is replaced (it would start late).
        assertThat(job.getSpec().getBackoffLimit()).isNull();
        assertThat(job.getSpec().getBackoffLimitPerIndex()).isZero();
        assertThat(job.getSpec().getMaxFailedIndexes()).isNull();
        assertThat(job.getSpec().getPodReplacementPolicy()).isEqualTo("Failed");
        assertThat(job.getSpec().getPodFailurePolicy()).isNull();
        assertThat(job.getSpec().getTemplate().getSpec().getTerminationGracePeriodSeconds())
                .isEqualTo(30L);
        assertThat(job.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv())
                .contains(new EnvVar("TCPLOAD_TERMINATION_GRACE_SECONDS", "30", null));
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
                .containsExactly(
                        "TCPLOAD_BIND_HOST",
                        "TCPLOAD_NAMESPACE",
                        "TCPLOAD_TEST",
                        "TCPLOAD_TERMINATION_GRACE_SECONDS",
                        "TZ",
                        "TCPLOAD_CONTROL_TOKEN");
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

    @Test
    void theDefaultsAreSafeAndRestrictedCompliant() {
        PodSpec pod = podOf(Specs.valid(), RunnerPolicy.of(IMAGE));

        assertThat(pod.getAutomountServiceAccountToken()).as("no token mounted").isFalse();
        // No fixed ids: OpenShift's restricted-v2 assigns them; the image's user 65532 runs.
        assertThat(pod.getSecurityContext().getRunAsUser()).isNull();
        assertThat(pod.getSecurityContext().getRunAsGroup()).isNull();
        assertThat(pod.getSecurityContext().getFsGroup()).isNull();
        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSecurityContext().getSeccompProfile().getType())
                .isEqualTo("RuntimeDefault");
        Container runner = pod.getContainers().get(0);
        assertThat(runner.getResources().getRequests())
                .containsEntry("cpu", new Quantity("1"))
                .containsEntry("memory", new Quantity("512Mi"));
        assertThat(runner.getResources().getLimits())
                .as("a memory limit and no CPU limit, which would throttle the event loops")
                .containsOnlyKeys("memory")
                .containsEntry("memory", new Quantity("1Gi"));
        assertThat(runner.getTerminationMessagePolicy()).isEqualTo("FallbackToLogsOnError");
        assertThat(RestrictedPodSecurity.violations(pod)).isEmpty();
    }

    @Test
    void everyPodFieldOfTheSpecReachesThePod() {
        TcpLoadTestSpec spec = Specs.valid();
        RunnerPodSettings runner = spec.getRunner();
        runner.setEnvFrom(
                List.of(
                        new EnvFromSourceBuilder()
                                .withNewConfigMapRef()
                                .withName("target-env")
                                .endConfigMapRef()
                                .build(),
                        new EnvFromSourceBuilder()
                                .withPrefix("DB_")
                                .withNewSecretRef()
                                .withName("db")
                                .endSecretRef()
                                .build()));
        runner.setVolumes(
                List.of(
                        new VolumeBuilder()
                                .withName("certs")
                                .withNewSecret()
                                .withSecretName("target-ca")
                                .endSecret()
                                .build(),
                        new VolumeBuilder()
                                .withName("scratch")
                                .withNewEmptyDir()
                                .endEmptyDir()
                                .build()));
        runner.setVolumeMounts(
                List.of(
                        new VolumeMountBuilder()
                                .withName("certs")
                                .withMountPath("/etc/ssl/target")
                                .withReadOnly(true)
                                .build(),
                        new VolumeMountBuilder()
                                .withName("scratch")
                                .withMountPath("/scratch")
                                .build()));
        runner.setInitContainers(
                List.of(
                        new ContainerBuilder()
                                .withName("wait-for-target")
                                .withImage("busybox:1.36")
                                .withArgs("sh", "-c", "until nc -z target 9000; do sleep 1; done")
                                .build()));
        runner.setTopologySpreadConstraints(
                List.of(
                        new TopologySpreadConstraintBuilder()
                                .withMaxSkew(1)
                                .withTopologyKey("kubernetes.io/hostname")
                                .withWhenUnsatisfiable("DoNotSchedule")
                                .withNewLabelSelector()
                                .addToMatchLabels("tcpload.io/test", "pay")
                                .endLabelSelector()
                                .build()));
        runner.setTerminationGracePeriodSeconds(45L);

        PodSpec pod = podOf(spec, RunnerPolicy.of(IMAGE));

        Container container = pod.getContainers().get(0);
        assertThat(container.getEnvFrom()).isEqualTo(runner.getEnvFrom());
        assertThat(pod.getVolumes())
                .extracting(Volume::getName)
                .containsExactly("profile", "results", "tmp", "certs", "scratch");
        assertThat(container.getVolumeMounts())
                .extracting(VolumeMount::getMountPath)
                .containsExactly(
                        "/etc/tcpload/profile", "/results", "/tmp", "/etc/ssl/target", "/scratch");
        assertThat(pod.getInitContainers())
                .singleElement()
                .satisfies(
                        init -> {
                            assertThat(init.getName()).isEqualTo("wait-for-target");
                            assertThat(init.getImage()).isEqualTo("busybox:1.36");
                        });
        assertThat(pod.getTopologySpreadConstraints())
                .isEqualTo(runner.getTopologySpreadConstraints());
        assertThat(pod.getTerminationGracePeriodSeconds()).isEqualTo(45L);
        // The runner is told its grace period, which it cannot see otherwise.
        assertThat(pod.getContainers().get(0).getEnv())
                .contains(new EnvVar("TCPLOAD_TERMINATION_GRACE_SECONDS", "45", null));
        assertThat(RestrictedPodSecurity.violations(pod))
                .as("an init container gets restricted's settings under its own")
                .isEmpty();
    }

    @Test
    void securityContextsAreMergedOverTheDefaultsFieldByField() {
        TcpLoadTestSpec spec = Specs.valid();
        spec.getRunner()
                .setSecurityContext(
                        new PodSecurityContextBuilder()
                                .withRunAsUser(1000L)
                                .withFsGroup(2000L)
                                .build());
        spec.getRunner()
                .setContainerSecurityContext(
                        new SecurityContextBuilder()
                                .withReadOnlyRootFilesystem(false)
                                .withNewCapabilities()
                                .withAdd("NET_BIND_SERVICE")
                                .endCapabilities()
                                .build());

        PodSpec pod = podOf(spec, RunnerPolicy.of(IMAGE));

        PodSecurityContext podContext = pod.getSecurityContext();
        assertThat(podContext.getRunAsUser()).isEqualTo(1000L);
        assertThat(podContext.getFsGroup()).isEqualTo(2000L);
        assertThat(podContext.getRunAsNonRoot()).as("the default stays").isTrue();
        assertThat(podContext.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        SecurityContext container = pod.getContainers().get(0).getSecurityContext();
        assertThat(container.getReadOnlyRootFilesystem()).as("the user's wins").isFalse();
        assertThat(container.getAllowPrivilegeEscalation()).isFalse();
        assertThat(container.getRunAsNonRoot()).isTrue();
        assertThat(container.getCapabilities().getAdd()).containsExactly("NET_BIND_SERVICE");
        assertThat(container.getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(RestrictedPodSecurity.violations(pod)).isEmpty();
        assertThat(spec.getRunner().getContainerSecurityContext().getCapabilities().getDrop())
                .as("the spec itself is left as it was")
                .isEmpty();
    }

    /** A user may leave restricted behind; the check used above sees it. */
    @Test
    void settingsThatLeaveRestrictedBehindAreFoundByTheCheck() {
        TcpLoadTestSpec spec = Specs.valid();
        spec.getRunner()
                .setSecurityContext(
                        new PodSecurityContextBuilder().withRunAsNonRoot(false).build());
        spec.getRunner()
                .setContainerSecurityContext(
                        new SecurityContextBuilder()
                                .withAllowPrivilegeEscalation(true)
                                .withRunAsNonRoot(false)
                                .build());
        spec.getRunner()
                .setVolumes(
                        List.of(
                                new VolumeBuilder()
                                        .withName("host")
                                        .withNewHostPath()
                                        .withPath("/var/run")
                                        .endHostPath()
                                        .build()));
        spec.getRunner()
                .setInitContainers(
                        List.of(
                                new ContainerBuilder()
                                        .withName("root")
                                        .withImage("busybox:1.36")
                                        .withNewSecurityContext()
                                        .withPrivileged(true)
                                        .withRunAsUser(0L)
                                        .endSecurityContext()
                                        .build()));

        List<String> violations =
                RestrictedPodSecurity.violations(podOf(spec, RunnerPolicy.of(IMAGE)));

        assertThat(violations)
                .anyMatch(v -> v.startsWith("spec.volumes[host]: volume type [hostPath]"))
                .anyMatch(
                        v ->
                                v.equals(
                                        "spec.containers[runner].securityContext"
                                                + ".allowPrivilegeEscalation: must be false"))
                .anyMatch(
                        v ->
                                v.equals(
                                        "spec.containers[runner].securityContext.runAsNonRoot: must be true"))
                .anyMatch(
                        v ->
                                v.equals(
                                        "spec.initContainers[root].securityContext.privileged: not allowed"))
                .anyMatch(
                        v ->
                                v.equals(
                                        "spec.initContainers[root].securityContext.runAsUser: 0 is not allowed"));
        Container init = podOf(spec, RunnerPolicy.of(IMAGE)).getInitContainers().get(0);
        assertThat(init.getSecurityContext().getAllowPrivilegeEscalation())
                .as("the default under the init container's own")
                .isFalse();
    }

    @Test
    void theTestsResourcesReplaceTheDefaultsWhole() {
        TcpLoadTestSpec spec = Specs.valid();
        spec.getRunner()
                .setResources(
                        new ResourceRequirementsBuilder()
                                .addToRequests("memory", new Quantity("2Gi"))
                                .build());

        Container runner = podOf(spec, RunnerPolicy.of(IMAGE)).getContainers().get(0);

        assertThat(runner.getResources().getRequests()).containsOnlyKeys("memory");
        assertThat(runner.getResources().getLimits())
                .as("no default limit below the test's own request")
                .isNullOrEmpty();
        spec.getRunner().setResources(new ResourceRequirementsBuilder().build());
        assertThat(podOf(spec, RunnerPolicy.of(IMAGE)).getContainers().get(0).getResources())
                .as("empty resources are none: the defaults apply")
                .isEqualTo(RunnerPolicy.defaultResources());
    }

    @Test
    void theOperatorsRunnerDefaultsLieUnderTheTestsOwn() {
        RunnerPodSettings defaults = new RunnerPodSettings();
        defaults.setNodeSelector(Map.of("pool", "load", "zone", "a"));
        defaults.setTolerations(
                List.of(new TolerationBuilder().withKey("load").withOperator("Exists").build()));
        defaults.setImagePullSecrets(List.of(new LocalObjectReference("registry")));
        defaults.setResources(
                new ResourceRequirementsBuilder()
                        .addToRequests("cpu", new Quantity("2"))
                        .addToLimits("memory", new Quantity("2Gi"))
                        .build());
        defaults.setAnnotations(Map.of("sidecar.istio.io/inject", "false"));
        defaults.setContainerSecurityContext(
                new SecurityContextBuilder().withReadOnlyRootFilesystem(false).build());
        defaults.setServiceAccountName("runner");
        RunnerPolicy policy =
                new RunnerPolicy(
                        IMAGE,
                        defaults,
                        AllowList.any(RunnerPolicy.IMAGES_VARIABLE),
                        AllowList.any(RunnerPolicy.SERVICE_ACCOUNTS_VARIABLE));
        TcpLoadTestSpec spec = Specs.valid();
        spec.getRunner().setNodeSelector(Map.of("zone", "b"));
        spec.getRunner()
                .setTolerations(
                        List.of(
                                new TolerationBuilder()
                                        .withKey("spot")
                                        .withOperator("Exists")
                                        .build()));
        spec.getRunner().setAnnotations(Map.of("note", "q3"));

        Job job = DesiredResources.job(Specs.test("pay", spec), policy, 8080);
        PodSpec pod = job.getSpec().getTemplate().getSpec();

        assertThat(pod.getNodeSelector())
                .containsExactlyInAnyOrderEntriesOf(Map.of("pool", "load", "zone", "b"));
        assertThat(pod.getTolerations()).extracting(t -> t.getKey()).containsExactly("spot");
        assertThat(pod.getImagePullSecrets())
                .extracting(LocalObjectReference::getName)
                .containsExactly("registry");
        assertThat(pod.getServiceAccountName()).isEqualTo("runner");
        assertThat(pod.getContainers().get(0).getImage()).isEqualTo(IMAGE);
        assertThat(pod.getContainers().get(0).getResources()).isEqualTo(defaults.getResources());
        assertThat(pod.getContainers().get(0).getSecurityContext().getReadOnlyRootFilesystem())
                .isFalse();
        assertThat(pod.getContainers().get(0).getSecurityContext().getAllowPrivilegeEscalation())
                .isFalse();
        assertThat(job.getSpec().getTemplate().getMetadata().getAnnotations())
                .containsEntry("sidecar.istio.io/inject", "false")
                .containsEntry("note", "q3");
    }

    /** What the validator keeps the test's volumes and mounts apart from is what the pod mounts. */
    @Test
    void specTlsIsOneProjectedVolumeAndTheRunnersFlagsName() {
        TcpLoadTestSpec spec = Specs.valid();
        TlsSettings tls = new TlsSettings();
        tls.setCa(KeySource.configMap("bank-ca", "bundle.pem"));
        tls.setClientCertificate(new ClientCertificate("bank-client"));
        spec.setTls(tls);
        PodSpec pod = podOf(spec, RunnerPolicy.of(IMAGE));

        Volume volume =
                pod.getVolumes().stream()
                        .filter(v -> v.getName().equals(DesiredResources.TLS_VOLUME))
                        .findFirst()
                        .orElseThrow();
        List<VolumeProjection> sources = volume.getProjected().getSources();
        assertThat(sources).hasSize(2);
        assertThat(sources.get(0).getConfigMap().getName()).isEqualTo("bank-ca");
        assertThat(sources.get(0).getConfigMap().getItems())
                .singleElement()
                .satisfies(item -> assertThat(item.getKey()).isEqualTo("bundle.pem"))
                .satisfies(item -> assertThat(item.getPath()).isEqualTo("ca.crt"));
        assertThat(sources.get(1).getSecret().getName()).isEqualTo("bank-client");
        assertThat(sources.get(1).getSecret().getItems())
                .extracting(item -> item.getKey() + ">" + item.getPath())
                .containsExactly("tls.crt>tls.crt", "tls.key>tls.key");
        Container runner = pod.getContainers().get(0);
        assertThat(runner.getVolumeMounts())
                .filteredOn(m -> m.getName().equals(DesiredResources.TLS_VOLUME))
                .singleElement()
                .satisfies(m -> assertThat(m.getMountPath()).isEqualTo("/etc/tcpload/tls"))
                .satisfies(m -> assertThat(m.getReadOnly()).isTrue());
        assertThat(runner.getArgs())
                .contains(
                        "--tls-ca=/etc/tcpload/tls/ca.crt",
                        "--tls-cert=/etc/tcpload/tls/tls.crt",
                        "--tls-key=/etc/tcpload/tls/tls.key");
    }

    @Test
    void aCaFromASecretAloneMountsItAndNoClientCertificate() {
        TcpLoadTestSpec spec = Specs.valid();
        TlsSettings tls = new TlsSettings();
        tls.setCa(KeySource.secret("bank-ca", "ca.crt"));
        spec.setTls(tls);
        PodSpec pod = podOf(spec, RunnerPolicy.of(IMAGE));

        Volume volume =
                pod.getVolumes().stream()
                        .filter(v -> v.getName().equals(DesiredResources.TLS_VOLUME))
                        .findFirst()
                        .orElseThrow();
        assertThat(volume.getProjected().getSources())
                .singleElement()
                .satisfies(source -> assertThat(source.getSecret().getName()).isEqualTo("bank-ca"));
        assertThat(pod.getContainers().get(0).getArgs())
                .contains("--tls-ca=/etc/tcpload/tls/ca.crt")
                .noneMatch(arg -> arg.startsWith("--tls-cert") || arg.startsWith("--tls-key"));
    }

    @Test
    void withoutSpecTlsThereIsNoTlsVolumeAndTheSpecHashesAsBefore() throws Exception {
        PodSpec pod = podOf(Specs.valid(), RunnerPolicy.of(IMAGE));

        assertThat(pod.getVolumes())
                .noneMatch(v -> v.getName().equals(DesiredResources.TLS_VOLUME));
        assertThat(pod.getContainers().get(0).getArgs()).noneMatch(arg -> arg.startsWith("--tls"));
        assertThat(new ObjectMapper().writeValueAsString(Specs.valid())).doesNotContain("tls");
    }

    @Test
    void theOperatorsOwnMountsAreThoseTheValidatorKnows() {
        Container runner = podOf(Specs.valid(), RunnerPolicy.of(IMAGE)).getContainers().get(0);
        Map<String, String> mounts = new java.util.LinkedHashMap<>();
        runner.getVolumeMounts().forEach(m -> mounts.put(m.getName(), m.getMountPath()));

        Map<String, String> own = new java.util.LinkedHashMap<>(DesiredResources.OWN_MOUNTS);
        // Mounted only with spec.tls.
        own.remove(DesiredResources.TLS_VOLUME);
        assertThat(mounts).containsExactlyEntriesOf(own);
    }

    /**
     * The fields added to spec.runner after the first release are left out of its JSON when unused,
     * so that a spec that does not use them hashes as an earlier operator hashed it.
     */
    @Test
    void unusedNewRunnerFieldsAreLeftOutOfTheSpecsJson() throws Exception {
        ObjectMapper json = new ObjectMapper();
        Set<String> keys = new TreeSet<>();
        json.readTree(json.writeValueAsString(new RunnerPodSettings()))
                .fieldNames()
                .forEachRemaining(keys::add);

        assertThat(keys)
                .containsExactlyInAnyOrder(
                        "image",
                        "imagePullPolicy",
                        "imagePullSecrets",
                        "resources",
                        "nodeSelector",
                        "tolerations",
                        "affinity",
                        "env",
                        "serviceAccountName",
                        "labels",
                        "annotations",
                        "priorityClassName");
    }

    private static PodSpec podOf(TcpLoadTestSpec spec, RunnerPolicy policy) {
        return DesiredResources.job(Specs.test("pay", spec), policy, RunnerProtocol.DEFAULT_PORT)
                .getSpec()
                .getTemplate()
                .getSpec();
    }
}
