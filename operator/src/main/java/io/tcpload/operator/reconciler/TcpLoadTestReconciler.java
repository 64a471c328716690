package io.tcpload.operator.reconciler;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.javaoperatorsdk.operator.api.config.informer.FieldSelector;
import io.javaoperatorsdk.operator.api.config.informer.FieldSelector.Field;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.RetryInfo;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.IndexerResourceCache;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.tcpload.operator.children.ControlKey;
import io.tcpload.operator.children.ControlSecret;
import io.tcpload.operator.children.DesiredResources;
import io.tcpload.operator.children.RunRecord;
import io.tcpload.operator.children.RunnerPolicy;
import io.tcpload.operator.crd.CurrentStep;
import io.tcpload.operator.crd.Phase;
import io.tcpload.operator.crd.TcpLoadTest;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.operator.crd.TcpLoadTestStatus;
import io.tcpload.operator.status.Decision;
import io.tcpload.operator.status.Observation;
import io.tcpload.operator.status.RunnerPod;
import io.tcpload.operator.status.RunnerProbe;
import io.tcpload.operator.status.StatusComputer;
import io.tcpload.operator.status.StepResults;
import io.tcpload.operator.validation.Failure;
import io.tcpload.operator.validation.TcpLoadTestValidator;
import io.tcpload.runner.contract.Stopped;
import io.tcpload.runner.report.JsonResult;
import io.tcpload.runner.stats.RunSummary;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * Runs each {@code TcpLoadTest} once: observe (from the informers' caches: the Job, the runner
 * pods, the cluster's refusals of them; and each runner's {@code /stats} and {@code /result}),
 * compute the next status with {@link StatusComputer} (pure), act (create the ConfigMap and the
 * Job, tell the start instant, let the runners go, delete children), then patch the status from a
 * fresh status-only object.
 *
 * <p>Watches, never polls the API server: every child and runner pod carries {@link
 * DesiredResources#MANAGED_SELECTOR}, which is all the informers cache, and a change to any of them
 * (a pod failing, the Job controller refusing pods) reconciles its test at once. A reconcile lists
 * nothing; it reads the caches, reads the user's ConfigMaps a spec names while the test is Pending,
 * and writes. Only the runners, which are not Kubernetes objects, are asked on a timer.
 *
 * <p>No finalizer: the children carry owner references and the garbage collector deletes them with
 * their test, so a test (and its namespace) never hangs in Terminating when the operator is gone.
 * Tests created by an operator that did use one get it removed when met.
 *
 * <p>Little lives only in memory: the phase, the start instant and the merged result are in the
 * status, the spec being run is recorded on the Job, and the runners hold their results until told,
 * so an operator restarted at any point finishes the test. The one exception: the partial result of
 * a runner stopped early, kept from its first fetch ({@link ResultStore}) since its pod serves it
 * only through its grace period; an operator restarted after that counts such a runner lost.
 *
 * <p>Threading: JOSDK calls it from its reconcile threads, never twice at once for one test.
 */
public final class TcpLoadTestReconciler implements Reconciler<TcpLoadTest> {
    /** The finalizer of operators that deleted children themselves. */
    public static final String OLD_FINALIZER = "tcploadtests.tcpload.io/finalizer";

    static final String JOBS = "jobs";
    static final String PODS = "pods";
    static final String CONFIG_MAPS = "configmaps";
    static final String JOB_REFUSALS = "job-refusals";
    static final String MOUNT_FAILURES = "mount-failures";

    private static final String RUNNERS_SUFFIX = "-runners";
    private static final ObjectMapper COPIER = new ObjectMapper();

    /** How soon a reconcile that read a stale copy looks again, from the resource as it is. */
    static final Duration STALE_RETRY = Duration.ofMillis(200);

    private final RunnerPolicy runnerPolicy;
    private final int runnerPort;
    private final RunnerClient runners;
    private final ControlKey controlKey;
    private final Clock clock;
    private final ResultStore results = new ResultStore();

    /** Fetches runners' results, at most this many at once for all tests together. */
    private static final int MAX_FETCHES = 16;

    private static final ExecutorService FETCHERS =
            Executors.newFixedThreadPool(
                    MAX_FETCHES,
                    task -> {
                        Thread thread = new Thread(task, "tcpload-result-fetch");
                        thread.setDaemon(true);
                        return thread;
                    });
    private volatile IndexerResourceCache<TcpLoadTest> tests;
    private volatile boolean reconciling;

    public TcpLoadTestReconciler(
            String runnerImage,
            int runnerPort,
            RunnerClient runners,
            ControlKey controlKey,
            Clock clock) {
        this(RunnerPolicy.of(runnerImage), runnerPort, runners, controlKey, clock);
    }

    /**
     * @param runnerPolicy the runner image, the runner defaults under each test's {@code
     *     spec.runner} and the allow-lists a test is validated against
     * @param controlKey the key each test's control token is derived under (from its UID)
     */
    public TcpLoadTestReconciler(
            RunnerPolicy runnerPolicy,
            int runnerPort,
            RunnerClient runners,
            ControlKey controlKey,
            Clock clock) {
        this.runnerPolicy = runnerPolicy;
        this.runnerPort = runnerPort;
        this.runners = runners;
        this.controlKey = controlKey;
        this.clock = clock;
    }

    /**
     * How many tests are in {@code phase}, as the informer's cache holds them now; none on a
     * replica that has not reconciled (a follower, with leader election, keeps its cache warm too,
     * and the tests would be counted once per replica).
     */
    public long count(Phase phase) {
        IndexerResourceCache<TcpLoadTest> cache = tests;
        if (cache == null || !reconciling) {
            return 0;
        }
        return cache.list()
                .filter(test -> test.getStatus() != null && test.getStatus().getPhase() == phase)
                .count();
    }

    @Override
    public List<EventSource<?, TcpLoadTest>> prepareEventSources(
            EventSourceContext<TcpLoadTest> context) {
        tests = context.getPrimaryCache();
        return List.of(
                new InformerEventSource<>(
                        InformerEventSourceConfiguration.from(Job.class, TcpLoadTest.class)
                                .withName(JOBS)
                                .withLabelSelector(DesiredResources.MANAGED_SELECTOR)
                                .build(),
                        context),
                new InformerEventSource<>(
                        InformerEventSourceConfiguration.from(ConfigMap.class, TcpLoadTest.class)
                                .withName(CONFIG_MAPS)
                                .withLabelSelector(DesiredResources.MANAGED_SELECTOR)
                                .build(),
                        context),
                // Pods are owned by the Job, not the test: they name their test in a label.
                new InformerEventSource<>(
                        InformerEventSourceConfiguration.from(Pod.class, TcpLoadTest.class)
                                .withName(PODS)
                                .withLabelSelector(DesiredResources.MANAGED_SELECTOR)
                                .withSecondaryToPrimaryMapper(
                                        pod -> testOf(pod.getMetadata().getLabels(), pod))
                                .build(),
                        context),
                // What Pod Security, a quota or a webhook refused is said only in the Job
                // controller's events on the Job.
                new InformerEventSource<>(
                        InformerEventSourceConfiguration.from(Event.class, TcpLoadTest.class)
                                .withName(JOB_REFUSALS)
                                .withFieldSelector(
                                        new FieldSelector(
                                                List.of(
                                                        new Field("involvedObject.kind", "Job"),
                                                        new Field("reason", "FailedCreate"))))
                                .withSecondaryToPrimaryMapper(
                                        event -> testOfJobEvent(event, RUNNERS_SUFFIX))
                                .build(),
                        context),
                // A volume that cannot be mounted (a Secret that does not exist) is said only in
                // the kubelet's events on the pod.
                new InformerEventSource<>(
                        InformerEventSourceConfiguration.from(Event.class, TcpLoadTest.class)
                                .withName(MOUNT_FAILURES)
                                .withFieldSelector(
                                        new FieldSelector(
                                                List.of(
                                                        new Field("involvedObject.kind", "Pod"),
                                                        new Field("reason", "FailedMount"))))
                                .withSecondaryToPrimaryMapper(
                                        event -> testOfJobEvent(event, RUNNERS_SUFFIX + "-"))
                                .build(),
                        context));
    }

    /** The test a runner pod belongs to, by its label. */
    private static Set<ResourceID> testOf(Map<String, String> labels, Pod pod) {
        String test = labels == null ? null : labels.get(DesiredResources.TEST_LABEL);
        return test == null
                ? Set.of()
                : Set.of(new ResourceID(test, pod.getMetadata().getNamespace()));
    }

    /**
     * The test of an event about its Job ({@code NAME-runners}) or one of its pods ({@code
     * NAME-runners-I-xxxxx}): the name before the last {@code marker}.
     */
    private static Set<ResourceID> testOfJobEvent(Event event, String marker) {
        if (event.getInvolvedObject() == null || event.getInvolvedObject().getName() == null) {
            return Set.of();
        }
        String name = event.getInvolvedObject().getName();
        int at = name.lastIndexOf(marker);
        if (at <= 0 || (marker.equals(RUNNERS_SUFFIX) && at + marker.length() != name.length())) {
            return Set.of();
        }
        String namespace =
                event.getInvolvedObject().getNamespace() != null
                        ? event.getInvolvedObject().getNamespace()
                        : event.getMetadata().getNamespace();
        return Set.of(new ResourceID(name.substring(0, at), namespace));
    }

    @Override
    public UpdateControl<TcpLoadTest> reconcile(TcpLoadTest test, Context<TcpLoadTest> context) {
        reconciling = true;
        KubernetesClient client = context.getClient();
        if (removeOldFinalizer(client, test)) {
            // The resource changed under this copy: decide from the new one, which the watch
            // brings (a status written over this copy would be refused).
            return UpdateControl.<TcpLoadTest>noUpdate().rescheduleAfter(STALE_RETRY);
        }
        if (test.isMarkedForDeletion()) {
            // Its children go with it, by their owner references.
            return UpdateControl.noUpdate();
        }
        Instant now = clock.instant();
        Phase phase = phaseOf(test);
        String jobName = DesiredResources.jobName(test);
        Optional<Job> job =
                context.getSecondaryResources(Job.class).stream()
                        .filter(j -> jobName.equals(j.getMetadata().getName()))
                        .findFirst();
        TcpLoadTestSpec runSpec =
                job.map(j -> RunRecord.runSpec(j, test.getSpec())).orElse(test.getSpec());
        boolean specChanged = job.map(j -> RunRecord.changed(j, test.getSpec())).orElse(false);

        Optional<Failure> invalid = Optional.empty();
        if (phase == Phase.Pending) {
            SourceReader.Read read = SourceReader.read(client, test);
            invalid =
                    TcpLoadTestValidator.validate(test, read.sources(), runnerPolicy)
                            .or(read::missing);
        }
        Map<Integer, RunnerPod> pods = pods(context, jobName);
        Map<Integer, RunnerProbe> probes = new HashMap<>();
        String uid = test.getMetadata().getUid();
        // Derived, never read back: the operator may create the runners' Secret, not read it.
        String token = controlKey.tokenFor(uid);
        // A deleted Job's pods may still be terminating, each serving its partial result.
        if ((job.isPresent() || !pods.isEmpty()) && !phase.finished()) {
            observeRunners(uid, pods, probes, token);
        }
        Map<Integer, RunSummary> results = new HashMap<>();
        Map<Integer, Stopped> stopped = new HashMap<>();
        if (!phase.finished()) {
            this.results
                    .of(uid)
                    .forEach(
                            (index, kept) -> {
                                results.put(index, kept.summary());
                                kept.stopped().ifPresent(why -> stopped.put(index, why));
                            });
        }
        List<String> refusals = job.isPresent() ? refusals(context, test) : List.of();
        StepResults stepResults =
                phase == Phase.Running
                        ? stepResults(test, pods, probes, token, now)
                        : StepResults.NONE;
        Observation seen =
                new Observation(
                        test,
                        runSpec,
                        invalid,
                        job.isPresent(),
                        specChanged,
                        refusals,
                        pods,
                        probes,
                        results,
                        now,
                        stopped,
                        stepResults);
        Decision decision = StatusComputer.next(seen);
        TcpLoadTest latest = test;
        if (decision.writeFirst()) {
            // Written before anything else (the start instant before any runner hears of it),
            // then on from the status as written, in this reconcile: the next one may be handed
            // the resource as it was before this write. Over the version read only: a stale copy
            // acts on nothing.
            Optional<TcpLoadTest> written = writeStatus(test, context, decision.status());
            if (written.isEmpty()) {
                return UpdateControl.<TcpLoadTest>noUpdate().rescheduleAfter(STALE_RETRY);
            }
            for (var event : decision.events()) {
                EventRecorder.record(client, test, event, now);
            }
            latest = written.get();
            now = clock.instant();
            decision =
                    StatusComputer.next(
                            new Observation(
                                    latest,
                                    runSpec,
                                    Optional.empty(),
                                    job.isPresent(),
                                    specChanged,
                                    refusals,
                                    pods,
                                    probes,
                                    results,
                                    now,
                                    stopped,
                                    stepResults));
        }

        if (decision.createChildren()) {
            createChildren(client, test, context, job.isPresent(), token);
        }
        decision.startAtMs().ifPresent(atMs -> runners.start(runningIps(pods), atMs, token));
        decision.step().ifPresent(step -> runners.step(runningIps(pods), step, token));
        if (decision.endSteps()) {
            runners.endSteps(runningIps(pods), token);
        }
        if (decision.finishRunners()) {
            forRunning(pods, ip -> runners.finish(ip, token));
        }
        if (decision.deleteChildren()) {
            deleteChildren(client, test);
        }
        for (var event : decision.events()) {
            EventRecorder.record(client, test, event, now);
        }

        UpdateControl<TcpLoadTest> control = UpdateControl.noUpdate();
        if (writeStatus(latest, context, decision.status()).isEmpty()) {
            // Read stale: what this reconcile did was what the status as read asked for; the
            // next one decides from the status as it is.
            return control.rescheduleAfter(STALE_RETRY);
        }
        if (decision.status().getPhase() != null && decision.status().getPhase().finished()) {
            this.results.forget(uid);
        }
        decision.requeue().ifPresent(control::rescheduleAfter);
        return control;
    }

    /**
     * Writes the whole status over {@code test}, which must be the resource as last written (the
     * one a write-first step returned, not the one the reconcile began with), guarded by its {@code
     * resourceVersion} ({@link GuardedStatus}), and hands the written resource to the SDK's cache,
     * so that the next reconcile starts from it and the write's own event reconciles nothing.
     *
     * @return the resource as written; empty when {@code test} was not the latest version
     */
    private static Optional<TcpLoadTest> writeStatus(
            TcpLoadTest test, Context<TcpLoadTest> context, TcpLoadTestStatus status) {
        Optional<TcpLoadTest> written = GuardedStatus.write(context.getClient(), test, status);
        written.ifPresent(
                resource ->
                        context.eventSourceRetriever()
                                .getControllerEventSource()
                                .handleRecentResourceUpdate(
                                        ResourceID.fromResource(test), resource, test));
        return written;
    }

    @Override
    public ErrorStatusUpdateControl<TcpLoadTest> updateErrorStatus(
            TcpLoadTest test, Context<TcpLoadTest> context, Exception e) {
        boolean last =
                context != null
                        && context.getRetryInfo().map(RetryInfo::isLastAttempt).orElse(false);
        if (last) {
            // Not "retrying" for ever: the test is given up, with the reason.
            TcpLoadTestStatus failed =
                    StatusComputer.gaveUp(
                            test,
                            "Reconcile failed on every retry: " + e.getMessage(),
                            clock.instant());
            return ErrorStatusUpdateControl.patchStatus(statusOnly(test, failed));
        }
        // The whole status (a copy: the cached resource stays as read), with the reason in its
        // message.
        TcpLoadTestStatus status =
                test.getStatus() == null
                        ? new TcpLoadTestStatus()
                        : COPIER.convertValue(test.getStatus(), TcpLoadTestStatus.class);
        status.setMessage("Reconcile failed, retrying: " + e.getMessage());
        return ErrorStatusUpdateControl.patchStatus(statusOnly(test, status));
    }

    /** The runner pods of this test's Job, by index, from the cache. */
    private static Map<Integer, RunnerPod> pods(Context<TcpLoadTest> context, String jobName) {
        Map<Integer, RunnerPod> pods = new HashMap<>();
        for (Pod pod : context.getSecondaryResources(Pod.class)) {
            Map<String, String> labels = pod.getMetadata().getLabels();
            if (labels == null || !jobName.equals(labels.get("job-name"))) {
                continue;
            }
            RunnerPod.of(pod)
                    .ifPresent(
                            runner -> {
                                RunnerPod previous = pods.get(runner.index());
                                // A pod being replaced leaves its predecessor for a while.
                                if (previous == null
                                        || pod.getMetadata().getDeletionTimestamp() == null) {
                                    pods.put(runner.index(), runner);
                                }
                            });
        }
        return pods;
    }

    /** What the cluster said when it refused the runner pods, oldest first, from the caches. */
    private static List<String> refusals(Context<TcpLoadTest> context, TcpLoadTest test) {
        List<Event> events = new ArrayList<>();
        context.getSecondaryResources(Event.class).stream()
                .filter(TcpLoadTestReconciler::isRefusal)
                .forEach(events::add);
        events.sort(
                Comparator.comparing(
                        event -> event.getLastTimestamp() == null ? "" : event.getLastTimestamp()));
        List<String> messages = new ArrayList<>();
        for (Event event : events) {
            String what =
                    "FailedCreate".equals(event.getReason())
                            ? "Job " + event.getInvolvedObject().getName()
                            : "pod " + event.getInvolvedObject().getName();
            messages.add(what + ": " + event.getReason() + ": " + event.getMessage());
        }
        return messages;
    }

    /**
     * A refusal that will not pass by itself: the Job controller's every {@code FailedCreate}, and
     * a {@code FailedMount} of something that does not exist (mounts that are merely slow retry).
     */
    private static boolean isRefusal(Event event) {
        if ("FailedCreate".equals(event.getReason())) {
            return true;
        }
        return "FailedMount".equals(event.getReason())
                && event.getMessage() != null
                && event.getMessage().contains("not found");
    }

    /** Each running runner's live stats, and the result of each that has one, fetched once. */
    private void observeRunners(
            String uid,
            Map<Integer, RunnerPod> pods,
            Map<Integer, RunnerProbe> probes,
            String token) {
        Map<String, RunnerProbe> byIp = runners.stats(runningIps(pods));
        List<CompletableFuture<Void>> fetches = new ArrayList<>();
        for (RunnerPod pod : pods.values()) {
            RunnerProbe probe = byIp.get(pod.podIp());
            if (!pod.running() || probe == null) {
                continue;
            }
            probes.put(pod.index(), probe);
            if (probe.state() == RunnerProbe.State.FINISHED && !results.has(uid, pod.index())) {
                // Fetched and parsed side by side: a hundred results do not take a hundred
                // round trips in a row, and each fetch is bounded by the client's timeout.
                fetches.add(
                        CompletableFuture.runAsync(
                                () ->
                                        runners.result(pod.podIp(), token)
                                                .map(ResultStore.Kept::parse)
                                                .ifPresent(
                                                        kept ->
                                                                results.put(
                                                                        uid, pod.index(), kept)),
                                FETCHERS));
            }
        }
        for (CompletableFuture<Void> fetch : fetches) {
            try {
                fetch.join();
            } catch (CompletionException e) {
                // A result that cannot be read is asked again on the next look.
            }
        }
    }

    /**
     * The results of a capacity search's current step (as the status records it) from the runners
     * that have run it to its end, fetched side by side; none before the step's instant. Asked
     * again on every look (each runner keeps its last steps' results), so nothing is kept here.
     */
    private StepResults stepResults(
            TcpLoadTest test,
            Map<Integer, RunnerPod> pods,
            Map<Integer, RunnerProbe> probes,
            String token,
            Instant now) {
        CurrentStep current =
                test.getStatus() == null || test.getStatus().getCapacity() == null
                        ? null
                        : test.getStatus().getCapacity().getCurrent();
        if (current == null
                || current.getNumber() == null
                || current.getStartAtMs() == null
                || now.toEpochMilli() < current.getStartAtMs()) {
            return StepResults.NONE;
        }
        int number = current.getNumber();
        Map<Integer, CompletableFuture<Optional<RunSummary>>> fetches = new HashMap<>();
        for (RunnerPod pod : pods.values()) {
            RunnerProbe probe = probes.get(pod.index());
            if (!pod.running() || probe == null || probe.state() == RunnerProbe.State.UNREACHABLE) {
                continue;
            }
            fetches.put(
                    pod.index(),
                    CompletableFuture.supplyAsync(
                            () ->
                                    runners.stepResult(pod.podIp(), number, token)
                                            .map(JsonResult::read),
                            FETCHERS));
        }
        Map<Integer, RunSummary> byRunner = new HashMap<>();
        fetches.forEach(
                (index, fetch) -> {
                    try {
                        fetch.join().ifPresent(result -> byRunner.put(index, result));
                    } catch (CompletionException e) {
                        // A result that cannot be read is asked again on the next look.
                    }
                });
        return new StepResults(number, byRunner);
    }

    /**
     * Creates what the caches do not show yet; one that exists already (a cache a moment behind a
     * create) is left as it is.
     */
    private void createChildren(
            KubernetesClient client,
            TcpLoadTest test,
            Context<TcpLoadTest> context,
            boolean jobExists,
            String token) {
        String configMapName = DesiredResources.configMapName(test);
        boolean configMapExists =
                context.getSecondaryResources(ConfigMap.class).stream()
                        .anyMatch(map -> configMapName.equals(map.getMetadata().getName()));
        if (!configMapExists) {
            createIfAbsent(
                    () ->
                            client.configMaps()
                                    .inNamespace(test.getMetadata().getNamespace())
                                    .resource(DesiredResources.configMap(test))
                                    .create());
        }
        if (!jobExists) {
            // Before the Job: its pods read the token from it. Created blind (the operator may
            // not read Secrets); one that exists already is this test's, from a create a moment
            // ago, and holds the same token.
            createIfAbsent(
                    () ->
                            client.secrets()
                                    .inNamespace(test.getMetadata().getNamespace())
                                    .resource(ControlSecret.secret(test, token))
                                    .create());
            createIfAbsent(
                    () ->
                            client.batch()
                                    .v1()
                                    .jobs()
                                    .inNamespace(test.getMetadata().getNamespace())
                                    .resource(DesiredResources.job(test, runnerPolicy, runnerPort))
                                    .create());
        }
    }

    private static void createIfAbsent(Runnable create) {
        try {
            create.run();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
        }
    }

    private static void deleteChildren(KubernetesClient client, TcpLoadTest test) {
        String namespace = test.getMetadata().getNamespace();
        client.batch()
                .v1()
                .jobs()
                .inNamespace(namespace)
                .withName(DesiredResources.jobName(test))
                .withPropagationPolicy(DeletionPropagation.BACKGROUND)
                .delete();
        client.configMaps()
                .inNamespace(namespace)
                .withName(DesiredResources.configMapName(test))
                .delete();
    }

    /**
     * Removes the finalizer an earlier operator put on the test, if it has it. Every test is
     * reconciled when the operator starts, so a test still alive loses it then; one already being
     * deleted is never reconciled (the SDK skips those without a finalizer of its own), and {@link
     * #releaseDeleted} sweeps those at the start.
     *
     * @return whether it had it (the resource has changed since {@code test} was read)
     */
    public static boolean removeOldFinalizer(KubernetesClient client, TcpLoadTest test) {
        List<String> finalizers = test.getMetadata().getFinalizers();
        int at = finalizers == null ? -1 : finalizers.indexOf(OLD_FINALIZER);
        if (at < 0) {
            return false;
        }
        // A JSON patch with a test: it removes this finalizer only if it is still where it was.
        String patch =
                "[{\"op\":\"test\",\"path\":\"/metadata/finalizers/"
                        + at
                        + "\",\"value\":\""
                        + OLD_FINALIZER
                        + "\"},{\"op\":\"remove\",\"path\":\"/metadata/finalizers/"
                        + at
                        + "\"}]";
        try {
            client.resources(TcpLoadTest.class)
                    .inNamespace(test.getMetadata().getNamespace())
                    .withName(test.getMetadata().getName())
                    .patch(PatchContext.of(PatchType.JSON), patch);
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404 && e.getCode() != 422) {
                throw e;
            }
        }
        return true;
    }

    /**
     * Tests an earlier operator left being deleted with its finalizer: nothing else would ever
     * remove it, and they (and their namespaces) would hang in Terminating.
     */
    public static void releaseDeleted(KubernetesClient client, Set<String> namespaces) {
        var tests = client.resources(TcpLoadTest.class);
        List<TcpLoadTest> all =
                namespaces.isEmpty()
                        ? tests.inAnyNamespace().list().getItems()
                        : namespaces.stream()
                                .flatMap(ns -> tests.inNamespace(ns).list().getItems().stream())
                                .toList();
        for (TcpLoadTest test : all) {
            if (test.isMarkedForDeletion()) {
                removeOldFinalizer(client, test);
            }
        }
    }

    private static void forRunning(Map<Integer, RunnerPod> pods, Consumer<String> action) {
        runningIps(pods).forEach(action);
    }

    private static List<String> runningIps(Map<Integer, RunnerPod> pods) {
        return pods.values().stream().filter(RunnerPod::running).map(RunnerPod::podIp).toList();
    }

    /** The resource as read, with {@code status} in place of its own. */
    private static TcpLoadTest withStatus(TcpLoadTest test, TcpLoadTestStatus status) {
        TcpLoadTest copy = new TcpLoadTest();
        copy.setMetadata(test.getMetadata());
        copy.setSpec(test.getSpec());
        copy.setStatus(status);
        return copy;
    }

    /** A status-only object: name, namespace and status, never the spec. */
    private static TcpLoadTest statusOnly(TcpLoadTest test, TcpLoadTestStatus status) {
        TcpLoadTest fresh = new TcpLoadTest();
        fresh.setMetadata(
                new ObjectMetaBuilder()
                        .withName(test.getMetadata().getName())
                        .withNamespace(test.getMetadata().getNamespace())
                        .build());
        fresh.setStatus(status);
        return fresh;
    }

    private static Phase phaseOf(TcpLoadTest test) {
        return test.getStatus() == null || test.getStatus().getPhase() == null
                ? Phase.Pending
                : test.getStatus().getPhase();
    }
}
