package io.tcpload.operator.validation;

import io.tcpload.operator.children.RunnerInvocations;
import io.tcpload.operator.children.RunnerPolicy;
import io.tcpload.operator.crd.ConfigMapKey;
import io.tcpload.operator.crd.DataFile;
import io.tcpload.operator.crd.Durations;
import io.tcpload.operator.crd.KeySource;
import io.tcpload.operator.crd.ProfileSource;
import io.tcpload.operator.crd.SearchSettings;
import io.tcpload.operator.crd.SpecLimits;
import io.tcpload.operator.crd.SpecRules;
import io.tcpload.operator.crd.Stage;
import io.tcpload.operator.crd.TargetOverride;
import io.tcpload.operator.crd.TcpLoadTest;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.operator.crd.TlsSettings;
import io.tcpload.runner.contract.RunnerLimits;
import io.tcpload.runner.format.Quantities;
import io.tcpload.runner.plan.PlanException;
import io.tcpload.runner.plan.RunPlan;
import io.tcpload.runner.profile.NamedRequest;
import io.tcpload.runner.profile.ProfileException;
import io.tcpload.runner.search.SearchSpec;
import io.tcpload.runner.slo.Slo;
import io.tcpload.runner.slo.Threshold;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.regex.Pattern;

/**
 * Decides whether a spec can run, before anything is created: a list of small rules, each returning
 * why the spec is refused or nothing; the first failure wins. Pure (the profile rule parses with
 * the runner's loader, see {@link ProfileCheck}); no Kubernetes client. Stateless and thread-safe.
 *
 * <p>It refuses at least what the CRD's schema and CEL rules refuse ({@link SpecLimits}, {@link
 * io.tcpload.operator.crd.SpecRules}), for an API server that does not check them (the operator's
 * tests run against one), and what only the operator can judge: the profile as the runner loads it,
 * durations in all, and the inline texts' size in bytes. The one CRD rule it cannot apply is the
 * spec's immutability, which needs the stored object; the operator runs the spec it accepted first
 * and reports a later one in the SpecAccepted condition.
 */
public final class TcpLoadTestValidator {
    private static final Pattern FILE_NAME = Pattern.compile(SpecLimits.FILE_NAME_PATTERN);
    private static final Pattern KEY = Pattern.compile(SpecLimits.KEY_PATTERN);
    private static final Pattern OBJECT_NAME = Pattern.compile(SpecLimits.OBJECT_NAME_PATTERN);
    private static final Pattern HOST = Pattern.compile(SpecLimits.HOST_PATTERN);
    private static final Pattern DURATION = Pattern.compile(Durations.POSITIVE_PATTERN);
    private static final Pattern WARMUP = Pattern.compile(Durations.PATTERN);

    private static final List<BiFunction<TcpLoadTestSpec, Sources, Optional<Failure>>> RULES =
            List.of(
                    (spec, sources) -> profileSource(spec),
                    (spec, sources) -> inlineSize(spec),
                    (spec, sources) -> counts(spec),
                    (spec, sources) -> durationOrStages(spec),
                    (spec, sources) -> search(spec),
                    (spec, sources) -> durations(spec),
                    (spec, sources) -> rate(spec),
                    (spec, sources) -> dryRunShowValues(spec),
                    (spec, sources) -> target(spec),
                    (spec, sources) -> files(spec),
                    (spec, sources) -> tls(spec),
                    (spec, sources) -> thresholds(spec),
                    (spec, sources) -> timeouts(spec),
                    (spec, sources) -> runnerPod(spec),
                    (spec, sources) -> runnersAccept(spec),
                    TcpLoadTestValidator::profile,
                    TcpLoadTestValidator::thresholdRequests);

    private TcpLoadTestValidator() {}

    /**
     * Validates a test: its name, which names its runner pods' hosts, and its spec with its profile
     * and data files as resolved by the caller.
     */
    public static Optional<Failure> validate(TcpLoadTest test, Sources sources) {
        return validate(test, sources, RunnerPolicy.NONE);
    }

