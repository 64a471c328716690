package io.tcpload.operator.kubelet;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapKeySelector;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarSource;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeProjection;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.tcpload.runner.RunnerMain;
import io.tcpload.runner.contract.RunnerInvocation;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

/**
 * Plays the kubelet, the Job controller and the garbage collector for the operator's integration
 * tests, seeing only what they see through the API server (Jobs, Pods, ConfigMaps):
 *
 * <ul>
 *   <li>for each Indexed Job it creates the pods ({@code <job>-<index>-xxxxx}, labels {@code
 *       job-name} and {@code batch.kubernetes.io/job-completion-index}, an owner reference);
 *   <li>each pod gets its own loopback address {@code 127.0.0.N} as {@code status.podIP}, its env
 *       {@code fieldRef}s resolved as a kubelet would and {@code JOB_COMPLETION_INDEX} set;
 *   <li>volumes are materialised in a temporary folder (projected ConfigMaps written out, emptyDirs
 *       empty), and the container's mount paths in its arguments are rewritten to that folder: the
 *       one liberty it takes, since the runner runs in this process, not in a container;
 *   <li>the real runner runs in a thread with the pod's arguments and environment, and pod and Job
 *       status are written as Kubernetes would (Pending, Running and ready, Succeeded or Failed
 *       with a terminated state, exit code and reason; active/succeeded/failed and
 *       Complete/Failed);
 *   <li>the mock API server has no garbage collector: when a Job is deleted, its pods are deleted
 *       and their runners stopped.
 * </ul>
 *
 * <p>Threading: API events and runner exits are handled on one thread of its own, one at a time.
 */
public final class KubeletDouble implements AutoCloseable {
    private static final String INDEX_KEY = "batch.kubernetes.io/job-completion-index";
    private static final String TEST_API_VERSION = "tcpload.io/v1alpha1";

    private final KubernetesClient client;
    private final Path workDir;
    private final ScheduledExecutorService events =
            Executors.newSingleThreadScheduledExecutor(
                    task -> {
                        Thread thread = new Thread(task, "kubelet-double");
                        thread.setDaemon(true);
                        return thread;
                    });
    private final AtomicInteger nextAddress = new AtomicInteger(2);
    private final Map<String, FakePod> pods = new ConcurrentHashMap<>();
    private final Map<String, String> resultsByPod = new ConcurrentHashMap<>();
    private volatile BiFunction<Job, Integer, PodBehaviour> behaviour =
            (job, index) -> PodBehaviour.NORMAL;
    private Watch jobWatch;
    private Watch testWatch;

    public KubeletDouble(KubernetesClient client, Path workDir) {
        this.client = client;
        this.workDir = workDir;
    }

    /** Decides, for each new pod, what happens to it. */
    public KubeletDouble behaving(BiFunction<Job, Integer, PodBehaviour> chooser) {
        this.behaviour = chooser;
        return this;
    }

    public KubeletDouble start() {
        jobWatch =
                client.batch()
                        .v1()
                        .jobs()
                        .inAnyNamespace()
                        .watch(
                                new Watcher<>() {
                                    @Override
                                    public void eventReceived(Action action, Job job) {
                                        events.execute(() -> onJob(action, job));
                                    }

                                    @Override
                                    public void onClose(WatcherException cause) {}
                                });
        testWatch =
                client.genericKubernetesResources(TEST_API_VERSION, "TcpLoadTest")
                        .inAnyNamespace()
                        .watch(
                                new Watcher<>() {
                                    @Override
                                    public void eventReceived(
                                            Action action, GenericKubernetesResource test) {
                                        if (action == Action.DELETED) {
                                            events.execute(() -> collectOwnedBy(test));
                                        }
                                    }

                                    @Override
                                    public void onClose(WatcherException cause) {}
                                });
        return this;
    }

    /** The JSON result each finished runner wrote with {@code --json}, by pod name. */
    public Map<String, String> results() {
        return Map.copyOf(resultsByPod);
    }

    /** What a pod's runner printed on stderr so far. */
    public String stderr(String podName) {
        FakePod pod = pods.get(podName);
        return pod == null ? "" : pod.err.toString(StandardCharsets.UTF_8);
    }

