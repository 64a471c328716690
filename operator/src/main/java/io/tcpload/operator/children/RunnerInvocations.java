package io.tcpload.operator.children;

import io.tcpload.operator.crd.DataFile;
import io.tcpload.operator.crd.SearchSettings;
import io.tcpload.operator.crd.Stage;
import io.tcpload.operator.crd.TargetOverride;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.operator.crd.TlsSettings;
import io.tcpload.runner.contract.DryRunOptions;
import io.tcpload.runner.contract.RunnerInvocation;
import io.tcpload.runner.contract.RunnerInvocation.Control;
import io.tcpload.runner.contract.RunnerInvocation.Load;
import io.tcpload.runner.contract.RunnerInvocation.Outputs;
import io.tcpload.runner.contract.RunnerInvocation.Share;
import io.tcpload.runner.contract.Shares;
import io.tcpload.runner.format.Quantities;
import io.tcpload.runner.plan.PlanException;
import io.tcpload.runner.plan.RunPlan;
import io.tcpload.runner.profile.Target;
import io.tcpload.runner.search.SearchSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * What each runner of a test is asked to do: the one place where a spec becomes {@link
 * RunnerInvocation}s, for the runner pods ({@link #forPod}, turned into the container's arguments)
 * and for a local run ({@link #forRunner}, handed to in-process runners) alike. Pure.
 *
 * <p>Connections are the whole test's; runner {@code i} of {@code N} gets its share (the first
 * runners take the remainder), so the runners together open exactly {@code connections}. The rate
 * and the stages are passed whole: each runner takes its interleaved share of the test's one
 * schedule from its index and the runner count.
 */
public final class RunnerInvocations {
    /** Where the runner pod mounts the profile and its data files. */
    public static final String PROFILE_DIR = "/etc/tcpload/profile";

    /** The profile's file name in {@link #PROFILE_DIR} (and its key in the ConfigMap). */
    public static final String PROFILE_FILE = "profile.ini";

    /** Where the runner pod mounts the files of {@code spec.tls}. */
    public static final String TLS_DIR = "/etc/tcpload/tls";

    /** The file names in {@link #TLS_DIR}: the CA bundle, the client certificate and its key. */
    public static final String TLS_CA_FILE = "ca.crt";

    public static final String TLS_CERT_FILE = "tls.crt";
    public static final String TLS_KEY_FILE = "tls.key";

    /** Where the runner pod writes its JSON result. */
    public static final String RESULTS_DIR = "/results";

    public static final String RESULT_FILE = RESULTS_DIR + "/result.json";

    /**
     * How long a runner pod keeps its result for the operator after the run: long enough for an
     * operator restarted mid-run to come back and fetch it.
     */
    public static final int HOLD_RESULT_SECONDS = 600;

    /**
     * Where a dry run's runner pod writes its exchange: the container's termination message file
     * (Kubernetes' default {@code terminationMessagePath}), which the kubelet copies into the pod's
     * status, at most 4 KiB, when the container ends.
     */
    public static final String TERMINATION_MESSAGE_PATH = "/dev/termination-log";

    private RunnerInvocations() {}

    /** Whether the test is a dry run ({@code spec.dryRun}) instead of a load. */
    public static boolean dryRun(TcpLoadTestSpec spec) {
        return Boolean.TRUE.equals(spec.getDryRun());
    }

    /** The test's runner pods: {@code spec.runners}, or one for a dry run. */
    public static int pods(TcpLoadTestSpec spec) {
        return dryRun(spec) ? 1 : spec.getRunners();
    }

    /**
     * What a dry run of the test ({@code spec.dryRun}) writes and hides: the values of ENV
     * parameters, the lines of Secret-sourced files and the values carried from responses are
     * masked, unless {@code spec.dryRunShowValues}; the exchange goes to {@code json}.
     */
    public static DryRunOptions dryRunOptions(TcpLoadTestSpec spec, Optional<Path> json) {
        if (Boolean.TRUE.equals(spec.getDryRunShowValues())) {
            return new DryRunOptions(json, false, List.of(), false);
        }
        List<String> secretFiles =
                spec.getFiles().stream()
                        .filter(file -> file.getSecretKeyRef() != null)
                        .map(DataFile::getName)
                        .toList();
        return new DryRunOptions(json, true, secretFiles, true);
    }

    /**
     * The runner container's arguments: {@link #forPod}'s, and for a dry run its {@link
     * #dryRunOptions} before them, the exchange written as the termination message.
     */
    public static List<String> podArgs(TcpLoadTestSpec spec, int port) {
        List<String> args = new ArrayList<>();
        if (dryRun(spec)) {
            args.addAll(
                    dryRunOptions(spec, Optional.of(Path.of(TERMINATION_MESSAGE_PATH))).toArgs());
        }
        args.addAll(forPod(spec, port).toArgs());
        return List.copyOf(args);
    }

    /**
     * The load's arguments of a runner container's {@code args}: those a {@link RunnerInvocation}
     * parses, without a dry run's ({@link #podArgs}).
     */
    public static List<String> loadArgs(List<String> args) {
        return DryRunOptions.withoutDryRun(args);
    }

    /** Whether a runner container's {@code args} are a dry run's ({@link #podArgs}). */
    public static boolean dryRunArgs(List<String> args) {
        return DryRunOptions.parse(args).isPresent();
    }

    /**
     * Runner {@code runnerIndex}, with its index and its share of the connections given.
     *
     * @throws IllegalArgumentException when the index is outside the spec's runners or a duration
     *     does not parse (validation refuses such specs first)
     */
    public static RunnerInvocation forRunner(TcpLoadTestSpec spec, int runnerIndex) {
        int runners = spec.getRunners();
        if (runnerIndex < 0 || runnerIndex >= runners) {
            throw new IllegalArgumentException(
                    "runner index " + runnerIndex + " is outside 0.." + (runners - 1));
        }
        return base(spec, new Share(OptionalInt.of(runnerIndex), runners, false))
                .withLoad(load(spec).withConnections(shareOf(spec, runnerIndex)));
    }

    /**
     * Every pod of the Indexed Job: a pod's index is not known when its template is written, so the
     * runner reads it from {@code JOB_COMPLETION_INDEX} and takes its share of the whole test's
     * connections itself, by the same rule as {@link #forRunner}.
     */
    public static RunnerInvocation forJob(TcpLoadTestSpec spec) {
        return base(spec, new Share(OptionalInt.empty(), spec.getRunners(), true));
    }

    /**
     * A runner pod: {@link #forJob}, and the control channel on {@code port}: the pod waits ready
     * for the operator's start instant and holds its result until the operator has it.
     */
    public static RunnerInvocation forPod(TcpLoadTestSpec spec, int port) {
        RunnerInvocation job = forJob(spec);
        if (spec.getTls() != null) {
            job = job.withTls(podTls(spec.getTls(), job.tls()));
        }
        if (job.search().asked()) {
            // The operator decides each step from every runner's results and tells it.
            job = job.withSearch(job.search().withStepsFromControl());
        }
        return job.withControl(
                new Control(
                        OptionalInt.of(port),
                        Optional.empty(),
                        true,
                        OptionalInt.of(HOLD_RESULT_SECONDS),
                        job.control().labels()));
    }

    /** Whether the test is a capacity search ({@code spec.search}). */
    public static boolean search(TcpLoadTestSpec spec) {
        return spec.getSearch() != null && !dryRun(spec);
    }

    /**
     * The runners' {@code --search} flags of {@code spec.search}; {@link
     * RunnerInvocation.Search#NONE} without one.
     *
     * @throws IllegalArgumentException when a duration or the precision does not parse (validation
     *     refuses such specs first)
     */
    public static RunnerInvocation.Search searchFlags(TcpLoadTestSpec spec) {
        SearchSettings search = spec.getSearch();
        if (search == null) {
            return RunnerInvocation.Search.NONE;
        }
        return new RunnerInvocation.Search(
                Optional.of(String.join(", ", search.getSlo())),
                Optional.of(
                        new RunnerInvocation.Range(
                                search.getMinRate() == null ? 0 : search.getMinRate(),
                                search.getMaxRate() == null ? 0 : search.getMaxRate())),
                search.getStep() == null
                        ? OptionalLong.empty()
                        : OptionalLong.of(
                                Quantities.durationMs("spec.search.step", search.getStep())),
                search.getWarmup() == null
                        ? OptionalLong.empty()
                        : OptionalLong.of(
                                Quantities.signedDurationMs(
                                        "spec.search.warmup", search.getWarmup())),
                search.getPrecision() == null
                        ? OptionalDouble.empty()
                        : OptionalDouble.of(precision(search.getPrecision())));
    }

    /**
     * {@code 2%} or {@code 0.02} as a fraction.
     *
     * @throws IllegalArgumentException when it is neither
     */
    public static double precision(String text) {
        String number = text.strip();
        boolean percent = number.endsWith("%");
        if (percent) {
            number = number.substring(0, number.length() - 1).strip();
        }
        if (!number.matches("[0-9]+(\\.[0-9]+)?")) {
            throw new IllegalArgumentException(
                    "'" + text + "' is not a precision such as 2% or 0.02");
        }
        double value = Double.parseDouble(number);
        return percent ? value / 100 : value;
    }

    /**
     * The search the orchestrator runs for {@code spec.search}, as runner 0's plan reads it: the
     * objective, the range, each step's length and warm-up, the precision, and the whole test's
     * connections for the Little's law check.
     *
     * @throws IllegalArgumentException when the spec has no search or the runner would refuse it
     *     (validation refuses such specs first)
     */
    public static SearchSpec searchSpec(TcpLoadTestSpec spec) {
        RunPlan plan;
        try {
            plan = RunPlan.of(forRunner(spec, 0), name -> null);
        } catch (PlanException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        SearchSpec runner0 =
                plan.search()
                        .orElseThrow(() -> new IllegalArgumentException("the test has no search"));
        // Runner 0's plan counts its own connections once per runner; the test's are these.
        return new SearchSpec(
                runner0.slo(),
                runner0.minRate(),
                runner0.maxRate(),
                runner0.stepMs(),
                runner0.warmupMs(),
                runner0.precision(),
                Math.max(1, (long) spec.getConnections()),
                runner0.firstWarmupMs());
    }

    /**
     * The files of {@code spec.tls} as the pod mounts them, in place of the profile's own: {@code
     * --tls-ca} with a CA bundle, {@code --tls-cert} and {@code --tls-key} with a client
     * certificate.
     */
    private static RunnerInvocation.Tls podTls(TlsSettings tls, RunnerInvocation.Tls flags) {
        Path dir = Path.of(TLS_DIR);
        boolean client = tls.getClientCertificate() != null;
        return new RunnerInvocation.Tls(
                flags.enable(),
                tls.getCa() == null ? Optional.empty() : Optional.of(dir.resolve(TLS_CA_FILE)),
                client ? Optional.of(dir.resolve(TLS_CERT_FILE)) : Optional.empty(),
                client ? Optional.of(dir.resolve(TLS_KEY_FILE)) : Optional.empty(),
                flags.keyPasswordEnv(),
                flags.serverName(),
                flags.insecure(),
                flags.noSessionReuse(),
                flags.provider());
    }

    /** Runner {@code runnerIndex}'s connections: its share of the test's. */
    public static long shareOf(TcpLoadTestSpec spec, int runnerIndex) {
        return Shares.of((long) spec.getConnections(), spec.getRunners(), runnerIndex);
    }

    /** How long the test loads: its duration, or its stages' sum. */
    public static long totalDurationMs(TcpLoadTestSpec spec) {
        return load(spec).totalDurationMs();
    }

    /**
     * The spec's load, durations read: the whole test's connections and rate.
     *
     * @throws IllegalArgumentException when a duration does not parse (validation refuses such
     *     specs first)
     */
    public static Load load(TcpLoadTestSpec spec) {
        List<io.tcpload.runner.rate.Stage> stages =
                spec.getStages().stream().map(RunnerInvocations::stage).toList();
        return new Load(
                spec.getThreads(),
                spec.getConnections(),
                spec.getDuration() == null
                        ? OptionalLong.empty()
                        : OptionalLong.of(
                                Quantities.durationMs("spec.duration", spec.getDuration())),
                spec.getRate() == null ? OptionalDouble.empty() : OptionalDouble.of(spec.getRate()),
                stages,
                0,
                spec.getTimeout() == null
                        ? RunnerInvocation.DEFAULT_TIMEOUT_MS
                        : Quantities.durationMs("spec.timeout", spec.getTimeout()),
                Boolean.TRUE.equals(spec.getKeepAlive()),
                1);
    }

    private static RunnerInvocation base(TcpLoadTestSpec spec, Share share) {
        TargetOverride target = spec.getTarget();
        return RunnerInvocation.of(PROFILE_DIR + "/" + PROFILE_FILE)
                .withLoad(load(spec))
                .withShare(share)
                .withTarget(
                        target == null
                                ? Optional.empty()
                                : Optional.of(new Target(target.getHost(), target.getPort())))
                .withOutputs(
                        new Outputs(
                                true,
                                false,
                                false,
                                Optional.of(Path.of(RESULT_FILE)),
                                Optional.empty()))
                .withSearch(search(spec) ? searchFlags(spec) : RunnerInvocation.Search.NONE);
    }

    private static io.tcpload.runner.rate.Stage stage(Stage stage) {
        return new io.tcpload.runner.rate.Stage(
                Quantities.durationMs("spec.stages.duration", stage.getDuration()),
                stage.getRate());
    }
}