    /**
     * Validates a test as {@link #validate(TcpLoadTest, Sources)} does, and its runner pods'
     * settings over the operator's runner defaults against the operator's allow-lists.
     */
    public static Optional<Failure> validate(
            TcpLoadTest test, Sources sources, RunnerPolicy policy) {
        Optional<Failure> failure = check(test.getSpec(), sources, policy);
        if (failure.isPresent()) {
            return failure;
        }
        return name(
                test.getMetadata() == null ? null : test.getMetadata().getName(), test.getSpec());
    }

    /**
     * The test's name makes its runner pods' host names, {@code NAME-runners-INDEX}: a DNS label of
     * at most 63 characters for the highest index ({@link SpecLimits#TEST_NAME_MAX}).
     */
    static Optional<Failure> name(String name, TcpLoadTestSpec spec) {
        if (name == null) {
            return Optional.empty();
        }
        if (name.contains(".")) {
            return fail(
                    "metadata.name",
                    "must not contain '.': the runner pods' host names, NAME-runners-INDEX, are"
                            + " DNS labels.");
        }
        int indexDigits = String.valueOf(spec.getRunners() - 1).length();
        int most = SpecLimits.TEST_NAME_MAX + 1 - indexDigits;
        if (name.length() > most) {
            return fail(
                    "metadata.name",
                    "is "
                            + name.length()
                            + " characters, more than "
                            + most
                            + " for "
                            + spec.getRunners()
                            + (spec.getRunners() == 1 ? " runner" : " runners")
                            + ": the runner pods' host names, NAME-runners-INDEX, are at most "
                            + SpecLimits.HOST_NAME_MAX
                            + " characters.");
        }
        return Optional.empty();
    }

    /** Validates what the spec carries inline; a {@code profileFrom} profile is not parsed. */
    public static Optional<Failure> validate(TcpLoadTestSpec spec) {
        return validate(spec, Sources.inline(spec));
    }

    /** Validates the spec with its profile and data files as resolved by the caller. */
    public static Optional<Failure> validate(TcpLoadTestSpec spec, Sources sources) {
        return check(spec, sources, RunnerPolicy.NONE);
    }

    private static Optional<Failure> check(
            TcpLoadTestSpec spec, Sources sources, RunnerPolicy policy) {
        if (spec == null) {
            return fail("spec", "is missing.");
        }
        for (var rule : RULES) {
            Optional<Failure> failure = rule.apply(spec, sources);
            if (failure.isPresent()) {
                return failure;
            }
        }
        return RunnerPodCheck.withPolicy(spec.getRunner(), policy);
    }

    static Optional<Failure> profileSource(TcpLoadTestSpec spec) {
        boolean inline = spec.getProfile() != null;
        boolean fromConfigMap = spec.getProfileFrom() != null;
        if (inline == fromConfigMap) {
            return fail("spec.profile", "give either profile (the INI text) or profileFrom.");
        }
        if (inline && spec.getProfile().isBlank()) {
            return fail("spec.profile", "is empty.");
        }
        if (inline && spec.getProfile().length() > SpecLimits.INLINE_TEXT_MAX) {
            return fail(
                    "spec.profile",
                    "must be at most "
                            + SpecLimits.INLINE_TEXT_MAX
                            + " characters; put a larger profile in a ConfigMap (profileFrom).");
        }
        if (fromConfigMap) {
            ProfileSource from = spec.getProfileFrom();
            boolean shorthand = from.getName() != null || from.getKey() != null;
            int given =
                    (shorthand ? 1 : 0)
                            + (from.getConfigMapKeyRef() != null ? 1 : 0)
                            + (from.getSecretKeyRef() != null ? 1 : 0);
            if (given != 1) {
                return fail(
                        "spec.profileFrom",
                        "give one of configMapKeyRef, secretKeyRef, or a ConfigMap's name and key.");
            }
            if (from.getSecretKeyRef() != null) {
                return key(
                        "spec.profileFrom.secretKeyRef",
                        "Secret",
                        from.getSecretKeyRef().getName(),
                        from.getSecretKeyRef().getKey());
            }
            return configMapKey(
                    shorthand ? "spec.profileFrom" : "spec.profileFrom.configMapKeyRef",
                    from.configMap().orElseThrow());
        }
        return Optional.empty();
    }