    /** The runner threads still alive. */
    public long runningRunners() {
        return pods.values().stream()
                .filter(pod -> pod.thread != null && pod.thread.isAlive())
                .count();
    }

    private void onJob(Watcher.Action action, Job job) {
        try {
            switch (action) {
                case ADDED -> createPods(job);
                case DELETED -> {
                    collectGarbage(job);
                    collectOwnedBy(job);
                }
                default -> {}
            }
        } catch (RuntimeException e) {
            // A test double that dies silently hides the cause; say it.
            e.printStackTrace();
        }
    }

    private void createPods(Job job) {
        int completions = job.getSpec().getCompletions();
        for (int index = 0; index < completions; index++) {
            PodBehaviour chosen = behaviour.apply(job, index);
            if (chosen.refusal() != null) {
                // Admission said no: the Job controller says so only in an event on the Job.
                recordEvent(
                        job,
                        "Job",
                        job.getMetadata().getName(),
                        "FailedCreate",
                        "Error creating: pods \""
                                + job.getMetadata().getName()
                                + "-"
                                + index
                                + "-"
                                + randomSuffix()
                                + "\" is forbidden: "
                                + chosen.refusal());
                continue;
            }
            Pod pod =
                    client.pods().inNamespace(namespace(job)).resource(newPod(job, index)).create();
            FakePod fake = new FakePod(job, index, pod, chosen);
            pods.put(pod.getMetadata().getName(), fake);
            events.schedule(() -> startPod(fake), 20, TimeUnit.MILLISECONDS);
        }
        writeJobStatus(job);
    }

    private Pod newPod(Job job, int index) {
        String suffix = randomSuffix();
        Map<String, String> labels =
                new LinkedHashMap<>(nonNull(job.getSpec().getTemplate().getMetadata().getLabels()));
        labels.put("job-name", job.getMetadata().getName());
        labels.put(INDEX_KEY, Integer.toString(index));
        Map<String, String> annotations =
                new LinkedHashMap<>(
                        nonNull(job.getSpec().getTemplate().getMetadata().getAnnotations()));
        annotations.put(INDEX_KEY, Integer.toString(index));
        return new PodBuilder()
                .withNewMetadata()
                .withName(job.getMetadata().getName() + "-" + index + "-" + suffix)
                .withNamespace(namespace(job))
                .withLabels(labels)
                .withAnnotations(annotations)
                .withOwnerReferences(
                        new OwnerReferenceBuilder()
                                .withApiVersion("batch/v1")
                                .withKind("Job")
                                .withName(job.getMetadata().getName())
                                .withUid(job.getMetadata().getUid())
                                .withController(true)
                                .build())
                .endMetadata()
                .withSpec(job.getSpec().getTemplate().getSpec())
                .withStatus(new PodStatusBuilder().withPhase("Pending").build())
                .build();
    }

