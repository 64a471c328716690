package io.tcpload.runner.contract;

import io.tcpload.runner.format.Quantities;
import io.tcpload.runner.profile.Target;
import io.tcpload.runner.rate.Stage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * What a runner is asked to do: the typed form of its command line. The command line parses into
 * one ({@link #parse}), the operator builds one per runner and gives a pod {@link #toArgs}, and
 * local mode hands one to the engine in-process; {@code parse(toArgs(x))} equals {@code x}.
 *
 * <p>It holds what was asked, checked only for its form (a number where a number goes): whether the
 * values make a run (limits, rules between flags) is decided by the runner's plan, which names
 * every problem. Immutable.
 *
 * @param profile the wrktcp INI profile's path, or an {@code http://} URL; empty when not given
 * @param load how hard and how long
 * @param share which part of a distributed test this runner is
 * @param target a host and port that replace the profile's {@code [common]} ones
 * @param request URL mode: the request to send
 * @param outputs what to print and write after the run
 * @param control the HTTP endpoint and how an orchestrator drives the run through it
 * @param transport {@code auto}, {@code io_uring}, {@code epoll} or {@code nio}
 * @param demoTarget start the demo target for the profile on loopback and load it
 * @param tls the TLS flags, which override the profile's {@code tls_*} keys
 * @param search a capacity search instead of one load ({@code --search}); {@link Search#NONE} for
 *     none
 */
public record RunnerInvocation(
        Optional<String> profile,
        Load load,
        Share share,
        Optional<Target> target,
        UrlRequest request,
        Outputs outputs,
        Control control,
        String transport,
        boolean demoTarget,
        Tls tls,
        Search search) {

    public static final long DEFAULT_DURATION_MS = 10_000;
    public static final long DEFAULT_TIMEOUT_MS = 5_000;
    public static final String DEFAULT_TRANSPORT = "auto";

    /** The transports {@code --transport} names: the best available, or one of the three. */
    public static final List<String> TRANSPORTS =
            List.of(DEFAULT_TRANSPORT, "io_uring", "epoll", "nio");

    public RunnerInvocation {
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(load, "load");
        Objects.requireNonNull(share, "share");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(outputs, "outputs");
        Objects.requireNonNull(control, "control");
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(search, "search");
    }

    /** An invocation without a capacity search. */
    public RunnerInvocation(
            Optional<String> profile,
            Load load,
            Share share,
            Optional<Target> target,
            UrlRequest request,
            Outputs outputs,
            Control control,
            String transport,
            boolean demoTarget,
            Tls tls) {
        this(
                profile,
                load,
                share,
                target,
                request,
                outputs,
                control,
                transport,
                demoTarget,
                tls,
                Search.NONE);
    }

    /** An invocation without TLS flags. */
    public RunnerInvocation(
            Optional<String> profile,
            Load load,
            Share share,
            Optional<Target> target,
            UrlRequest request,
            Outputs outputs,
            Control control,
            String transport,
            boolean demoTarget) {
        this(
                profile,
                load,
                share,
                target,
                request,
                outputs,
                control,
                transport,
                demoTarget,
                Tls.NONE);
    }

    /**
     * A runner of {@code profile} with every other setting at its default, to change with withers.
     */
    public static RunnerInvocation of(String profile) {
        return new RunnerInvocation(
                Optional.of(profile),
                Load.DEFAULT,
                Share.ALONE,
                Optional.empty(),
                UrlRequest.DEFAULT,
                Outputs.NONE,
                Control.NONE,
                DEFAULT_TRANSPORT,
                false);
    }

    /**
     * Reads a runner command line (the flags and the profile or URL, without the program).
     *
     * @throws IllegalArgumentException naming the flag, when a value is not of its form or a flag
     *     is unknown
     */
    public static RunnerInvocation parse(List<String> args) {
        return InvocationOptions.parse(args);
    }

    public RunnerInvocation withProfile(String newProfile) {
        return copy(c -> c.profile = Optional.of(newProfile));
    }

    public RunnerInvocation withLoad(Load newLoad) {
        return copy(c -> c.load = newLoad);
    }

    public RunnerInvocation withShare(Share newShare) {
        return copy(c -> c.share = newShare);
    }

    public RunnerInvocation withTarget(Optional<Target> newTarget) {
        return copy(c -> c.target = newTarget);
    }

    public RunnerInvocation withRequest(UrlRequest newRequest) {
        return copy(c -> c.request = newRequest);
    }

    public RunnerInvocation withOutputs(Outputs newOutputs) {
        return copy(c -> c.outputs = newOutputs);
    }

    public RunnerInvocation withControl(Control newControl) {
        return copy(c -> c.control = newControl);
    }

    public RunnerInvocation withTransport(String newTransport) {
        return copy(c -> c.transport = newTransport);
    }

    public RunnerInvocation withDemoTarget(boolean newDemoTarget) {
        return copy(c -> c.demoTarget = newDemoTarget);
    }

    public RunnerInvocation withTls(Tls newTls) {
        return copy(c -> c.tls = newTls);
    }

    public RunnerInvocation withSearch(Search newSearch) {
        return copy(c -> c.search = newSearch);
    }

    /**
     * Applies {@code change} to a copy of this RunnerInvocation's components: the one place the
     * {@code with} copies above list them.
     */
    private RunnerInvocation copy(Consumer<Copy> change) {
        Copy copy = new Copy(this);
        change.accept(copy);
        return copy.build();
    }

    /** The components of a RunnerInvocation being copied, one of them changed. */
    private static final class Copy {
        private Optional<String> profile;
        private Load load;
        private Share share;
        private Optional<Target> target;
        private UrlRequest request;
        private Outputs outputs;
        private Control control;
        private String transport;
        private boolean demoTarget;
        private Tls tls;
        private Search search;

        private Copy(RunnerInvocation of) {
            profile = of.profile;
            load = of.load;
            share = of.share;
            target = of.target;
            request = of.request;
            outputs = of.outputs;
            control = of.control;
            transport = of.transport;
            demoTarget = of.demoTarget;
            tls = of.tls;
            search = of.search;
        }

        private RunnerInvocation build() {
            return new RunnerInvocation(
                    profile,
                    load,
                    share,
                    target,
                    request,
                    outputs,
                    control,
                    transport,
                    demoTarget,
                    tls,
                    search);
        }
    }

    /**
     * The command line that {@link #parse} reads back as this invocation: flags in a fixed order,
     * each as {@code --name=value}, the profile last, and only what differs from the defaults apart
     * from the threads, connections and timeout, which a pod's arguments always show.
     */
    public List<String> toArgs() {
        List<String> args = new ArrayList<>();
        args.add("--threads=" + load.threads());
        args.add("--connections=" + load.connections());
        load.durationMs()
                .ifPresent(ms -> args.add("--duration=" + Quantities.formatDurationMs(ms)));
        load.rate().ifPresent(rate -> args.add("--rate=" + Quantities.formatRate(rate)));
        if (!load.stages().isEmpty()) {
            args.add("--stages=" + Load.formatStages(load.stages()));
        }
        if (load.warmupMs() != 0) {
            args.add("--warmup=" + Quantities.formatDurationMs(load.warmupMs()));
        }
        args.add("--timeout=" + Quantities.formatDurationMs(load.timeoutMs()));
        flag(args, load.keepAlive(), "--keepalive");
        if (load.pipeline() != 1) {
            args.add("--pipeline=" + load.pipeline());
        }
        share.index().ifPresent(index -> args.add("--runner-index=" + index));
        if (share.count() != 1) {
            args.add("--runner-count=" + share.count());
        }
        flag(args, share.shared(), "--shared");
        target.ifPresent(t -> args.add("--target=" + t));
        if (!request.method().equals(UrlRequest.DEFAULT.method())) {
            args.add("--method=" + request.method());
        }
        request.headers().forEach(header -> args.add("--header=" + header));
        request.body().ifPresent(body -> args.add("--body=" + body));
        request.bodyFile().ifPresent(file -> args.add("--body-file=" + file));
        flag(args, outputs.latency(), "--latency");
        flag(args, outputs.trace(), "--trace");
        flag(args, outputs.uncorrectedLatency(), "--u_latency");
        outputs.json().ifPresent(file -> args.add("--json=" + file));
        outputs.html().ifPresent(file -> args.add("--html=" + file));
        control.metricsPort().ifPresent(port -> args.add("--metrics-port=" + port));
        control.metricsHost().ifPresent(host -> args.add("--metrics-host=" + host));
        flag(args, control.awaitStart(), "--await-start");
        control.holdResultSeconds().ifPresent(s -> args.add("--hold-result=" + s));
        control.labels().test().ifPresent(v -> args.add("--metrics-label-test=" + v));
        control.labels().namespace().ifPresent(v -> args.add("--metrics-label-namespace=" + v));
        control.labels().runner().ifPresent(v -> args.add("--metrics-label-runner=" + v));
        if (!transport.equals(DEFAULT_TRANSPORT)) {
            args.add("--transport=" + transport);
        }
        flag(args, demoTarget, "--demo-target");
        flag(args, tls.enable(), "--tls");
        tls.ca().ifPresent(file -> args.add("--tls-ca=" + file));
        tls.cert().ifPresent(file -> args.add("--tls-cert=" + file));
        tls.key().ifPresent(file -> args.add("--tls-key=" + file));
        tls.keyPasswordEnv().ifPresent(name -> args.add("--tls-key-password-env=" + name));
        tls.serverName().ifPresent(name -> args.add("--tls-server-name=" + name));
        flag(args, tls.insecure(), "--tls-insecure");
        flag(args, tls.noSessionReuse(), "--no-tls-session-reuse");
        if (!tls.provider().equals(Tls.DEFAULT_PROVIDER)) {
            args.add("--tls-provider=" + tls.provider());
        }
        search.slo().ifPresent(slo -> args.add("--search=" + slo));
        search.range()
                .ifPresent(
                        range ->
                                args.add(
                                        "--search-range="
                                                + Quantities.formatRate(range.minRate())
                                                + ":"
                                                + Quantities.formatRate(range.maxRate())));
        search.stepMs()
                .ifPresent(ms -> args.add("--search-step=" + Quantities.formatDurationMs(ms)));
        search.warmupMs()
                .ifPresent(ms -> args.add("--search-warmup=" + Quantities.formatDurationMs(ms)));
        search.precision().ifPresent(p -> args.add("--search-precision=" + p));
        flag(args, search.stepsFromControl(), "--search-steps-from-control");
        profile.ifPresent(
                p -> {
                    if (p.startsWith("-")) {
                        // Not a flag, whatever it looks like.
                        args.add("--");
                    }
                    args.add(p);
                });
        return List.copyOf(args);
    }

    private static void flag(List<String> args, boolean set, String name) {
        if (set) {
            args.add(name);
        }
    }

    /**
     * How hard and how long to load.
     *
     * @param threads event loops
     * @param connections connections: this runner's, or with {@link Share#shared} the whole test's
     * @param durationMs how long to load; empty for the default, or for the stages' sum
     * @param rate constant rate in requests per second for the whole test (wrk2); with stages, the
     *     rate the first stage starts from; empty for the closed loop
     * @param stages the rate schedule's stages, empty for none
     * @param warmupMs load before the measured run, left out of every figure; 0 for none
     * @param timeoutMs the connect and response timeout
     * @param keepAlive many requests per connection (on top of the profile's {@code keepalive})
     * @param pipeline requests in flight per keep-alive connection
     */
    public record Load(
            int threads,
            long connections,
            OptionalLong durationMs,
            OptionalDouble rate,
            List<Stage> stages,
            long warmupMs,
            long timeoutMs,
            boolean keepAlive,
            int pipeline) {
        public static final Load DEFAULT =
                new Load(
                        1,
                        1,
                        OptionalLong.empty(),
                        OptionalDouble.empty(),
                        List.of(),
                        0,
                        DEFAULT_TIMEOUT_MS,
                        false,
                        1);

        public Load {
            Objects.requireNonNull(durationMs, "durationMs");
            Objects.requireNonNull(rate, "rate");
            stages = List.copyOf(stages);
        }

        /**
         * How long the load lasts: the stages' sum, else the duration, else the default; the one
         * computation of it, for the runner, the operator's deadlines and local mode alike.
         */
        public long totalDurationMs() {
            if (!stages.isEmpty()) {
                long totalMs = 0;
                for (Stage stage : stages) {
                    totalMs += stage.durationMs();
                }
                return totalMs;
            }
            return durationMs.orElse(DEFAULT_DURATION_MS);
        }

        /** Whether sends follow a rate schedule (wrk2) rather than the closed loop (wrk). */
        public boolean paced() {
            return rate.isPresent() || !stages.isEmpty();
        }

        public Load withThreads(int newThreads) {
            return copy(c -> c.threads = newThreads);
        }

        public Load withConnections(long newConnections) {
            return copy(c -> c.connections = newConnections);
        }

        public Load withDurationMs(OptionalLong newDurationMs) {
            return copy(c -> c.durationMs = newDurationMs);
        }

        public Load withRate(OptionalDouble newRate) {
            return copy(c -> c.rate = newRate);
        }

        public Load withStages(List<Stage> newStages) {
            return copy(c -> c.stages = newStages);
        }

        public Load withWarmupMs(long newWarmupMs) {
            return copy(c -> c.warmupMs = newWarmupMs);
        }

        public Load withTimeoutMs(long newTimeoutMs) {
            return copy(c -> c.timeoutMs = newTimeoutMs);
        }

        public Load withKeepAlive(boolean newKeepAlive) {
            return copy(c -> c.keepAlive = newKeepAlive);
        }

        public Load withPipeline(int newPipeline) {
            return copy(c -> c.pipeline = newPipeline);
        }

        /**
         * Applies {@code change} to a copy of this Load's components: the one place the {@code
         * with} copies above list them.
         */
        private Load copy(Consumer<Copy> change) {
            Copy copy = new Copy(this);
            change.accept(copy);
            return copy.build();
        }

        /** The components of a Load being copied, one of them changed. */
        private static final class Copy {
            private int threads;
            private long connections;
            private OptionalLong durationMs;
            private OptionalDouble rate;
            private List<Stage> stages;
            private long warmupMs;
            private long timeoutMs;
            private boolean keepAlive;
            private int pipeline;

            private Copy(Load of) {
                threads = of.threads;
                connections = of.connections;
                durationMs = of.durationMs;
                rate = of.rate;
                stages = of.stages;
                warmupMs = of.warmupMs;
                timeoutMs = of.timeoutMs;
                keepAlive = of.keepAlive;
                pipeline = of.pipeline;
            }

            private Load build() {
                return new Load(
                        threads,
                        connections,
                        durationMs,
                        rate,
                        stages,
                        warmupMs,
                        timeoutMs,
                        keepAlive,
                        pipeline);
            }
        }

        /** {@code 30s:1000,1m:5000}, as {@code --stages} reads it. */
        static String formatStages(List<Stage> stages) {
            return stages.stream()
                    .map(
                            stage ->
                                    Quantities.formatDurationMs(stage.durationMs())
                                            + ":"
                                            + Quantities.formatRate(stage.targetRate()))
                    .collect(Collectors.joining(","));
        }
    }

    /**
     * Which part of a distributed test this runner is.
     *
     * @param index this runner's index from 0; empty to read it from the environment ({@link
     *     RunnerProtocol#RUNNER_INDEX_VARIABLES}), else 0
     * @param count the runners of the test
     * @param shared whether {@link Load#connections} is the whole test's, of which this runner
     *     opens its {@link Shares share}
     */
    public record Share(OptionalInt index, int count, boolean shared) {
        public static final Share ALONE = new Share(OptionalInt.empty(), 1, false);

        public Share {
            Objects.requireNonNull(index, "index");
        }
    }

    /**
     * URL mode's request.
     *
     * @param method the HTTP method
     * @param headers {@code Name: value} lines
     * @param body the body as given
     * @param bodyFile a file holding the body
     */
    public record UrlRequest(
            String method, List<String> headers, Optional<String> body, Optional<Path> bodyFile) {
        public static final UrlRequest DEFAULT =
                new UrlRequest("GET", List.of(), Optional.empty(), Optional.empty());

        public UrlRequest {
            Objects.requireNonNull(method, "method");
            headers = List.copyOf(headers);
            Objects.requireNonNull(body, "body");
            Objects.requireNonNull(bodyFile, "bodyFile");
        }

        /**
         * Whether anything differs from a plain GET, which only a URL can carry. Field by field,
         * for the reason {@link Tls#any()} gives.
         */
        public boolean isCustom() {
            return !method.equals(DEFAULT.method)
                    || !headers.isEmpty()
                    || body.isPresent()
                    || bodyFile.isPresent();
        }
    }

    /**
     * What to print and write once the run is over.
     *
     * @param latency print the latency distribution
     * @param trace print the per-second table
     * @param uncorrectedLatency rate mode: print the uncorrected latency distribution too
     * @param json write the JSON result here ({@code -} for standard output)
     * @param html write the HTML report here
     */
    public record Outputs(
            boolean latency,
            boolean trace,
            boolean uncorrectedLatency,
            Optional<Path> json,
            Optional<Path> html) {
        public static final Outputs NONE =
                new Outputs(false, false, false, Optional.empty(), Optional.empty());

        public Outputs {
            Objects.requireNonNull(json, "json");
            Objects.requireNonNull(html, "html");
        }

        /** Whether the JSON result goes to standard output. */
        public boolean jsonToStdout() {
            return json.map(path -> path.toString().equals("-")).orElse(false);
        }
    }

    /**
     * The runner's HTTP endpoint and how an orchestrator drives the run through it.
     *
     * @param metricsPort serve {@link RunnerProtocol the endpoint} on this port (0 picks one);
     *     empty for none
     * @param metricsHost the address it binds; empty for {@link RunnerProtocol#BIND_HOST_VARIABLE},
     *     else loopback
     * @param awaitStart get ready and begin at the instant posted to {@link RunnerProtocol#START}
     * @param holdResultSeconds after the run, serve the result until told to finish or this long
     * @param labels labels on every metric series; each empty one from its environment variable
     */
    public record Control(
            OptionalInt metricsPort,
            Optional<String> metricsHost,
            boolean awaitStart,
            OptionalInt holdResultSeconds,
            Labels labels) {
        public static final Control NONE =
                new Control(
                        OptionalInt.empty(),
                        Optional.empty(),
                        false,
                        OptionalInt.empty(),
                        Labels.NONE);

        public Control {
            Objects.requireNonNull(metricsPort, "metricsPort");
            Objects.requireNonNull(metricsHost, "metricsHost");
            Objects.requireNonNull(holdResultSeconds, "holdResultSeconds");
            Objects.requireNonNull(labels, "labels");
        }
    }

    /**
     * Labels on every metric series, as given by flags.
     *
     * @param test the test's name
     * @param namespace the test's Kubernetes namespace
     * @param runner the runner's name in the series
     */
    public record Labels(
            Optional<String> test, Optional<String> namespace, Optional<String> runner) {
        public static final Labels NONE =
                new Labels(Optional.empty(), Optional.empty(), Optional.empty());

        public Labels {
            Objects.requireNonNull(test, "test");
            Objects.requireNonNull(namespace, "namespace");
            Objects.requireNonNull(runner, "runner");
        }
    }

    /**
     * The TLS flags: each overrides the profile's key of the same meaning. The files are read when
     * the run is prepared, relative to the working folder, so that a pod can be given the paths of
     * mounted Secrets.
     *
     * @param enable connect with TLS though the profile does not say {@code tls = true}
     * @param ca a PEM bundle of trusted certificate authorities ({@code tls_ca})
     * @param cert the client certificate chain, PEM ({@code tls_cert})
     * @param key the client certificate's key, PEM ({@code tls_key})
     * @param keyPasswordEnv the environment variable holding the key's password ({@code
     *     tls_key_password_env})
     * @param serverName the SNI name and the name checked ({@code tls_server_name})
     * @param insecure accept any certificate ({@code tls_verify = false})
     * @param noSessionReuse a full handshake on every connection ({@code tls_session_reuse =
     *     false})
     * @param provider {@code auto}, {@code openssl} or {@code jdk}
     */
    public record Tls(
            boolean enable,
            Optional<Path> ca,
            Optional<Path> cert,
            Optional<Path> key,
            Optional<String> keyPasswordEnv,
            Optional<String> serverName,
            boolean insecure,
            boolean noSessionReuse,
            String provider) {
        public static final String DEFAULT_PROVIDER = "auto";

        public static final Tls NONE =
                new Tls(
                        false,
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty(),
                        false,
                        false,
                        DEFAULT_PROVIDER);

        public Tls {
            Objects.requireNonNull(ca, "ca");
            Objects.requireNonNull(cert, "cert");
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(keyPasswordEnv, "keyPasswordEnv");
            Objects.requireNonNull(serverName, "serverName");
            Objects.requireNonNull(provider, "provider");
        }

        /**
         * Whether any flag asks for something of TLS (beyond the provider): whether this differs
         * from {@link #NONE} in anything but the provider. Field by field rather than through the
         * record's {@code equals}, whose first call links it at run time, spinning some forty
         * method-handle classes that every run's start-up and compilers then pay for.
         */
        public boolean any() {
            return enable
                    || ca.isPresent()
                    || cert.isPresent()
                    || key.isPresent()
                    || keyPasswordEnv.isPresent()
                    || serverName.isPresent()
                    || insecure
                    || noSessionReuse;
        }

        public Tls withProvider(String newProvider) {
            return new Tls(
                    enable,
                    ca,
                    cert,
                    key,
                    keyPasswordEnv,
                    serverName,
                    insecure,
                    noSessionReuse,
                    newProvider);
        }

        /** The same flags trusting no CA file: the demo target's own certificate is trusted. */
        public Tls withoutCa() {
            return new Tls(
                    enable,
                    Optional.empty(),
                    cert,
                    key,
                    keyPasswordEnv,
                    serverName,
                    false,
                    noSessionReuse,
                    provider);
        }
    }

    /**
     * A capacity search: constant-rate steps on the connections kept open, narrowed to the highest
     * rate that holds its objective. What the flags say, checked for their form only; the plan
     * applies the defaults and the rules.
     *
     * @param slo {@code --search}: the objective, thresholds in the threshold syntax joined by
     *     commas; empty for no search
     * @param range {@code --search-range}: the rates to search, the whole test's
     * @param stepMs {@code --search-step}: each step's measured length; empty for the default
     * @param warmupMs {@code --search-warmup}: each step's warm-up; empty for the default
     * @param precision {@code --search-precision}: a fraction (0.02 for 2%); empty for the default
     * @param stepsFromControl {@code --search-steps-from-control}: one runner of a distributed
     *     search, whose orchestrator decides each step and tells it over the control channel
     *     ({@link RunnerProtocol#STEP}); the runner opens its connections, runs the steps it is
     *     told and decides nothing
     */
    public record Search(
            Optional<String> slo,
            Optional<Range> range,
            OptionalLong stepMs,
            OptionalLong warmupMs,
            OptionalDouble precision,
            boolean stepsFromControl) {
        public static final Search NONE =
                new Search(
                        Optional.empty(),
                        Optional.empty(),
                        OptionalLong.empty(),
                        OptionalLong.empty(),
                        OptionalDouble.empty(),
                        false);

        /** A search the runner runs itself. */
        public Search(
                Optional<String> slo,
                Optional<Range> range,
                OptionalLong stepMs,
                OptionalLong warmupMs,
                OptionalDouble precision) {
            this(slo, range, stepMs, warmupMs, precision, false);
        }

        public Search {
            Objects.requireNonNull(slo, "slo");
            Objects.requireNonNull(range, "range");
            Objects.requireNonNull(stepMs, "stepMs");
            Objects.requireNonNull(warmupMs, "warmupMs");
            Objects.requireNonNull(precision, "precision");
        }

        /** Whether a search is asked for. */
        public boolean asked() {
            return slo.isPresent();
        }

        /**
         * Whether any search flag is given: whether this differs from {@link #NONE}. Field by
         * field, for the reason {@link Tls#any()} gives.
         */
        public boolean anyFlag() {
            return slo.isPresent()
                    || range.isPresent()
                    || stepMs.isPresent()
                    || warmupMs.isPresent()
                    || precision.isPresent()
                    || stepsFromControl;
        }

        /** This search, its steps told by an orchestrator. */
        public Search withStepsFromControl() {
            return new Search(slo, range, stepMs, warmupMs, precision, true);
        }
    }

    /**
     * Rates from {@code minRate} to {@code maxRate}, requests per second.
     *
     * @param minRate the lowest
     * @param maxRate the highest
     */
    public record Range(double minRate, double maxRate) {}
}