    /**
     * {@code spec.tls} names a client certificate Secret, a CA bundle key or both, each as the
     * CRD's patterns take them.
     */
    static Optional<Failure> tls(TcpLoadTestSpec spec) {
        TlsSettings tls = spec.getTls();
        if (tls == null) {
            return Optional.empty();
        }
        if (tls.getClientCertificate() == null && tls.getCa() == null) {
            return fail("spec.tls", "give clientCertificate, ca or both.");
        }
        if (tls.getClientCertificate() != null) {
            String name = tls.getClientCertificate().getSecretName();
            if (isBlank(name)) {
                return fail("spec.tls.clientCertificate.secretName", "is missing.");
            }
            if (name.length() > SpecLimits.OBJECT_NAME_MAX
                    || !OBJECT_NAME.matcher(name).matches()) {
                return fail(
                        "spec.tls.clientCertificate.secretName",
                        "'"
                                + name
                                + "' is not a Secret name (lowercase letters, digits, '-' and '.',"
                                + " at most "
                                + SpecLimits.OBJECT_NAME_MAX
                                + ").");
            }
        }
        KeySource ca = tls.getCa();
        if (ca != null) {
            if ((ca.getConfigMapKeyRef() == null) == (ca.getSecretKeyRef() == null)) {
                return fail("spec.tls.ca", "give one of configMapKeyRef and secretKeyRef.");
            }
            if (ca.getConfigMapKeyRef() != null) {
                return configMapKey("spec.tls.ca.configMapKeyRef", ca.getConfigMapKeyRef());
            }
            return key(
                    "spec.tls.ca.secretKeyRef",
                    "Secret",
                    ca.getSecretKeyRef().getName(),
                    ca.getSecretKeyRef().getKey());
        }
        return Optional.empty();
    }

    /** A ConfigMap's name and key, as the CRD's patterns take them. */
    private static Optional<Failure> configMapKey(String field, ConfigMapKey ref) {
        return key(field, "ConfigMap", ref.getName(), ref.getKey());
    }

    /** A ConfigMap's or Secret's name and key, as the CRD's patterns take them. */
    private static Optional<Failure> key(String field, String kind, String name, String key) {
        ConfigMapKey ref = new ConfigMapKey(name, key);
        if (isBlank(ref.getName()) || isBlank(ref.getKey())) {
            return fail(field, "needs the " + kind + "'s name and key.");
        }
        if (ref.getName().length() > SpecLimits.OBJECT_NAME_MAX
                || !OBJECT_NAME.matcher(ref.getName()).matches()) {
            return fail(
                    field + ".name",
                    "'"
                            + ref.getName()
                            + "' is not a "
                            + kind
                            + " name (lowercase letters, digits, '-' and '.',"
                            + " at most "
                            + SpecLimits.OBJECT_NAME_MAX
                            + ").");
        }
        if (ref.getKey().length() > SpecLimits.KEY_MAX || !KEY.matcher(ref.getKey()).matches()) {
            return fail(
                    field + ".key",
                    "'"
                            + ref.getKey()
                            + "' is not a "
                            + kind
                            + " key (letters, digits, '-', '_' and '.', at most "
                            + SpecLimits.KEY_MAX
                            + ").");
        }
        return Optional.empty();
    }

