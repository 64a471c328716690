package io.tcpload.operator.kubelet;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapKeySelector;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarSource;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
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
import io.tcpload.operator.children.RunnerInvocations;
import io.tcpload.runner.RunnerMain;
import io.tcpload.runner.contract.RunnerInvocation;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
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
import java.util.regex.Pattern;

/**
 * Plays the kubelet, the Job controller and the garbage collector for the operator's integration
 * tests, seeing only what they see through the API server (Jobs, Pods, ConfigMaps):
 *
 * <ul>
 *   <li>for each Indexed Job it creates the pods ({@code <job>-<index>-xxxxx}, labels {@code
 *       job-name} and {@code batch.kubernetes.io/job-completion-index}, an owner reference);
 *   <li>each pod gets its own loopback address {@code 127.0.0.N} as {@code status.podIP}, its env
 *       {@code fieldRef}s resolved as a kubelet would and {@code JOB_COMPLETION_INDEX} set;
 *   <li>volumes are materialised in a temporary folder (projected ConfigMaps, ConfigMap and Secret
 *       volumes written out, emptyDirs empty; any other type fails the double loudly), and the
 *       container's mount paths in its arguments are rewritten to that folder: the one liberty it
 *       takes, since the runner runs in this process, not in a container. A ConfigMap or Secret a
 *       volume names that does not exist (and is not optional) leaves the pod in ContainerCreating
 *       with FailedMount events, as the kubelet does;
 *   <li>{@code envFrom} ConfigMaps and Secrets become variables (with their prefix; keys that are
 *       no variable names skipped), under {@code env}; one that does not exist (and is not
 *       optional) stops the container in {@code CreateContainerConfigError}, as the kubelet does;
 *   <li>init containers are not run (they are images): they are reported completed, and native
 *       sidecars ({@code restartPolicy: Always}) running;
 *   <li>the real runner runs in a thread with the pod's arguments and environment, and pod and Job
 *       status are written as Kubernetes would (Pending, Running and ready, Succeeded or Failed
 *       with a terminated state, exit code and reason; active/succeeded/failed and
 *       Complete/Failed); a container with {@code terminationMessagePolicy: FallbackToLogsOnError}
 *       that fails gets the tail of its log as its termination message (at most 80 lines and 2,048
 *       bytes), as the kubelet gives it, unless the runner wrote its termination message file
 *       ({@code /dev/termination-log}, a file of the pod's folder here), whose first 4 KiB are its
 *       message whatever the exit code;
 *   <li>the mock API server has no garbage collector: when a Job is deleted, its pods are deleted
 *       and their runners stopped.
 * </ul>
 *
 * <p>Threading: API events and runner exits are handled on one thread of its own, one at a time.
 */
public final class KubeletDouble implements AutoCloseable {
    private static final String INDEX_KEY = "batch.kubernetes.io/job-completion-index";
    private static final String TEST_API_VERSION = "tcpload.io/v1alpha1";
    private static final String JOB_TRACKING = "batch.kubernetes.io/job-tracking";

    /** What the kubelet takes as a variable name from an envFrom key (with its prefix). */
    private static final Pattern ENV_NAME = Pattern.compile("[-._a-zA-Z][-._a-zA-Z0-9]*");

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

    /** The environment a pod's runner was started with; empty before it started. */
    public Map<String, String> environment(String podName) {
        FakePod pod = pods.get(podName);
        return pod == null || pod.environment == null ? Map.of() : Map.copyOf(pod.environment);
    }

