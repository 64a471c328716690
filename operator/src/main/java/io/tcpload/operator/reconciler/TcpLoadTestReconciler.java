package io.tcpload.operator.reconciler;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.ScalableResource;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.tcpload.operator.children.DesiredResources;
import io.tcpload.operator.crd.Phase;
import io.tcpload.operator.crd.TcpLoadTest;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.operator.crd.TcpLoadTestStatus;
import io.tcpload.operator.status.Decision;
import io.tcpload.operator.status.Event;
import io.tcpload.operator.status.Observation;
import io.tcpload.operator.status.RunnerPod;
import io.tcpload.operator.status.RunnerProbe;
import io.tcpload.operator.status.StatusComputer;
import io.tcpload.operator.validation.Failure;
import io.tcpload.operator.validation.TcpLoadTestValidator;
import io.tcpload.runner.report.JsonResult;
import io.tcpload.runner.stats.RunSummary;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Runs each {@code TcpLoadTest} once: observe (the Job, the runner pods, each runner's {@code
 * /stats} and {@code /result}), compute the next status with {@link StatusComputer} (pure), act
 * (create the ConfigMap and the Job, tell the start instant, let the runners go, delete children),
 * then patch the status from a fresh status-only object.
 *
 * <p>Nothing lives only in memory: the phase, the start instant and the merged result are in the
 * status, the spec being run is on the Job, and the runners hold their results until told, so an
 * operator restarted at any point finishes the test. The only memory is the count of tests by phase
 * for the metrics, rebuilt as tests are reconciled.
 *
 * <p>Threading: JOSDK calls it from its reconcile threads, never twice at once for one test.
 */
public final class TcpLoadTestReconciler implements Reconciler<TcpLoadTest>, Cleaner<TcpLoadTest> {
    /** The Job annotation holding the spec the test runs (JSON), so later edits never leak in. */
    public static final String SPEC_ANNOTATION = "tcpload.io/spec";

    private static final ObjectMapper COPIER = new ObjectMapper();

    private final String runnerImage;
    private final int runnerPort;
    private final RunnerClient runners;
    private final Clock clock;
    private final Map<String, Phase> phases = new ConcurrentHashMap<>();

    public TcpLoadTestReconciler(
            String runnerImage, int runnerPort, RunnerClient runners, Clock clock) {
        this.runnerImage = runnerImage;
        this.runnerPort = runnerPort;
        this.runners = runners;
        this.clock = clock;
    }

    /** How many tests are in {@code phase}, as last reconciled. */
    public long count(Phase phase) {
        return phases.values().stream().filter(phase::equals).count();
    }

    @Override
    public UpdateControl<TcpLoadTest> reconcile(TcpLoadTest test, Context<TcpLoadTest> context) {
        KubernetesClient client = context.getClient();
        Instant now = clock.instant();
        Phase phase = phaseOf(test);
        Job job = jobs(client, test).withName(DesiredResources.jobName(test)).get();
        TcpLoadTestSpec runSpec = job != null ? acceptedSpec(client, job, test) : test.getSpec();

        Optional<Failure> invalid =
                phase == Phase.Pending
                        ? TcpLoadTestValidator.validate(
                                test.getSpec(), SourceReader.read(client, test))
                        : Optional.empty();
        Map<Integer, RunnerPod> pods = new HashMap<>();
        Map<Integer, RunnerProbe> probes = new HashMap<>();
        Map<Integer, RunSummary> results = new HashMap<>();
        if (job != null) {
            observeRunners(client, test, pods, probes, results, phase);
        }
        Decision decision =
                StatusComputer.next(
                        new Observation(
                                test, runSpec, invalid, job != null, pods, probes, results, now));
        if (decision.writeFirst()) {
            // Written before anything else (the start instant before any runner hears of it),
            // then on from the status as written, in this reconcile: the next one may be handed
            // the resource as it was before this write.
            for (Event event : decision.events()) {
                EventRecorder.record(client, test, event, now);
            }
            client.resources(TcpLoadTest.class)
                    .inNamespace(test.getMetadata().getNamespace())
                    .resource(statusOnly(test, decision.status()))
                    .patchStatus();
            TcpLoadTest written = withStatus(test, decision.status());
            now = clock.instant();
            decision =
                    StatusComputer.next(
                            new Observation(
                                    written,
                                    runSpec,
                                    Optional.empty(),
                                    job != null,
                                    pods,
                                    probes,
                                    results,
                                    now));
        }

        if (decision.createChildren()) {
            createChildren(client, test);
        }
        decision.startAtMs().ifPresent(atMs -> runners.start(runningIps(pods), atMs));
        if (decision.finishRunners()) {
            forRunning(pods, runners::finish);
        }
        if (decision.deleteChildren()) {
            deleteChildren(client, test);
        }
        for (Event event : decision.events()) {
            EventRecorder.record(client, test, event, now);
        }
        phases.put(key(test), decision.status().getPhase());

        UpdateControl<TcpLoadTest> control =
                UpdateControl.patchStatus(statusOnly(test, decision.status()));
        decision.requeue().ifPresent(control::rescheduleAfter);
        return control;
    }