    /**
     * The inline profile and files together fit client-side {@code kubectl apply}, which copies the
     * whole object into an annotation ({@link SpecLimits#INLINE_BYTES_MAX}).
     */
    static Optional<Failure> inlineSize(TcpLoadTestSpec spec) {
        long bytes = utf8Length(spec.getProfile());
        for (DataFile file : spec.getFiles()) {
            bytes += utf8Length(file.getContent());
        }
        if (bytes <= SpecLimits.INLINE_BYTES_MAX) {
            return Optional.empty();
        }
        return fail(
                spec.getProfile() != null ? "spec.profile" : "spec.files",
                "the inline profile and files (spec.profile and spec.files[].content) take "
                        + bytes
                        + " bytes together, more than "
                        + SpecLimits.INLINE_BYTES_MAX
                        + " (200 KiB): client-side kubectl apply copies the whole object into an"
                        + " annotation, and an object's annotations are at most 256 KiB. Put"
                        + " them in a ConfigMap (profileFrom, files[].configMapKeyRef), and"
                        + " create a ConfigMap over 256 KiB with kubectl apply --server-side"
                        + " or kubectl create.");
    }

    private static long utf8Length(String text) {
        return text == null ? 0 : text.getBytes(StandardCharsets.UTF_8).length;
    }

    static Optional<Failure> counts(TcpLoadTestSpec spec) {
        if (spec.getRunners() == null || spec.getRunners() < 1) {
            return fail("spec.runners", "must be at least 1.");
        }
        if (spec.getRunners() > RunnerLimits.RUNNERS_MAX) {
            return fail("spec.runners", "must be at most " + RunnerLimits.RUNNERS_MAX + ".");
        }
        if (spec.getThreads() == null || spec.getThreads() < 1) {
            return fail("spec.threads", "must be at least 1.");
        }
        if (spec.getThreads() > RunnerLimits.THREADS_MAX) {
            return fail(
                    "spec.threads",
                    "must be at most " + RunnerLimits.THREADS_MAX + " event loops per runner.");
        }
        long needed = (long) spec.getRunners() * spec.getThreads();
        if (spec.getConnections() == null || spec.getConnections() < needed) {
            return fail(
                    "spec.connections",
                    "must be at least runners x threads ("
                            + spec.getRunners()
                            + " x "
                            + spec.getThreads()
                            + " = "
                            + needed
                            + "), so that every event loop of every runner has a connection.");
        }
        long most = (long) spec.getRunners() * RunnerLimits.CONNECTIONS_MAX;
        if (spec.getConnections() > most) {
            return fail(
                    "spec.connections",
                    "must be at most runners x "
                            + RunnerLimits.CONNECTIONS_MAX
                            + " ("
                            + most
                            + "): one runner opens at most "
                            + RunnerLimits.CONNECTIONS_MAX
                            + "; add runners.");
        }
        return Optional.empty();
    }

    static Optional<Failure> durationOrStages(TcpLoadTestSpec spec) {
        boolean duration = spec.getDuration() != null;
        boolean stages = !spec.getStages().isEmpty();
        if (spec.getSearch() != null) {
            return Optional.empty(); // search() says what goes with a search
        }
        boolean dryRunWithNeither = Boolean.TRUE.equals(spec.getDryRun()) && !duration && !stages;
        if (duration == stages && !dryRunWithNeither) {
            return fail("spec.duration", SpecRules.DURATION_OR_STAGES_MESSAGE);
        }
        return Optional.empty();
    }

    static Optional<Failure> durations(TcpLoadTestSpec spec) {
        Optional<Failure> failure = duration("spec.duration", spec.getDuration());
        if (failure.isPresent()) {
            return failure;
        }
        failure = duration("spec.timeout", spec.getTimeout());
        if (failure.isPresent()) {
            return failure;
        }
        List<Stage> stages = spec.getStages();
        if (stages.size() > RunnerLimits.STAGES_MAX) {
            return fail("spec.stages", "must have at most " + RunnerLimits.STAGES_MAX + " stages.");
        }
        for (int i = 0; i < stages.size(); i++) {
            String field = "spec.stages[" + i + "]";
            Stage stage = stages.get(i);
            if (stage.getDuration() == null) {
                return fail(field + ".duration", "is missing.");
            }
            failure = duration(field + ".duration", stage.getDuration());
            if (failure.isPresent()) {
                return failure;
            }
            if (stage.getRate() == null
                    || stage.getRate() < 0
                    || stage.getRate() > RunnerLimits.RATE_MAX) {
                return fail(
                        field + ".rate",
                        "must be from 0 to "
                                + (long) RunnerLimits.RATE_MAX
                                + " requests per second.");
            }
        }
        long totalMs = RunnerInvocations.totalDurationMs(spec);
        if (totalMs > RunnerLimits.DURATION_MAX_MS) {
            return fail(
                    spec.getDuration() != null ? "spec.duration" : "spec.stages",
                    "must last at most "
                            + Quantities.formatDurationMs(RunnerLimits.DURATION_MAX_MS)
                            + " in all.");
        }
        if (RunnerInvocations.load(spec).timeoutMs() > RunnerLimits.TIMEOUT_MAX_MS) {
            return fail(
                    "spec.timeout",
                    "must be at most "
                            + Quantities.formatDurationMs(RunnerLimits.TIMEOUT_MAX_MS)
                            + ".");
        }
        return Optional.empty();
    }

