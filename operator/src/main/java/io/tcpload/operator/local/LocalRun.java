package io.tcpload.operator.local;

import io.tcpload.operator.children.RunnerInvocations;
import io.tcpload.operator.crd.Phase;
import io.tcpload.operator.crd.TargetOverride;
import io.tcpload.operator.crd.TcpLoadTest;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.operator.crd.TcpLoadTestStatus;
import io.tcpload.operator.results.ResultMerge;
import io.tcpload.operator.results.SearchSummaries;
import io.tcpload.operator.validation.Failure;
import io.tcpload.operator.validation.Sources;
import io.tcpload.operator.validation.TcpLoadTestValidator;
import io.tcpload.runner.cli.DryRun;
import io.tcpload.runner.cli.RunCommand;
import io.tcpload.runner.client.ProgressListener;
import io.tcpload.runner.client.StartGate;
import io.tcpload.runner.contract.RunnerInvocation;
import io.tcpload.runner.contract.RunnerInvocation.Outputs;
import io.tcpload.runner.contract.Stopped;
import io.tcpload.runner.endpoint.StepChannel;
import io.tcpload.runner.plan.PlanException;
import io.tcpload.runner.plan.RunPlan;
import io.tcpload.runner.profile.LoadedProfile;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.ProfileException;
import io.tcpload.runner.profile.ProfileProblem;
import io.tcpload.runner.report.ConsoleReport;
import io.tcpload.runner.report.DryRunResult;
import io.tcpload.runner.report.SearchReport;
import io.tcpload.runner.search.SearchResult;
import io.tcpload.runner.search.SearchSpec;
import io.tcpload.runner.serve.DemoServer;
import io.tcpload.runner.serve.ServeOptions;
import io.tcpload.runner.session.Interruption;
import io.tcpload.runner.session.RunOutputs;
import io.tcpload.runner.session.RunSession;
import io.tcpload.runner.stats.RunInfo;
import io.tcpload.runner.stats.RunSummary;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * Runs a TcpLoadTest on this machine as the cluster would, without one: the same validation, the
 * same runner invocations ({@link RunnerInvocations#forRunner}), {@code spec.runners} runners
 * in-process, armed and started together at an instant the operator's state machine sets, the same
 * exact merge and the same status. Each runner's result comes back as an object. Prints the merged
 * report and then the {@code status:} block to {@code out}; problems go to {@code err}.
 *
 * <p>Exit status: {@link #EXIT_PASSED} when every runner reported and every threshold held, {@link
 * #EXIT_FAILED} when a threshold was missed or a runner failed, {@link #EXIT_INVALID} when the file
 * or the test is invalid, and {@code 128 + signal} when SIGINT or SIGTERM stopped it, while it was
 * set up or while it ran (the status is still printed, with the partial result of what ran). One
 * run per instance; not thread-safe.
 */
public final class LocalRun {
    public static final int EXIT_PASSED = 0;
    public static final int EXIT_FAILED = 1;
    public static final int EXIT_INVALID = 2;

    /** The command as the user types it, which its messages begin with. */
    public static final String NAME = "tcpload run";

    private static final String PREFIX = NAME + ": ";

    private static final String LOOPBACK = "127.0.0.1";

    /** With {@code --demo-target}: the demo target's workers (see {@link #demoOptions}). */
    public static final String DEMO_WORKERS = "tcpload.io/demo-workers";

    /** With {@code --demo-target}: how long each of the demo target's workers takes a request. */
    public static final String DEMO_SERVICE_TIME_MS = "tcpload.io/demo-service-time-ms";

    /**
     * Beyond the duration and the timeout, how long runners get to stop before they are given up.
     */
    private static final long STOP_GRACE_MS = 30_000;

    /** A runner pod's variables of its own (index, bind address): none of this shell's. */
    private static final Function<String, String> NO_ENVIRONMENT = name -> null;

    /**
     * What to run.
     *
     * @param file the YAML file: one TcpLoadTest and the ConfigMaps it refers to
     * @param demoTarget start the demo target for the profile on loopback and load it
     * @param duration run this long instead of the spec's duration or stages
     * @param json write the merged result as JSON here
     * @param html write the merged HTML report here
     * @param dryRun instead of the load, the runner's dry run ({@code --test}) on one connection
     */
    public record Options(
            Path file,
            boolean demoTarget,
            Optional<String> duration,
            Optional<Path> json,
            Optional<Path> html,
            boolean dryRun) {
        public Options(Path file, boolean demoTarget, Optional<String> duration) {
            this(file, demoTarget, duration, Optional.empty(), Optional.empty(), false);
        }

        public Options(
                Path file,
                boolean demoTarget,
                Optional<String> duration,
                Optional<Path> json,
                Optional<Path> html) {
            this(file, demoTarget, duration, json, html, false);
        }

        Outputs outputs() {
            return new Outputs(true, false, false, json, html);
        }
    }

    /** Where the JSON result goes with {@code --json -}, and the text too without it. */
    private final PrintStream out;

    /** Where the report and the status block go: {@link #out}, or {@link #err} with --json -. */
    private final PrintStream text;

    private final PrintStream err;

    /** SIGINT and SIGTERM, taken from the run's first step to its runners' end. */
    private LocalSignals signals;

    /** The test and the spec it runs once the file is read and valid; null before. */
    private TcpLoadTest validTest;

    private TcpLoadTestSpec validSpec;

    /** A signal came while the run was set up: it ends there, with an interrupted run's status. */
    private static final class SetupInterrupted extends Exception {
        private static final long serialVersionUID = 1L;
    }

    public LocalRun(PrintStream out, PrintStream err) {
        this(out, out, err);
    }

    private LocalRun(PrintStream out, PrintStream text, PrintStream err) {
        this.out = out;
        this.text = text;
        this.err = err;
    }

    /**
     * Runs the test and returns the exit status. With {@code --json -} standard output holds the
     * JSON result alone, so that a program can read it as it is: the report and the status block go
     * to {@code err}.
     */
    public int run(Options options) throws InterruptedException {
        if (text != err && options.outputs().jsonToStdout()) {
            return new LocalRun(out, err, err).run(options);
        }
        // From the first step, not only once the runners run: a signal while the file is read,
        // the demo target starts or the runners are made ends with the status, not in silence.
        try (LocalSignals taken = LocalSignals.install()) {
            signals = taken;
            try {
                return setUpAndRun(options);
            } catch (SetupInterrupted e) {
                return interruptedInSetup(options);
            } catch (InterruptedException | RuntimeException e) {
                // A wait or a read the signal interrupted may end in any exception: it is the
                // signal's doing, not a failure of the run's.
                if (signals.caught().isPresent() && !signals.loading()) {
                    return interruptedInSetup(options);
                }
                throw e;
            }
        }
    }

    /**
     * Ends a run a signal interrupted while it was set up: the status of an interrupted run (but
     * for {@code --test}, which prints none: a line says it), and the exit status, {@code 128 +
     * signal}. Nothing was written: no runner ran.
     */
    private int interruptedInSetup(Options options) {
        Interruption.Caught caught = signals.release().orElseThrow();
        Instant now = Instant.now();
        if (options.dryRun()) {
            err.println(PREFIX + "interrupted by " + caught.signal() + " before the dry run");
        } else {
            text.print(
                    StatusYaml.render(
                            validTest == null
                                    ? LocalStatus.interruptedBeforeValidation(now, caught.signal())
                                    : new LocalStatus(validTest, validSpec)
                                            .interruptedBeforeRunners(now, caught.signal())));
            text.flush();
        }
        return caught.exitStatus();
    }

    /** Ends the setup here when a signal has come during it. */
    private void checkSignals() throws SetupInterrupted {
        if (signals.caught().isPresent()) {
            throw new SetupInterrupted();
        }
    }

    private int setUpAndRun(Options options) throws InterruptedException, SetupInterrupted {
        TcpLoadTest test;
        TcpLoadTestSpec spec;
        Sources sources;
        Map<String, String> environment;
        try {
            TestFile file = readTestFile(options.file());
            test = file.singleTest();
            spec = test.getSpec();
            if (options.duration().isPresent()
                    && spec != null
                    && spec.getSearch() != null
                    && !options.dryRun()) {
                throw new BadInputException(
                        "--duration: a capacity search's steps last spec.search.step each, as many"
                                + " as it takes; leave out --duration (or shorten the step)");
            }
            if (options.duration().isPresent()) {
                Optional<String> problem = DurationOverride.problem(options.duration().get());
                if (problem.isPresent()) {
                    throw new BadInputException("--duration: " + problem.get());
                }
            }
            TestFile.Resolution resolution =
                    spec == null
                            ? new TestFile.Resolution(Optional.empty(), Optional.empty())
                            : file.sources(spec);
            Optional<Failure> failure = resolution.failure();
            sources = resolution.sources().orElse(null);
            environment = spec == null ? Map.of() : file.runnerEnvironment(spec);
            if (failure.isEmpty()) {
                // The file as written, as the cluster would take it: an override shortens a test,
                // it does not make an invalid one valid.
                failure = TcpLoadTestValidator.validate(withSpec(test, spec), sources);
            }
            if (failure.isPresent()) {
                checkSignals();
                err.println(PREFIX + options.file() + ": " + failure.get());
                text.print(
                        StatusYaml.render(LocalStatus.invalid(test, failure.get(), Instant.now())));
                return EXIT_INVALID;
            }
            if (options.duration().isPresent() && spec != null) {
                spec = DurationOverride.apply(spec, options.duration().get());
                // The file is valid: what the override makes invalid (too long) is the flag's.
                Optional<Failure> overridden =
                        TcpLoadTestValidator.validate(withSpec(test, spec), sources);
                if (overridden.isPresent()) {
                    throw new BadInputException("--duration: " + overridden.get().message());
                }
            }
            boolean files = options.json().isPresent() || options.html().isPresent();
            if (options.dryRun() && files) {
                throw new BadInputException(
                        "--test prints the dry run: it writes no --json or --html result");
            }
            if (RunnerInvocations.dryRun(spec) && files) {
                // A dry run has no load result to write; its exchange is in the status block.
                throw new BadInputException(
                        options.file()
                                + ": spec.dryRun: true runs a dry run, whose exchange is in the"
                                + " status block: it writes no --json or --html result");
            }
            List<String> outputProblems = new ArrayList<>(RunOutputs.problems(options.outputs()));
            // The test file is all a local run reads (its profile, data files and TLS files are
            // ConfigMaps and Secrets in it): a result written over it would replace the test.
            outputProblems.addAll(
                    RunOutputs.overwritten(
                            options.outputs(),
                            List.of(new RunOutputs.Input("the test file", options.file()))));
            if (!outputProblems.isEmpty()) {
                throw new BadInputException(String.join("; ", outputProblems));
            }
        } catch (BadInputException e) {
            // After a signal, what the setup ran into is not said: the signal ended it.
            checkSignals();
            err.println(PREFIX + e.getMessage());
            return EXIT_INVALID;
        }
        validTest = test;
        validSpec = spec;
        checkSignals();
        // --test is the runner's own dry run, unmasked; a test that is a dry run itself runs as in
        // a cluster, masked with its status, whatever the flag: the file says its values are kept.
        boolean runnersDryRun = options.dryRun() && !RunnerInvocations.dryRun(spec);
        try {
            Profile profile = loadProfile(sources, spec);
            checkSignals();
            if (!options.demoTarget()) {
                if (runnersDryRun) {
                    return dryRun(profile, spec, environment);
                }
                return runRunners(profile, new LocalStatus(test, spec), spec, environment, options);
            }
            // A profile with tls = true is served with a certificate made at start.
            ServeOptions served = demoOptions(test);
            try (DemoServer server = DemoServer.start(profile, served)) {
                checkSignals();
                err.println(
                        PREFIX
                                + "demo target on "
                                + LOOPBACK
                                + ":"
                                + server.port()
                                + (server.tls() ? " (TLS, a certificate made at start)" : "")
                                + (served.queued()
                                        ? ", "
                                                + served.workers()
                                                + " workers of "
                                                + served.serviceTimeMs()
                                                + " ms: a capacity of "
                                                + SearchSpec.formatRate(served.capacityPerSecond())
                                                + " requests/sec"
                                        : ""));
                spec.setTarget(new TargetOverride(LOOPBACK, server.port()));
                if (runnersDryRun) {
                    return dryRun(server.clientProfile(profile), spec, environment);
                }
                // The runners trust that certificate alone, in place of the test's CA bundle, and
                // check its chain and name as they would the real server's.
                return runRunners(
                        server.clientProfile(profile),
                        new LocalStatus(test, spec),
                        spec,
                        environment,
                        options);
            } catch (IllegalArgumentException | IllegalStateException e) {
                checkSignals();
                err.println(PREFIX + "cannot start the demo target: " + e.getMessage());
                return EXIT_INVALID;
            }
        } catch (BadInputException e) {
            checkSignals();
            err.println(PREFIX + e.getMessage());
            return EXIT_INVALID;
        }
    }

    /**
     * The test file, read. A file that is not a regular one (a pipe from {@code -f <(...)}, a FIFO)
     * is read on a thread of its own, since a read from it waits for its writer, and the system's
     * read cannot be interrupted: the run's thread waits for that thread instead, which a signal
     * ends. The reading thread, a daemon, then stays blocked until its writer writes or the process
     * exits.
     *
     * @throws InterruptedException when a signal ends the wait
     */
    private static TestFile readTestFile(Path path) throws BadInputException, InterruptedException {
        if (Files.isRegularFile(path)) {
            return TestFile.read(path);
        }
        FutureTask<TestFile> read = new FutureTask<>(() -> TestFile.read(path));
        Thread reader = new Thread(read, "tcpload-read-test-file");
        reader.setDaemon(true);
        reader.start();
        try {
            return read.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof BadInputException bad) {
                throw bad;
            }
            if (e.getCause() instanceof RuntimeException unexpected) {
                throw unexpected;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /** {@code test} with {@code spec} in place of its own. */
    private static TcpLoadTest withSpec(TcpLoadTest test, TcpLoadTestSpec spec) {
        TcpLoadTest asRun = new TcpLoadTest();
        asRun.setMetadata(test.getMetadata());
        asRun.setSpec(spec);
        return asRun;
    }

    /**
     * The demo target's options for {@code test}: its annotations {@value #DEMO_WORKERS} and
     * {@value #DEMO_SERVICE_TIME_MS} give it that many workers of that many milliseconds each (a
     * known capacity, for a capacity search to find), else it answers at once.
     *
     * @throws BadInputException naming the annotation when a value is not a whole number or the two
     *     do not go together
     */
    static ServeOptions demoOptions(TcpLoadTest test) throws BadInputException {
        Map<String, String> annotations =
                test.getMetadata() == null || test.getMetadata().getAnnotations() == null
                        ? Map.of()
                        : test.getMetadata().getAnnotations();
        String workers = annotations.get(DEMO_WORKERS);
        String serviceTime = annotations.get(DEMO_SERVICE_TIME_MS);
        if (workers == null && serviceTime == null) {
            return ServeOptions.defaults();
        }
        try {
            return ServeOptions.defaults()
                    .withWorkers(
                            wholeNumber(DEMO_WORKERS, workers),
                            wholeNumber(DEMO_SERVICE_TIME_MS, serviceTime));
        } catch (IllegalArgumentException e) {
            throw new BadInputException(
                    "metadata.annotations: "
                            + DEMO_WORKERS
                            + " and "
                            + DEMO_SERVICE_TIME_MS
                            + ": "
                            + e.getMessage());
        }
    }

    private static int wholeNumber(String annotation, String value) throws BadInputException {
        if (value == null) {
            throw new BadInputException(
                    "metadata.annotations: "
                            + DEMO_WORKERS
                            + " and "
                            + DEMO_SERVICE_TIME_MS
                            + " go together: N workers that each take T ms");
        }
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new BadInputException(
                    "metadata.annotations."
                            + annotation
                            + ": '"
                            + value
                            + "' is not a whole number");
        }
    }

    /**
     * The runner's dry run of the test, as runner 0 of its pods would be asked: one connection,
     * each request once (the sign-ons first), printed; exit 0, 1 or 2 as the runner's {@code
     * --test}.
     */
    private int dryRun(Profile profile, TcpLoadTestSpec spec, Map<String, String> environment)
            throws SetupInterrupted {
        // The dry run sends each request once: the signals end it as they always did.
        if (signals.release().isPresent()) {
            throw new SetupInterrupted();
        }
        RunPlan plan;
        try {
            plan = RunPlan.of(RunnerInvocations.forRunner(spec, 0), NO_ENVIRONMENT);
        } catch (PlanException e) {
            e.problems().forEach(problem -> err.println(PREFIX + problem));
            return EXIT_INVALID;
        }
        return new DryRun(NAME, text, err).run(plan, profile, environment::get);
    }

    /**
     * The profile as the runner pods load it, in memory: its data files those of {@code
     * spec.files}; validation has loaded it once already.
     */
    private Profile loadProfile(Sources sources, TcpLoadTestSpec spec) throws BadInputException {
        try {
            LoadedProfile loaded = sources.load(spec.getFiles(), spec.getTls());
            for (ProfileProblem warning : loaded.warnings()) {
                err.println("warning: " + warning);
            }
            return loaded.profile();
        } catch (ProfileException e) {
            throw new BadInputException("the profile does not load: " + e.getMessage(), e);
        }
    }

    private int runRunners(
            Profile profile,
            LocalStatus machine,
            TcpLoadTestSpec spec,
            Map<String, String> environment,
            Options options)
            throws InterruptedException, SetupInterrupted {
        if (RunnerInvocations.dryRun(spec)) {
            return dryRun(profile, machine, spec, environment);
        }
        if (RunnerInvocations.search(spec)) {
            return search(profile, machine, spec, environment, options);
        }
        int runners = spec.getRunners();
        List<LocalRunner> prepared = new ArrayList<>();
        try {
            for (int i = 0; i < runners; i++) {
                Optional<LocalRunner> runner = prepare(i, spec, profile, environment);
                if (runner.isEmpty()) {
                    return EXIT_INVALID;
                }
                prepared.add(runner.get());
            }
            // The setup is over: from here a signal stops the runners, and what they did is
            // reported with the status.
            if (!signals.load(() -> prepared.forEach(LocalRunner::stop))) {
                throw new SetupInterrupted();
            }
            long waitMs =
                    RunnerInvocations.totalDurationMs(spec)
                            + RunnerInvocations.load(spec).timeoutMs()
                            + STOP_GRACE_MS;
            machine.accepted(Instant.now());
            List<RunnerOutcome> outcomes;
            Optional<Interruption.Caught> caught;
            try {
                err.println(
                        PREFIX
                                + runners
                                + (runners == 1 ? " runner, " : " runners, ")
                                + spec.getConnections()
                                + " connections for "
                                + io.tcpload.runner.format.Quantities.formatDurationMs(
                                        RunnerInvocations.totalDurationMs(spec)));
                outcomes = runTogether(prepared, machine, waitMs);
            } finally {
                // The report is written with the JVM's own handling back, as before the run.
                caught = signals.release();
            }
            Instant completed = Instant.now();
            List<RunSummary> results = outcomes.stream().flatMap(o -> o.result().stream()).toList();
            int written = 0;
            if (!results.isEmpty()) {
                RunSummary merged = ResultMerge.merge(results);
                // Stopped by a signal: the files say the result is partial, as a runner's do.
                Optional<Stopped> stopped =
                        caught.map(c -> new Stopped(c.signal(), merged.runtimeUs() / 1000));
                written = printReport(merged, stopped, options);
            }
            TcpLoadTestStatus status =
                    caught.isPresent()
                            ? machine.interrupted(outcomes, completed, "SIG" + caught.get().name())
                            : machine.ended(outcomes, completed);
            text.println();
            text.print(StatusYaml.render(status));
            text.flush();
            if (caught.isPresent()) {
                return caught.get().exitStatus();
            }
            if (status.getPhase() != Phase.Succeeded) {
                return EXIT_FAILED;
            }
            return written == 0 ? EXIT_PASSED : EXIT_FAILED;
        } finally {
            prepared.forEach(LocalRunner::close);
        }
    }

    /**
     * A capacity search ({@code spec.search}) over {@code spec.runners} in-process runners: each
     * arms, all start at the state machine's instant, and every step runs on all of them together
     * at one instant, each sending its share on its kept-open connections. Each step's results are
     * merged exactly, judged by the runner's own rules and fed to the runner's own search, which
     * chooses the next step. Prints the search's report and the status with {@code
     * status.capacity}; the runners' figures in the status are the confirmation step's (the last
     * step's when none held), on which the thresholds are judged.
     */
    private int search(
            Profile profile,
            LocalStatus machine,
            TcpLoadTestSpec spec,
            Map<String, String> environment,
            Options options)
            throws InterruptedException, SetupInterrupted {
        SearchSpec searchSpec = RunnerInvocations.searchSpec(spec);
        int runners = spec.getRunners();
        List<LocalRunner> prepared = new ArrayList<>();
        try {
            for (int i = 0; i < runners; i++) {
                Optional<LocalRunner> runner = prepare(i, spec, profile, environment);
                if (runner.isEmpty()) {
                    return EXIT_INVALID;
                }
                prepared.add(runner.get());
            }
            // The setup is over: from here a signal stops the runners' steps.
            if (!signals.load(() -> prepared.forEach(LocalRunner::stop))) {
                throw new SetupInterrupted();
            }
            err.println(
                    PREFIX
                            + runners
                            + (runners == 1 ? " runner, " : " runners, ")
                            + spec.getConnections()
                            + " connections, a capacity search");
            RunInfo info = prepared.get(0).session().map(s -> s.engine().info()).orElse(null);
            text.print(
                    SearchReport.banner(
                            searchSpec,
                            info == null ? "?" : info.target(),
                            options.file().getFileName().toString()));
            text.flush();
            machine.accepted(Instant.now());
            LocalSearch.Ended ended;
            Optional<Interruption.Caught> caught;
            try {
                ended = searchTogether(prepared, machine, searchSpec, spec);
            } finally {
                caught = signals.release();
            }
            Instant completed = Instant.now();
            SearchResult result = ended.result();
            int written = 0;
            if (result.anyStep()) {
                // Stopped by a signal: the files say the search is partial, as a runner's do.
                Optional<Stopped> stopped =
                        caught.map(c -> new Stopped(c.signal(), result.wallTimeMs()));
                written =
                        RunOutputs.writeSearch(
                                result, searchSpec, stopped, options.outputs(), NAME, out, err);
            } else {
                text.println(SearchReport.capacityLine(result.outcome(), searchSpec.slo()));
                text.println("  " + result.outcome().message());
            }
            machine.searched(SearchSummaries.of(result, searchSpec));
            TcpLoadTestStatus status =
                    caught.isPresent()
                            ? machine.interrupted(
                                    ended.outcomes(), completed, "SIG" + caught.get().name())
                            : machine.ended(ended.outcomes(), completed);
            text.println();
            text.print(StatusYaml.render(status));
            text.flush();
            if (caught.isPresent()) {
                return caught.get().exitStatus();
            }
            int searchStatus = SearchReport.exitStatus(result.outcome());
            if (searchStatus == EXIT_INVALID) {
                err.println(PREFIX + result.outcome().message());
                return EXIT_INVALID;
            }
            if (status.getPhase() != Phase.Succeeded || searchStatus != 0) {
                return EXIT_FAILED;
            }
            return written == 0 ? EXIT_PASSED : EXIT_FAILED;
        } finally {
            prepared.forEach(LocalRunner::close);
        }
    }

    /**
     * Runs the search's steps on every runner, each runner on a thread of its own: all arm, the
     * state machine sets the start instant, then each step is told to every runner's {@link
     * StepChannel} at one instant {@link LocalSearch#STEP_LEAD_MS} ahead, and the runners' results
     * of it are awaited, merged and recorded until the search ends (or a runner is lost, or a
     * stop).
     */
    private LocalSearch.Ended searchTogether(
            List<LocalRunner> runners,
            LocalStatus machine,
            SearchSpec searchSpec,
            TcpLoadTestSpec spec)
            throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(runners.size(), named());
        CountDownLatch armed = new CountDownLatch(runners.size());
        List<StepChannel> channels = new ArrayList<>();
        List<Future<List<RunSummary>>> futures = new ArrayList<>();
        try {
            for (LocalRunner runner : runners) {
                StepChannel channel = new StepChannel();
                channels.add(channel);
                futures.add(pool.submit(() -> runner.runSteps(armed::countDown, channel)));
            }
            armed.await();
            long startAtMs = machine.allReady(Instant.now());
            runners.forEach(runner -> runner.open(startAtMs));
            long timeoutMs = RunnerInvocations.load(spec).timeoutMs();
            LocalSearch.Ended ended =
                    new LocalSearch(searchSpec, channels, futures, timeoutMs, err).run(startAtMs);
            List<RunnerOutcome> outcomes = new ArrayList<>();
            long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_GRACE_MS);
            for (int i = 0; i < runners.size(); i++) {
                Optional<String> lost = ended.lost().get(i);
                if (lost.isPresent()) {
                    runners.get(i).stop();
                    outcomes.add(failed(runners.get(i), lost.get()));
                    continue;
                }
                RunnerOutcome done = stepsOutcome(runners.get(i), futures.get(i), deadlineNs);
                outcomes.add(
                        done.result().isEmpty() || ended.headline().isEmpty()
                                ? done
                                : RunnerOutcome.reported(i, ended.headline().get().get(i)));
            }
            return new LocalSearch.Ended(ended.result(), ended.headline(), ended.lost(), outcomes);
        } finally {
            runners.forEach(LocalRunner::stop);
            pool.shutdownNow();
            pool.awaitTermination(STOP_GRACE_MS, TimeUnit.MILLISECONDS);
        }
    }

    /** A runner's end after the search: its steps' results, or why it has none. */
    private RunnerOutcome stepsOutcome(
            LocalRunner runner, Future<List<RunSummary>> future, long deadlineNs)
            throws InterruptedException {
        try {
            List<RunSummary> steps =
                    future.get(Math.max(0, deadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS);
            return steps.isEmpty()
                    ? failed(runner, "ran no step")
                    : RunnerOutcome.reported(runner.index(), steps.get(steps.size() - 1));
        } catch (TimeoutException e) {
            runner.stop();
            return failed(runner, "did not stop in time");
        } catch (ExecutionException e) {
            return failed(runner, e);
        }
    }

    /**
     * A dry run of {@code spec.dryRun}, as a cluster's runner pod does it (unlike {@code --test},
     * which prints the runner's dry run alone): runner 0's invocation, each request once, printed,
     * masked as a pod's ({@link RunnerInvocations#dryRunOptions}); its exchange, within a
     * termination message's bound, in the status block.
     */
    private int dryRun(
            Profile profile,
            LocalStatus machine,
            TcpLoadTestSpec spec,
            Map<String, String> environment)
            throws SetupInterrupted {
        // The dry run sends each request once: the signals end it as they always did.
        if (signals.release().isPresent()) {
            throw new SetupInterrupted();
        }
        machine.accepted(Instant.now());
        RunPlan plan;
        try {
            plan = RunPlan.of(RunnerInvocations.forRunner(spec, 0), NO_ENVIRONMENT);
        } catch (PlanException e) {
            e.problems().forEach(problem -> err.println(PREFIX + "runner 0: " + problem));
            return EXIT_INVALID;
        }
        DryRun.Outcome outcome =
                new DryRun(NAME, text, err, RunnerInvocations.dryRunOptions(spec, Optional.empty()))
                        .outcome(plan, profile, environment::get);
        TcpLoadTestStatus status =
                machine.dryRunEnded(
                        outcome.exitStatus(),
                        outcome.result().map(r -> r.toJson(DryRunResult.TERMINATION_MESSAGE_BYTES)),
                        Instant.now());
        text.println();
        text.print(StatusYaml.render(status));
        text.flush();
        if (outcome.exitStatus() == EXIT_INVALID) {
            return EXIT_INVALID;
        }
        return status.getPhase() == Phase.Succeeded ? EXIT_PASSED : EXIT_FAILED;
    }

    /**
     * Runner {@code index} checked and armed-to-be; empty (said on {@code err}) when it refuses its
     * invocation, which means the test cannot run here.
     */
    private Optional<LocalRunner> prepare(
            int index, TcpLoadTestSpec spec, Profile profile, Map<String, String> environment) {
        RunnerInvocation invocation = RunnerInvocations.forRunner(spec, index);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream logStream = new PrintStream(log, true, StandardCharsets.UTF_8);
        try {
            RunPlan plan = RunPlan.of(invocation, NO_ENVIRONMENT);
            RunSession session =
                    RunSession.prepare(
                            plan,
                            profile,
                            StartGate.awaiting(),
                            environment::get,
                            RunCommand.VERSION,
                            PREFIX + "runner " + index,
                            logStream);
            return Optional.of(new LocalRunner(index, Optional.of(session), log, Optional.empty()));
        } catch (PlanException e) {
            e.problems()
                    .forEach(problem -> err.println(PREFIX + "runner " + index + ": " + problem));
            return Optional.empty();
        } catch (RunSession.SetupException e) {
            return Optional.of(
                    new LocalRunner(index, Optional.empty(), log, Optional.of(e.getMessage())));
        }
    }

    /**
     * Runs every runner on a thread of its own: each arms (connections open, nothing sent); once
     * all are armed the state machine sets the start instant, each runner's gate is opened at it,
     * and the outcomes are collected, each within {@code waitMs} of the start.
     */
    private List<RunnerOutcome> runTogether(
            List<LocalRunner> runners, LocalStatus machine, long waitMs)
            throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(runners.size(), named());
        CountDownLatch armed = new CountDownLatch(runners.size());
        List<Future<RunSummary>> futures = new ArrayList<>();
        try {
            for (LocalRunner runner : runners) {
                futures.add(pool.submit(() -> runner.run(armed::countDown)));
            }
            armed.await();
            long startAtMs = machine.allReady(Instant.now());
            runners.forEach(runner -> runner.open(startAtMs));
            long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
            List<RunnerOutcome> outcomes = new ArrayList<>();
            for (int i = 0; i < runners.size(); i++) {
                outcomes.add(outcome(runners.get(i), futures.get(i), deadlineNs));
            }
            return outcomes;
        } finally {
            runners.forEach(LocalRunner::stop);
            pool.shutdownNow();
            pool.awaitTermination(STOP_GRACE_MS, TimeUnit.MILLISECONDS);
        }
    }

    private RunnerOutcome outcome(LocalRunner runner, Future<RunSummary> future, long deadlineNs)
            throws InterruptedException {
        try {
            RunSummary result =
                    future.get(Math.max(0, deadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS);
            return RunnerOutcome.reported(runner.index(), result);
        } catch (TimeoutException e) {
            runner.stop();
            return failed(runner, "did not stop in time");
        } catch (ExecutionException e) {
            return failed(runner, e);
        }
    }

    /** What ended a runner's run before it reported, said as its failure. */
    private RunnerOutcome failed(LocalRunner runner, ExecutionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof CancellationException) {
            return failed(runner, "stopped before the start");
        }
        if (cause instanceof LocalRunner.NotRunException notRun) {
            return failed(runner, notRun.getMessage());
        }
        return failed(runner, "crashed: " + cause);
    }

    private RunnerOutcome failed(LocalRunner runner, String reason) {
        // Each line names the command and the runner already ("tcpload run: runner 1: ...").
        runner.logLines().forEach(err::println);
        return RunnerOutcome.failed(runner.index(), reason);
    }

    /**
     * Prints the merged report and writes the files asked for.
     *
     * @return 0, or non-zero when a file could not be written
     */
    private int printReport(RunSummary merged, Optional<Stopped> stopped, Options options) {
        RunInfo info = merged.info();
        // The runners' profile is a temporary file; the test file is what the user knows.
        text.print(
                ConsoleReport.banner(
                        new RunInfo(
                                info.target(),
                                options.file().getFileName().toString(),
                                info.threads(),
                                info.connections(),
                                info.durationMs(),
                                info.timeoutMs(),
                                info.keepAlive(),
                                info.pipeline(),
                                info.transport())));
        return RunOutputs.write(merged, stopped, options.outputs(), NAME, out, err);
    }

    private static java.util.concurrent.ThreadFactory named() {
        return new java.util.concurrent.ThreadFactory() {
            private int next;

            @Override
            public synchronized Thread newThread(Runnable task) {
                return new Thread(task, "tcpload-local-runner-" + next++);
            }
        };
    }

    /**
     * One in-process runner: its session (none when it could not be set up, with the reason), and
     * what it logged, shown when it fails.
     */
    private record LocalRunner(
            int index,
            Optional<RunSession> session,
            ByteArrayOutputStream log,
            Optional<String> setupFailure) {

        /** A runner that could not run at all. */
        static final class NotRunException extends Exception {
            private static final long serialVersionUID = 1L;

            NotRunException(String message) {
                super(message);
            }
        }

        /** Runs to the end; {@code armed} is called once it waits at its gate, or cannot run. */
        RunSummary run(Runnable armed) throws InterruptedException, NotRunException {
            return armedRun(armed, (session, listener) -> session.run(listener));
        }

        /**
         * Runs the steps told through {@code steps} to the search's end; {@code armed} is called
         * once it waits at its gate, or cannot run.
         */
        List<RunSummary> runSteps(Runnable armed, StepChannel steps)
                throws InterruptedException, NotRunException {
            return armedRun(armed, (session, listener) -> session.runToldSteps(listener, steps));
        }

        /** What a runner's session runs, told when it is ready through {@code listener}. */
        private interface SessionRun<T> {
            T run(RunSession session, ProgressListener listener) throws InterruptedException;
        }

        private <T> T armedRun(Runnable armed, SessionRun<T> body)
                throws InterruptedException, NotRunException {
            if (session.isEmpty()) {
                armed.run();
                throw new NotRunException(setupFailure.orElse("could not be set up"));
            }
            boolean[] told = new boolean[1];
            try {
                return body.run(
                        session.get(),
                        new ProgressListener() {
                            @Override
                            public void onSecond(Progress progress) {}

                            @Override
                            public void onReady() {
                                told[0] = true;
                                armed.run();
                            }
                        });
            } finally {
                if (!told[0]) {
                    // Failed before it was armed: the others must not wait for it.
                    armed.run();
                }
            }
        }

        void open(long startAtMs) {
            session.ifPresent(s -> s.gate().open(startAtMs));
        }

        void stop() {
            session.ifPresent(RunSession::stop);
        }

        void close() {
            session.ifPresent(RunSession::close);
        }

        List<String> logLines() {
            return log.toString(StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
        }
    }
}
