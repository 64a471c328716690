package io.tcpload.runner.cli;

import io.tcpload.runner.Version;
import io.tcpload.runner.contract.DryRunOptions;
import io.tcpload.runner.contract.InvocationOptions;
import io.tcpload.runner.serve.ServeCommand;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The load-test command: wrktcp's and wrk's flags (declared once, in {@link InvocationOptions}), a
 * profile file or a URL, the console report. Exit status: 0 when the run completed, 2 for bad input
 * (flags, profile), 1 when the run could not be carried out (the target's name does not resolve,
 * ...).
 */
@Command(
        name = RunCommand.NAME,
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

    /** The runner's name as its own jar's command; another command may call it otherwise. */
    public static final String NAME = "tcpload-runner";

    /** What {@code /stats} says this runner is: its jar's name and the project version. */
    public static final String VERSION = NAME + " " + Version.NUMBER;

    @Mixin InvocationOptions options = new InvocationOptions();

    /** Its name as the user typed it, for its messages ({@code tcpload runner}). */
    @Spec CommandSpec spec;

    @Option(
            names = {"-v", "--version"},
            versionHelp = true,
            description = "Print the version and exit.")
    boolean version;

    @Option(
            names = {"-I", DryRunOptions.TEST},
            description =
                    "Dry run (wrktcp's --test): send each request of the profile once, in order,"
                            + " and print its bytes, the response's, how it was framed and"
                            + " judged; exit 0 when every response is a success, else 1.")
    boolean dryRun;

    // The dry run's flags are named in the contract (DryRunOptions), which writes a pod's.

    @Option(
            names = DryRunOptions.TEST_JSON,
            paramLabel = "FILE",
            description =
                    "With --test: also write the exchange as JSON (tcpload-dryrun/v1) to FILE, at"
                            + " most 4,096 bytes (bytes as hex, cut short to fit): what a"
                            + " Kubernetes termination message holds.")
    Path testJson;

    @Option(
            names = DryRunOptions.TEST_MASK_ENV,
            description =
                    "With --test: mask the values of ENV parameters wherever they appear in the"
                            + " exchange, printed and written.")
    boolean testMaskEnv;

    @Option(
            names = DryRunOptions.TEST_MASK_FILE,
            paramLabel = "NAME",
            description =
                    "With --test: mask the lines of the data file NAME (of FILE parameters)"
                            + " wherever they appear in the exchange; may be repeated.")
    List<String> testMaskFiles = new ArrayList<>();

    @Option(
            names = DryRunOptions.TEST_MASK_EXTRACTED,
            description =
                    "With --test: mask the values responses hand the connection (rsp_extract, such"
                            + " as a session key) wherever they appear after, printed and written.")
    boolean testMaskExtracted;

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "Print this help and exit.")
    boolean help;

    private final PrintStream out;
    private final PrintStream err;
    private final Function<String, String> environment;
    private final Clock clock;
    private final boolean catchSignals;

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
        this(out, err, environment, false);
    }

    /**
     * As {@link #RunCommand(PrintStream, PrintStream, Function)}; with {@code catchSignals} (the
     * runner's own process), SIGTERM and SIGINT stop the load, its result is served as partial
     * through a pod's grace period, and the exit status is 128 + the signal.
     */
    public RunCommand(
            PrintStream out,
            PrintStream err,
            Function<String, String> environment,
            boolean catchSignals) {
        this.out = out;
        this.err = err;
        this.environment = environment;
        this.catchSignals = catchSignals;
        this.clock = Clock.systemUTC();
    }

    /**
     * As {@link #RunCommand(PrintStream, PrintStream, Function, boolean)}, keeping the start
     * instant on {@code clock} (the wall clock of the machine the runner stands for).
     */
    public RunCommand(
            PrintStream out,
            PrintStream err,
            Function<String, String> environment,
            Clock clock,
            boolean catchSignals) {
        this.out = out;
        this.err = err;
        this.environment = environment;
        this.catchSignals = catchSignals;
        this.clock = clock;
    }

    @Override
    public Integer call() throws InterruptedException {
        if (!dryRun
                && (testJson != null
                        || testMaskEnv
                        || !testMaskFiles.isEmpty()
                        || testMaskExtracted)) {
            err.println(
                    name()
                            + ": "
                            + DryRunOptions.TEST_JSON
                            + ", "
                            + DryRunOptions.TEST_MASK_ENV
                            + ", "
                            + DryRunOptions.TEST_MASK_FILE
                            + " and "
                            + DryRunOptions.TEST_MASK_EXTRACTED
                            + " are for a dry run: add --test.");
            return EXIT_INVALID;
        }
        return new CommandRun(name(), out, err, environment, clock, catchSignals)
                .run(options.toInvocation(), dryRun, dryRunOptions());
    }

    /** The command's name as typed; {@link #NAME} when it is not run by picocli. */
    private String name() {
        return spec == null ? NAME : spec.qualifiedName();
    }

    /** The dry run's flags as given. */
    DryRunOptions dryRunOptions() {
        return new DryRunOptions(
                Optional.ofNullable(testJson), testMaskEnv, testMaskFiles, testMaskExtracted);
    }
}
