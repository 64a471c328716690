package io.tcpload.runner.cli;

import io.tcpload.runner.client.LoadConfig;
import io.tcpload.runner.client.LoadEngine;
import io.tcpload.runner.client.ProgressListener;
import io.tcpload.runner.client.RunControl;
import io.tcpload.runner.client.StartGate;
import io.tcpload.runner.client.Transport;
import io.tcpload.runner.format.Quantities;
import io.tcpload.runner.html.HtmlReport;
import io.tcpload.runner.metrics.ControlChannel;
import io.tcpload.runner.metrics.MetricLabels;
import io.tcpload.runner.metrics.MetricsBridge;
import io.tcpload.runner.metrics.MetricsServer;
import io.tcpload.runner.profile.LoadedProfile;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.ProfileException;
import io.tcpload.runner.profile.ProfileLoader;
import io.tcpload.runner.profile.ProfileProblem;
import io.tcpload.runner.profile.Target;
import io.tcpload.runner.rate.RateSchedule;
import io.tcpload.runner.rate.Stages;
import io.tcpload.runner.report.ConsoleReport;
import io.tcpload.runner.report.JsonResult;
import io.tcpload.runner.report.ReportOptions;
import io.tcpload.runner.serve.DemoServer;
import io.tcpload.runner.serve.ServeCommand;
import io.tcpload.runner.serve.ServeOptions;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.stats.RunSummary.ErrorCount;
import io.tcpload.runner.template.RequestTemplate;
import io.tcpload.runner.template.RunnerSlice;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The load-test command: wrktcp's and wrk's flags, a profile file or a URL, the console report.
 * Exit status: 0 when the run completed, 2 for bad input (flags, profile), 1 when the run could not
 * be carried out (the target's name does not resolve, ...).
 */
@Command(
        name = "tcpload-runner",
        mixinStandardHelpOptions = false,
        sortOptions = false,
        usageHelpAutoWidth = true,
        subcommands = {ServeCommand.class},
        description = {
            "Runs a TCP load test described by a wrktcp INI profile, or an HTTP load test of a URL"
                    + " (wrk style).",
            "Subcommand 'serve PROFILE' starts a demo target that answers the profile's requests."
        })
public final class RunCommand implements Callable<Integer> {
    public static final int EXIT_OK = 0;
    public static final int EXIT_FAILED = 1;
    public static final int EXIT_INVALID = 2;
    public static final String VERSION = "tcpload-runner " + io.tcpload.runner.Version.NUMBER;

    @Spec CommandSpec spec;

    @Parameters(
            index = "0",
            arity = "0..1",
            paramLabel = "PROFILE|URL",
            description = "A wrktcp INI profile, or an http:// URL.")
    String target;

    @Option(
            names = {"-t", "--threads"},
            paramLabel = "N",
            description = "Event loops (default 1).")
    String threads = "1";

    @Option(
            names = {"-c", "--connections"},
            paramLabel = "N",
            description = "Connections in all, spread over the threads (default 1).")
    String connections = "1";

    @Option(
            names = {"-d", "--duration"},
            paramLabel = "T",
            description = "Duration: 10, 10s, 2m, 1h, 500ms (default 10s; not with --stages).")
    String duration;

    @Option(
            names = {"-R", "--rate"},
            paramLabel = "N",
            description =
                    "Constant rate: N requests per second in all (wrk2); latency then counts from"
                            + " each request's intended send time. With --stages, the rate the"
                            + " first stage starts from.")
    String rate;

    @Option(
            names = "--stages",
            paramLabel = "T:N,...",
            description =
                    "Ramp the rate: e.g. 30s:1000,1m:5000,30s:5000 moves linearly to each target"
                            + " over its stage; the run lasts the sum of the stages.")
    String stages;

    @Option(
            names = "--warmup",
            paramLabel = "T",
            description =
                    "Load for T before the measured run and leave it out of every figure (JIT"
                            + " warm-up of this JVM and of the target); the load is real traffic.")
    String warmup;

    @Option(
            names = {"-U", "--u_latency"},
            description = "Rate mode: also print the uncorrected latency distribution.")
    boolean uncorrectedLatency;

    @Option(
            names = {"-T", "--timeout"},
            paramLabel = "T",
            description = "Connect and response timeout (default 5s; 500ms is valid).")
    String timeout = "5s";

    @Option(
            names = {"-L", "--latency"},
            description = "Print the latency distribution.")
    boolean latency;

    @Option(names = "--trace", description = "Print the per-second table after the report.")
    boolean trace;

    @Option(
            names = "--json",
            paramLabel = "FILE",
            description = "Write every figure and the merged histograms as JSON ('-' = stdout).")
    Path json;

    @Option(
            names = "--html",
            paramLabel = "FILE",
            description = "Write a self-contained HTML report with charts.")
    Path html;

    @Option(
            names = "--metrics-port",
            paramLabel = "N",
            description =
                    "Serve /metrics (Prometheus), /stats, /healthz and /readyz on this port"
                            + " during the run (default off; 0 picks a free port).")
    Integer metricsPort;

    @Option(
            names = "--metrics-host",
            paramLabel = "ADDR",
            description =
                    "Address the metrics endpoint binds (default: $TCPLOAD_BIND_HOST, else"
                            + " 127.0.0.1; the pod's IP or 0.0.0.0 in a pod).")
    String metricsHost;

    @Option(
            names = "--await-start",
            description =
                    "Distributed runs: get ready (profile, address, event loops), answer 200 on"
                            + " /readyz, and begin the load at the instant POSTed to"
                            + " /start?at=EPOCH_MS (needs --metrics-port).")
    boolean awaitStart;

    @Option(
            names = "--hold-result",
            paramLabel = "SECONDS",
            description =
                    "After the run, keep serving the result on /result until POST /finish or"
                            + " SECONDS have passed, then exit (needs --metrics-port).")
    Integer holdResultSeconds;

    @Option(
            names = "--metrics-label-test",
            paramLabel = "NAME",
            description = "Label 'test' on every series (default: $TCPLOAD_TEST).")
    String metricsLabelTest;

    @Option(
            names = "--metrics-label-namespace",
            paramLabel = "NAME",
            description = "Label 'namespace' on every series (default: $TCPLOAD_NAMESPACE).")
    String metricsLabelNamespace;

    @Option(
            names = "--metrics-label-runner",
            paramLabel = "NAME",
            description =
                    "Label 'runner' on every series (default: $TCPLOAD_RUNNER_INDEX, else"
                            + " --runner-index).")
    String metricsLabelRunner;

    @Option(
            names = {"-k", "--keepalive"},
            description = "Keep connections open for many requests (always on for URLs).")
    boolean keepAlive;

    @Option(
            names = "--pipeline",
            paramLabel = "N",
            description = "Requests in flight per keep-alive connection (default 1).")
    String pipeline = "1";

    @Option(
            names = {"-H", "--header"},
            paramLabel = "'Name: value'",
            description = "URL mode: a request header (repeatable).")
    List<String> headers = new ArrayList<>();

    @Option(names = "--method", paramLabel = "M", description = "URL mode: method (default GET).")
    String method = "GET";

    @Option(names = "--body", paramLabel = "TEXT", description = "URL mode: request body.")
    String body;

    @Option(
            names = "--body-file",
            paramLabel = "FILE",
            description = "URL mode: request body from a file.")
    Path bodyFile;

    @Option(
            names = "--transport",
            paramLabel = "NAME",
            description = "I/O transport: " + Transport.CHOICES + " (default auto).")
    String transport = "auto";

    @Option(
            names = "--runner-index",
            paramLabel = "I",
            description =
                    "Distributed runs: this runner's index from 0; it offsets CONNECTID by I *"
                            + " 1000000 and takes slice I of every COUNTER and FILE (default: the"
                            + " TCPLOAD_RUNNER_INDEX or JOB_COMPLETION_INDEX environment variable,"
                            + " else 0).")
    Integer runnerIndex;

    @Option(
            names = "--runner-count",
            paramLabel = "N",
            description = "Distributed runs: how many runners share the test (default 1).")
    int runnerCount = 1;

    @Option(
            names = "--shared",
            description =
                    "Distributed runs: -c is the whole test's; this runner opens its share (the"
                            + " first runners take the remainder).")
    boolean shared;

    @Option(
            names = "--target",
            paramLabel = "HOST:PORT",
            description = "Load this host and port instead of the profile's [common] ones.")
    String targetOverride;

    @Option(
            names = "--demo-target",
            description =
                    "Start the demo target for this profile on 127.0.0.1 and load it instead of"
                            + " the profile's host.")
    boolean demoTarget;

    @Option(
            names = {"-v", "--version"},
            versionHelp = true,
            description = "Print the version and exit.")
    boolean version;

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "Print this help and exit.")
    boolean help;

    private static final String LOOPBACK = "127.0.0.1";

    /** Read when --runner-index is absent; Kubernetes sets the second in Indexed Job pods. */
    static final List<String> RUNNER_INDEX_VARIABLES =
            List.of("TCPLOAD_RUNNER_INDEX", "JOB_COMPLETION_INDEX");

    /** Read when --metrics-host is absent; a runner pod sets it to its own IP. */
    static final String BIND_HOST_VARIABLE = "TCPLOAD_BIND_HOST";

    private final RunControl control = new RunControl();
    private StartGate gate = StartGate.immediate();
    private ControlChannel channel;
    private final PrintStream out;
    private final PrintStream err;
    private final Function<String, String> environment;

    /**
     * A command that prints its report to {@code out} and its errors and warnings to {@code err}.
     */
    public RunCommand(PrintStream out, PrintStream err) {
        this(out, err, System::getenv);
    }

    /**
     * As {@link #RunCommand(PrintStream, PrintStream)}, reading variables from {@code environment}.
     */
    public RunCommand(PrintStream out, PrintStream err, Function<String, String> environment) {
        this.out = out;
        this.err = err;
        this.environment = environment;
    }

    @Override
    public Integer call() throws InterruptedException {
        if (target == null) {
            err.println("tcpload-runner: give a profile file or a URL (see --help)");
            return EXIT_INVALID;
        }
        Profile profile;
        LoadConfig config;
        Transport chosen;
        try {
            runnerIndex = resolveRunnerIndex();
            profile = loadProfile();
            if (profile == null) {
                return EXIT_INVALID;
            }
            if (targetOverride != null) {
                profile = profile.withTarget(parseTarget(targetOverride));
            }
            config = loadConfig(profile);
            chosen = Transport.select(transport);
        } catch (IllegalArgumentException e) {
            err.println("tcpload-runner: " + e.getMessage());
            return EXIT_INVALID;
        }
        RequestTemplate template;
        try {
            template = RequestTemplate.compile(profile, new RunnerSlice(runnerIndex, runnerCount));
        } catch (IllegalArgumentException e) {
            err.println("tcpload-runner: " + e.getMessage());
            return EXIT_INVALID;
        }
        if (!demoTarget) {
            return resolveAndRun(profile, config, template, chosen);
        }
        try (DemoServer server =
                DemoServer.start(profile, new ServeOptions(LOOPBACK, 0, 0.0, 0, 1))) {
            err.println("tcpload-runner: demo target on " + LOOPBACK + ":" + server.port());
            Profile local = profile.withTarget(new Target(LOOPBACK, server.port()));
            return resolveAndRun(local, config, template, chosen);
        }
    }

    private int resolveAndRun(
            Profile profile, LoadConfig config, RequestTemplate template, Transport chosen)
            throws InterruptedException {
        InetSocketAddress address;
        try {
            address =
                    new InetSocketAddress(
                            InetAddress.getByName(profile.target().host()),
                            profile.target().port());
        } catch (UnknownHostException e) {
            err.println("tcpload-runner: cannot resolve host '" + profile.target().host() + "'");
            return EXIT_FAILED;
        }
        return serveMetricsAndRun(profile, config, template, chosen, address);
    }

    /**
     * Runs with the metrics endpoint, when asked for, up from before the load starts until the
     * report is printed.
     */
    private int serveMetricsAndRun(
            Profile profile,
            LoadConfig config,
            RequestTemplate template,
            Transport chosen,
            InetSocketAddress address)
            throws InterruptedException {
        if (metricsPort != null && (metricsPort < 0 || metricsPort > 65_535)) {
            err.println("tcpload-runner: --metrics-port must be from 0 to 65535");
            return EXIT_INVALID;
        }
        if ((awaitStart || holdResultSeconds != null) && metricsPort == null) {
            err.println(
                    "tcpload-runner: --await-start and --hold-result need --metrics-port, where"
                            + " the start and the result are exchanged");
            return EXIT_INVALID;
        }
        if (holdResultSeconds != null && holdResultSeconds < 0) {
            err.println("tcpload-runner: --hold-result must be 0 or more seconds");
            return EXIT_INVALID;
        }
        String host = bindHost();
        MetricsBridge bridge =
                new MetricsBridge(
                        MetricLabels.resolve(
                                metricsLabelTest,
                                metricsLabelNamespace,
                                metricsLabelRunner,
                                runnerIndex,
                                environment),
                        config.paced()
                                ? OptionalDouble.of(
                                        config.schedule().rateAt(0) / config.runnerCount())
                                : OptionalDouble.empty());
        MetricsServer metrics = null;
        if (metricsPort != null) {
            gate = awaitStart ? StartGate.awaiting() : StartGate.immediate();
            channel = new ControlChannel(gate);
            try {
                metrics = MetricsServer.start(host, metricsPort, bridge, channel);
            } catch (IOException | RuntimeException e) {
                err.println(
                        "tcpload-runner: cannot serve metrics on "
                                + host
                                + ":"
                                + metricsPort
                                + ": "
                                + e.getMessage());
                return EXIT_FAILED;
            }
            err.println(
                    "tcpload-runner: metrics on http://"
                            + host
                            + ":"
                            + metrics.port()
                            + "/metrics");
        }
        try {
            int status = run(profile, config, template, chosen, address, bridge);
            holdResult();
            return status;
        } finally {
            if (metrics != null) {
                metrics.close();
            }
        }
    }

    /** With --hold-result, serves the result until the orchestrator has it or time is up. */
    private void holdResult() throws InterruptedException {
        if (holdResultSeconds == null || holdResultSeconds == 0 || channel.result().isEmpty()) {
            return;
        }
        err.println(
                "tcpload-runner: holding the result on /result for up to "
                        + holdResultSeconds
                        + " s");
        if (!channel.awaitFinish(TimeUnit.SECONDS.toMillis(holdResultSeconds))) {
            err.println("tcpload-runner: nobody fetched the result; exiting");
        }
    }

    /** --metrics-host, else $TCPLOAD_BIND_HOST, else loopback. */
    private String bindHost() {
        if (metricsHost != null) {
            return metricsHost;
        }
        String fromEnvironment = environment.apply(BIND_HOST_VARIABLE);
        return fromEnvironment != null && !fromEnvironment.isBlank()
                ? fromEnvironment.strip()
                : LOOPBACK;
    }

    private int run(
            Profile profile,
            LoadConfig config,
            RequestTemplate template,
            Transport chosen,
            InetSocketAddress address,
            MetricsBridge bridge)
            throws InterruptedException {
        LoadEngine engine = new LoadEngine(profile, config, template, chosen);
        if (UrlProfile.looksLikeUrl(target)) {
            engine = engine.describedAs(target, target);
        }
        boolean console = out == System.out && System.console() != null;
        // Progress lines go to stderr when stdout is redirected, so that reports stay parseable.
        PrintStream progress = console ? out : err;
        CountDownLatch reported = new CountDownLatch(1);
        Thread hook =
                new Thread(
                        () -> {
                            control.stop();
                            gate.cancel();
                            if (channel != null) {
                                channel.finish();
                            }
                            try {
                                reported.await(15, TimeUnit.SECONDS);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        },
                        "tcpload-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            err.println("tcpload-runner: " + chosen.name() + " transport");
            RunSummary summary;
            try {
                summary = startAndRun(engine, address, progress, bridge);
            } catch (CancellationException e) {
                err.println("tcpload-runner: stopped before the start");
                return EXIT_FAILED;
            }
            if (channel != null) {
                channel.publishResult(JsonResult.write(summary));
            }
            out.print(
                    ConsoleReport.render(
                            summary, new ReportOptions(latency, trace, uncorrectedLatency)));
            out.flush();
            printErrors(summary.errorMessages());
            int jsonStatus = writeJson(summary);
            int htmlStatus = writeHtml(summary);
            return Math.max(jsonStatus, htmlStatus);
        } finally {
            reported.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C: the hook is running and waits for the report printed above.
            }
        }
    }

    private RunSummary startAndRun(
            LoadEngine engine,
            InetSocketAddress address,
            PrintStream progress,
            MetricsBridge bridge)
            throws InterruptedException {
        ProgressListener listener =
                new ProgressListener() {
                    @Override
                    public void onSecond(ProgressListener.Progress second) {
                        for (ErrorCount error : second.errors()) {
                            progress.print("\r  " + error.count() + " x " + error.message() + "\n");
                        }
                        progress.print(
                                "\r"
                                        + ConsoleReport.progressLine(
                                                second.second(), second.cumulative()));
                        progress.flush();
                        bridge.onSecond(second);
                    }

                    @Override
                    public void onReady() {
                        bridge.onReady();
                        if (awaitStart) {
                            err.println("tcpload-runner: ready; waiting for the start instant");
                        }
                    }

                    @Override
                    public void onStart(long startEpochUs) {
                        bridge.onStart(startEpochUs);
                        Long atEpochMs = gate.startAtEpochMs();
                        if (awaitStart && atEpochMs != null) {
                            // In the pod's log: how exactly this runner kept the instant.
                            err.printf(
                                    Locale.ROOT,
                                    "tcpload-runner: began %.3f ms after the start instant%n",
                                    (startEpochUs - atEpochMs * 1000) / 1000.0);
                        }
                    }
                };
        out.print(ConsoleReport.banner(engine.info()));
        out.flush();
        RunSummary summary = engine.run(address, listener, control, gate);
        bridge.runFinished();
        progress.print("\n");
        progress.flush();
        return summary;
    }

    private int writeJson(RunSummary summary) {
        if (json == null) {
            return EXIT_OK;
        }
        String text = JsonResult.write(summary);
        if (json.toString().equals("-")) {
            out.println(text);
            return EXIT_OK;
        }
        try {
            Files.writeString(json, text, StandardCharsets.UTF_8);
            return EXIT_OK;
        } catch (IOException e) {
            err.println("tcpload-runner: cannot write " + json + ": " + e.getMessage());
            return EXIT_FAILED;
        }
    }

    private int writeHtml(RunSummary summary) {
        if (html == null) {
            return EXIT_OK;
        }
        try {
            HtmlReport.write(summary, html);
            return EXIT_OK;
        } catch (IOException e) {
            err.println("tcpload-runner: cannot write " + html + ": " + e.getMessage());
            return EXIT_FAILED;
        }
    }

    private void printErrors(List<ErrorCount> errors) {
        if (errors.isEmpty()) {
            return;
        }
        err.println("Errors:");
        for (ErrorCount error : errors) {
            err.printf("  %10d  %s%n", error.count(), error.message());
        }
    }

    /**
     * The profile from the file or URL; prints the problems and returns null when it is unusable.
     */
    private Profile loadProfile() {
        if (UrlProfile.looksLikeUrl(target)) {
            return UrlProfile.build(target, method, headers, requestBody());
        }
        if (!headers.isEmpty() || body != null || bodyFile != null || !"GET".equals(method)) {
            throw new IllegalArgumentException(
                    "-H, --method, --body and --body-file apply to URLs; a profile sets its"
                            + " request in [request]");
        }
        try {
            LoadedProfile loaded = ProfileLoader.load(Path.of(target));
            for (ProfileProblem warning : loaded.warnings()) {
                err.println("warning: " + warning);
            }
            return keepAlive ? loaded.profile().withKeepAlive(true) : loaded.profile();
        } catch (ProfileException e) {
            for (ProfileProblem problem : e.problems()) {
                err.println("error: " + problem);
            }
            err.println("tcpload-runner: unable to load profile " + target);
            return null;
        }
    }

    /** --runner-index, else the first variable of {@link #RUNNER_INDEX_VARIABLES} set, else 0. */
    private int resolveRunnerIndex() {
        if (runnerIndex != null) {
            return runnerIndex;
        }
        for (String variable : RUNNER_INDEX_VARIABLES) {
            String value = environment.apply(variable);
            if (value != null && !value.isBlank()) {
                try {
                    return Integer.parseInt(value.trim());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(
                            variable + " must be a runner index (got '" + value + "')", e);
                }
            }
        }
        return 0;
    }

    /** {@code host:port}, {@code [v6]:port}. */
    static Target parseTarget(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("--target: '" + text + "' is not HOST:PORT");
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--target: '" + text + "' has no numeric port", e);
        }
        if (host.isEmpty() || port < 1 || port > 65535) {
            throw new IllegalArgumentException(
                    "--target: '" + text + "' needs a host and a port in 1..65535");
        }
        return new Target(host, port);
    }

    private String requestBody() {
        if (body != null && bodyFile != null) {
            throw new IllegalArgumentException("give --body or --body-file, not both");
        }
        if (bodyFile != null) {
            try {
                return Files.readString(bodyFile, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new IllegalArgumentException(
                        "--body-file: cannot read " + bodyFile + ": " + e.getMessage(), e);
            }
        }
        return body == null ? "" : body;
    }

    private LoadConfig loadConfig(Profile profile) {
        int threadCount = Quantities.count("-t/--threads", threads, 1);
        int connectionCount = Quantities.count("-c/--connections", connections, 1);
        if (shared && runnerIndex >= 0 && runnerIndex < runnerCount) {
            connectionCount =
                    connectionCount / runnerCount
                            + (runnerIndex < connectionCount % runnerCount ? 1 : 0);
        }
        if (connectionCount < threadCount) {
            throw new IllegalArgumentException(
                    "-c/--connections ("
                            + connectionCount
                            + ") must be at least -t/--threads ("
                            + threadCount
                            + ")");
        }
        if (runnerCount < 1 || runnerIndex < 0 || runnerIndex >= runnerCount) {
            throw new IllegalArgumentException(
                    "--runner-index must be from 0 to --runner-count - 1 (got "
                            + runnerIndex
                            + " of "
                            + runnerCount
                            + ")");
        }
        int inFlight = Quantities.count("--pipeline", pipeline, 1);
        if (inFlight > 1 && !profile.keepAlive()) {
            throw new IllegalArgumentException(
                    "--pipeline needs keep-alive connections: add --keepalive or 'keepalive = true'"
                            + " in [common]");
        }
        RateSchedule schedule = rateSchedule();
        return new LoadConfig(
                threadCount,
                connectionCount,
                schedule != null
                        ? schedule.totalDurationMs()
                        : Quantities.durationMs(
                                "-d/--duration", duration == null ? "10s" : duration),
                Quantities.durationMs("-T/--timeout", timeout),
                profile.keepAlive(),
                inFlight,
                runnerIndex,
                runnerCount,
                schedule,
                stages != null,
                warmup == null ? 0 : Quantities.durationMs("--warmup", warmup));
    }

    /** The send schedule of {@code -R} and {@code --stages}, or null for the closed loop. */
    private RateSchedule rateSchedule() {
        double startRate = rate == null ? 0 : Stages.rate("-R/--rate", rate);
        if (stages != null) {
            if (duration != null) {
                throw new IllegalArgumentException(
                        "--stages sets the duration (the sum of the stages); leave out -d/--duration");
            }
            return RateSchedule.stages(startRate, Stages.parse(stages));
        }
        if (rate == null) {
            return null;
        }
        if (!(startRate > 0)) {
            throw new IllegalArgumentException("-R/--rate must be positive, not '" + rate + "'");
        }
        return RateSchedule.constant(
                startRate,
                Quantities.durationMs("-d/--duration", duration == null ? "10s" : duration));
    }
}
