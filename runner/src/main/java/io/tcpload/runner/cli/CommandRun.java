package io.tcpload.runner.cli;

import io.tcpload.runner.client.ProgressListener;
import io.tcpload.runner.client.StartGate;
import io.tcpload.runner.contract.DryRunOptions;
import io.tcpload.runner.contract.RunnerInvocation;
import io.tcpload.runner.plan.PlanException;
import io.tcpload.runner.plan.RunPlan;
import io.tcpload.runner.profile.ParameterSpec;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.Target;
import io.tcpload.runner.report.ConsoleReport;
import io.tcpload.runner.report.SearchReport;
import io.tcpload.runner.search.SearchResult;
import io.tcpload.runner.search.SearchSpec;
import io.tcpload.runner.serve.DemoServer;
import io.tcpload.runner.serve.ServeOptions;
import io.tcpload.runner.session.Interruption;
import io.tcpload.runner.session.ProgressPrinter;
import io.tcpload.runner.session.RunOutputs;
import io.tcpload.runner.session.RunSession;
import io.tcpload.runner.session.SearchRun;
import io.tcpload.runner.session.StopOnShutdown;
import io.tcpload.runner.stats.RunSummary;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.function.Function;

/**
 * One invocation run as the runner's process runs it: checked, its profile loaded, its outputs'
 * paths checked, then the session, the report and the files. Every problem found before the load is
 * exit status {@link RunCommand#EXIT_INVALID}; a run that cannot be set up is {@link
 * RunCommand#EXIT_FAILED}.
 */
final class CommandRun {
    private static final String LOOPBACK = "127.0.0.1";

    /** The command's name as the user typed it, and a colon: what its messages begin with. */
    private final String prefix;

    private final String name;
    private final PrintStream out;
    private final PrintStream err;
    private final Function<String, String> environment;
    private final Clock clock;
    private final boolean catchSignals;

    /**
     * @param name the command as the user typed it ({@code tcpload runner}), for its messages
     * @param clock the wall clock the start instant is kept on
     * @param catchSignals whether SIGTERM and SIGINT stop the run (a process of its own); an
     *     embedded runner leaves the process's signals alone
     */
    CommandRun(
            String name,
            PrintStream out,
            PrintStream err,
            Function<String, String> environment,
            Clock clock,
            boolean catchSignals) {
        this.name = name;
        this.prefix = name + ": ";
        this.out = out;
        this.err = err;
        this.environment = environment;
        this.clock = clock;
        this.catchSignals = catchSignals;
    }

    int run(RunnerInvocation invocation) throws InterruptedException {
        return run(invocation, false);
    }

    /**
     * As {@link #run(RunnerInvocation)}; with {@code dryRun}, each request of the profile is sent
     * once instead of the load ({@link DryRun}).
     */
    int run(RunnerInvocation invocation, boolean dryRun) throws InterruptedException {
        return run(invocation, dryRun, DryRunOptions.NONE);
    }

    /** As {@link #run(RunnerInvocation, boolean)}, the dry run with {@code dryRunOptions}. */
    int run(RunnerInvocation invocation, boolean dryRun, DryRunOptions dryRunOptions)
            throws InterruptedException {
        RunPlan plan;
        Profile profile;
        try {
            plan = RunPlan.of(invocation, environment);
            refuse(RunOutputs.problems(invocation.outputs()));
            Optional<Profile> loaded = InvocationProfile.of(invocation, name, err);
            if (loaded.isEmpty()) {
                return RunCommand.EXIT_INVALID;
            }
            profile = loaded.get();
            refuse(RunOutputs.overwritten(invocation.outputs(), inputs(invocation, profile)));
        } catch (PlanException e) {
            e.problems().forEach(problem -> err.println(prefix + problem));
            return RunCommand.EXIT_INVALID;
        }
        if (!invocation.demoTarget()) {
            return dryRun
                    ? new DryRun(name, out, err, dryRunOptions).run(plan, profile, environment)
                    : runOn(plan, profile);
        }
        try (DemoServer server =
                DemoServer.start(profile, new ServeOptions(LOOPBACK, 0, 0.0, 0, 1))) {
            err.println(
                    prefix
                            + "demo target on "
                            + LOOPBACK
                            + ":"
                            + server.port()
                            + (server.tls() ? " (TLS, a certificate made at start)" : ""));
            // The demo target's own certificate is the one trusted, in place of any CA file.
            RunPlan demo = plan.withTarget(new Target(LOOPBACK, server.port()));
            if (server.tls()) {
                demo = demo.withTls(plan.invocation().tls().withoutCa());
            }
            Profile client = server.clientProfile(profile);
            return dryRun
                    ? new DryRun(name, out, err, dryRunOptions).run(demo, client, environment)
                    : runOn(demo, client);
        }
    }

