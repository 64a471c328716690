package io.tcpload.operator.children;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.VolumeProjection;
import io.fabric8.kubernetes.api.model.VolumeProjectionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.tcpload.operator.crd.ClientCertificate;
import io.tcpload.operator.crd.ConfigMapKey;
import io.tcpload.operator.crd.DataFile;
import io.tcpload.operator.crd.KeySource;
import io.tcpload.operator.crd.RunnerPodSettings;
import io.tcpload.operator.crd.SecretKey;
import io.tcpload.operator.crd.TcpLoadTest;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.operator.crd.TlsSettings;
import io.tcpload.runner.contract.RunnerProtocol;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The children of a test as they should be: a ConfigMap with the inline profile and files, and one
 * Indexed Job of runner pods. Pure: the same test always gives the same objects.
 *
 * <p>The pod mounts one projected volume at {@link RunnerInvocations#PROFILE_DIR} that joins the
 * inline ConfigMap with the ConfigMap keys named by {@code profileFrom} and {@code files}, so the
 * operator never copies user ConfigMaps. Pods run as non-root with a read-only root filesystem; the
 * JVM's scratch space ({@code /tmp}) and the results are emptyDirs. The test's {@code spec.runner}
 * lies over the operator's defaults ({@link RunnerPolicy}): extra volumes and mounts come after the
 * operator's own, and no service-account token is mounted.
 */
public final class DesiredResources {
    public static final String NAME_LABEL = "app.kubernetes.io/name";
    public static final String RUNNER_NAME = "tcpload-runner";
    public static final String TEST_LABEL = "tcpload.io/test";

    /**
     * On every child and runner pod: what the operator's informers select, so that they cache
     * nothing else of the cluster.
     */
    public static final String MANAGED_BY_LABEL = "app.kubernetes.io/managed-by";

    public static final String MANAGED_BY = "tcpload-operator";

    /** The label selector of everything the operator made. */
    public static final String MANAGED_SELECTOR = MANAGED_BY_LABEL + "=" + MANAGED_BY;

    /** The container name of the runner, which an init container must not take. */
    public static final String CONTAINER = "runner";

    /** The runner container's port (metrics, stats, start, result), as the PodMonitor names it. */
    public static final String PORT_NAME = "metrics";

    /**
     * The operator's own volumes of the runner pod, which {@code spec.runner.volumes} must not
     * name.
     */
    public static final String PROFILE_VOLUME = "profile";

    public static final String RESULTS_VOLUME = "results";
    public static final String TMP_VOLUME = "tmp";

    /** The files of {@code spec.tls}, present only with it. */
    public static final String TLS_VOLUME = "tcpload-tls";

    /** The JVM's scratch space on the read-only root filesystem. */
    public static final String TMP_DIR = "/tmp";

    /**
     * The operator's own volumes, by name, with their mount paths in the runner container, as
     * {@link #job} mounts them.
     */
    public static final Map<String, String> OWN_MOUNTS =
            orderedMap(
                    PROFILE_VOLUME, RunnerInvocations.PROFILE_DIR,
                    RESULTS_VOLUME, RunnerInvocations.RESULTS_DIR,
                    TMP_VOLUME, TMP_DIR,
                    TLS_VOLUME, RunnerInvocations.TLS_DIR);

    private DesiredResources() {}

    public static String configMapName(TcpLoadTest test) {
        return test.getMetadata().getName() + "-profile";
    }

    public static String jobName(TcpLoadTest test) {
        return test.getMetadata().getName() + "-runners";
    }

    /** The labels of every child and of the runner pods. */
    public static Map<String, String> labels(TcpLoadTest test) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(NAME_LABEL, RUNNER_NAME);
        labels.put(MANAGED_BY_LABEL, MANAGED_BY);
        labels.put(TEST_LABEL, test.getMetadata().getName());
        return labels;
    }

    /** The inline profile (as {@code profile.ini}) and the inline data files. */
    public static ConfigMap configMap(TcpLoadTest test) {
        TcpLoadTestSpec spec = test.getSpec();
        Map<String, String> data = new LinkedHashMap<>();
        if (spec.getProfile() != null) {
            data.put(RunnerInvocations.PROFILE_FILE, spec.getProfile());
        }
        for (DataFile file : spec.getFiles()) {
            if (file.getContent() != null) {
                data.put(file.getName(), file.getContent());
            }
        }
        return new ConfigMapBuilder()
                .withMetadata(childMeta(test, configMapName(test)))
                .withData(data)
                .build();
    }

    /**
     * The runner Job: Indexed, completions = parallelism = runners, no retries (a load test must
     * not silently run twice), pods never restarted.
     *
     * @param defaultImage the runner image used when {@code spec.runner.image} is absent
     */
    public static Job job(TcpLoadTest test, String defaultImage) {
        return job(test, RunnerPolicy.of(defaultImage), RunnerProtocol.DEFAULT_PORT);
    }

    /**
     * The runner Job whose pods serve their control channel on {@code runnerPort}.
     *
     * @param defaultImage the runner image used when {@code spec.runner.image} is absent
     */
    public static Job job(TcpLoadTest test, String defaultImage, int runnerPort) {
        return job(test, RunnerPolicy.of(defaultImage), runnerPort);
    }

    /**
     * The runner Job whose pods have the test's {@code spec.runner} over the operator's defaults
     * ({@link RunnerPolicy#effective}) and serve their control channel on {@code runnerPort}.
     */
    public static Job job(TcpLoadTest test, RunnerPolicy policy, int runnerPort) {
        TcpLoadTestSpec spec = test.getSpec();
        RunnerPodSettings runner = policy.effective(spec.getRunner());
        int runners = RunnerInvocations.pods(spec);
        Map<String, String> podLabels = new LinkedHashMap<>(runner.getLabels());
        podLabels.putAll(labels(test));
        ObjectMeta meta = childMeta(test, jobName(test));
        meta.setAnnotations(RunRecord.annotations(spec));
        return new JobBuilder()
                .withMetadata(meta)
                .withNewSpec()
                .withCompletionMode("Indexed")
                .withCompletions(runners)
                .withParallelism(runners)
                // Each runner its own budget of none: one that crashes, is OOM-killed or evicted
                // fails its index only, and the others run on (backoffLimit: 0 would make the
                // Job controller terminate them all); none is ever replaced, since a replacement
                // would start late, and none before the old pod has ended.
                .withBackoffLimitPerIndex(0)
                .withPodReplacementPolicy("Failed")
                .withTtlSecondsAfterFinished(spec.getTtlSecondsAfterFinished())
                .withNewTemplate()
                .withNewMetadata()
                .withLabels(podLabels)
                .withAnnotations(runner.getAnnotations())
                .endMetadata()
                .withSpec(podSpec(test, runner, runnerPort))
                .endTemplate()
                .endSpec()
                .build();
    }

    /** The runner pod of {@code test}, whose settings over the defaults are {@code runner}. */
    static PodSpec podSpec(TcpLoadTest test, RunnerPodSettings runner, int runnerPort) {
        return new PodSpecBuilder()
                .withRestartPolicy("Never")
                // The runner never calls the API server: no token to steal from it.
                .withAutomountServiceAccountToken(false)
                .withServiceAccountName(runner.getServiceAccountName())
                .withPriorityClassName(runner.getPriorityClassName())
                .withTerminationGracePeriodSeconds(gracePeriodSeconds(runner))
                .withNodeSelector(runner.getNodeSelector())
                .withTolerations(runner.getTolerations())
                .withAffinity(runner.getAffinity())
                .withTopologySpreadConstraints(runner.getTopologySpreadConstraints())
                .withImagePullSecrets(runner.getImagePullSecrets())
                .withSecurityContext(runner.getSecurityContext())
                .withInitContainers(runner.getInitContainers())
                .withContainers(container(test, runner, runnerPort))
                .addNewVolume()
                .withName(PROFILE_VOLUME)
                .withNewProjected()
                .withSources(profileSources(test))
                .endProjected()
                .endVolume()
                .addNewVolume()
                .withName(RESULTS_VOLUME)
                .withNewEmptyDir()
                .endEmptyDir()
                .endVolume()
                .addNewVolume()
                .withName(TMP_VOLUME)
                .withNewEmptyDir()
                .endEmptyDir()
                .endVolume()
                .addAllToVolumes(tlsVolume(test))
                // The test's own, after the operator's (the validator keeps them apart).
                .addAllToVolumes(runner.getVolumes())
                .build();
    }

    private static Container container(TcpLoadTest test, RunnerPodSettings runner, int runnerPort) {
        List<EnvVar> env = new ArrayList<>();
        // The runner binds its control port on the pod's own IP, where the operator calls it.
        env.add(fieldEnv(RunnerProtocol.BIND_HOST_VARIABLE, "status.podIP"));
        env.add(fieldEnv(RunnerProtocol.NAMESPACE_VARIABLE, "metadata.namespace"));
        env.add(new EnvVar(RunnerProtocol.TEST_VARIABLE, test.getMetadata().getName(), null));
        // A process cannot see its pod's grace period: told, a runner given SIGTERM serves its
        // partial result for as long as it may.
        env.add(
                new EnvVar(
                        RunnerProtocol.GRACE_PERIOD_VARIABLE,
                        Long.toString(gracePeriodSeconds(runner)),
                        null));
        env.addAll(runner.getEnv());
        // Last, so that no variable of the spec's replaces it.
        env.add(ControlSecret.tokenVariable(test));
        return new ContainerBuilder()
                .withName(CONTAINER)
                .withImage(runner.getImage())
                .withImagePullPolicy(runner.getImagePullPolicy())
                .withArgs(RunnerInvocations.podArgs(test.getSpec(), runnerPort))
                .withEnvFrom(runner.getEnvFrom())
                .withEnv(env)
                .addNewPort()
                .withName(PORT_NAME)
                .withContainerPort(runnerPort)
                .withProtocol("TCP")
                .endPort()
                .withResources(runner.getResources())
                .withSecurityContext(runner.getContainerSecurityContext())
                // A runner that exits with an error (2 for a bad profile) leaves its last log
                // lines in its terminated state, which the test's status message carries.
                .withTerminationMessagePolicy("FallbackToLogsOnError")
                .addNewVolumeMount()
                .withName(PROFILE_VOLUME)
                .withMountPath(RunnerInvocations.PROFILE_DIR)
                .withReadOnly(true)
                .endVolumeMount()
                .addNewVolumeMount()
                .withName(RESULTS_VOLUME)
                .withMountPath(RunnerInvocations.RESULTS_DIR)
                .endVolumeMount()
                .addNewVolumeMount()
                .withName(TMP_VOLUME)
                .withMountPath(TMP_DIR)
                .endVolumeMount()
                .addAllToVolumeMounts(tlsMount(test))
                .addAllToVolumeMounts(runner.getVolumeMounts())
                .build();
    }

    /**
     * The runner pods' grace period after SIGTERM: the test's, else Kubernetes' default of 30 s,
     * set explicitly so that the pod and the runner's variable agree.
     */
    static long gracePeriodSeconds(RunnerPodSettings runner) {
        Long seconds = runner.getTerminationGracePeriodSeconds();
        return seconds != null ? seconds : DEFAULT_GRACE_PERIOD_SECONDS;
    }

    /** Kubernetes' default {@code terminationGracePeriodSeconds}. */
    public static final long DEFAULT_GRACE_PERIOD_SECONDS = 30;

    private static EnvVar fieldEnv(String name, String fieldPath) {
        return new EnvVarBuilder()
                .withName(name)
                .withNewValueFrom()
                .withNewFieldRef()
                .withFieldPath(fieldPath)
                .endFieldRef()
                .endValueFrom()
                .build();
    }

    /**
     * Our ConfigMap, then profileFrom as profile.ini, then each data file from a ConfigMap or a
     * Secret key: projected, never copied (the operator reads no Secret).
     */
    private static List<VolumeProjection> profileSources(TcpLoadTest test) {
        TcpLoadTestSpec spec = test.getSpec();
        List<VolumeProjection> sources = new ArrayList<>();
        sources.add(
                new VolumeProjectionBuilder()
                        .withNewConfigMap()
                        .withName(configMapName(test))
                        .endConfigMap()
                        .build());
        if (spec.getProfileFrom() != null) {
            spec.getProfileFrom()
                    .configMap()
                    .ifPresent(ref -> sources.add(keyAs(ref, RunnerInvocations.PROFILE_FILE)));
            spec.getProfileFrom()
                    .secret()
                    .ifPresent(ref -> sources.add(keyAs(ref, RunnerInvocations.PROFILE_FILE)));
        }
        for (DataFile file : spec.getFiles()) {
            if (file.getContent() != null) {
                continue;
            }
            if (file.getConfigMapKeyRef() != null) {
                sources.add(keyAs(file.getConfigMapKeyRef(), file.getName()));
            } else if (file.getSecretKeyRef() != null) {
                sources.add(keyAs(file.getSecretKeyRef(), file.getName()));
            }
        }
        return sources;
    }

    /**
     * With {@code spec.tls}, one projected volume of its files under the names the runner's flags
     * give ({@link RunnerInvocations#forPod}): the CA bundle's key, and the client certificate
     * Secret's {@code tls.crt} and {@code tls.key}. The kubelet mounts them; a missing Secret,
     * ConfigMap or key keeps the pod from starting, which fails the test with the reason.
     */
    private static List<Volume> tlsVolume(TcpLoadTest test) {
        TlsSettings tls = test.getSpec().getTls();
        if (tls == null) {
            return List.of();
        }
        List<VolumeProjection> sources = new ArrayList<>();
        KeySource ca = tls.getCa();
        if (ca != null && ca.getConfigMapKeyRef() != null) {
            sources.add(keyAs(ca.getConfigMapKeyRef(), RunnerInvocations.TLS_CA_FILE));
        } else if (ca != null && ca.getSecretKeyRef() != null) {
            sources.add(keyAs(ca.getSecretKeyRef(), RunnerInvocations.TLS_CA_FILE));
        }
        if (tls.getClientCertificate() != null) {
            sources.add(
                    new VolumeProjectionBuilder()
                            .withNewSecret()
                            .withName(tls.getClientCertificate().getSecretName())
                            .withItems(
                                    new KeyToPath(
                                            ClientCertificate.CERTIFICATE_KEY,
                                            null,
                                            RunnerInvocations.TLS_CERT_FILE),
                                    new KeyToPath(
                                            ClientCertificate.KEY_KEY,
                                            null,
                                            RunnerInvocations.TLS_KEY_FILE))
                            .endSecret()
                            .build());
        }
        return List.of(
                new VolumeBuilder()
                        .withName(TLS_VOLUME)
                        .withNewProjected()
                        .withSources(sources)
                        .endProjected()
                        .build());
    }

    private static List<VolumeMount> tlsMount(TcpLoadTest test) {
        if (test.getSpec().getTls() == null) {
            return List.of();
        }
        return List.of(
                new VolumeMountBuilder()
                        .withName(TLS_VOLUME)
                        .withMountPath(RunnerInvocations.TLS_DIR)
                        .withReadOnly(true)
                        .build());
    }

    private static VolumeProjection keyAs(ConfigMapKey ref, String path) {
        return new VolumeProjectionBuilder()
                .withNewConfigMap()
                .withName(ref.getName())
                .withItems(new KeyToPath(ref.getKey(), null, path))
                .endConfigMap()
                .build();
    }

    private static VolumeProjection keyAs(SecretKey ref, String path) {
        return new VolumeProjectionBuilder()
                .withNewSecret()
                .withName(ref.getName())
                .withItems(new KeyToPath(ref.getKey(), null, path))
                .endSecret()
                .build();
    }

    private static ObjectMeta childMeta(TcpLoadTest test, String name) {
        return new ObjectMetaBuilder()
                .withName(name)
                .withNamespace(test.getMetadata().getNamespace())
                .withLabels(labels(test))
                .withOwnerReferences(ownerReference(test))
                .build();
    }

    private static Map<String, String> orderedMap(String... keysAndValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return Collections.unmodifiableMap(map);
    }

    static OwnerReference ownerReference(TcpLoadTest test) {
        return new OwnerReferenceBuilder()
                .withApiVersion(test.getApiVersion())
                .withKind(test.getKind())
                .withName(test.getMetadata().getName())
                .withUid(test.getMetadata().getUid())
                .withController(true)
                .withBlockOwnerDeletion(true)
                .build();
    }
}
