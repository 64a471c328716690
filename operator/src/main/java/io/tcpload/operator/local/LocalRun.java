package io.tcpload.operator.local;

import io.tcpload.operator.crd.Phase;
import io.tcpload.operator.crd.TargetOverride;
import io.tcpload.operator.crd.TcpLoadTest;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.operator.crd.TcpLoadTestStatus;
import io.tcpload.operator.results.ResultMerge;
import io.tcpload.operator.runner.RunnerArgs;
import io.tcpload.operator.status.FinishedStatus;
import io.tcpload.operator.status.RunnerOutcome;
import io.tcpload.operator.validation.Failure;
import io.tcpload.operator.validation.Sources;
import io.tcpload.operator.validation.TcpLoadTestValidator;
import io.tcpload.runner.RunnerMain;
import io.tcpload.runner.format.Quantities;
import io.tcpload.runner.profile.ProfileException;
import io.tcpload.runner.profile.ProfileLoader;
import io.tcpload.runner.report.ConsoleReport;
import io.tcpload.runner.report.JsonResult;
import io.tcpload.runner.report.ReportOptions;
import io.tcpload.runner.serve.DemoServer;
import io.tcpload.runner.serve.ServeOptions;
import io.tcpload.runner.stats.RunInfo;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.stats.RunSummary.ErrorCount;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * Runs a TcpLoadTest on this machine as the cluster would, without one: the same validation, the
 * same runner arguments ({@link RunnerArgs#forRunner}), {@code spec.runners} runners in-process and
 * started together, the same exact merge and the same status. Prints the merged report and then the
 * {@code status:} block to {@code out}; problems go to {@code err}.
 *
 * <p>Exit status: {@link #EXIT_PASSED} when every runner reported and every threshold held, {@link
 * #EXIT_FAILED} when a threshold was missed or a runner failed, {@link #EXIT_INVALID} when the file
 * or the test is invalid. One run per instance; not thread-safe.
 */
public final class LocalRun {
    public static final int EXIT_PASSED = 0;
    public static final int EXIT_FAILED = 1;
    public static final int EXIT_INVALID = 2;

    private static final String LOOPBACK = "127.0.0.1";

    /**
     * Beyond the duration and the timeout, how long runners get to stop before they are given up.
     */
    private static final long STOP_GRACE_MS = 30_000;

    /**
     * What to run.
     *
     * @param file the YAML file: one TcpLoadTest and the ConfigMaps it refers to
     * @param demoTarget start the demo target for the profile on loopback and load it
     * @param duration run this long instead of the spec's duration or stages
     */
    public record Options(Path file, boolean demoTarget, Optional<String> duration) {}

    /** The runner's exit status for flags or a profile it refuses. */
    private static final int RUNNER_EXIT_INVALID = 2;

    private final PrintStream out;
    private final PrintStream err;
    private final AtomicBoolean refusedArguments = new AtomicBoolean();

    public LocalRun(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** Runs the test and returns the exit status. */
    public int run(Options options) throws InterruptedException {
        TcpLoadTestSpec spec;
        Sources sources;
        try {
            TestFile file = TestFile.read(options.file());
            TcpLoadTest test = file.singleTest();
            spec = test.getSpec();
            if (options.duration().isPresent()) {
                Optional<String> problem = DurationOverride.problem(options.duration().get());
                if (problem.isPresent()) {
                    throw new BadInputException("--duration: " + problem.get());
                }
                if (spec != null) {
                    spec = DurationOverride.apply(spec, options.duration().get());
                }
            }
            Optional<Failure> failure;
            TestFile.Resolution resolution =
                    spec == null
                            ? new TestFile.Resolution(Optional.empty(), Optional.empty())
                            : file.sources(spec);
            failure = resolution.failure();
            sources = resolution.sources().orElse(null);
            if (failure.isEmpty()) {
                failure = TcpLoadTestValidator.validate(spec, sources);
            }
            if (failure.isPresent()) {
                err.println("tcpload: " + options.file() + ": " + failure.get());
                out.print(StatusYaml.render(FinishedStatus.invalid(failure.get(), Instant.now())));
                return EXIT_INVALID;
            }
        } catch (BadInputException e) {
            err.println("tcpload: " + e.getMessage());
            return EXIT_INVALID;
        }
        Path folder = workFolder();
        try {
            writeProfile(folder, sources);
            return runIn(folder, spec, options);
        } finally {
            deleteQuietly(folder);
        }
    }

    private int runIn(Path folder, TcpLoadTestSpec spec, Options options)
            throws InterruptedException {
        if (!options.demoTarget()) {
            return runRunners(folder, spec, options);
        }
        Path profile = folder.resolve(RunnerArgs.PROFILE_FILE);
        DemoServer server;
        try {
            server =
                    DemoServer.start(
                            ProfileLoader.load(profile).profile(), ServeOptions.defaults());
        } catch (ProfileException | IllegalArgumentException | IllegalStateException e) {
            err.println("tcpload: cannot start the demo target: " + e.getMessage());
            return EXIT_INVALID;
        }
        try (server) {
            err.println("tcpload: demo target on " + LOOPBACK + ":" + server.port());
            spec.setTarget(new TargetOverride(LOOPBACK, server.port()));
            return runRunners(folder, spec, options);
        }
    }

    private int runRunners(Path folder, TcpLoadTestSpec spec, Options options)
            throws InterruptedException {
        int runners = spec.getRunners();
        List<List<String>> args = new ArrayList<>();
        for (int i = 0; i < runners; i++) {
            args.add(
                    LocalArgs.localize(
                            RunnerArgs.forRunner(spec, i),
                            folder.resolve(RunnerArgs.PROFILE_FILE),
                            resultFile(folder, i)));
        }
        long waitMs =
                Quantities.durationMs("duration", totalDuration(spec))
                        + Quantities.durationMs("timeout", spec.getTimeout())
                        + STOP_GRACE_MS;
        err.println(
                "tcpload: "
                        + runners
                        + (runners == 1 ? " runner, " : " runners, ")
                        + spec.getConnections()
                        + " connections for "
                        + totalDuration(spec));
        Instant started = Instant.now();
        List<RunnerOutcome> outcomes = new ArrayList<>();
        List<String> runnerErrors = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(runners, named());
        try {
            CountDownLatch ready = new CountDownLatch(runners);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<InProcessRunner.Ended>> futures = new ArrayList<>();
            for (int i = 0; i < runners; i++) {
                InProcessRunner runner = new InProcessRunner(args.get(i), ready, go);
                futures.add(pool.submit(runner::call));
            }
            ready.await();
            started = Instant.now();
            go.countDown();
            long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
            for (int i = 0; i < runners; i++) {
                RunnerOutcome outcome =
                        outcome(i, futures.get(i), resultFile(folder, i), deadlineNs, runnerErrors);
                outcomes.add(outcome);
            }
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(STOP_GRACE_MS, TimeUnit.MILLISECONDS);
        }
        Instant completed = Instant.now();
        runnerErrors.forEach(err::println);

        List<RunSummary> results = outcomes.stream().flatMap(o -> o.result().stream()).toList();
        Optional<RunSummary> merged =
                results.isEmpty() ? Optional.empty() : Optional.of(ResultMerge.merge(results));
        String testName = options.file().getFileName().toString();
        merged.ifPresent(result -> printReport(result, testName));
        TcpLoadTestStatus status =
                FinishedStatus.finished(spec, merged, outcomes, started, completed);
        out.println();
        out.print(StatusYaml.render(status));
        out.flush();
        if (status.getPhase() == Phase.Succeeded) {
            return EXIT_PASSED;
        }
        // A runner that refuses its arguments (a feature it lacks) means the test cannot run here.
        return refusedArguments.get() ? EXIT_INVALID : EXIT_FAILED;
    }

    private RunnerOutcome outcome(
            int index,
            Future<InProcessRunner.Ended> future,
            Path resultFile,
            long deadlineNs,
            List<String> runnerErrors)
            throws InterruptedException {
        InProcessRunner.Ended ended;
        try {
            ended = future.get(Math.max(0, deadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            return RunnerOutcome.failed(
                    index, Optional.empty(), Optional.empty(), "did not stop in time");
        } catch (ExecutionException e) {
            return RunnerOutcome.failed(
                    index, Optional.empty(), Optional.empty(), "crashed: " + e.getCause());
        }
        if (ended.exitStatus() == RUNNER_EXIT_INVALID) {
            refusedArguments.set(true);
        }
        if (ended.exitStatus() != 0 || !Files.isRegularFile(resultFile)) {
            for (String line : ended.errText().split("\n")) {
                if (!line.isBlank()) {
                    runnerErrors.add("runner " + index + ": " + line.strip());
                }
            }
            return RunnerOutcome.failed(
                    index,
                    Optional.empty(),
                    Optional.of(ended.startTime()),
                    "exit status " + ended.exitStatus() + ": " + lastLine(ended.errText()));
        }
        if (index == 0) {
            // Every runner loads the same profile: one runner's warnings are everyone's.
            ended.errText()
                    .lines()
                    .filter(line -> line.startsWith("warning:"))
                    .forEach(runnerErrors::add);
        }
        try {
            RunSummary result =
                    JsonResult.read(Files.readString(resultFile, StandardCharsets.UTF_8));
            // When its load really began, as the runner measured it, once it says.
            Instant started =
                    result.startEpochUs() > 0
                            ? Instant.EPOCH.plus(result.startEpochUs(), ChronoUnit.MICROS)
                            : ended.startTime();
            return RunnerOutcome.reported(index, Optional.empty(), result, started);
        } catch (IOException | IllegalArgumentException e) {
            return RunnerOutcome.failed(
                    index,
                    Optional.empty(),
                    Optional.of(ended.startTime()),
                    "unreadable result: " + e.getMessage());
        }
    }

    private void printReport(RunSummary merged, String testName) {
        RunInfo info = merged.info();
        // The runners' profile is a temporary file; the test file is what the user knows.
        out.print(
                ConsoleReport.banner(
                        new RunInfo(
                                info.target(),
                                testName,
                                info.threads(),
                                info.connections(),
                                info.durationMs(),
                                info.timeoutMs(),
                                info.keepAlive(),
                                info.pipeline(),
                                info.transport())));
        out.print(ConsoleReport.render(merged, new ReportOptions(true, false, false)));
        out.flush();
        List<ErrorCount> errors = merged.errorMessages();
        if (!errors.isEmpty()) {
            err.println("Errors:");
            for (ErrorCount error : errors) {
                err.printf("  %10d  %s%n", error.count(), error.message());
            }
        }
    }

    /** The spec's duration, or its stages' total. */
    private static String totalDuration(TcpLoadTestSpec spec) {
        if (spec.getDuration() != null) {
            return spec.getDuration();
        }
        long totalMs = 0;
        for (var stage : spec.getStages()) {
            totalMs += Quantities.durationMs("stages.duration", stage.getDuration());
        }
        return totalMs + "ms";
    }

    private static Path resultFile(Path folder, int index) {
        return folder.resolve("runner-" + index + ".json");
    }

    private static void writeProfile(Path folder, Sources sources) {
        try {
            Files.writeString(
                    folder.resolve(RunnerArgs.PROFILE_FILE),
                    sources.profileText().orElseThrow(),
                    StandardCharsets.UTF_8);
            for (Map.Entry<String, String> file : sources.fileContents().entrySet()) {
                // Validation allowed only plain names, so this stays inside the folder.
                Files.writeString(
                        folder.resolve(file.getKey()), file.getValue(), StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the profile to " + folder, e);
        }
    }

    private static Path workFolder() {
        try {
            return Files.createTempDirectory("tcpload-local-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary folder", e);
        }
    }

    private static void deleteQuietly(Path folder) {
        try (Stream<Path> paths = Files.walk(folder)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            // A leftover temporary folder is harmless; the run's result stands.
        }
    }

    private static String lastLine(String text) {
        String[] lines = text.strip().split("\n");
        String last = lines[lines.length - 1].strip();
        return last.isEmpty() ? "no message" : last;
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
     * One runner's command line run in-process with its output captured, so that runners do not
     * interleave on the console; it starts when {@code go} opens, after all runners are ready.
     */
    private record InProcessRunner(List<String> args, CountDownLatch ready, CountDownLatch go) {
        record Ended(int exitStatus, Instant startTime, String errText) {}

        Ended call() throws InterruptedException {
            ready.countDown();
            go.await();
            Instant start = Instant.now();
            ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
            ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
            int status;
            try (PrintStream runnerOut = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
                    PrintStream runnerErr =
                            new PrintStream(errBytes, true, StandardCharsets.UTF_8)) {
                status = RunnerMain.execute(runnerOut, runnerErr, args.toArray(String[]::new));
            }
            return new Ended(status, start, errBytes.toString(StandardCharsets.UTF_8));
        }
    }
}
