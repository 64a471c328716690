package io.tcpload.runner.plan;

import io.tcpload.runner.client.LoadConfig;
import io.tcpload.runner.contract.ControlToken;
import io.tcpload.runner.contract.RunnerInvocation;
import io.tcpload.runner.contract.RunnerInvocation.Load;
import io.tcpload.runner.contract.RunnerLimits;
import io.tcpload.runner.contract.RunnerProtocol;
import io.tcpload.runner.contract.Shares;
import io.tcpload.runner.format.Quantities;
import io.tcpload.runner.metrics.MetricLabels;
import io.tcpload.runner.profile.NamedRequest;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.ProfileProblem;
import io.tcpload.runner.profile.Target;
import io.tcpload.runner.profile.TlsSpec;
import io.tcpload.runner.rate.RateSchedule;
import io.tcpload.runner.search.SearchSpec;
import io.tcpload.runner.slo.Slo;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * What a run will be: an invocation checked against every rule between its flags and the {@link
 * RunnerLimits}, with the environment's defaults applied (the runner index, the bind address, the
 * metric labels). The rules are one list of small functions, each naming its flag; every problem is
 * reported, not only the first. Pure: the environment is passed in. Immutable.
 *
 * @param invocation what was asked
 * @param runnerIndex this runner's index, from the flag, else the environment, else 0
 * @param connections this runner's connections: its share of the test's with {@code --shared}
 * @param bindHost the address the endpoint binds: {@code --metrics-host}, else the environment's
 *     (only with a control token), else loopback
 * @param labels the labels on every metric series
 * @param controlToken what the control paths require, from the environment; empty on a laptop
 */