    /** Showing a dry run's masked values is for a dry run ({@code SpecRules}' rule too). */
    static Optional<Failure> dryRunShowValues(TcpLoadTestSpec spec) {
        if (Boolean.TRUE.equals(spec.getDryRunShowValues())
                && !Boolean.TRUE.equals(spec.getDryRun())) {
            return fail(
                    "spec.dryRunShowValues",
                    "is for a dry run: set spec.dryRun: true, or leave dryRunShowValues out.");
        }
        return Optional.empty();
    }

    static Optional<Failure> rate(TcpLoadTestSpec spec) {
        if (spec.getRate() == null) {
            return Optional.empty();
        }
        if (spec.getRate() <= 0 || spec.getRate() > RunnerLimits.RATE_MAX) {
            return fail(
                    "spec.rate",
                    "must be above 0 and at most "
                            + (long) RunnerLimits.RATE_MAX
                            + " requests per second.");
        }
        if (spec.getRate() < spec.getRunners()) {
            return fail(
                    "spec.rate",
                    "must be at least the number of runners ("
                            + spec.getRunners()
                            + "), so that every runner gets a share.");
        }
        return Optional.empty();
    }

    static Optional<Failure> target(TcpLoadTestSpec spec) {
        TargetOverride target = spec.getTarget();
        if (target == null) {
            return Optional.empty();
        }
        if (isBlank(target.getHost())) {
            return fail("spec.target.host", "is missing.");
        }
        if (target.getHost().length() > SpecLimits.HOST_MAX
                || !HOST.matcher(target.getHost()).matches()) {
            return fail(
                    "spec.target.host",
                    "must be a host name or IP address without blanks, at most "
                            + SpecLimits.HOST_MAX
                            + " characters.");
        }
        if (target.getPort() == null || target.getPort() < 1 || target.getPort() > 65535) {
            return fail("spec.target.port", "must be from 1 to 65535.");
        }
        return Optional.empty();
    }