    /** The folder a pod's volume was materialised in. */
    public Path volumeDir(String podName, String volumeName) {
        return workDir.resolve(podName).resolve(volumeName);
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
            createPod(job, index);
        }
        writeJobStatus(job);
    }

    /** The Job controller creates the index's pod, or says in an event why it cannot. */
    private void createPod(Job job, int index) {
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
            return;
        }
        Pod pod = client.pods().inNamespace(namespace(job)).resource(newPod(job, index)).create();
        FakePod fake = new FakePod(job, index, pod, chosen);
        pods.put(pod.getMetadata().getName(), fake);
        events.schedule(() -> startPod(fake), 20, TimeUnit.MILLISECONDS);
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
                // The Job controller's: it counts a pod's end before the pod may go.
                .withFinalizers(JOB_TRACKING)
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
        if (fake.deleted || fake.terminating) {
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
        Optional<String> configError = missingEnvSource(fake).or(() -> environmentProblem(fake));
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
            args = terminationLog(fake, rewrite(container(fake).getArgs(), mounts));
            env = environment(fake);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        fake.environment = env;
        writePodStatus(fake, running(fake));
        if (fake.behaviour.asProcess()) {
            startProcess(fake, args, env);
        } else {
            startThread(fake, args, env);
        }
        if (fake.behaviour.killAfter() != null) {
            events.schedule(
                    () -> killOutOfMemory(fake),
                    fake.behaviour.killAfter().toMillis(),
                    TimeUnit.MILLISECONDS);
        }
    }

    /** The runner in a thread of this JVM: quick, but it can get no signal. */
    private void startThread(FakePod fake, List<String> args, Map<String, String> env) {
        Thread thread =
                new Thread(
                        () -> {
                            int code;
                            // One log, as the container runtime keeps stdout and stderr.
                            try (PrintStream out =
                                            new PrintStream(
                                                    new Tee(fake.out, fake.log),
                                                    true,
                                                    StandardCharsets.UTF_8);
                                    PrintStream err =
                                            new PrintStream(
                                                    new Tee(fake.err, fake.log),
                                                    true,
                                                    StandardCharsets.UTF_8)) {
                                code =
                                        RunnerMain.execute(
                                                out,
                                                err,
                                                env::get,
                                                // The node's own wall clock.
                                                Clock.offset(
                                                        Clock.systemUTC(),
                                                        fake.behaviour.clockOffset()),
                                                args.toArray(String[]::new));
                            }
                            events.execute(() -> onExit(fake, code));
                        },
                        "runner-" + fake.name());
        thread.setDaemon(true);
        fake.thread = thread;
        thread.start();
    }

    /**
     * The runner as a process of its own, with only the pod's environment, so that it gets real
     * signals: SIGTERM on deletion, SIGKILL at the end of the grace period or for an OOM kill,
     * SIGSTOP for a lost node.
     */
    private void startProcess(FakePod fake, List<String> args, Map<String, String> env) {
        List<String> command =
                new ArrayList<>(
                        List.of(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                "-XX:TieredStopAtLevel=1",
                                "-XX:+UseSerialGC",
                                "-Xmx256m",
                                "-cp",
                                System.getProperty("java.class.path"),
                                RunnerMain.class.getName()));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().clear();
        builder.environment().putAll(env);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        fake.process = process;
        Thread out = pump(process.getInputStream(), new Tee(fake.out, fake.log), fake);
        Thread err = pump(process.getErrorStream(), new Tee(fake.err, fake.log), fake);
        Thread waiter =
                new Thread(
                        () -> {
                            int code;
                            try {
                                code = process.waitFor();
                                out.join(5_000);
                                err.join(5_000);
                            } catch (InterruptedException e) {
                                process.destroyForcibly();
                                return;
                            }
                            events.execute(() -> onExit(fake, code));
                        },
                        "runner-" + fake.name());
        waiter.setDaemon(true);
        fake.thread = waiter;
        waiter.start();
    }

    private static Thread pump(java.io.InputStream from, OutputStream to, FakePod fake) {
        Thread thread =
                new Thread(
                        () -> {
                            try (from) {
                                from.transferTo(to);
                            } catch (IOException e) {
                                // The process ended.
                            }
                        },
                        "log-" + fake.name());
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** The kernel's OOM killer: SIGKILL, no SIGTERM first; the kubelet says OOMKilled. */
    private void killOutOfMemory(FakePod fake) {
        fake.killed = true;
        if (fake.process != null) {
            fake.process.destroyForcibly();
        } else if (fake.thread != null) {
            fake.thread.interrupt();
        }
    }

    /**
     * A pod's graceful deletion, as the API server and the kubelet carry it out: the pod gets its
     * deletion timestamp (and, for an eviction or preemption, the {@code DisruptionTarget}
     * condition) and stays Running at its IP; its runner gets SIGTERM, then SIGKILL at the end of
     * {@code terminationGracePeriodSeconds}; once it has ended, the pod's final status is written
     * and the pod goes. A runner in a thread can get no signal: it is stopped at once.
     */
    private void terminate(FakePod fake, String disruption) {
        if (fake.terminating || fake.deleted) {
            return;
        }
        fake.terminating = true;
        Long grace = fake.pod.getSpec().getTerminationGracePeriodSeconds();
        long graceSeconds = grace == null ? 30 : grace;
        String now = Instant.now().toString();
        try {
            // Its finalizer keeps it, with a deletion timestamp, until its end is counted.
            client.pods()
                    .inNamespace(namespace(fake.job))
                    .withName(fake.name())
                    .withGracePeriod(graceSeconds)
                    .delete();
            if (disruption != null) {
                client.pods()
                        .inNamespace(namespace(fake.job))
                        .withName(fake.name())
                        .editStatus(
                                pod -> {
                                    pod.getStatus()
                                            .getConditions()
                                            .add(
                                                    new PodConditionBuilder()
                                                            .withType("DisruptionTarget")
                                                            .withStatus("True")
                                                            .withReason(disruption)
                                                            .withLastTransitionTime(now)
                                                            .build());
                                    return pod;
                                });
            }
        } catch (KubernetesClientException e) {
            // Gone meanwhile.
        }
        fake.disruption = disruption;
        if (fake.finished != 0) {
            // Its runner has ended already: the pod just goes.
            removePod(fake);
            return;
        }
        if (fake.frozen) {
            // A lost node sends nothing: the pod stays Terminating until the node returns.
            return;
        }
        if (fake.process != null) {
            fake.process.destroy();
            events.schedule(
                    () -> {
                        if (fake.process.isAlive()) {
                            fake.process.destroyForcibly();
                        }
                    },
                    graceSeconds,
                    TimeUnit.SECONDS);
        } else if (fake.thread != null) {
            fake.killed = true;
            fake.thread.interrupt();
        } else {
            // It never started: nothing to signal.
            removePod(fake);
        }
    }

    /** The pod object goes once its containers have ended. */
    private void removePod(FakePod fake) {
        fake.deleted = true;
        try {
            client.pods()
                    .inNamespace(namespace(fake.job))
                    .withName(fake.name())
                    .edit(
                            pod -> {
                                pod.getMetadata().setFinalizers(List.of());
                                return pod;
                            });
            client.pods().inNamespace(namespace(fake.job)).withName(fake.name()).delete();
        } catch (KubernetesClientException e) {
            // Gone meanwhile.
        }
        writeJobStatus(fake.job);
    }

    /** Evicts the pod (a drain, the Eviction API) with its grace period. */
    public void evict(String podName) {
        FakePod fake = pod(podName);
        events.execute(() -> terminate(fake, "EvictionByEvictionAPI"));
    }

    /** Deletes the pod as {@code kubectl delete pod} does: gracefully, with no disruption. */
    public void deletePod(String podName) {
        FakePod fake = pod(podName);
        events.execute(() -> terminate(fake, null));
    }

    /**
     * The pod's node is lost: its runner stops answering (SIGSTOP: no signal it can catch, its
     * results unreachable) while its pod looks as it was; after {@code untilTerminating} (about
     * five minutes in a cluster, from the default tolerations) the node controller has the pod
     * deleted, and it stays Terminating, since no kubelet confirms.
     */
    public void loseNode(String podName, Duration untilTerminating) {
        FakePod fake = pod(podName);
        if (fake.process == null) {
            throw new IllegalStateException("a lost node needs a runner in a process of its own");
        }
        fake.frozen = true;
        signal(fake.process, "STOP");
        events.schedule(
                () -> terminate(fake, "DeletionByTaintManager"),
                untilTerminating.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /** The runner pods of a Job, by index, as created (replacements after the first). */
    public List<String> podNames(String jobName) {
        return pods.values().stream()
                .filter(fake -> fake.job.getMetadata().getName().equals(jobName))
                .sorted(java.util.Comparator.comparingInt((FakePod fake) -> fake.index))
                .map(FakePod::name)
                .toList();
    }

    /** Whether the pod's runner is running (its process or thread alive). */
    public boolean runnerAlive(String podName) {
        FakePod fake = pod(podName);
        return fake.process != null
                ? fake.process.isAlive()
                : fake.thread != null && fake.thread.isAlive();
    }

    private FakePod pod(String podName) {
        FakePod fake = pods.get(podName);
        if (fake == null) {
            throw new IllegalArgumentException("no pod " + podName);
        }
        return fake;
    }

    private static void signal(Process process, String signal) {
        try {
            new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                    .start()
                    .waitFor(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
        // A runner in a thread that was killed reports what SIGKILL would have given.
        int code = fake.killed && fake.process == null ? 137 : exitCode;
        boolean succeeded = code == 0 && !fake.killed;
        String reason =
                fake.killed && !fake.terminating
                        ? fake.behaviour.killReason()
                        : succeeded ? "Completed" : "Error";
        String now = Instant.now().toString();
        // The termination message file when the runner wrote one (a dry run's exchange), whatever
        // the exit code; else, with FallbackToLogsOnError, a failed container's log tail.
        String written = terminationMessage(fake);
        String message =
                written != null
                        ? written
                        : !succeeded
                                        && "FallbackToLogsOnError"
                                                .equals(
                                                        container(fake)
                                                                .getTerminationMessagePolicy())
                                ? logTail(fake.log.toString(StandardCharsets.UTF_8))
                                : null;
        ContainerStatus status =
                new ContainerStatusBuilder()
                        .withName(container(fake).getName())
                        .withReady(false)
                        .withNewState()
                        .withNewTerminated()
                        .withExitCode(code)
                        .withReason(reason)
                        .withMessage(message)
                        .withFinishedAt(now)
                        .endTerminated()
                        .endState()
                        .build();
        PodStatusBuilder pod =
                new PodStatusBuilder()
                        .withPhase(succeeded ? "Succeeded" : "Failed")
                        .withPodIP(fake.podIp)
                        .withInitContainerStatuses(initStatuses(fake, true))
                        .withContainerStatuses(status);
        if (fake.disruption != null) {
            pod.addNewCondition()
                    .withType("DisruptionTarget")
                    .withStatus("True")
                    .withReason(fake.disruption)
                    .endCondition();
        }
        fake.exitCode = code;
        writePodStatus(fake, pod.build());
        fake.finished = succeeded ? 1 : -1;
        if (fake.terminating) {
            removePod(fake);
        } else {
            writeJobStatus(fake.job);
        }
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

    private PodStatus running(FakePod fake) {
        return new PodStatusBuilder()
                .withPhase("Running")
                .withPodIP(fake.podIp)
                .withStartTime(Instant.now().toString())
                .withInitContainerStatuses(initStatuses(fake, false))
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
            } else if (volume.getConfigMap() != null) {
                writeConfigMap(
                        fake,
                        volume.getConfigMap().getName(),
                        volume.getConfigMap().getItems(),
                        dir);
            } else if (volume.getSecret() != null) {
                writeSecret(
                        fake,
                        volume.getSecret().getSecretName(),
                        volume.getSecret().getItems(),
                        dir);
            } else if (volume.getEmptyDir() == null) {
                throw new IllegalStateException(
                        "the kubelet double cannot materialise volume "
                                + volume.getName()
                                + ": only emptyDir, configMap, secret and projected");
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
            List<MountSource> sources = new ArrayList<>();
            if (volume.getProjected() != null) {
                for (VolumeProjection source : volume.getProjected().getSources()) {
                    if (source.getConfigMap() != null
                            && !Boolean.TRUE.equals(source.getConfigMap().getOptional())) {
                        sources.add(
                                new MountSource(
                                        "configmap",
                                        source.getConfigMap().getName(),
                                        source.getConfigMap().getItems()));
                    } else if (source.getSecret() != null
                            && !Boolean.TRUE.equals(source.getSecret().getOptional())) {
                        sources.add(
                                new MountSource(
                                        "secret",
                                        source.getSecret().getName(),
                                        source.getSecret().getItems()));
                    }
                }
            } else if (volume.getConfigMap() != null
                    && !Boolean.TRUE.equals(volume.getConfigMap().getOptional())) {
                sources.add(
                        new MountSource(
                                "configmap",
                                volume.getConfigMap().getName(),
                                volume.getConfigMap().getItems()));
            } else if (volume.getSecret() != null
                    && !Boolean.TRUE.equals(volume.getSecret().getOptional())) {
                sources.add(
                        new MountSource(
                                "secret",
                                volume.getSecret().getSecretName(),
                                volume.getSecret().getItems()));
            }
            String failed = "MountVolume.SetUp failed for volume \"" + volume.getName() + "\" : ";
            for (MountSource source : sources) {
                if (!exists(fake, source.kind(), source.name())) {
                    problems.add(failed + source.kind() + " \"" + source.name() + "\" not found");
                    continue;
                }
                // Items naming a key the source lacks fail the mount as a missing source does.
                boolean secret = source.kind().equals("secret");
                Map<String, byte[]> keys =
                        secret
                                ? secretKeys(fake, source.name())
                                : configMapKeys(fake, source.name());
                for (KeyToPath item : nonNull(source.items())) {
                    if (!keys.containsKey(item.getKey())) {
                        problems.add(
                                failed
                                        + (secret
                                                ? "references non-existent secret key: "
                                                : "configmap references non-existent config key: ")
                                        + item.getKey());
                    }
                }
            }
        }
        return problems;
    }

    /** A ConfigMap or Secret a volume mounts, with the keys it picks (none: all of them). */
    private record MountSource(String kind, String name, List<KeyToPath> items) {}

    private boolean exists(FakePod fake, String kind, String name) {
        String namespace = namespace(fake.job);
        return kind.equals("configmap")
                ? client.configMaps().inNamespace(namespace).withName(name).get() != null
                : client.secrets().inNamespace(namespace).withName(name).get() != null;
    }

    /**
     * The kubelet's message for the first {@code envFrom} ConfigMap or Secret that does not exist
     * and is not optional: the container cannot be created.
     */
    private Optional<String> missingEnvSource(FakePod fake) {
        for (EnvFromSource source : nonNull(container(fake).getEnvFrom())) {
            if (source.getConfigMapRef() != null
                    && !Boolean.TRUE.equals(source.getConfigMapRef().getOptional())
                    && !exists(fake, "configmap", source.getConfigMapRef().getName())) {
                return Optional.of(
                        "configmap \"" + source.getConfigMapRef().getName() + "\" not found");
            }
            if (source.getSecretRef() != null
                    && !Boolean.TRUE.equals(source.getSecretRef().getOptional())
                    && !exists(fake, "secret", source.getSecretRef().getName())) {
                return Optional.of("secret \"" + source.getSecretRef().getName() + "\" not found");
            }
        }
        return Optional.empty();
    }

    /** The variables of the container's {@code envFrom}, later sources over earlier ones. */
    private Map<String, String> envFrom(FakePod fake) {
        Map<String, String> env = new LinkedHashMap<>();
        String namespace = namespace(fake.job);
        for (EnvFromSource source : nonNull(container(fake).getEnvFrom())) {
            Map<String, String> data = Map.of();
            if (source.getConfigMapRef() != null) {
                ConfigMap map =
                        client.configMaps()
                                .inNamespace(namespace)
                                .withName(source.getConfigMapRef().getName())
                                .get();
                data = map == null ? Map.of() : nonNull(map.getData());
            } else if (source.getSecretRef() != null) {
                Map<String, String> values = new LinkedHashMap<>();
                secretKeys(fake, source.getSecretRef().getName())
                        .forEach(
                                (key, value) ->
                                        values.put(key, new String(value, StandardCharsets.UTF_8)));
                data = values;
            }
            String prefix = source.getPrefix() == null ? "" : source.getPrefix();
            for (Map.Entry<String, String> entry : data.entrySet()) {
                String name = prefix + entry.getKey();
                // The kubelet skips keys that are no variable names (and says so in an event).
                if (ENV_NAME.matcher(name).matches()) {
                    env.put(name, entry.getValue());
                }
            }
        }
        return env;
    }

    /**
     * The init containers' statuses: each completed (the double runs no images), a native sidecar
     * ({@code restartPolicy: Always}) running until the pod ends, then terminated.
     */
    private static List<ContainerStatus> initStatuses(FakePod fake, boolean podEnded) {
        List<ContainerStatus> statuses = new ArrayList<>();
        String now = Instant.now().toString();
        for (Container init : nonNull(fake.pod.getSpec().getInitContainers())) {
            boolean sidecar = "Always".equals(init.getRestartPolicy());
            ContainerStatusBuilder status =
                    new ContainerStatusBuilder()
                            .withName(init.getName())
                            .withImage(init.getImage())
                            .withReady(sidecar && !podEnded);
            if (sidecar && !podEnded) {
                status.withNewState().withNewRunning().withStartedAt(now).endRunning().endState();
            } else {
                status.withNewState()
                        .withNewTerminated()
                        .withExitCode(0)
                        .withReason("Completed")
                        .withFinishedAt(now)
                        .endTerminated()
                        .endState();
            }
            statuses.add(status.build());
        }
        return statuses;
    }

    /** The kubelet's tail of a log for a termination message: 80 lines, at most 2,048 bytes. */
    static String logTail(String log) {
        List<String> lines = log.lines().toList();
        String tail =
                String.join("\n", lines.subList(Math.max(0, lines.size() - 80), lines.size()));
        byte[] bytes = tail.getBytes(StandardCharsets.UTF_8);
        if (tail.isBlank()) {
            return null;
        }
        if (bytes.length <= 2048) {
            return tail;
        }
        return new String(bytes, bytes.length - 2048, 2048, StandardCharsets.UTF_8);
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

    /** Kubernetes' default {@code terminationMessagePath}. */
    static final String TERMINATION_MESSAGE_PATH = "/dev/termination-log";

    /** What the kubelet keeps of a termination message file. */
    static final int TERMINATION_MESSAGE_BYTES = 4096;

    /**
     * The container's termination message file, which the kubelet mounts empty at its {@code
     * terminationMessagePath}: a file of the pod's folder, in place of that path in the arguments.
     */
    private List<String> terminationLog(FakePod fake, List<String> args) throws IOException {
        String path = container(fake).getTerminationMessagePath();
        String inContainer = path == null ? TERMINATION_MESSAGE_PATH : path;
        Path file = workDir.resolve(fake.name()).resolve("termination-log");
        Files.createDirectories(file.getParent());
        Files.write(file, new byte[0]);
        fake.terminationFile = file;
        return args.stream().map(arg -> arg.replace(inContainer, file.toString())).toList();
    }

    /**
     * The termination message file's text as the kubelet reads it: at most 4 KiB; null if empty.
     */
    private static String terminationMessage(FakePod fake) {
        Path file = fake.terminationFile;
        if (file == null || !Files.exists(file)) {
            return null;
        }
        try {
            byte[] bytes = Files.readAllBytes(file);
            if (bytes.length == 0) {
                return null;
            }
            int kept = Math.min(bytes.length, TERMINATION_MESSAGE_BYTES);
            return new String(bytes, 0, kept, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
        // envFrom first: env, and the Job controller's index, win over it.
        Map<String, String> env = new HashMap<>(envFrom(fake));
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
                RunnerInvocation.parse(RunnerInvocations.loadArgs(container(fake).getArgs()))
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

    /**
     * The Job controller's part: the Job's status from its pods' outcomes ({@link JobRules}), its
     * running pods terminated when the Job fails as a whole, replacements created for indexes that
     * get another try.
     */
    private void writeJobStatus(Job job) {
        Job current =
                client.batch()
                        .v1()
                        .jobs()
                        .inNamespace(namespace(job))
                        .withName(job.getMetadata().getName())
                        .get();
        if (current == null || !current.getMetadata().getUid().equals(job.getMetadata().getUid())) {
            return;
        }
        List<JobRules.PodOutcome> outcomes = new ArrayList<>();
        List<FakePod> active = new ArrayList<>();
        for (FakePod fake : pods.values()) {
            if (!fake.job.getMetadata().getUid().equals(job.getMetadata().getUid())) {
                continue;
            }
            String phase =
                    fake.finished > 0 ? "Succeeded" : fake.finished < 0 ? "Failed" : "Running";
            if (fake.finished == 0 && fake.deleted) {
                phase = "Failed";
            }
            outcomes.add(
                    new JobRules.PodOutcome(
                            fake.index,
                            phase,
                            fake.finished == 0 ? null : fake.exitCode,
                            fake.disruption));
            if ("Running".equals(phase)) {
                active.add(fake);
            }
        }
        JobRules.Verdict verdict = JobRules.decide(job.getSpec(), outcomes);
        JobStatus status = new JobStatus();
        status.setActive(active.size());
        status.setSucceeded((int) outcomes.stream().filter(JobRules.PodOutcome::succeeded).count());
        status.setFailed(verdict.failedPods());
        if (!verdict.failedIndexes().isEmpty()) {
            status.setFailedIndexes(
                    verdict.failedIndexes().stream()
                            .map(String::valueOf)
                            .collect(java.util.stream.Collectors.joining(",")));
        }
        String now = Instant.now().toString();
        if (verdict.condition() != null) {
            status.setConditions(List.of(condition(verdict.condition(), verdict.reason(), now)));
            if ("Complete".equals(verdict.condition())) {
                status.setCompletionTime(now);
            }
        }
        try {
            client.batch()
                    .v1()
                    .jobs()
                    .inNamespace(namespace(job))
                    .withName(job.getMetadata().getName())
                    .editStatus(
                            edited -> {
                                edited.setStatus(status);
                                return edited;
                            });
        } catch (KubernetesClientException e) {
            // Deleted meanwhile.
        }
        if (verdict.terminateActive()) {
            active.forEach(fake -> terminate(fake, null));
        }
        for (int index : verdict.replace()) {
            // Another try for the index: a pod that starts late.
            createPod(job, index);
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
                // Runner pods go gracefully, once their runners have ended.
                boolean runnerPod =
                        dependent instanceof Pod
                                && pods.containsKey(dependent.getMetadata().getName());
                if (owned && !runnerPod) {
                    try {
                        client.resource(dependent).delete();
                    } catch (KubernetesClientException e) {
                        // Gone meanwhile.
                    }
                }
            }
        }
    }

    /**
     * The garbage collector deletes a deleted Job's pods, each gracefully: its runner gets SIGTERM
     * and its grace period (a runner in a thread stops at once).
     */
    private void collectGarbage(Job job) {
        for (FakePod fake : pods.values()) {
            if (fake.job.getMetadata().getUid().equals(job.getMetadata().getUid())) {
                terminate(fake, null);
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
            if (fake.process != null) {
                if (fake.frozen) {
                    signal(fake.process, "CONT");
                }
                fake.process.destroyForcibly();
            } else if (fake.thread != null) {
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

        /** Both streams in the order written, as the container runtime logs them. */
        final ByteArrayOutputStream log = new ByteArrayOutputStream();

        volatile Map<String, String> environment;
        volatile String podIp;
        volatile Thread thread;
        volatile Process process;
        volatile boolean killed;

        /** Its pod has a deletion timestamp: its runner was told to go. */
        volatile boolean terminating;

        /** The reason of its DisruptionTarget condition, when it has one. */
        volatile String disruption;

        /** Its node is lost: its runner is stopped (SIGSTOP) and unreachable. */
        volatile boolean frozen;

        volatile int exitCode;

        /** Its pod object is gone. */
        volatile boolean deleted;

        volatile Path resultFile;
        volatile Path terminationFile;
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

    /** Writes to one stream and to a shared log, a write at a time. */
    private static final class Tee extends OutputStream {
        private final OutputStream own;
        private final ByteArrayOutputStream log;

        Tee(OutputStream own, ByteArrayOutputStream log) {
            this.own = own;
            this.log = log;
        }

        @Override
        public void write(int b) throws IOException {
            own.write(b);
            synchronized (log) {
                log.write(b);
            }
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            own.write(bytes, offset, length);
            synchronized (log) {
                log.write(bytes, offset, length);
            }
        }
    }
}
