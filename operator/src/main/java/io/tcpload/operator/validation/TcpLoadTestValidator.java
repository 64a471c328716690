package io.tcpload.operator.validation;

import io.tcpload.operator.children.RunnerInvocations;
import io.tcpload.operator.crd.DataFile;
import io.tcpload.operator.crd.Stage;
import io.tcpload.operator.crd.TargetOverride;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.operator.results.Threshold;
import io.tcpload.runner.contract.RunnerLimits;
import io.tcpload.runner.format.Quantities;
import io.tcpload.runner.plan.PlanException;
import io.tcpload.runner.plan.RunPlan;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.regex.Pattern;

/**
 * Decides whether a spec can run, before anything is created: a list of small rules, each returning
 * why the spec is refused or nothing; the first failure wins. Pure (the profile rule parses with
 * the runner's loader, see {@link ProfileCheck}); no Kubernetes client. Stateless and thread-safe.
 */
public final class TcpLoadTestValidator {
    /** ConfigMap keys, which become file names in the runner pod. */
    private static final Pattern FILE_NAME = Pattern.compile("[-._a-zA-Z0-9]+");

    private static final List<BiFunction<TcpLoadTestSpec, Sources, Optional<Failure>>> RULES =
            List.of(
                    (spec, sources) -> profileSource(spec),
                    (spec, sources) -> counts(spec),
                    (spec, sources) -> durationOrStages(spec),
                    (spec, sources) -> durations(spec),
                    (spec, sources) -> rate(spec),
                    (spec, sources) -> target(spec),
                    (spec, sources) -> files(spec),
                    (spec, sources) -> thresholds(spec),
                    (spec, sources) -> timeouts(spec),
                    (spec, sources) -> runnersAccept(spec),
                    TcpLoadTestValidator::profile);

    private TcpLoadTestValidator() {}

    /** Validates what the spec carries inline; a {@code profileFrom} profile is not parsed. */
    public static Optional<Failure> validate(TcpLoadTestSpec spec) {
        return validate(spec, Sources.inline(spec));
    }

    /** Validates the spec with its profile and data files as resolved by the caller. */
    public static Optional<Failure> validate(TcpLoadTestSpec spec, Sources sources) {
        if (spec == null) {
            return fail("spec", "is missing.");
        }
        for (var rule : RULES) {
            Optional<Failure> failure = rule.apply(spec, sources);
            if (failure.isPresent()) {
                return failure;
            }
        }
        return Optional.empty();
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
        if (fromConfigMap
                && (isBlank(spec.getProfileFrom().getName())
                        || isBlank(spec.getProfileFrom().getKey()))) {
            return fail("spec.profileFrom", "needs the ConfigMap's name and key.");
        }
        return Optional.empty();
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
        if (duration == stages) {
            return fail("spec.duration", "give either duration or stages.");
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
        if (stages.size() > RunnerLimits.STAGES_MAX) {
            return fail("spec.stages", "must have at most " + RunnerLimits.STAGES_MAX + " stages.");
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
        if (target.getPort() == null || target.getPort() < 1 || target.getPort() > 65535) {
            return fail("spec.target.port", "must be from 1 to 65535.");
        }
        return Optional.empty();
    }

    static Optional<Failure> files(TcpLoadTestSpec spec) {
        Set<String> names = new HashSet<>();
        List<DataFile> files = spec.getFiles();
        for (int i = 0; i < files.size(); i++) {
            String field = "spec.files[" + i + "]";
            DataFile file = files.get(i);
            String name = file.getName();
            if (name == null || !FILE_NAME.matcher(name).matches() || name.matches("\\.+")) {
                return fail(
                        field + ".name",
                        "must be a plain file name (letters, digits, '-', '_', '.').");
            }
            if (name.equals(RunnerInvocations.PROFILE_FILE)) {
                return fail(field + ".name", "'profile.ini' is the profile's own name.");
            }
            if (!names.add(name)) {
                return fail(field + ".name", "'" + name + "' is given twice.");
            }
            if ((file.getContent() == null) == (file.getConfigMapKeyRef() == null)) {
                return fail(field, "give either content or configMapKeyRef.");
            }
        }
        return Optional.empty();
    }

    static Optional<Failure> thresholds(TcpLoadTestSpec spec) {
        List<String> thresholds = spec.getThresholds();
        for (int i = 0; i < thresholds.size(); i++) {
            try {
                Threshold.parse(thresholds.get(i));
            } catch (IllegalArgumentException e) {
                return fail("spec.thresholds[" + i + "]", e.getMessage() + ".");
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
        return ProfileCheck.problem(sources.profileText().get(), spec.getFiles(), sources)
                .map(message -> new Failure(field, message));
    }

    private static Optional<Failure> duration(String field, String text) {
        if (text == null) {
            return Optional.empty();
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