    static Optional<Failure> files(TcpLoadTestSpec spec) {
        Set<String> names = new HashSet<>();
        List<DataFile> files = spec.getFiles();
        if (files.size() > SpecLimits.FILES_MAX) {
            return fail("spec.files", "must have at most " + SpecLimits.FILES_MAX + " files.");
        }
        for (int i = 0; i < files.size(); i++) {
            String field = "spec.files[" + i + "]";
            DataFile file = files.get(i);
            String name = file.getName();
            if (name == null
                    || name.length() > SpecLimits.KEY_MAX
                    || !FILE_NAME.matcher(name).matches()) {
                return fail(
                        field + ".name",
                        "must be a plain file name (letters, digits, '-', '_', '.'; not only"
                                + " dots), at most "
                                + SpecLimits.KEY_MAX
                                + " characters.");
            }
            if (name.equals(RunnerInvocations.PROFILE_FILE)) {
                return fail(field + ".name", "'profile.ini' is the profile's own name.");
            }
            if (!names.add(name)) {
                return fail(field + ".name", "'" + name + "' is given twice.");
            }
            int sources =
                    (file.getContent() != null ? 1 : 0)
                            + (file.getConfigMapKeyRef() != null ? 1 : 0)
                            + (file.getSecretKeyRef() != null ? 1 : 0);
            if (sources != 1) {
                return fail(field, "give one of content, configMapKeyRef and secretKeyRef.");
            }
            if (file.getSecretKeyRef() != null) {
                Optional<Failure> failure =
                        key(
                                field + ".secretKeyRef",
                                "Secret",
                                file.getSecretKeyRef().getName(),
                                file.getSecretKeyRef().getKey());
                if (failure.isPresent()) {
                    return failure;
                }
            }
            if (file.getContent() != null
                    && file.getContent().length() > SpecLimits.INLINE_TEXT_MAX) {
                return fail(
                        field + ".content",
                        "must be at most "
                                + SpecLimits.INLINE_TEXT_MAX
                                + " characters; put a larger file in a ConfigMap"
                                + " (configMapKeyRef).");
            }
            if (file.getConfigMapKeyRef() != null) {
                Optional<Failure> failure =
                        configMapKey(field + ".configMapKeyRef", file.getConfigMapKeyRef());
                if (failure.isPresent()) {
                    return failure;
                }
            }
        }
        return Optional.empty();
    }

    static Optional<Failure> thresholds(TcpLoadTestSpec spec) {
        List<String> thresholds = spec.getThresholds();
        if (thresholds.size() > SpecLimits.THRESHOLDS_MAX) {
            return fail(
                    "spec.thresholds",
                    "must have at most " + SpecLimits.THRESHOLDS_MAX + " thresholds.");
        }
        for (int i = 0; i < thresholds.size(); i++) {
            String field = "spec.thresholds[" + i + "]";
            String text = thresholds.get(i);
            if (text != null && text.length() > SpecLimits.THRESHOLD_MAX) {
                return fail(field, "must be at most " + SpecLimits.THRESHOLD_MAX + " characters.");
            }
            try {
                Threshold.parse(text);
            } catch (IllegalArgumentException e) {
                return fail(field, e.getMessage() + ".");
            }
        }
        return Optional.empty();
    }

    static Optional<Failure> timeouts(TcpLoadTestSpec spec) {
        if (spec.getStartTimeoutSeconds() != null && spec.getStartTimeoutSeconds() < 1) {
            return fail("spec.startTimeoutSeconds", "must be at least 1.");
        }
        if (spec.getTtlSecondsAfterFinished() != null && spec.getTtlSecondsAfterFinished() < 0) {
            return fail("spec.ttlSecondsAfterFinished", "must not be negative.");
        }
        return Optional.empty();
    }

    /**
     * The runner pods' settings: tcpload's own bounds, and what they add beside the operator's own
     * volumes, mounts and container ({@link RunnerPodCheck}).
     */
    static Optional<Failure> runnerPod(TcpLoadTestSpec spec) {
        return RunnerPodCheck.settings("spec.runner", spec.getRunner());
    }

    /**
     * What the rules above miss, the runners themselves would refuse: each runner's invocation is
     * checked by the runner's own plan, so that no spec that passes here fails in the pods.
     */
    static Optional<Failure> runnersAccept(TcpLoadTestSpec spec) {
        for (int i = 0; i < spec.getRunners(); i++) {
            try {
                RunPlan.of(RunnerInvocations.forRunner(spec, i), name -> null);
            } catch (PlanException e) {
                return fail("spec", "runner " + i + " would refuse it: " + e.getMessage() + ".");
            } catch (IllegalArgumentException e) {
                return fail("spec", e.getMessage() + ".");
            }
        }
        return Optional.empty();
    }

    static Optional<Failure> profile(TcpLoadTestSpec spec, Sources sources) {
        if (sources.profileText().isEmpty()) {
            return Optional.empty();
        }
        String field = spec.getProfile() != null ? "spec.profile" : "spec.profileFrom";
        return ProfileCheck.problem(
                field, sources.profileText().get(), spec.getFiles(), spec.getTls(), sources);
    }

