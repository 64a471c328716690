package io.tcpload.operator.children;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.tcpload.operator.crd.Stage;
import io.tcpload.operator.crd.TargetOverride;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.runner.contract.DryRunOptions;
import io.tcpload.runner.contract.RunnerInvocation;
import io.tcpload.runner.format.Quantities;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a runner Job records of the test it runs, so that a spec changed after the start (the CRD
 * refuses that at {@code kubectl apply}; a cluster without CEL, or the tests' mock API server, does
 * not) is noticed and never half-applied: a hash of the whole spec, and the few terms the state
 * machine needs that the pods' arguments do not carry (thresholds, start timeout). Nothing of the
 * profile or its files is copied: annotations share 256 KiB, a profile may be larger.
 */
public final class RunRecord {
    /** The SHA-256 of the spec the Job was created for. */
    public static final String SPEC_HASH_ANNOTATION = "tcpload.io/spec-hash";

    /** The thresholds and start timeout the Job was created for, as JSON. */
    public static final String TERMS_ANNOTATION = "tcpload.io/run-terms";

    private static final ObjectMapper CANONICAL =
            JsonMapper.builder()
                    .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
                    .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
                    .build();

    private RunRecord() {}

    /** The terms kept beside the hash. */
    record Terms(List<String> thresholds, Integer startTimeoutSeconds) {}

    /** The annotations of a Job created for {@code spec}. */
    static Map<String, String> annotations(TcpLoadTestSpec spec) {
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(SPEC_HASH_ANNOTATION, hash(spec));
        try {
            annotations.put(
                    TERMS_ANNOTATION,
                    CANONICAL.writeValueAsString(
                            new Terms(spec.getThresholds(), spec.getStartTimeoutSeconds())));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the run terms do not serialise", e);
        }
        return annotations;
    }

    /** A hash of the whole spec, the same for equal specs whatever the order of their maps. */
    public static String hash(TcpLoadTestSpec spec) {
        try {
            byte[] json = CANONICAL.writeValueAsString(spec).getBytes(StandardCharsets.UTF_8);
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(json));
        } catch (JsonProcessingException | NoSuchAlgorithmException e) {
            throw new IllegalStateException("the spec cannot be hashed", e);
        }
    }

    /** Whether {@code current} differs from the spec {@code job} was created for. */
    public static boolean changed(Job job, TcpLoadTestSpec current) {
        Map<String, String> annotations = job.getMetadata().getAnnotations();
        String recorded = annotations == null ? null : annotations.get(SPEC_HASH_ANNOTATION);
        return recorded != null && !recorded.equals(hash(current));
    }

    /**
     * The spec {@code job} runs: {@code current} when unchanged, else the one it was created for,
     * rebuilt from the Job itself (runners, the pods' load, the time to live) and its recorded
     * terms. The profile is the current one's: nothing reads it once the runners have it.
     */
    public static TcpLoadTestSpec runSpec(Job job, TcpLoadTestSpec current) {
        if (!changed(job, current)) {
            return current;
        }
        List<String> args = job.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs();
        RunnerInvocation pod = RunnerInvocation.parse(RunnerInvocations.loadArgs(args));
        RunnerInvocation.Load load = pod.load();
        TcpLoadTestSpec run = new TcpLoadTestSpec();
        run.setProfile(current.getProfile());
        run.setProfileFrom(current.getProfileFrom());
        run.setFiles(current.getFiles());
        run.setRunners(job.getSpec().getCompletions());
        Optional<DryRunOptions> dryRun = DryRunOptions.parse(args);
        if (dryRun.isPresent()) {
            // A dry run's Job has one pod; the runners asked for are in its arguments.
            run.setDryRun(true);
            run.setRunners(pod.share().count());
            if (!dryRun.get().masks()) {
                run.setDryRunShowValues(true);
            }
        }
        run.setThreads(load.threads());
        run.setConnections((int) load.connections());
        run.setDuration(
                load.durationMs().isPresent()
                        ? Quantities.formatDurationMs(load.durationMs().getAsLong())
                        : null);
        run.setStages(
                load.stages().stream()
                        .map(
                                stage ->
                                        new Stage(
                                                Quantities.formatDurationMs(stage.durationMs()),
                                                (long) stage.targetRate()))
                        .toList());
        run.setRate(load.rate().isPresent() ? (long) load.rate().getAsDouble() : null);
        run.setTimeout(Quantities.formatDurationMs(load.timeoutMs()));
        run.setKeepAlive(load.keepAlive());
        pod.target().ifPresent(t -> run.setTarget(new TargetOverride(t.host(), t.port())));
        run.setTtlSecondsAfterFinished(job.getSpec().getTtlSecondsAfterFinished());
        run.setRunner(current.getRunner());
        Terms terms = terms(job);
        run.setThresholds(terms.thresholds() == null ? List.of() : terms.thresholds());
        run.setStartTimeoutSeconds(
                terms.startTimeoutSeconds() == null
                        ? current.getStartTimeoutSeconds()
                        : terms.startTimeoutSeconds());
        return run;
    }

    private static Terms terms(Job job) {
        String json = job.getMetadata().getAnnotations().get(TERMS_ANNOTATION);
        try {
            return json == null
                    ? new Terms(List.of(), null)
                    : CANONICAL.readValue(json, Terms.class);
        } catch (JsonProcessingException e) {
            return new Terms(List.of(), null);
        }
    }
}