    private int runOn(RunPlan plan, Profile profile) throws InterruptedException {
        RunSession session;
        try {
            StartGate gate =
                    plan.invocation().control().awaitStart()
                            ? StartGate.awaiting(clock)
                            : StartGate.immediate();
            session =
                    RunSession.prepare(
                            plan, profile, gate, environment, RunCommand.VERSION, name, err);
        } catch (PlanException e) {
            e.problems().forEach(problem -> err.println(prefix + problem));
            return RunCommand.EXIT_INVALID;
        } catch (RunSession.SetupException e) {
            err.println(prefix + e.getMessage());
            return RunCommand.EXIT_FAILED;
        }
        try (session) {
            Interruption signals =
                    catchSignals
                            ? Interruption.install(caught -> session.stopBySignal(caught.signal()))
                            : null;
            try {
                int status = runAndHold(session, plan);
                Optional<Interruption.Caught> caught =
                        signals == null ? Optional.empty() : signals.caught();
                // Stopped by a signal: 128 + its number, as a shell and the kubelet expect.
                return caught.map(Interruption.Caught::exitStatus).orElse(status);
            } finally {
                if (signals != null) {
                    signals.close();
                }
            }
        }
    }

    private int runAndHold(RunSession session, RunPlan plan) throws InterruptedException {
        if (plan.search().isPresent() && plan.invocation().search().stepsFromControl()) {
            return toldSteps(session);
        }
        if (plan.search().isPresent()) {
            return search(session, plan, plan.search().get());
        }
        int written;
        PrintStream report = RunOutputs.reportStream(plan.invocation().outputs(), out, err);
        try (StopOnShutdown stop = StopOnShutdown.install(session::stop)) {
            report.print(ConsoleReport.banner(session.engine().info()));
            report.flush();
            ProgressPrinter progress = ProgressPrinter.forConsole(report, err);
            RunSummary summary;
            try {
                summary = session.run(progress);
            } catch (CancellationException e) {
                err.println(prefix + "stopped before the start");
                return RunCommand.EXIT_FAILED;
            }
            progress.finished();
            written =
                    RunOutputs.write(
                            summary,
                            session.stopped(),
                            plan.invocation().outputs(),
                            name,
                            out,
                            err);
        }
        session.holdResult();
        return written;
    }

    /**
     * One runner of a distributed search: the steps its orchestrator tells; the orchestrator merges
     * every runner's steps, decides and reports. The last step's result is then held for the
     * orchestrator as any run's.
     */
    private int toldSteps(RunSession session) throws InterruptedException {
        try (StopOnShutdown stop = StopOnShutdown.install(session::stop)) {
            err.println(prefix + "one runner of a distributed search: waiting for its steps");
            List<RunSummary> steps;
            try {
                steps = session.runToldSteps(ProgressListener.NONE);
            } catch (CancellationException e) {
                err.println(prefix + "stopped before the start");
                return RunCommand.EXIT_FAILED;
            }
            err.println(
                    prefix
                            + steps.size()
                            + (steps.size() == 1 ? " step" : " steps")
                            + " run; the search has ended");
        }
        session.holdResult();
        return session.stopRequested() ? RunCommand.EXIT_FAILED : 0;
    }

    /**
     * A capacity search: its banner, a line as each step ends, then its report and files. The exit
     * status says the outcome: 0 for a capacity found (or the range's maximum held), 2 for a range
     * that cannot be searched (its minimum failed, or its maximum needs more connections), 1 for no
     * rate confirmed or a write that failed.
     */
    private int search(RunSession session, RunPlan plan, SearchSpec spec)
            throws InterruptedException {
        PrintStream report = RunOutputs.reportStream(plan.invocation().outputs(), out, err);
        try (StopOnShutdown stop = StopOnShutdown.install(session::stop)) {
            report.print(
                    SearchReport.banner(
                            spec,
                            session.engine().info().target(),
                            session.engine().info().profileName()));
            report.flush();
            SearchResult result;
            try {
                result = SearchRun.run(session, spec, name, err);
            } catch (CancellationException e) {
                err.println(prefix + "stopped before the start");
                return RunCommand.EXIT_FAILED;
            }
            int written =
                    RunOutputs.writeSearch(
                            result,
                            spec,
                            session.stopped(),
                            plan.invocation().outputs(),
                            name,
                            out,
                            err);
            int outcome = SearchReport.exitStatus(result.outcome());
            if (outcome == RunCommand.EXIT_INVALID) {
                err.println(prefix + result.outcome().message());
            }
            return Math.max(outcome, written);
        }
    }

    /** The files the run reads, which no output may overwrite. */
    private static List<RunOutputs.Input> inputs(RunnerInvocation invocation, Profile profile) {
        List<RunOutputs.Input> inputs = new ArrayList<>();
        String named = invocation.profile().orElse("");
        if (!RunPlan.looksLikeUrl(named)) {
            inputs.add(new RunOutputs.Input("the profile", Path.of(named)));
        }
        invocation
                .request()
                .bodyFile()
                .ifPresent(path -> inputs.add(new RunOutputs.Input("the --body-file", path)));
        RunnerInvocation.Tls tls = invocation.tls();
        tls.ca().ifPresent(path -> inputs.add(new RunOutputs.Input("the --tls-ca file", path)));
        tls.cert().ifPresent(path -> inputs.add(new RunOutputs.Input("the --tls-cert file", path)));
        tls.key().ifPresent(path -> inputs.add(new RunOutputs.Input("the --tls-key file", path)));
        for (ParameterSpec parameter : profile.parameters()) {
            if (parameter instanceof ParameterSpec.File file) {
                inputs.add(
                        new RunOutputs.Input(
                                "the data file of " + file.name(), Path.of(file.source())));
            }
        }
        return inputs;
    }

    private static void refuse(List<String> problems) throws PlanException {
        if (!problems.isEmpty()) {
            throw new PlanException(problems);
        }
    }
}