    @Override
    public DeleteControl cleanup(TcpLoadTest test, Context<TcpLoadTest> context) {
        // The runners stop at once: their pods go with the Job.
        deleteChildren(context.getClient(), test);
        phases.remove(key(test));
        return DeleteControl.defaultDelete();
    }

    @Override
    public ErrorStatusUpdateControl<TcpLoadTest> updateErrorStatus(
            TcpLoadTest test, Context<TcpLoadTest> context, Exception e) {
        // The whole status (a copy: the cached resource stays as read), with the reason in its
        // message.
        TcpLoadTestStatus status =
                test.getStatus() == null
                        ? new TcpLoadTestStatus()
                        : COPIER.convertValue(test.getStatus(), TcpLoadTestStatus.class);
        status.setMessage("Reconcile failed, retrying: " + e.getMessage());
        return ErrorStatusUpdateControl.patchStatus(statusOnly(test, status));
    }

    private void observeRunners(
            KubernetesClient client,
            TcpLoadTest test,
            Map<Integer, RunnerPod> pods,
            Map<Integer, RunnerProbe> probes,
            Map<Integer, RunSummary> results,
            Phase phase) {
        String jobName = DesiredResources.jobName(test);
        for (Pod pod :
                client.pods()
                        .inNamespace(test.getMetadata().getNamespace())
                        .withLabel(DesiredResources.TEST_LABEL, test.getMetadata().getName())
                        .list()
                        .getItems()) {
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
        if (phase.finished()) {
            return;
        }
        Map<String, RunnerProbe> byIp = runners.stats(runningIps(pods));
        for (RunnerPod pod : pods.values()) {
            RunnerProbe probe = byIp.get(pod.podIp());
            if (!pod.running() || probe == null) {
                continue;
            }
            probes.put(pod.index(), probe);
            if (probe.state() == RunnerProbe.State.FINISHED) {
                runners.result(pod.podIp())
                        .map(JsonResult::read)
                        .ifPresent(result -> results.put(pod.index(), result));
            }
        }
    }

    private void createChildren(KubernetesClient client, TcpLoadTest test) {
        ConfigMap configMap = DesiredResources.configMap(test);
        client.configMaps()
                .inNamespace(test.getMetadata().getNamespace())
                .resource(configMap)
                .createOr(existing -> existing.update());
        if (jobs(client, test).withName(DesiredResources.jobName(test)).get() == null) {
            Job job = DesiredResources.job(test, runnerImage, runnerPort);
            job.getMetadata()
                    .getAnnotations()
                    .put(
                            SPEC_ANNOTATION,
                            client.getKubernetesSerialization().asJson(test.getSpec()));
            jobs(client, test).resource(job).create();
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

    private static TcpLoadTestSpec acceptedSpec(
            KubernetesClient client, Job job, TcpLoadTest test) {
        Map<String, String> annotations = job.getMetadata().getAnnotations();
        String json = annotations == null ? null : annotations.get(SPEC_ANNOTATION);
        return json == null
                ? test.getSpec()
                : client.getKubernetesSerialization().unmarshal(json, TcpLoadTestSpec.class);
    }

    private static void forRunning(Map<Integer, RunnerPod> pods, Consumer<String> action) {
        runningIps(pods).forEach(action);
    }

    private static List<String> runningIps(Map<Integer, RunnerPod> pods) {
        return pods.values().stream().filter(RunnerPod::running).map(RunnerPod::podIp).toList();
    }

    private static NonNamespaceOperation<Job, JobList, ScalableResource<Job>> jobs(
            KubernetesClient client, TcpLoadTest test) {
        return client.batch().v1().jobs().inNamespace(test.getMetadata().getNamespace());
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

    private static String key(TcpLoadTest test) {
        return test.getMetadata().getNamespace() + "/" + test.getMetadata().getName();
    }
}