    private void startPod(FakePod fake) {
        if (fake.deleted) {
            return;
        }
        List<String> unmountable = unmountable(fake);
        if (!unmountable.isEmpty()) {
            writePodStatus(fake, waiting(fake, "ContainerCreating", null));
            for (String problem : unmountable) {
                recordEvent(fake.job, "Pod", fake.name(), "FailedMount", problem);
            }
            return;
        }
        Optional<String> configError = environmentProblem(fake);
        if (configError.isPresent()) {
            // The kubelet keeps retrying such a container, which waits with this reason.
            writePodStatus(fake, waiting(fake, "CreateContainerConfigError", configError.get()));
            return;
        }
        if (fake.behaviour.neverReadyReason() != null) {
            writePodStatus(
                    fake,
                    waiting(
                            fake,
                            fake.behaviour.neverReadyReason(),
                            "Back-off pulling image \"" + container(fake).getImage() + "\""));
            return;
        }
        fake.podIp = "127.0.0." + nextAddress.getAndIncrement();
        List<String> args;
        Map<String, String> env;
        try {
            Map<String, Path> mounts = materialise(fake);
            args = rewrite(container(fake).getArgs(), mounts);
            env = environment(fake);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        writePodStatus(fake, running(fake));
        Thread thread =
                new Thread(
                        () -> {
                            int code;
                            try (PrintStream out =
                                            new PrintStream(
                                                    fake.out, true, StandardCharsets.UTF_8);
                                    PrintStream err =
                                            new PrintStream(
                                                    fake.err, true, StandardCharsets.UTF_8)) {
                                code =
                                        RunnerMain.execute(
                                                out, err, env::get, args.toArray(String[]::new));
                            }
                            events.execute(() -> onExit(fake, code));
                        },
                        "runner-" + fake.name());
        thread.setDaemon(true);
        fake.thread = thread;
        thread.start();
        if (fake.behaviour.killAfter() != null) {
            events.schedule(
                    () -> {
                        fake.killed = true;
                        thread.interrupt();
                    },
                    fake.behaviour.killAfter().toMillis(),
                    TimeUnit.MILLISECONDS);
        }
    }

    private void onExit(FakePod fake, int exitCode) {
        Path result = fake.resultFile;
        if (result != null && Files.exists(result)) {
            try {
                resultsByPod.put(fake.name(), Files.readString(result));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        if (fake.deleted) {
            return;
        }
        boolean succeeded = exitCode == 0 && !fake.killed;
        int code = fake.killed ? 137 : exitCode;
        String reason =
                fake.killed ? fake.behaviour.killReason() : succeeded ? "Completed" : "Error";
        String now = Instant.now().toString();
        ContainerStatus status =
                new ContainerStatusBuilder()
                        .withName(container(fake).getName())
                        .withReady(false)
                        .withNewState()
                        .withNewTerminated()
                        .withExitCode(code)
                        .withReason(reason)
                        .withMessage(terminationMessage(fake, succeeded))
                        .withFinishedAt(now)
                        .endTerminated()
                        .endState()
                        .build();
        writePodStatus(
                fake,
                new PodStatusBuilder()
                        .withPhase(succeeded ? "Succeeded" : "Failed")
                        .withPodIP(fake.podIp)
                        .withContainerStatuses(status)
                        .build());
        fake.finished = succeeded ? 1 : -1;
        writeJobStatus(fake.job);
    }

    /** A pending pod whose container waits for {@code reason}. */
    private PodStatus waiting(FakePod fake, String reason, String message) {
        return new PodStatusBuilder()
                .withPhase("Pending")
                .withContainerStatuses(
                        new ContainerStatusBuilder()
                                .withName(container(fake).getName())
                                .withReady(false)
                                .withNewState()
                                .withNewWaiting()
                                .withReason(reason)
                                .withMessage(message)
                                .endWaiting()
                                .endState()
                                .build())
                .build();
    }

    /**
     * What the kubelet puts in {@code terminated.message}: the file {@code terminationMessagePath},
     * which the runner never writes, so nothing; with {@code FallbackToLogsOnError} and a failed
     * container, the tail of its log instead, at most the last 80 lines and 2,048 bytes. The log
     * here is stdout then stderr, where a runtime interleaves them as they were written; the
     * runner's errors are the last lines either way.
     */
    private String terminationMessage(FakePod fake, boolean succeeded) {
        if (succeeded
                || !"FallbackToLogsOnError".equals(container(fake).getTerminationMessagePolicy())) {
            return null;
        }
        byte[] log =
                (fake.out.toString(StandardCharsets.UTF_8)
                                + fake.err.toString(StandardCharsets.UTF_8))
                        .getBytes(StandardCharsets.UTF_8);
        int from = Math.max(0, log.length - 2048);
        int lines = 0;
        for (int i = log.length - 1; i >= from; i--) {
            if (log[i] == '\n' && i < log.length - 1 && ++lines == 80) {
                from = i + 1;
                break;
            }
        }
        String tail = new String(log, from, log.length - from, StandardCharsets.UTF_8);
        return tail.isBlank() ? null : tail;
    }

    private PodStatus running(FakePod fake) {
        return new PodStatusBuilder()
                .withPhase("Running")
                .withPodIP(fake.podIp)
                .withStartTime(Instant.now().toString())
                .addNewCondition()
                .withType("Ready")
                .withStatus("True")
                .endCondition()
                .withContainerStatuses(
                        new ContainerStatusBuilder()
                                .withName(container(fake).getName())
                                .withReady(true)
                                .withStarted(true)
                                .withNewState()
                                .withNewRunning()
                                .withStartedAt(Instant.now().toString())
                                .endRunning()
                                .endState()
                                .build())
                .build();
    }

    /** Each volume in a folder of its own; returns mount path to folder. */
    private Map<String, Path> materialise(FakePod fake) throws IOException {
        Path podDir = Files.createDirectories(workDir.resolve(fake.name()));
        Map<String, Path> byVolume = new HashMap<>();
        for (Volume volume : fake.pod.getSpec().getVolumes()) {
            Path dir = Files.createDirectories(podDir.resolve(volume.getName()));
            byVolume.put(volume.getName(), dir);
            if (volume.getProjected() != null) {
                for (VolumeProjection source : volume.getProjected().getSources()) {
                    if (source.getSecret() != null) {
                        writeSecret(
                                fake,
                                source.getSecret().getName(),
                                source.getSecret().getItems(),
                                dir);
                    } else if (source.getConfigMap() != null) {
                        writeConfigMap(
                                fake,
                                source.getConfigMap().getName(),
                                source.getConfigMap().getItems(),
                                dir);
                    }
                }
            }
        }
        Map<String, Path> mounts = new LinkedHashMap<>();
        for (VolumeMount mount : container(fake).getVolumeMounts()) {
            mounts.put(mount.getMountPath(), byVolume.get(mount.getName()));
        }
        return mounts;
    }

    /**
     * What a pod's volumes name that does not exist: the kubelet cannot mount such a volume, and
     * the pod waits in ContainerCreating, said only in its FailedMount events.
     */
    private List<String> unmountable(FakePod fake) {
        List<String> problems = new ArrayList<>();
        for (Volume volume : fake.pod.getSpec().getVolumes()) {
            if (volume.getProjected() == null) {
                continue;
            }
            for (VolumeProjection source : volume.getProjected().getSources()) {
                String kind = null;
                String name = null;
                boolean exists = true;
                if (source.getConfigMap() != null
                        && !Boolean.TRUE.equals(source.getConfigMap().getOptional())) {
                    kind = "configmap";
                    name = source.getConfigMap().getName();
                    exists =
                            client.configMaps()
                                            .inNamespace(namespace(fake.job))
                                            .withName(name)
                                            .get()
                                    != null;
                } else if (source.getSecret() != null
                        && !Boolean.TRUE.equals(source.getSecret().getOptional())) {
                    kind = "secret";
                    name = source.getSecret().getName();
                    exists =
                            client.secrets().inNamespace(namespace(fake.job)).withName(name).get()
                                    != null;
                }
                if (exists && kind != null) {
                    // Items naming a key the source lacks fail the mount as a missing source does.
                    Map<String, byte[]> keys =
                            kind.equals("secret")
                                    ? secretKeys(fake, name)
                                    : configMapKeys(fake, name);
                    List<KeyToPath> items =
                            kind.equals("secret")
                                    ? source.getSecret().getItems()
                                    : source.getConfigMap().getItems();
                    for (KeyToPath item : nonNull(items)) {
                        if (!keys.containsKey(item.getKey())) {
                            problems.add(
                                    "MountVolume.SetUp failed for volume \""
                                            + volume.getName()
                                            + "\" : "
                                            + (kind.equals("secret")
                                                    ? "references non-existent secret key: "
                                                    : "configmap references non-existent config"
                                                            + " key: ")
                                            + item.getKey());
                        }
                    }
                }
                if (!exists) {
                    problems.add(
                            "MountVolume.SetUp failed for volume \""
                                    + volume.getName()
                                    + "\" : "
                                    + kind
                                    + " \""
                                    + name
                                    + "\" not found");
                }
            }
        }
        return problems;
    }

    /** An event as the Job controller or the kubelet records it. */
    private void recordEvent(
            Job job, String kind, String involvedName, String reason, String message) {
        String now = Instant.now().toString();
        client.v1()
                .events()
                .inNamespace(namespace(job))
                .resource(
                        new EventBuilder()
                                .withNewMetadata()
                                .withName(involvedName + "." + randomSuffix() + randomSuffix())
                                .withNamespace(namespace(job))
                                .endMetadata()
                                .withNewInvolvedObject()
                                .withKind(kind)
                                .withName(involvedName)
                                .withNamespace(namespace(job))
                                .endInvolvedObject()
                                .withReason(reason)
                                .withMessage(message)
                                .withType("Warning")
                                .withFirstTimestamp(now)
                                .withLastTimestamp(now)
                                .withCount(1)
                                .build())
                .create();
    }

    private void writeConfigMap(FakePod fake, String name, List<KeyToPath> items, Path dir)
            throws IOException {
        writeKeys(configMapKeys(fake, name), items, dir);
    }

    private void writeSecret(FakePod fake, String name, List<KeyToPath> items, Path dir)
            throws IOException {
        writeKeys(secretKeys(fake, name), items, dir);
    }

    /** Every key of the ConfigMap as its bytes, {@code data} as UTF-8 and {@code binaryData}. */
    private Map<String, byte[]> configMapKeys(FakePod fake, String name) {
        ConfigMap map = client.configMaps().inNamespace(namespace(fake.job)).withName(name).get();
        Map<String, byte[]> keys = new LinkedHashMap<>();
        if (map == null) {
            return keys;
        }
        nonNull(map.getData())
                .forEach((key, text) -> keys.put(key, text.getBytes(StandardCharsets.UTF_8)));
        nonNull(map.getBinaryData())
                .forEach((key, base64) -> keys.put(key, Base64.getDecoder().decode(base64)));
        return keys;
    }

    /**
     * Every key of the Secret as its bytes. Only {@code data}: the API server folds {@code
     * stringData} into it on write and never returns it, so a Secret read back from a real server
     * has none (the mock server keeps it, which would make the double kinder than a cluster).
     */
    private Map<String, byte[]> secretKeys(FakePod fake, String name) {
        Secret secret = client.secrets().inNamespace(namespace(fake.job)).withName(name).get();
        Map<String, byte[]> keys = new LinkedHashMap<>();
        if (secret != null) {
            nonNull(secret.getData())
                    .forEach((key, base64) -> keys.put(key, Base64.getDecoder().decode(base64)));
        }
        return keys;
    }

    private static void writeKeys(Map<String, byte[]> keys, List<KeyToPath> items, Path dir)
            throws IOException {
        if (items == null || items.isEmpty()) {
            for (Map.Entry<String, byte[]> entry : keys.entrySet()) {
                Files.write(dir.resolve(entry.getKey()), entry.getValue());
            }
        } else {
            for (KeyToPath item : items) {
                byte[] value = keys.get(item.getKey());
                if (value != null) {
                    Files.write(dir.resolve(item.getPath()), value);
                }
            }
        }
    }

    /**
     * Why the kubelet cannot make the container's environment: a variable from a ConfigMap or
     * Secret, or a key of one, that does not exist (and is not optional).
     */
    private Optional<String> environmentProblem(FakePod fake) {
        for (EnvVar variable : nonNull(container(fake).getEnv())) {
            EnvVarSource from = variable.getValueFrom();
            if (from == null) {
                continue;
            }
            if (from.getSecretKeyRef() != null
                    && !Boolean.TRUE.equals(from.getSecretKeyRef().getOptional())) {
                SecretKeySelector ref = from.getSecretKeyRef();
                if (client.secrets().inNamespace(namespace(fake.job)).withName(ref.getName()).get()
                        == null) {
                    return Optional.of("secret \"" + ref.getName() + "\" not found");
                }
                if (!secretKeys(fake, ref.getName()).containsKey(ref.getKey())) {
                    return Optional.of(
                            "couldn't find key "
                                    + ref.getKey()
                                    + " in Secret "
                                    + namespace(fake.job)
                                    + "/"
                                    + ref.getName());
                }
            }
            if (from.getConfigMapKeyRef() != null
                    && !Boolean.TRUE.equals(from.getConfigMapKeyRef().getOptional())) {
                ConfigMapKeySelector ref = from.getConfigMapKeyRef();
                if (client.configMaps()
                                .inNamespace(namespace(fake.job))
                                .withName(ref.getName())
                                .get()
                        == null) {
                    return Optional.of("configmap \"" + ref.getName() + "\" not found");
                }
                if (!configMapKeys(fake, ref.getName()).containsKey(ref.getKey())) {
                    return Optional.of(
                            "couldn't find key "
                                    + ref.getKey()
                                    + " in ConfigMap "
                                    + namespace(fake.job)
                                    + "/"
                                    + ref.getName());
                }
            }
        }
        return Optional.empty();
    }

    private List<String> rewrite(List<String> args, Map<String, Path> mounts) {
        List<String> rewritten = new ArrayList<>();
        for (String arg : args) {
            String value = arg;
            for (Map.Entry<String, Path> mount : mounts.entrySet()) {
                if (mount.getKey().equals("/tmp")) {
                    continue;
                }
                value = value.replace(mount.getKey(), mount.getValue().toString());
            }
            rewritten.add(value);
        }
        return rewritten;
    }

    private Map<String, String> environment(FakePod fake) {
        Map<String, String> env = new HashMap<>();
        env.put("JOB_COMPLETION_INDEX", Integer.toString(fake.index));
        for (EnvVar variable : nonNull(container(fake).getEnv())) {
            if (variable.getValue() != null) {
                env.put(variable.getName(), variable.getValue());
            } else if (variable.getValueFrom() != null
                    && variable.getValueFrom().getFieldRef() != null) {
                String path = variable.getValueFrom().getFieldRef().getFieldPath();
                env.put(variable.getName(), field(fake, path));
            } else if (variable.getValueFrom() != null
                    && variable.getValueFrom().getSecretKeyRef() != null) {
                SecretKeySelector ref = variable.getValueFrom().getSecretKeyRef();
                byte[] value = secretKeys(fake, ref.getName()).get(ref.getKey());
                if (value != null) {
                    env.put(variable.getName(), new String(value, StandardCharsets.UTF_8));
                }
            } else if (variable.getValueFrom() != null
                    && variable.getValueFrom().getConfigMapKeyRef() != null) {
                ConfigMapKeySelector ref = variable.getValueFrom().getConfigMapKeyRef();
                byte[] value = configMapKeys(fake, ref.getName()).get(ref.getKey());
                if (value != null) {
                    env.put(variable.getName(), new String(value, StandardCharsets.UTF_8));
                }
            }
        }
        String results =
                RunnerInvocation.parse(container(fake).getArgs())
                        .outputs()
                        .json()
                        .map(Path::toString)
                        .orElse(null);
        if (results != null) {
            for (VolumeMount mount : container(fake).getVolumeMounts()) {
                if (results.startsWith(mount.getMountPath() + "/")) {
                    fake.resultFile =
                            workDir.resolve(fake.name())
                                    .resolve(mount.getName())
                                    .resolve(results.substring(mount.getMountPath().length() + 1));
                }
            }
        }
        return env;
    }

    private static String field(FakePod fake, String path) {
        return switch (path) {
            case "status.podIP" -> fake.podIp;
            case "metadata.name" -> fake.name();
            case "metadata.namespace" -> namespace(fake.job);
            case "metadata.annotations['" + INDEX_KEY + "']",
                    "metadata.labels['" + INDEX_KEY + "']" ->
                    Integer.toString(fake.index);
            default ->
                    throw new IllegalArgumentException("the kubelet double cannot resolve " + path);
        };
    }

    private void writePodStatus(FakePod fake, PodStatus status) {
        try {
            client.pods()
                    .inNamespace(namespace(fake.job))
                    .withName(fake.name())
                    .editStatus(
                            pod -> {
                                pod.setStatus(status);
                                return pod;
                            });
        } catch (KubernetesClientException e) {
            // The pod was deleted meanwhile.
        }
    }

    private void writeJobStatus(Job job) {
        int active = 0;
        int succeeded = 0;
        int failed = 0;
        for (FakePod fake : pods.values()) {
            if (!fake.job.getMetadata().getUid().equals(job.getMetadata().getUid())
                    || fake.deleted) {
                continue;
            }
            if (fake.finished > 0) {
                succeeded++;
            } else if (fake.finished < 0) {
                failed++;
            } else {
                active++;
            }
        }
        JobStatus status = new JobStatus();
        status.setActive(active);
        status.setSucceeded(succeeded);
        status.setFailed(failed);
        String now = Instant.now().toString();
        if (failed > 0) {
            status.setConditions(List.of(condition("Failed", "BackoffLimitExceeded", now)));
        } else if (succeeded == job.getSpec().getCompletions()) {
            status.setConditions(List.of(condition("Complete", null, now)));
            status.setCompletionTime(now);
        }
        try {
            client.batch()
                    .v1()
                    .jobs()
                    .inNamespace(namespace(job))
                    .withName(job.getMetadata().getName())
                    .editStatus(
                            current -> {
                                current.setStatus(status);
                                return current;
                            });
        } catch (KubernetesClientException e) {
            // Deleted meanwhile.
        }
    }

    private static JobCondition condition(String type, String reason, String now) {
        JobCondition condition = new JobCondition();
        condition.setType(type);
        condition.setStatus("True");
        condition.setReason(reason);
        condition.setLastTransitionTime(now);
        return condition;
    }

    /**
     * The garbage collector, for every kind the operator's children come in: what names a deleted
     * object in its owner references goes too (background propagation), and so on down, as a
     * deleted Job's pods do.
     */
    private void collectOwnedBy(HasMetadata owner) {
        String uid = owner.getMetadata().getUid();
        String namespace = owner.getMetadata().getNamespace();
        List<List<? extends HasMetadata>> dependents =
                List.of(
                        client.batch().v1().jobs().inNamespace(namespace).list().getItems(),
                        client.configMaps().inNamespace(namespace).list().getItems(),
                        client.secrets().inNamespace(namespace).list().getItems(),
                        client.pods().inNamespace(namespace).list().getItems());
        for (List<? extends HasMetadata> kind : dependents) {
            for (HasMetadata dependent : kind) {
                boolean owned =
                        nonNull(dependent.getMetadata().getOwnerReferences()).stream()
                                .anyMatch(ref -> uid.equals(ref.getUid()));
                if (owned) {
                    try {
                        client.resource(dependent).delete();
                    } catch (KubernetesClientException e) {
                        // Gone meanwhile.
                    }
                }
            }
        }
    }

    /** The kubelet's part of a deletion: a deleted Job's pods' runners stop at once. */
    private void collectGarbage(Job job) {
        for (FakePod fake : pods.values()) {
            if (fake.job.getMetadata().getUid().equals(job.getMetadata().getUid())
                    && !fake.deleted) {
                fake.deleted = true;
                if (fake.thread != null) {
                    fake.thread.interrupt();
                }
                client.pods().inNamespace(namespace(job)).withName(fake.name()).delete();
            }
        }
    }

    private static Container container(FakePod fake) {
        return fake.pod.getSpec().getContainers().get(0);
    }

    private static String namespace(Job job) {
        return job.getMetadata().getNamespace();
    }

    private static String randomSuffix() {
        String letters = "bcdfghjklmnpqrstvwxz2456789";
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            text.append(letters.charAt(ThreadLocalRandom.current().nextInt(letters.length())));
        }
        return text.toString().toLowerCase(Locale.ROOT);
    }

    private static <K, V> Map<K, V> nonNull(Map<K, V> map) {
        return map == null ? Map.of() : map;
    }

    private static <T> List<T> nonNull(List<T> list) {
        return list == null ? List.of() : list;
    }

    /** Stops every runner and the watch. */
    @Override
    public void close() {
        if (jobWatch != null) {
            jobWatch.close();
        }
        if (testWatch != null) {
            testWatch.close();
        }
        for (FakePod fake : pods.values()) {
            fake.deleted = true;
            if (fake.thread != null) {
                fake.thread.interrupt();
            }
        }
        for (FakePod fake : pods.values()) {
            if (fake.thread != null) {
                try {
                    fake.thread.join(10_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        events.shutdownNow();
    }

    /** One pod's life. Fields are written on the double's thread, read from tests. */
    private static final class FakePod {
        final Job job;
        final int index;
        final Pod pod;
        final PodBehaviour behaviour;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        volatile String podIp;
        volatile Thread thread;
        volatile boolean killed;
        volatile boolean deleted;
        volatile Path resultFile;
        volatile int finished;

        FakePod(Job job, int index, Pod pod, PodBehaviour behaviour) {
            this.job = job;
            this.index = index;
            this.pod = pod;
            this.behaviour = behaviour;
        }

        String name() {
            return pod.getMetadata().getName();
        }
    }
}