public record RunPlan(
        RunnerInvocation invocation,
        int runnerIndex,
        int connections,
        String bindHost,
        MetricLabels labels,
        Optional<ControlToken> controlToken) {

    static final String LOOPBACK = "127.0.0.1";

    /** The names {@code --tls-provider} takes. */
    static final List<String> TLS_PROVIDERS = List.of("auto", "openssl", "jdk");

    private static final List<Function<RunnerInvocation, Optional<String>>> RULES =
            List.of(
                    RunPlan::profileGiven,
                    RunPlan::urlFlagsOnlyForUrls,
                    RunPlan::oneBody,
                    RunPlan::threads,
                    RunPlan::connectionsInRange,
                    RunPlan::durationOrStages,
                    RunPlan::duration,
                    RunPlan::rate,
                    RunPlan::stages,
                    RunPlan::timeout,
                    RunPlan::warmup,
                    RunPlan::pipeline,
                    RunPlan::runnerCount,
                    RunPlan::metricsPort,
                    RunPlan::controlNeedsEndpoint,
                    RunPlan::holdResult,
                    RunPlan::transport,
                    RunPlan::tlsProvider,
                    RunPlan::tlsKeyPair,
                    RunPlan::tlsInsecureAlone,
                    RunPlan::tlsKeyPasswordEnv,
                    RunPlan::tlsServerName,
                    RunPlan::searchFlagsNeedSearch,
                    RunPlan::searchSlo,
                    RunPlan::searchRange,
                    RunPlan::searchAlone,
                    RunPlan::searchStep,
                    RunPlan::searchWarmup,
                    RunPlan::searchPrecision,
                    RunPlan::searchStepsFromControl);

    /**
     * Checks {@code invocation} and applies the environment's defaults.
     *
     * @param environment the process's variables, e.g. {@code System::getenv}
     * @throws PlanException with every problem, each naming its flag
     */
    public static RunPlan of(RunnerInvocation invocation, Function<String, String> environment)
            throws PlanException {
        List<String> problems = new ArrayList<>();
        for (Function<RunnerInvocation, Optional<String>> rule : RULES) {
            rule.apply(invocation).ifPresent(problems::add);
        }
        int index = 0;
        try {
            index = runnerIndex(invocation, environment);
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        int count = invocation.share().count();
        if (count >= 1 && (index < 0 || index >= count)) {
            problems.add(
                    "--runner-index must be from 0 to --runner-count - 1 (got "
                            + index
                            + " of "
                            + count
                            + ")");
        }
        if (!problems.isEmpty()) {
            throw new PlanException(problems);
        }
        Load load = invocation.load();
        long connections =
                invocation.share().shared()
                        ? Shares.of(load.connections(), count, index)
                        : load.connections();
        if (connections < load.threads()) {
            throw new PlanException(
                    List.of(
                            "-c/--connections ("
                                    + connections
                                    + ") must be at least -t/--threads ("
                                    + load.threads()
                                    + ")"));
        }
        Optional<ControlToken> token =
                ControlToken.of(environment.apply(RunnerProtocol.CONTROL_TOKEN_VARIABLE));
        // Without a token, the control paths are open: only loopback may reach them, whatever the
        // environment says about the pod's address.
        String bindHost =
                invocation
                        .control()
                        .metricsHost()
                        .orElseGet(
                                () ->
                                        token.isEmpty()
                                                ? LOOPBACK
                                                : nonBlank(
                                                                environment.apply(
                                                                        RunnerProtocol
                                                                                .BIND_HOST_VARIABLE))
                                                        .orElse(LOOPBACK));
        RunnerInvocation.Labels flags = invocation.control().labels();
        MetricLabels labels =
                MetricLabels.resolve(
                        flags.test().orElse(null),
                        flags.namespace().orElse(null),
                        flags.runner().orElse(null),
                        index,
                        environment);
        return new RunPlan(invocation, index, (int) connections, bindHost, labels, token);
    }

    /** The same plan loading {@code target} instead of the profile's or {@code --target}'s. */
    public RunPlan withTarget(Target target) {
        return new RunPlan(
                invocation.withTarget(Optional.of(target)),
                runnerIndex,
                connections,
                bindHost,
                labels,
                controlToken);
    }

    /** The same plan with other TLS flags. */
    public RunPlan withTls(RunnerInvocation.Tls tls) {
        return new RunPlan(
                invocation.withTls(tls), runnerIndex, connections, bindHost, labels, controlToken);
    }

    /**
     * The profile as this run loads it: {@code --target}, {@code -k} and the TLS flags that need no
     * file ({@code --tls}, {@code --tls-server-name}, {@code --tls-insecure}, {@code
     * --no-tls-session-reuse}, {@code --tls-key-password-env}) applied; the TLS files are read when
     * the run is prepared.
     */
    public Profile applyTo(Profile profile) {
        Profile applied = invocation.load().keepAlive() ? profile.withKeepAlive(true) : profile;
        applied = applied.withTls(tlsOf(applied));
        return invocation.target().map(applied::withTarget).orElse(applied);
    }

    private Optional<TlsSpec> tlsOf(Profile profile) {
        RunnerInvocation.Tls flags = invocation.tls();
        if (profile.tls().isEmpty() && !flags.enable()) {
            return Optional.empty();
        }
        TlsSpec tls = profile.tls().orElse(TlsSpec.DEFAULTS);
        if (flags.serverName().isPresent()) {
            tls = tls.withServerName(flags.serverName());
        }
        if (flags.insecure()) {
            tls = tls.withVerify(false);
        }
        if (flags.noSessionReuse()) {
            tls = tls.withSessionReuse(false);
        }
        if (flags.keyPasswordEnv().isPresent()) {
            tls = tls.withKeyPasswordEnv(flags.keyPasswordEnv());
        }
        return Optional.of(tls);
    }

    /**
     * The rules that need the profile: pipelining needs keep-alive connections, and a transaction
     * mix stays within {@link RunnerLimits}.
     *
     * @return why the profile and the flags do not go together, or empty
     */
    public Optional<String> problemWith(Profile profile) {
        if (profile.tls().isEmpty() && invocation.tls().any()) {
            return Optional.of(
                    "the --tls-* flags apply to TLS targets: add 'tls = true' to [common], give"
                            + " --tls, or use an https:// URL");
        }
        Optional<String> mix = mixProblem(profile);
        if (mix.isPresent()) {
            return mix;
        }
        if (invocation.load().pipeline() > 1 && !keepAlive(profile)) {
            return Optional.of(
                    "--pipeline needs keep-alive connections: add --keepalive or 'keepalive = true'"
                            + " in [common]");
        }
        return Optional.empty();
    }

    /**
     * What a profile's transaction mix asks beyond the runner's limits: more than {@link
     * RunnerLimits#REQUEST_NAMES_MAX} names, or a weight above {@link
     * RunnerLimits#REQUEST_WEIGHT_MAX}; named by file, line and section.
     */
    public static Optional<String> mixProblem(Profile profile) {
        List<NamedRequest> mix = profile.mix();
        if (mix.size() > RunnerLimits.REQUEST_NAMES_MAX) {
            NamedRequest first = mix.get(RunnerLimits.REQUEST_NAMES_MAX);
            return Optional.of(
                    problem(
                            profile,
                            first,
                            "a transaction mix holds at most "
                                    + RunnerLimits.REQUEST_NAMES_MAX
                                    + " named requests; this profile has "
                                    + mix.size()
                                    + "."));
        }
        for (NamedRequest named : mix) {
            if (named.weight() > RunnerLimits.REQUEST_WEIGHT_MAX) {
                return Optional.of(
                        problem(
                                profile,
                                named,
                                "weight must be a whole number from 1 to "
                                        + RunnerLimits.REQUEST_WEIGHT_MAX
                                        + ", not "
                                        + named.weight()
                                        + "."));
            }
        }
        return Optional.empty();
    }

    /** {@code file:line: [request.NAME]: message}, as the profile loader words its problems. */
    private static String problem(Profile profile, NamedRequest named, String message) {
        String file = profile.source() == null ? "(profile text)" : profile.source().toString();
        return new ProfileProblem(file, named.line(), "[request." + named.name() + "]", message)
                .toString();
    }

    /** Whether connections carry many requests: the profile says so, or {@code -k}. */
    public boolean keepAlive(Profile profile) {
        return profile.keepAlive() || invocation.load().keepAlive();
    }

    /** The engine's settings for {@code profile} (checked with {@link #problemWith}). */
    public LoadConfig loadConfig(Profile profile) {
        Load load = invocation.load();
        RateSchedule schedule = schedule().orElse(null);
        return new LoadConfig(
                load.threads(),
                connections,
                schedule == null ? load.totalDurationMs() : schedule.totalDurationMs(),
                load.timeoutMs(),
                keepAlive(profile),
                load.pipeline(),
                runnerIndex,
                invocation.share().count(),
                schedule,
                !load.stages().isEmpty(),
                load.warmupMs());
    }

    /**
     * The send schedule of {@code -R} and {@code --stages}, or empty for the closed loop. A
     * search's is its first step's (each step then brings its own).
     */
    public Optional<RateSchedule> schedule() {
        Load load = invocation.load();
        Optional<SearchSpec> search = search();
        if (search.isPresent()) {
            return Optional.of(
                    RateSchedule.constant(search.get().minRate(), search.get().stepMs()));
        }
        if (!load.stages().isEmpty()) {
            return Optional.of(RateSchedule.stages(load.rate().orElse(0), load.stages()));
        }
        if (load.rate().isPresent()) {
            return Optional.of(
                    RateSchedule.constant(load.rate().getAsDouble(), load.totalDurationMs()));
        }
        return Optional.empty();
    }

    /** This runner's share of the rate it starts at, for the target-rate gauge; empty unpaced. */
    public Optional<Double> startRatePerRunner() {
        return schedule().map(s -> s.rateAt(0) / invocation.share().count());
    }

    /**
     * The capacity search {@code --search} asks for, its defaults applied; empty without one. The
     * connections' concurrency is the whole test's: every runner's connections, times the pipeline.
     */
    public Optional<SearchSpec> search() {
        RunnerInvocation.Search search = invocation.search();
        if (!search.asked() || search.range().isEmpty()) {
            return Optional.empty();
        }
        Load load = invocation.load();
        long testConnections =
                invocation.share().shared()
                        ? load.connections()
                        : load.connections() * invocation.share().count();
        return Optional.of(
                new SearchSpec(
                        Slo.parse(search.slo().get()),
                        search.range().get().minRate(),
                        search.range().get().maxRate(),
                        search.stepMs().orElse(SearchSpec.DEFAULT_STEP_MS),
                        search.warmupMs().orElse(SearchSpec.DEFAULT_WARMUP_MS),
                        search.precision().orElse(SearchSpec.DEFAULT_PRECISION),
                        Math.max(1, testConnections * load.pipeline()),
                        load.warmupMs()));
    }

    static Optional<String> searchFlagsNeedSearch(RunnerInvocation invocation) {
        RunnerInvocation.Search search = invocation.search();
        return !search.asked() && search.anyFlag()
                ? Optional.of(
                        "--search-range, --search-step, --search-warmup, --search-precision and"
                                + " --search-steps-from-control belong to a capacity search: give"
                                + " --search 'p99 < 50ms'")
                : Optional.empty();
    }

    static Optional<String> searchSlo(RunnerInvocation invocation) {
        Optional<String> slo = invocation.search().slo();
        if (slo.isEmpty()) {
            return Optional.empty();
        }
        try {
            Slo.parse(slo.get());
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.of("--search: " + e.getMessage());
        }
    }

    static Optional<String> searchRange(RunnerInvocation invocation) {
        RunnerInvocation.Search search = invocation.search();
        if (!search.asked()) {
            return Optional.empty();
        }
        if (search.range().isEmpty()) {
            return Optional.of(
                    "--search needs --search-range MIN:MAX, the rates to search (requests per"
                            + " second for the whole test), such as 100:5000");
        }
        RunnerInvocation.Range range = search.range().get();
        if (!(range.minRate() > 0) || !(range.maxRate() > range.minRate())) {
            return Optional.of(
                    "--search-range must be MIN:MAX with 0 < MIN < MAX (got "
                            + Quantities.formatRate(range.minRate())
                            + ":"
                            + Quantities.formatRate(range.maxRate())
                            + ")");
        }
        if (range.maxRate() > RunnerLimits.RATE_MAX) {
            return Optional.of(
                    "--search-range: at most "
                            + Quantities.formatRate(RunnerLimits.RATE_MAX)
                            + " per second for the whole test (got "
                            + Quantities.formatRate(range.maxRate())
                            + ")");
        }
        return Optional.empty();
    }

    static Optional<String> searchAlone(RunnerInvocation invocation) {
        if (!invocation.search().asked()) {
            return Optional.empty();
        }
        Load load = invocation.load();
        List<String> others = new ArrayList<>();
        if (load.rate().isPresent()) {
            others.add("-R/--rate");
        }
        if (!load.stages().isEmpty()) {
            others.add("--stages");
        }
        if (load.durationMs().isPresent()) {
            others.add("-d/--duration");
        }
        return others.isEmpty()
                ? Optional.empty()
                : Optional.of(
                        "--search chooses each step's rate and length itself; leave out "
                                + String.join(", ", others));
    }

    static Optional<String> searchStepsFromControl(RunnerInvocation invocation) {
        RunnerInvocation.Control control = invocation.control();
        return invocation.search().stepsFromControl()
                        && invocation.search().asked()
                        && (!control.awaitStart() || control.metricsPort().isEmpty())
                ? Optional.of(
                        "--search-steps-from-control needs --await-start and --metrics-port, where"
                                + " the orchestrator tells each step")
                : Optional.empty();
    }

    static Optional<String> searchStep(RunnerInvocation invocation) {
        OptionalLong stepMs = invocation.search().stepMs();
        if (stepMs.isEmpty()) {
            return Optional.empty();
        }
        long ms = stepMs.getAsLong();
        if (ms < SearchSpec.MIN_STEP_MS || ms % 1000 != 0 || ms > RunnerLimits.DURATION_MAX_MS) {
            return Optional.of(
                    "--search-step must be whole seconds from 2s to "
                            + Quantities.formatDurationMs(RunnerLimits.DURATION_MAX_MS)
                            + ", so that each step has a second half to judge (got "
                            + Quantities.formatDurationMs(ms)
                            + ")");
        }
        return Optional.empty();
    }

    static Optional<String> searchWarmup(RunnerInvocation invocation) {
        OptionalLong warmupMs = invocation.search().warmupMs();
        return warmupMs.isEmpty()
                ? Optional.empty()
                : withinMs("--search-warmup", warmupMs.getAsLong(), 0, RunnerLimits.WARMUP_MAX_MS);
    }

    static Optional<String> searchPrecision(RunnerInvocation invocation) {
        OptionalDouble precision = invocation.search().precision();
        if (precision.isEmpty()) {
            return Optional.empty();
        }
        double p = precision.getAsDouble();
        return p >= SearchSpec.MIN_PRECISION && p <= SearchSpec.MAX_PRECISION
                ? Optional.empty()
                : Optional.of(
                        String.format(
                                Locale.ROOT,
                                "--search-precision must be from 0.1%% to 50%% (got %s%%)",
                                Quantities.formatRate(p * 100)));
    }

    private static int runnerIndex(
            RunnerInvocation invocation, Function<String, String> environment) {
        if (invocation.share().index().isPresent()) {
            return invocation.share().index().getAsInt();
        }
        for (String variable : RunnerProtocol.RUNNER_INDEX_VARIABLES) {
            Optional<String> value = nonBlank(environment.apply(variable));
            if (value.isPresent()) {
                try {
                    return Integer.parseInt(value.get());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(
                            variable + " must be a runner index (got '" + value.get() + "')", e);
                }
            }
        }
        return 0;
    }

    static Optional<String> profileGiven(RunnerInvocation invocation) {
        return invocation.profile().isEmpty() || invocation.profile().get().isBlank()
                ? Optional.of("give a profile file or a URL (see --help)")
                : Optional.empty();
    }

    static Optional<String> urlFlagsOnlyForUrls(RunnerInvocation invocation) {
        boolean url = invocation.profile().map(RunPlan::looksLikeUrl).orElse(false);
        return !url && invocation.request().isCustom() && invocation.profile().isPresent()
                ? Optional.of(
                        "-H, --method, --body and --body-file apply to URLs; a profile sets its"
                                + " request in [request]")
                : Optional.empty();
    }

    static Optional<String> oneBody(RunnerInvocation invocation) {
        return invocation.request().body().isPresent()
                        && invocation.request().bodyFile().isPresent()
                ? Optional.of("give --body or --body-file, not both")
                : Optional.empty();
    }

    static Optional<String> threads(RunnerInvocation invocation) {
        return within("-t/--threads", invocation.load().threads(), 1, RunnerLimits.THREADS_MAX, "");
    }

    static Optional<String> connectionsInRange(RunnerInvocation invocation) {
        boolean shared = invocation.share().shared();
        return within(
                "-c/--connections",
                invocation.load().connections(),
                1,
                shared ? RunnerLimits.TEST_CONNECTIONS_MAX : RunnerLimits.CONNECTIONS_MAX,
                shared ? " for a whole test" : " for one runner");
    }

    static Optional<String> durationOrStages(RunnerInvocation invocation) {
        Load load = invocation.load();
        return load.durationMs().isPresent() && !load.stages().isEmpty()
                ? Optional.of(
                        "--stages sets the duration (the sum of the stages); leave out -d/--duration")
                : Optional.empty();
    }

    static Optional<String> duration(RunnerInvocation invocation) {
        Load load = invocation.load();
        if (load.durationMs().isPresent()) {
            return withinMs(
                    "-d/--duration",
                    load.durationMs().getAsLong(),
                    1,
                    RunnerLimits.DURATION_MAX_MS);
        }
        return withinMs(
                "--stages (their sum)", load.totalDurationMs(), 1, RunnerLimits.DURATION_MAX_MS);
    }

    static Optional<String> rate(RunnerInvocation invocation) {
        Load load = invocation.load();
        if (load.rate().isPresent()
                && load.stages().isEmpty()
                && !(load.rate().getAsDouble() > 0)) {
            return Optional.of(
                    "-R/--rate must be positive, not '"
                            + Quantities.formatRate(load.rate().getAsDouble())
                            + "'");
        }
        return Optional.empty();
    }

    static Optional<String> stages(RunnerInvocation invocation) {
        int stages = invocation.load().stages().size();
        return stages > RunnerLimits.STAGES_MAX
                ? Optional.of(
                        "--stages: "
                                + stages
                                + " stages; at most "
                                + RunnerLimits.STAGES_MAX
                                + " are allowed")
                : Optional.empty();
    }

    static Optional<String> timeout(RunnerInvocation invocation) {
        return withinMs(
                "-T/--timeout", invocation.load().timeoutMs(), 1, RunnerLimits.TIMEOUT_MAX_MS);
    }

    static Optional<String> warmup(RunnerInvocation invocation) {
        return withinMs("--warmup", invocation.load().warmupMs(), 0, RunnerLimits.WARMUP_MAX_MS);
    }

    static Optional<String> pipeline(RunnerInvocation invocation) {
        return within("--pipeline", invocation.load().pipeline(), 1, RunnerLimits.PIPELINE_MAX, "");
    }

    static Optional<String> runnerCount(RunnerInvocation invocation) {
        return within(
                "--runner-count", invocation.share().count(), 1, RunnerLimits.RUNNERS_MAX, "");
    }

    static Optional<String> metricsPort(RunnerInvocation invocation) {
        return invocation.control().metricsPort().stream()
                .filter(port -> port < 0 || port > 65_535)
                .mapToObj(port -> "--metrics-port must be from 0 to 65535")
                .findFirst();
    }

    static Optional<String> controlNeedsEndpoint(RunnerInvocation invocation) {
        RunnerInvocation.Control control = invocation.control();
        return (control.awaitStart() || control.holdResultSeconds().isPresent())
                        && control.metricsPort().isEmpty()
                ? Optional.of(
                        "--await-start and --hold-result need --metrics-port, where the start and"
                                + " the result are exchanged")
                : Optional.empty();
    }

    static Optional<String> holdResult(RunnerInvocation invocation) {
        return invocation.control().holdResultSeconds().stream()
                .mapToObj(
                        seconds ->
                                within(
                                        "--hold-result",
                                        seconds,
                                        0,
                                        RunnerLimits.HOLD_RESULT_MAX_SECONDS,
                                        " seconds"))
                .flatMap(Optional::stream)
                .findFirst();
    }

    static Optional<String> transport(RunnerInvocation invocation) {
        String name = invocation.transport().toLowerCase(Locale.ROOT);
        // io_uring's older spelling is still taken.
        return RunnerInvocation.TRANSPORTS.contains(name) || name.equals("iouring")
                ? Optional.empty()
                : Optional.of(
                        "--transport: unknown transport '"
                                + invocation.transport()
                                + "' (choose one of "
                                + String.join(", ", RunnerInvocation.TRANSPORTS)
                                + ")");
    }

    static Optional<String> tlsProvider(RunnerInvocation invocation) {
        String name = invocation.tls().provider().toLowerCase(Locale.ROOT);
        return TLS_PROVIDERS.contains(name)
                ? Optional.empty()
                : Optional.of(
                        "--tls-provider: unknown provider '"
                                + invocation.tls().provider()
                                + "' (choose one of "
                                + String.join(", ", TLS_PROVIDERS)
                                + ")");
    }

    static Optional<String> tlsKeyPair(RunnerInvocation invocation) {
        RunnerInvocation.Tls tls = invocation.tls();
        return tls.cert().isPresent() != tls.key().isPresent()
                ? Optional.of(
                        "give --tls-cert and --tls-key together: a client certificate goes with its"
                                + " key")
                : Optional.empty();
    }

    static Optional<String> tlsInsecureAlone(RunnerInvocation invocation) {
        RunnerInvocation.Tls tls = invocation.tls();
        return tls.insecure() && tls.ca().isPresent()
                ? Optional.of(
                        "--tls-insecure accepts any certificate, so --tls-ca would not be used;"
                                + " give one of them")
                : Optional.empty();
    }

    static Optional<String> tlsKeyPasswordEnv(RunnerInvocation invocation) {
        return invocation.tls().keyPasswordEnv().stream()
                .filter(name -> !name.matches("[A-Za-z_][A-Za-z0-9_]*"))
                .map(
                        name ->
                                "--tls-key-password-env must name an environment variable"
                                        + " (letters, digits, '_'), not '"
                                        + name
                                        + "'")
                .findFirst();
    }

    static Optional<String> tlsServerName(RunnerInvocation invocation) {
        return invocation.tls().serverName().stream()
                .flatMap(
                        name ->
                                Target.hostProblem(name).stream()
                                        .map(problem -> "--tls-server-name: " + problem))
                .findFirst();
    }

    /**
     * Whether a positional argument is a URL rather than a profile file: any scheme, so that an
     * {@code ftp://} or {@code tcp://} one is refused as a URL, not looked for as a file.
     */
    public static boolean looksLikeUrl(String argument) {
        return URL_SCHEME.matcher(argument).lookingAt();
    }

    private static final Pattern URL_SCHEME = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*://");

    private static Optional<String> within(
            String flag, long value, long min, long max, String what) {
        if (value < min) {
            return Optional.of(flag + " must be at least " + min + " (got " + value + ")");
        }
        if (value > max) {
            return Optional.of(flag + " must be at most " + max + what + " (got " + value + ")");
        }
        return Optional.empty();
    }

    private static Optional<String> withinMs(String flag, long valueMs, long minMs, long maxMs) {
        if (valueMs < minMs) {
            return Optional.of(
                    flag
                            + (minMs == 0 ? " must not be negative" : " must be positive")
                            + " (got "
                            + Quantities.formatDurationMs(valueMs)
                            + ")");
        }
        if (valueMs > maxMs) {
            return Optional.of(
                    flag
                            + " must be at most "
                            + Quantities.formatDurationMs(maxMs)
                            + " (got "
                            + Quantities.formatDurationMs(valueMs)
                            + ")");
        }
        return Optional.empty();
    }

    private static Optional<String> nonBlank(String value) {
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
    }
}
