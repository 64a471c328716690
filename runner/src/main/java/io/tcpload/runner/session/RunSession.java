package io.tcpload.runner.session;

import io.netty.util.NetUtil;
import io.tcpload.runner.client.DnsTargetResolver;
import io.tcpload.runner.client.LoadConfig;
import io.tcpload.runner.client.LoadEngine;
import io.tcpload.runner.client.ProgressListener;
import io.tcpload.runner.client.RunControl;
import io.tcpload.runner.client.StartGate;
import io.tcpload.runner.client.StepDriver;
import io.tcpload.runner.client.TargetResolver;
import io.tcpload.runner.client.Transport;
import io.tcpload.runner.contract.RunnerInvocation.Control;
import io.tcpload.runner.contract.RunnerProtocol;
import io.tcpload.runner.contract.Stopped;
import io.tcpload.runner.endpoint.ControlChannel;
import io.tcpload.runner.endpoint.LiveStatsTracker;
import io.tcpload.runner.endpoint.RunnerEndpoint;
import io.tcpload.runner.endpoint.StepChannel;
import io.tcpload.runner.metrics.MetricsBridge;
import io.tcpload.runner.plan.PlanException;
import io.tcpload.runner.plan.RunPlan;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.Target;
import io.tcpload.runner.profile.TlsSpec;
import io.tcpload.runner.report.JsonResult;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.template.RequestMix;
import io.tcpload.runner.template.RunnerSlice;
import io.tcpload.runner.tls.ClientTls;
import io.tcpload.runner.tls.TlsProvider;
import io.tcpload.runner.tls.TlsSetupException;
import java.io.IOException;
import java.io.PrintStream;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * One run of a checked plan on a loaded profile: it owns the engine, the start gate, the endpoint
 * (when the plan asks for one) and the way to stop early. The runner's command line and local mode
 * both run through it; local mode opens the gates of its in-process runners itself, as the operator
 * opens a pod's through its endpoint.
 *
 * <p>Threading: {@link #run} on one thread; {@link #stop} and {@link #gate} from any thread.
 */
public final class RunSession implements AutoCloseable {
    private final RunPlan plan;
    private final LoadEngine engine;
    private final Target target;
    private final TargetResolver resolver;
    private final StartGate gate;
    private final RunControl control = new RunControl();

    /** What the endpoint serves; both null exactly when {@link #endpoint} is. */
    private final MetricsBridge metrics;

    private final LiveStatsTracker stats;
    private final ControlChannel channel;

    /** The steps an orchestrator tells; null for a run that takes none. */
    private volatile StepChannel steps;

    private final RunnerEndpoint endpoint;
    private final PrintStream log;

    /** What the session's lines on {@link #log} begin with: the command's name and a colon. */
    private final String prefix;

    private final ClientTls tls;
    private final OptionalInt gracePeriodSeconds;

    /** The signal that stopped the run, and when ({@link System#nanoTime}); null before one. */
    private volatile String stoppedBySignal;

    private volatile long signalNs;

    /** Why the run ended early, once {@link #finish} has seen a signal; null otherwise. */
    private volatile Stopped stopped;

    /**
     * How long before the end of its grace period the runner lets its result go and exits: the
     * kubelet kills it at the end, and the exit itself takes a moment.
     */
    static final int GRACE_MARGIN_SECONDS = 2;

    private RunSession(
            RunPlan plan,
            LoadEngine engine,
            Target target,
            TargetResolver resolver,
            StartGate gate,
            MetricsBridge metrics,
            LiveStatsTracker stats,
            ControlChannel channel,
            StepChannel steps,
            RunnerEndpoint endpoint,
            String name,
            PrintStream log,
            ClientTls tls,
            OptionalInt gracePeriodSeconds) {
        this.plan = plan;
        this.tls = tls;
        this.engine = engine;
        this.target = target;
        this.resolver = resolver;
        this.gate = gate;
        this.metrics = metrics;
        this.stats = stats;
        this.channel = channel;
        this.steps = steps;
        this.endpoint = endpoint;
        this.log = log;
        this.prefix = name + ": ";
        this.gracePeriodSeconds = gracePeriodSeconds;
    }

    /** A run that could not be set up: the name does not resolve, the port cannot be bound. */
    public static final class SetupException extends Exception {
        private static final long serialVersionUID = 1L;

        SetupException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Gets everything ready but the load: the plan applied to the profile ({@code --target}, {@code
     * -k}), the request template compiled, the transport chosen, the target resolved and, when the
     * plan asks for it, the endpoint serving. The gate is the plan's ({@code --await-start} waits
     * for {@code /start}, else the run begins at once).
     *
     * @param environment the variables the profile's ENV parameters and an encrypted TLS key's
     *     password variable read, e.g. {@code System::getenv}
     * @param runnerVersion what {@code /stats} says this runner is
     * @param name what the session's lines on {@code log} begin with: the command as the user typed
     *     it ({@code tcpload runner}), or which runner it is
     * @param log where the session says what it does (the transport, the endpoint, the start)
     * @throws PlanException when the profile and the plan do not make a run
     * @throws SetupException when the target does not resolve or the endpoint cannot be bound
     */
    public static RunSession prepare(
            RunPlan plan,
            Profile profile,
            Function<String, String> environment,
            String runnerVersion,
            String name,
            PrintStream log)
            throws PlanException, SetupException {
        return prepare(
                plan,
                profile,
                plan.invocation().control().awaitStart()
                        ? StartGate.awaiting()
                        : StartGate.immediate(),
                environment,
                runnerVersion,
                name,
                log);
    }

    /**
     * As {@link #prepare(RunPlan, Profile, Function, String, String, PrintStream)}, beginning when
     * {@code gate} opens.
     */
    public static RunSession prepare(
            RunPlan plan,
            Profile loaded,
            StartGate gate,
            Function<String, String> environment,
            String runnerVersion,
            String name,
            PrintStream log)
            throws PlanException, SetupException {
        String prefix = name + ": ";
        Profile profile = plan.applyTo(loaded);
        LoadConfig config;
        RequestMix requests;
        Transport transport;
        try {
            if (plan.problemWith(profile).isPresent()) {
                throw new PlanException(List.of(plan.problemWith(profile).get()));
            }
            config = plan.loadConfig(profile);
            requests =
                    RequestMix.compile(
                            profile,
                            new RunnerSlice(plan.runnerIndex(), plan.invocation().share().count()),
                            environment);
            transport = Transport.select(plan.invocation().transport());
        } catch (IllegalArgumentException e) {
            throw new PlanException(List.of(e.getMessage()));
        }
        profile = TlsFlagFiles.apply(profile, plan.invocation().tls());
        ClientTls tls = clientTls(plan, profile, environment, name, log);
        TargetResolver resolver = resolverFor(profile.target().host());
        try {
            // Once now, so that a name that does not resolve fails before anything starts; the
            // engine asks again as connections reopen, following the addresses as they change.
            resolver.resolve(profile.target().host());
        } catch (UnknownHostException e) {
            close(resolver);
            closeTls(tls);
            throw new SetupException("cannot resolve host '" + profile.target().host() + "'", e);
        }
        LoadEngine engine = new LoadEngine(profile, config, requests, transport).withTls(tls);
        String named = plan.invocation().profile().orElse("");
        if (RunPlan.looksLikeUrl(named)) {
            engine = engine.describedAs(named, named);
        }
        Control control = plan.invocation().control();
        ControlChannel channel = null;
        RunnerEndpoint endpoint = null;
        // The meters and the live stats are kept for the endpoint alone: a run that serves none
        // does not pay for Micrometer's registry and the JSON mapper at its start (about 80 ms).
        MetricsBridge metrics = null;
        LiveStatsTracker stats = null;
        // One runner of a distributed search: the orchestrator tells each step, here through
        // the endpoint (local mode tells its in-process runners through their own channel).
        StepChannel steps =
                plan.search().isPresent() && plan.invocation().search().stepsFromControl()
                        ? new StepChannel(gate.clock())
                        : null;
        if (control.metricsPort().isPresent()) {
            metrics =
                    new MetricsBridge(
                            plan.labels(),
                            plan.startRatePerRunner()
                                    .map(OptionalDouble::of)
                                    .orElse(OptionalDouble.empty()),
                            requests.names());
            stats = new LiveStatsTracker(runnerVersion);
            channel =
                    steps == null
                            ? new ControlChannel(gate, plan.controlToken())
                            : new ControlChannel(gate, plan.controlToken(), steps);
            String host = plan.bindHost();
            try {
                endpoint =
                        RunnerEndpoint.start(
                                host, control.metricsPort().getAsInt(), metrics, stats, channel);
            } catch (IOException e) {
                close(resolver);
                closeTls(tls);
                throw new SetupException(
                        "cannot serve metrics on "
                                + host
                                + ":"
                                + control.metricsPort().getAsInt()
                                + ": "
                                + e.getMessage(),
                        e);
            }
            log.println(prefix + "metrics on http://" + host + ":" + endpoint.port() + "/metrics");
        }
        OpenFileLimit.current()
                .ifPresent(
                        limit ->
                                OpenFileLimit.warning(
                                                config.connections(),
                                                plan.invocation().demoTarget(),
                                                limit)
                                        .ifPresent(w -> log.println(prefix + w)));
        log.println(
                prefix
                        + transport.name()
                        + " transport"
                        + (tls == null ? "" : ", TLS by " + tls.providerName()));
        return new RunSession(
                plan,
                engine,
                profile.target(),
                resolver,
                gate,
                metrics,
                stats,
                channel,
                steps,
                endpoint,
                name,
                log,
                tls,
                gracePeriod(environment, name, log));
    }

    /**
     * The TLS context a run of {@code applied} (a profile {@link RunPlan#applyTo} gave) would use,
     * the files of the TLS flags read in place of the profile's; null for plain TCP. The caller
     * closes it. For the dry run, which connects by itself.
     *
     * @param name what its warnings on {@code log} begin with: the command as the user typed it
     * @throws PlanException when a flag's file is unusable or the context cannot be built
     */
    public static ClientTls clientTlsFor(
            RunPlan plan,
            Profile applied,
            Function<String, String> environment,
            String name,
            PrintStream log)
            throws PlanException {
        return clientTls(
                plan, TlsFlagFiles.apply(applied, plan.invocation().tls()), environment, name, log);
    }

    /** The run's TLS context, built once; null for plain TCP. */
    private static ClientTls clientTls(
            RunPlan plan,
            Profile profile,
            Function<String, String> environment,
            String name,
            PrintStream log)
            throws PlanException {
        if (profile.tls().isEmpty()) {
            return null;
        }
        TlsSpec spec = profile.tls().get();
        if (!spec.verify()) {
            log.println(
                    name + ": warning: TLS certificates are not verified: any server is accepted");
        }
        try {
            return ClientTls.build(
                    spec,
                    profile.target().host(),
                    profile.request().http(),
                    TlsProvider.named(plan.invocation().tls().provider()),
                    environment);
        } catch (TlsSetupException e) {
            throw new PlanException(List.of(e.getMessage()));
        }
    }

    private static void closeTls(ClientTls tls) {
        if (tls != null) {
            tls.close();
        }
    }

    /**
     * The pod's grace period after SIGTERM, from {@link RunnerProtocol#GRACE_PERIOD_VARIABLE};
     * empty when it is not set (not in a pod) or not a number of seconds.
     */
    static OptionalInt gracePeriod(
            Function<String, String> environment, String name, PrintStream log) {
        String value = environment.apply(RunnerProtocol.GRACE_PERIOD_VARIABLE);
        if (value == null || value.isBlank()) {
            return OptionalInt.empty();
        }
        try {
            int seconds = Integer.parseInt(value.strip());
            if (seconds >= 0) {
                return OptionalInt.of(seconds);
            }
        } catch (NumberFormatException e) {
            // Said below.
        }
        log.println(
                name
                        + ": warning: "
                        + RunnerProtocol.GRACE_PERIOD_VARIABLE
                        + " must be a number of seconds (got '"
                        + value
                        + "'); a signal lets the result go at once");
        return OptionalInt.empty();
    }

    /** The engine's description of the run, for the banner. */
    public LoadEngine engine() {
        return engine;
    }

    /** The gate the run begins at. */
    public StartGate gate() {
        return gate;
    }

    /** The endpoint's port, when it serves. */
    public int endpointPort() {
        if (endpoint == null) {
            throw new IllegalStateException("no endpoint: the plan has no --metrics-port");
        }
        return endpoint.port();
    }

    /**
     * Runs the load to its end (or to {@link #stop}) and, with an endpoint, serves the result from
     * then on.
     *
     * @param listener told about readiness, the start and each second, besides the metrics
     * @throws CancellationException when stopped before the start
     */
    public RunSummary run(ProgressListener listener) throws InterruptedException {
        ProgressListener all = withEndpoint(listener);
        RunSummary summary;
        try {
            summary = engine.run(target.host(), target.port(), resolver, all, control, gate);
        } catch (UnknownHostException e) {
            // It resolved when prepared; the name is gone since. Nothing has run.
            throw new CancellationException("cannot resolve host '" + target.host() + "' any more");
        }
        return finish(summary);
    }

    /**
     * Runs a stepped load ({@code --search}): the connections open once and stay open while {@code
     * steps} says each step's rate, until it says no more or {@link #stop}.
     *
     * @return each step's result, in order (a step cut short by a stop is left out)
     * @throws CancellationException when stopped before the start
     */
    public List<RunSummary> runSteps(ProgressListener listener, StepDriver steps)
            throws InterruptedException {
        try {
            List<RunSummary> results =
                    engine.runSteps(
                            target.host(),
                            target.port(),
                            resolver,
                            withEndpoint(listener),
                            control,
                            gate,
                            steps);
            finished();
            return results;
        } catch (UnknownHostException e) {
            throw new CancellationException("cannot resolve host '" + target.host() + "' any more");
        }
    }

    /**
     * A capacity search run on this session ({@link #runSteps}) has ended after {@code loadMs} of
     * load: when a signal ended it early, that is recorded and said as for a plain run, so that its
     * outputs mark the result partial ({@link #stopped}).
     *
     * @return the signal that stopped it and when, if one did
     */
    public Optional<Stopped> searchEnded(long loadMs) {
        if (stoppedBySignal != null && stopped == null) {
            stopped = new Stopped(stoppedBySignal, loadMs);
            log.println(prefix + stopped.describe() + "; the result is partial");
        }
        return stopped();
    }

    /**
     * The steps an orchestrator tells this runner of a distributed search ({@code
     * --search-steps-from-control}); empty for any other run.
     */
    public Optional<StepChannel> steps() {
        return Optional.ofNullable(steps);
    }

    /**
     * A runner of a distributed search: the steps its orchestrator tells, on the connections kept
     * open, until it ends the search or the run stops; then the last step's result is served on
     * {@code /result} (each step's own stays on {@code /step-result}).
     *
     * @return each step's result, in order
     * @throws IllegalStateException when the run takes no steps from an orchestrator
     * @throws CancellationException when stopped before the start
     */
    public List<RunSummary> runToldSteps(ProgressListener listener) throws InterruptedException {
        if (steps == null) {
            throw new IllegalStateException("not a runner of a distributed search");
        }
        return runToldSteps(listener, steps);
    }

    /**
     * As {@link #runToldSteps(ProgressListener)}, the steps told through {@code told}: local mode's
     * in-process runners, whose orchestrator is in the same process.
     */
    public List<RunSummary> runToldSteps(ProgressListener listener, StepChannel told)
            throws InterruptedException {
        steps = told;
        if (control.stopRequested()) {
            told.cancel();
        }
        List<RunSummary> results = runSteps(listener, told);
        told.cancel();
        if (!results.isEmpty()) {
            finish(results.get(results.size() - 1));
        }
        return results;
    }

    /**
     * The metrics this session's endpoint serves (a search's gauges are set through it); empty
     * without an endpoint.
     */
    public Optional<MetricsBridge> metrics() {
        return Optional.ofNullable(metrics);
    }

    /**
     * The signal that ended the run early and how long the load had run, once the run has finished;
     * empty for a run that went to its end or was stopped otherwise. The outputs mark such a result
     * partial, as the one the endpoint serves.
     */
    public Optional<Stopped> stopped() {
        return Optional.ofNullable(stopped);
    }

    /** Whether a stop or a signal has ended the run early. */
    public boolean stopRequested() {
        return control.stopRequested();
    }

    /** {@code listener} with the endpoint's metrics and live stats told too, when it serves. */
    private ProgressListener withEndpoint(ProgressListener listener) {
        boolean awaits = gate.awaitsInstant();
        return new ProgressListener() {
            @Override
            public void onSecond(Progress progress) {
                if (endpoint != null) {
                    metrics.onSecond(progress);
                    stats.onSecond(progress);
                }
                listener.onSecond(progress);
            }

            @Override
            public void onReady() {
                if (endpoint != null) {
                    stats.onReady();
                    if (awaits) {
                        log.println(prefix + "ready; waiting for the start instant");
                    }
                }
                listener.onReady();
            }

            @Override
            public void onStart(long startEpochUs) {
                if (endpoint != null) {
                    stats.onStart(startEpochUs);
                }
                Long atEpochMs = gate.startAtEpochMs();
                if (awaits && atEpochMs != null) {
                    // In the pod's log: how exactly this runner kept the instant.
                    log.printf(
                            Locale.ROOT,
                            "%sbegan %.3f ms after the start instant%n",
                            prefix,
                            (startEpochUs - atEpochMs * 1000) / 1000.0);
                }
                listener.onStart(startEpochUs);
            }

            @Override
            public void onWarmingUp(int openConnections) {
                if (endpoint != null) {
                    metrics.onWarmingUp(openConnections);
                    stats.onWarmingUp(openConnections);
                }
                listener.onWarmingUp(openConnections);
            }

            @Override
            public void onMeasuredStart(long startEpochUs) {
                if (endpoint != null) {
                    stats.onMeasuredStart(startEpochUs);
                }
                listener.onMeasuredStart(startEpochUs);
            }
        };
    }

    private void finished() {
        if (endpoint != null) {
            stats.finished();
        }
    }

    private RunSummary finish(RunSummary summary) {
        finished();
        Stopped stopped =
                stoppedBySignal == null
                        ? null
                        : new Stopped(stoppedBySignal, summary.runtimeUs() / 1000);
        this.stopped = stopped;
        if (stopped != null) {
            log.println(prefix + stopped.describe() + "; the result is partial");
        }
        if (channel != null) {
            // What an orchestrator fetches stays small however long the run: rows folded.
            channel.publishResult(JsonResult.writeCompact(summary, stopped));
        }
        return summary;
    }

    /**
     * With {@code --hold-result}, serves the result until the orchestrator has it or time is up.
     */
    public void holdResult() throws InterruptedException {
        int seconds = plan.invocation().control().holdResultSeconds().orElse(0);
        if (seconds == 0 || channel == null || channel.result().isEmpty()) {
            return;
        }
        log.println(prefix + "holding the result on /result for up to " + seconds + " s");
        long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            // A signal (now or during the hold) shortens it to the pod's grace period.
            long untilNs = Math.min(deadlineNs, graceDeadlineNs());
            long waitNs = untilNs - System.nanoTime();
            if (waitNs <= 0) {
                log.println(
                        stoppedBySignal != null && untilNs < deadlineNs
                                ? prefix
                                        + "the grace period after "
                                        + stoppedBySignal
                                        + " is ending; exiting"
                                : prefix + "nobody fetched the result; exiting");
                return;
            }
            if (channel.awaitFinish(Math.min(TimeUnit.NANOSECONDS.toMillis(waitNs) + 1, 100))) {
                return;
            }
        }
    }

    /**
     * When a signalled runner lets its result go: {@link #GRACE_MARGIN_SECONDS} before its grace
     * period ends, or at once without one; never before a signal.
     */
    private long graceDeadlineNs() {
        if (stoppedBySignal == null) {
            return Long.MAX_VALUE;
        }
        int grace = gracePeriodSeconds.orElse(0);
        return signalNs + TimeUnit.SECONDS.toNanos(Math.max(0, grace - GRACE_MARGIN_SECONDS));
    }

    /**
     * Ends the run early for {@code signal} (SIGTERM from a pod's deletion, eviction or drain): the
     * load stops and its result, marked partial, is served through the pod's grace period, until
     * {@code /finish}; a run waiting for its start is cancelled.
     */
    public void stopBySignal(String signal) {
        if (stoppedBySignal == null) {
            signalNs = System.nanoTime();
            stoppedBySignal = signal;
        }
        control.stop();
        gate.cancel();
        StepChannel told = steps;
        if (told != null) {
            told.cancel();
        }
    }

    /**
     * Ends the run early: a running load stops as if its duration were over and still gives its
     * summary; a run waiting for its start is cancelled; a held result is let go.
     */
    public void stop() {
        control.stop();
        gate.cancel();
        StepChannel told = steps;
        if (told != null) {
            told.cancel();
        }
        if (channel != null) {
            channel.finish();
        }
    }

    /** Stops serving and releases the resolver. */
    @Override
    public void close() {
        if (endpoint != null) {
            endpoint.close();
        }
        close(resolver);
        closeTls(tls);
    }

    /**
     * The machine's name servers, asked directly so that each answer lasts only its TTL (a headless
     * Service's addresses change within seconds); the JDK's resolver where there are none to ask.
     */
    private static TargetResolver resolverFor(String host) {
        if (NetUtil.isValidIpV4Address(host) || NetUtil.isValidIpV6Address(host)) {
            // An address is its own answer: no name server is asked, so none is set up (the DNS
            // client's classes and its event loop cost about 20 ms of the start).
            return TargetResolver.system();
        }
        return DnsTargetResolver.fromResolvConf()
                .<TargetResolver>map(dns -> dns)
                .orElseGet(TargetResolver::system);
    }

    private static void close(TargetResolver resolver) {
        if (resolver instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                // Releasing a resolver's thread cannot fail in a way the run cares about.
            }
        }
    }
}
