package io.tcpload.runner.contract;

import io.tcpload.runner.contract.RunnerInvocation.Control;
import io.tcpload.runner.contract.RunnerInvocation.Labels;
import io.tcpload.runner.contract.RunnerInvocation.Load;
import io.tcpload.runner.contract.RunnerInvocation.Outputs;
import io.tcpload.runner.contract.RunnerInvocation.Share;
import io.tcpload.runner.contract.RunnerInvocation.UrlRequest;
import io.tcpload.runner.format.Quantities;
import io.tcpload.runner.profile.Target;
import io.tcpload.runner.rate.Stage;
import io.tcpload.runner.rate.Stages;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import picocli.CommandLine;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The runner's flags as picocli declares them: a mixin of the runner's command, and the parser
 * behind {@link RunnerInvocation#parse}, so that what the command line accepts and what the
 * operator writes into a pod are read by one declaration. Values are converted to their types here
 * (quantities with SI suffixes, durations with units); whether they make a run is for the plan.
 * Mutable while picocli fills it; {@link #toInvocation} gives the immutable form.
 */
public final class InvocationOptions {
    @Parameters(
            index = "0",
            arity = "0..1",
            paramLabel = "PROFILE|URL",
            description = "A wrktcp INI profile, or an http:// or https:// URL.")
    String profile;

    @Option(
            names = {"-t", "--threads"},
            paramLabel = "N",
            converter = IntCount.class,
            description = "Event loops (default 1).")
    int threads = 1;

    @Option(
            names = {"-c", "--connections"},
            paramLabel = "N",
            converter = LongCount.class,
            description = "Connections in all, spread over the threads (default 1).")
    long connections = 1;

    @Option(
            names = {"-d", "--duration"},
            paramLabel = "T",
            converter = DurationMs.class,
            description = "Duration: 10, 10s, 2m, 1h, 500ms (default 10s; not with --stages).")
    Long durationMs;

    @Option(
            names = {"-R", "--rate"},
            paramLabel = "N",
            converter = Rate.class,
            description =
                    "Constant rate: N requests per second in all (wrk2); latency then counts from"
                            + " each request's intended send time. With --stages, the rate the"
                            + " first stage starts from.")
    Double rate;

    @Option(
            names = "--stages",
            paramLabel = "T:N,...",
            converter = StageList.class,
            description =
                    "Ramp the rate: e.g. 30s:1000,1m:5000,30s:5000 moves linearly to each target"
                            + " over its stage; the run lasts the sum of the stages.")
    StageList.Value stages;

    @Option(
            names = "--warmup",
            paramLabel = "T",
            converter = DurationMs.class,
            description =
                    "Load for T before the measured run and leave it out of every figure (JIT"
                            + " warm-up of this JVM and of the target); the load is real traffic.")
    long warmupMs;

    @Option(
            names = {"-U", "--u_latency"},
            description = "Rate mode: also print the uncorrected latency distribution.")
    boolean uncorrectedLatency;

    @Option(
            names = {"-T", "--timeout"},
            paramLabel = "T",
            converter = DurationMs.class,
            description = "Connect and response timeout (default 5s; 500ms is valid).")
    long timeoutMs = RunnerInvocation.DEFAULT_TIMEOUT_MS;

    @Option(
            names = {"-L", "--latency"},
            description = "Print the latency distribution.")
    boolean latency;

    @Option(names = "--trace", description = "Print the per-second table after the report.")
    boolean trace;

    @Option(
            names = "--json",
            paramLabel = "FILE",
            description =
                    "Write every figure and the merged histograms as JSON ('-' = stdout, which then"
                            + " holds the JSON alone: the report goes to stderr).")
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
            converter = IntCount.class,
            description = "Requests in flight per keep-alive connection (default 1).")
    int pipeline = 1;

    @Option(
            names = {"-H", "--header"},
            paramLabel = "'Name: value'",
            description = "URL mode: a request header (repeatable).")
    List<String> headers = new ArrayList<>();

    @Option(names = "--method", paramLabel = "M", description = "URL mode: method (default GET).")
    String method = UrlRequest.DEFAULT.method();

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
            description = "I/O transport: ${COMPLETION-CANDIDATES} (default auto).",
            completionCandidates = Transports.class)
    String transport = RunnerInvocation.DEFAULT_TRANSPORT;

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
            converter = HostPort.class,
            description = "Load this host and port instead of the profile's [common] ones.")
    Target target;

    @Option(
            names = "--demo-target",
            description =
                    "Start the demo target for this profile on 127.0.0.1 and load it instead of"
                            + " the profile's host.")
    boolean demoTarget;

    @Option(
            names = "--tls",
            description =
                    "Connect with TLS though the profile has no 'tls = true' (https:// URLs always"
                            + " do).")
    boolean tls;

    @Option(
            names = "--tls-ca",
            paramLabel = "FILE",
            description =
                    "Trust the certificate authorities of this PEM bundle instead of the system's"
                            + " (overrides tls_ca).")
    Path tlsCa;

    @Option(
            names = "--tls-cert",
            paramLabel = "FILE",
            description =
                    "Client certificate chain (PEM) for mutual TLS, with --tls-key (overrides"
                            + " tls_cert).")
    Path tlsCert;

    @Option(
            names = "--tls-key",
            paramLabel = "FILE",
            description =
                    "The client certificate's key: PEM, PKCS#8 (plain or encrypted), PKCS#1 or"
                            + " SEC1 (overrides tls_key).")
    Path tlsKey;

    @Option(
            names = "--tls-key-password-env",
            paramLabel = "NAME",
            description =
                    "The environment variable holding an encrypted key's password (overrides"
                            + " tls_key_password_env).")
    String tlsKeyPasswordEnv;

    @Option(
            names = "--tls-server-name",
            paramLabel = "NAME",
            description =
                    "The name sent as SNI and checked against the server's certificate (default"
                            + " the host; overrides tls_server_name).")
    String tlsServerName;

    @Option(
            names = "--tls-insecure",
            description =
                    "Accept any server certificate: no chain and no host-name check (overrides"
                            + " tls_verify).")
    boolean tlsInsecure;

    @Option(
            names = "--no-tls-session-reuse",
            description =
                    "A full handshake on every connection, no session resumed (overrides"
                            + " tls_session_reuse).")
    boolean noTlsSessionReuse;

    @Option(
            names = "--tls-provider",
            paramLabel = "NAME",
            description =
                    "TLS implementation: auto (BoringSSL where it loads, else the JDK's), openssl"
                            + " or jdk (default auto).")
    String tlsProvider = RunnerInvocation.Tls.DEFAULT_PROVIDER;

    @Option(
            names = "--search",
            paramLabel = "'SLO[, SLO...]'",
            description =
                    "Capacity search: find the highest rate that holds these thresholds (e.g."
                            + " 'p99 < 50ms, errorRatio < 0.001') by constant-rate steps on the"
                            + " connections kept open; needs --search-range.")
    String search;

    @Option(
            names = "--search-range",
            paramLabel = "MIN:MAX",
            converter = RateRange.class,
            description = "The rates to search, requests per second for the whole test.")
    RunnerInvocation.Range searchRange;

    @Option(
            names = "--search-step",
            paramLabel = "T",
            converter = DurationMs.class,
            description = "How long each step is measured, whole seconds (default 10s).")
    Long searchStepMs;

    @Option(
            names = "--search-warmup",
            paramLabel = "T",
            converter = DurationMs.class,
            description = "How long each step runs first, left out of its figures (default 1s).")
    Long searchWarmupMs;

    @Option(
            names = "--search-precision",
            paramLabel = "P",
            converter = Precision.class,
            description =
                    "Narrow the range until the rates that held and failed are within P of each"
                            + " other: 2%% or 0.02 (default 2%%).")
    Double searchPrecision;

    @Option(
            names = "--search-steps-from-control",
            description =
                    "One runner of a distributed capacity search: open the connections and run the"
                            + " steps an orchestrator posts to /step (it decides each rate from"
                            + " every runner's results); needs --search, --await-start and"
                            + " --metrics-port.")
    boolean searchStepsFromControl;

    /** The names {@code --transport} takes, for its description. */
    static final class Transports implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return RunnerInvocation.TRANSPORTS.iterator();
        }
    }

    /** The invocation these options say. */
    public RunnerInvocation toInvocation() {
        return new RunnerInvocation(
                Optional.ofNullable(profile),
                new Load(
                        threads,
                        connections,
                        durationMs == null ? OptionalLong.empty() : OptionalLong.of(durationMs),
                        rate == null ? OptionalDouble.empty() : OptionalDouble.of(rate),
                        stages == null ? List.of() : stages.stages(),
                        warmupMs,
                        timeoutMs,
                        keepAlive,
                        pipeline),
                new Share(
                        runnerIndex == null ? OptionalInt.empty() : OptionalInt.of(runnerIndex),
                        runnerCount,
                        shared),
                Optional.ofNullable(target),
                new UrlRequest(
                        method, headers, Optional.ofNullable(body), Optional.ofNullable(bodyFile)),
                new Outputs(
                        latency,
                        trace,
                        uncorrectedLatency,
                        Optional.ofNullable(json),
                        Optional.ofNullable(html)),
                new Control(
                        metricsPort == null ? OptionalInt.empty() : OptionalInt.of(metricsPort),
                        Optional.ofNullable(metricsHost),
                        awaitStart,
                        holdResultSeconds == null
                                ? OptionalInt.empty()
                                : OptionalInt.of(holdResultSeconds),
                        new Labels(
                                Optional.ofNullable(metricsLabelTest),
                                Optional.ofNullable(metricsLabelNamespace),
                                Optional.ofNullable(metricsLabelRunner))),
                transport,
                demoTarget,
                new RunnerInvocation.Tls(
                        tls,
                        Optional.ofNullable(tlsCa),
                        Optional.ofNullable(tlsCert),
                        Optional.ofNullable(tlsKey),
                        Optional.ofNullable(tlsKeyPasswordEnv),
                        Optional.ofNullable(tlsServerName),
                        tlsInsecure,
                        noTlsSessionReuse,
                        tlsProvider),
                new RunnerInvocation.Search(
                        Optional.ofNullable(search),
                        Optional.ofNullable(searchRange),
                        searchStepMs == null ? OptionalLong.empty() : OptionalLong.of(searchStepMs),
                        searchWarmupMs == null
                                ? OptionalLong.empty()
                                : OptionalLong.of(searchWarmupMs),
                        searchPrecision == null
                                ? OptionalDouble.empty()
                                : OptionalDouble.of(searchPrecision),
                        searchStepsFromControl));
    }

    /** See {@link RunnerInvocation#parse}. */
    static RunnerInvocation parse(List<String> args) {
        InvocationOptions options = new InvocationOptions();
        CommandLine commandLine = configure(new CommandLine(options));
        try {
            commandLine.parseArgs(args.toArray(String[]::new));
        } catch (ParameterException e) {
            throw new IllegalArgumentException(describe(e), e);
        }
        return options.toInvocation();
    }

    /**
     * The parser settings the runner's command and {@link RunnerInvocation#parse} share, so that
     * both read every argument list alike: no {@code @file} expansion (a profile may be named
     * {@code @x}), and a value such as {@code --body=-x} is the value, not a flag.
     */
    public static CommandLine configure(CommandLine commandLine) {
        return commandLine.setExpandAtFiles(false).setAllowOptionsAsOptionParameters(true);
    }

    /**
     * A parameter problem as the runner reports it: the flag by all its names ({@code
     * -d/--duration}) and what is wrong with the value, or picocli's own message.
     */
    public static String describe(ParameterException e) {
        if (e.getCause() instanceof TypeConversionException conversion
                && e.getArgSpec() instanceof OptionSpec option) {
            return String.join("/", option.names()) + ": " + conversion.getMessage();
        }
        if (e instanceof UnmatchedArgumentException unmatched
                && unmatched.getUnmatched().stream().anyMatch(InvocationOptions::isWrkScript)) {
            return WRK_SCRIPT;
        }
        return e.getMessage();
    }

    /**
     * wrk's users reach for {@code -s script.lua} first; picocli alone would call it an unknown
     * option and count the target as one too.
     */
    private static final String WRK_SCRIPT =
            "-s/--script: wrk's Lua scripts are not supported; give an INI profile in place of the"
                    + " URL to frame requests, vary parameters and judge responses (docs/profiles.md)";

    private static boolean isWrkScript(String arg) {
        // -s, -sFILE (picocli's attached form), --script and --script=FILE
        return (arg.startsWith("-s") && !arg.startsWith("--"))
                || arg.equals("--script")
                || arg.startsWith("--script=");
    }

    /** A count with SI suffixes that fits an int; a sign is read, for the plan to refuse. */
    static final class IntCount implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String text) {
            long value = LongCount.read(text);
            if (value > Integer.MAX_VALUE || value < Integer.MIN_VALUE) {
                throw new TypeConversionException("'" + text + "' is too large");
            }
            return (int) value;
        }
    }

    /** A count with SI suffixes ({@code 1k}); a sign is read, for the plan to refuse. */
    static final class LongCount implements ITypeConverter<Long> {
        @Override
        public Long convert(String text) {
            return read(text);
        }

        static long read(String text) {
            try {
                return Quantities.signedCount("", text);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(withoutFlag(e));
            }
        }
    }

    /** A duration with a unit, in milliseconds; zero and a sign are read, for the plan. */
    static final class DurationMs implements ITypeConverter<Long> {
        @Override
        public Long convert(String text) {
            try {
                return Quantities.signedDurationMs("", text);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(
                        "'" + text + "' is not a duration (examples: 10, 10s, 500ms, 2m, 1h)");
            }
        }
    }

    /** A rate with an optional SI suffix. */
    static final class Rate implements ITypeConverter<Double> {
        @Override
        public Double convert(String text) {
            try {
                return Stages.rate("", text);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(withoutFlag(e));
            }
        }
    }

    /** {@code --stages}: the list as one value. */
    static final class StageList implements ITypeConverter<StageList.Value> {
        record Value(List<Stage> stages) {}

        @Override
        public Value convert(String text) {
            try {
                return new Value(Stages.parse(text));
            } catch (IllegalArgumentException e) {
                String message = e.getMessage();
                throw new TypeConversionException(
                        message.startsWith("--stages: ")
                                ? message.substring("--stages: ".length())
                                : message);
            }
        }
    }

    /** {@code MIN:MAX}, two rates with optional SI suffixes. */
    static final class RateRange implements ITypeConverter<RunnerInvocation.Range> {
        @Override
        public RunnerInvocation.Range convert(String text) {
            int colon = text.indexOf(':');
            if (colon <= 0 || colon == text.length() - 1 || text.indexOf(':', colon + 1) >= 0) {
                throw new TypeConversionException(
                        "'" + text + "' is not MIN:MAX, such as 100:5000 or 1k:20k");
            }
            try {
                return new RunnerInvocation.Range(
                        Stages.rate("", text.substring(0, colon)),
                        Stages.rate("", text.substring(colon + 1)));
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(
                        "'" + text + "' is not MIN:MAX, such as 100:5000 or 1k:20k");
            }
        }
    }

    /** {@code 2%} or {@code 0.02}. */
    static final class Precision implements ITypeConverter<Double> {
        @Override
        public Double convert(String text) {
            String number = text.strip();
            boolean percent = number.endsWith("%");
            if (percent) {
                number = number.substring(0, number.length() - 1).strip();
            }
            try {
                if (!number.matches("[0-9]+(\\.[0-9]+)?")) {
                    throw new NumberFormatException(number);
                }
                double value = Double.parseDouble(number);
                return percent ? value / 100 : value;
            } catch (NumberFormatException e) {
                throw new TypeConversionException(
                        "'" + text + "' is not a precision such as 2% or 0.02");
            }
        }
    }

    /** {@code host:port}, {@code [v6]:port}. */
    static final class HostPort implements ITypeConverter<Target> {
        @Override
        public Target convert(String text) {
            int colon = text.lastIndexOf(':');
            if (colon <= 0 || colon == text.length() - 1) {
                throw new TypeConversionException("'" + text + "' is not HOST:PORT");
            }
            String host = text.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            int port;
            try {
                port = Integer.parseInt(text.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new TypeConversionException("'" + text + "' has no numeric port");
            }
            if (host.isEmpty() || port < 1 || port > 65535) {
                throw new TypeConversionException(
                        "'" + text + "' needs a host and a port in 1..65535");
            }
            return new Target(host, port);
        }
    }

    /** The message of a {@link Quantities} or {@link Stages} error given an empty flag name. */
    private static String withoutFlag(IllegalArgumentException e) {
        String message = e.getMessage();
        return message.startsWith(": ")
                ? message.substring(2)
                : message.startsWith(" ") ? message.substring(1) : message;
    }
}