    /**
     * A threshold naming a request ({@code p99{request=transfer} < 200ms}) must name one of the
     * profile's {@code [request.NAME]} sections: judged against a request that never runs, it could
     * never hold. A profile the operator does not read (from a Secret) is judged at the end
     * instead, where such a threshold is missed.
     */
    static Optional<Failure> thresholdRequests(TcpLoadTestSpec spec, Sources sources) {
        if (sources.profileText().isEmpty()
                || spec.getThresholds().stream()
                        .noneMatch(text -> Threshold.parse(text).request().isPresent())) {
            return Optional.empty();
        }
        List<String> names;
        try {
            names =
                    ProfileCheck.load(
                                    sources.profileText().get(),
                                    spec.getFiles(),
                                    spec.getTls(),
                                    sources)
                            .profile()
                            .mix()
                            .stream()
                            .map(NamedRequest::name)
                            .toList();
        } catch (ProfileException e) {
            return Optional.empty(); // the profile rule has said why
        }
        for (int i = 0; i < spec.getThresholds().size(); i++) {
            Threshold threshold = Threshold.parse(spec.getThresholds().get(i));
            Optional<String> name = threshold.request();
            if (name.isPresent() && !names.contains(name.get())) {
                return fail(
                        "spec.thresholds[" + i + "]",
                        "'"
                                + threshold.text()
                                + "' names the request '"
                                + name.get()
                                + "', which the profile does not have; "
                                + (names.isEmpty()
                                        ? "it has no [request.NAME] sections, so use a threshold"
                                                + " on the whole test, such as '"
                                                + threshold.text().replaceFirst("\\{[^}]*\\}", "")
                                                + "'."
                                        : "its requests are " + String.join(", ", names) + "."));
            }
        }
        return Optional.empty();
    }

    /**
     * A capacity search ({@code spec.search}): an objective the runner's search takes, a range, a
     * step of whole seconds, a warm-up and a precision within the runner's bounds, and no duration,
     * rate or stages beside it.
     */
    static Optional<Failure> search(TcpLoadTestSpec spec) {
        SearchSettings search = spec.getSearch();
        if (search == null) {
            return Optional.empty();
        }
        List<String> given = new ArrayList<>();
        if (spec.getDuration() != null) {
            given.add("spec.duration");
        }
        if (spec.getRate() != null) {
            given.add("spec.rate");
        }
        if (!spec.getStages().isEmpty()) {
            given.add("spec.stages");
        }
        if (!given.isEmpty()) {
            return fail(
                    "spec.search",
                    "chooses each step's rate and length itself: leave out "
                            + String.join(", ", given)
                            + ".");
        }
        List<String> slo = search.getSlo() == null ? List.of() : search.getSlo();
        if (slo.isEmpty()) {
            return fail(
                    "spec.search.slo",
                    "is missing: give the objective each step must hold, such as 'p99 < 50ms'.");
        }
        if (slo.size() > SpecLimits.THRESHOLDS_MAX) {
            return fail(
                    "spec.search.slo",
                    "must have at most " + SpecLimits.THRESHOLDS_MAX + " thresholds.");
        }
        for (int i = 0; i < slo.size(); i++) {
            String field = "spec.search.slo[" + i + "]";
            String text = slo.get(i);
            if (text != null && text.length() > SpecLimits.THRESHOLD_MAX) {
                return fail(field, "must be at most " + SpecLimits.THRESHOLD_MAX + " characters.");
            }
            Threshold term;
            try {
                term = Threshold.parse(text);
            } catch (IllegalArgumentException e) {
                return fail(field, e.getMessage() + ".");
            }
            if (term.request().isPresent()) {
                return fail(
                        field,
                        "a capacity is the whole test's: an objective on one named request is not"
                                + " taken.");
            }
        }
        try {
            Slo.parse(String.join(", ", slo));
        } catch (IllegalArgumentException e) {
            return fail("spec.search.slo", e.getMessage() + ".");
        }
        Long min = search.getMinRate();
        Long max = search.getMaxRate();
        for (var rate :
                List.of(
                        Map.entry("spec.search.minRate", Optional.ofNullable(min)),
                        Map.entry("spec.search.maxRate", Optional.ofNullable(max)))) {
            if (rate.getValue().isEmpty()) {
                return fail(rate.getKey(), "is missing: the rates to search, requests per second.");
            }
            long value = rate.getValue().get();
            if (value < 1 || value > RunnerLimits.RATE_MAX) {
                return fail(
                        rate.getKey(),
                        "must be from 1 to "
                                + (long) RunnerLimits.RATE_MAX
                                + " requests per second.");
            }
        }
        if (min >= max) {
            return fail(
                    "spec.search.maxRate",
                    "must be above minRate (" + min + "), so that there is a range to search.");
        }
        if (min < spec.getRunners()) {
            return fail(
                    "spec.search.minRate",
                    "must be at least the number of runners ("
                            + spec.getRunners()
                            + "), so that every runner gets a share.");
        }
        Optional<Failure> failure = duration("spec.search.step", search.getStep());
        if (failure.isPresent()) {
            return failure;
        }
        if (search.getStep() != null) {
            long stepMs = Quantities.durationMs("spec.search.step", search.getStep());
            if (stepMs < SearchSpec.MIN_STEP_MS
                    || stepMs % 1000 != 0
                    || stepMs > RunnerLimits.DURATION_MAX_MS) {
                return fail(
                        "spec.search.step",
                        "must be whole seconds from 2s to "
                                + Quantities.formatDurationMs(RunnerLimits.DURATION_MAX_MS)
                                + " (got "
                                + search.getStep()
                                + ").");
            }
        }
        if (search.getWarmup() != null) {
            String warmup = search.getWarmup();
            long warmupMs;
            try {
                if (warmup.length() > SpecLimits.DURATION_MAX
                        || !WARMUP.matcher(warmup).matches()) {
                    throw new IllegalArgumentException(warmup);
                }
                warmupMs = Quantities.signedDurationMs("spec.search.warmup", warmup);
            } catch (IllegalArgumentException e) {
                return fail(
                        "spec.search.warmup",
                        "'" + warmup + "' is not a duration such as 1s, 500ms or 0.");
            }
            if (warmupMs > RunnerLimits.WARMUP_MAX_MS) {
                return fail(
                        "spec.search.warmup",
                        "must be at most "
                                + Quantities.formatDurationMs(RunnerLimits.WARMUP_MAX_MS)
                                + ".");
            }
        }
        if (search.getPrecision() != null) {
            double precision;
            try {
                if (search.getPrecision().length() > SearchSettings.PRECISION_MAX) {
                    throw new IllegalArgumentException("too long");
                }
                precision = RunnerInvocations.precision(search.getPrecision());
            } catch (IllegalArgumentException e) {
                return fail(
                        "spec.search.precision",
                        "'" + search.getPrecision() + "' is not a precision such as 2% or 0.02.");
            }
            if (!(precision >= SearchSpec.MIN_PRECISION && precision <= SearchSpec.MAX_PRECISION)) {
                return fail(
                        "spec.search.precision",
                        "must be from 0.1% to 50% (got " + search.getPrecision() + ").");
            }
        }
        return Optional.empty();
    }

    private static Optional<Failure> duration(String field, String text) {
        if (text == null) {
            return Optional.empty();
        }
        if (text.length() > SpecLimits.DURATION_MAX || !DURATION.matcher(text).matches()) {
            return fail(field, "'" + text + "' is not a duration such as 30s, 2m, 500ms or 1h.");
        }
        try {
            Quantities.durationMs(field, text);
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            return fail(field, "'" + text + "' is not a duration such as 30s, 2m, 500ms or 1h.");
        }
    }

    private static boolean isBlank(String text) {
        return text == null || text.isBlank();
    }

    private static Optional<Failure> fail(String field, String message) {
        return Optional.of(new Failure(field, message));
    }
}
