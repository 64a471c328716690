package io.tcpload.operator;

import io.tcpload.operator.local.LocalRun;
import io.tcpload.runner.RunnerMain;
import io.tcpload.runner.Version;
import io.tcpload.runner.profile.Suggestions;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code tcpload} command: {@code run -f TEST.yaml} runs a TcpLoadTest on this machine, {@code
 * runner ...} is the runner's own command line and {@code serve PROFILE} its demo target. Exit
 * status: 0 passed, 1 failed (a threshold missed, a runner failed), 2 invalid input.
 */
@Command(
        name = "tcpload",
        mixinStandardHelpOptions = true,
        description = "TCP load tests: run a TcpLoadTest here, or the runner and its demo target.")
public final class TcpLoadMain implements Callable<Integer> {
    /** What {@code --version} prints: the project version, from the POM. */
    static final String VERSION = "tcpload " + Version.NUMBER;

    private final PrintStream err;

    private static final List<String> COMMANDS = List.of("run", "runner", "serve");

    /** {@code tcpload runner}: the runner's command line, called so in its usage and messages. */
    static final String RUNNER = "tcpload runner";

    /** {@code tcpload serve}: the demo target, called so in its usage and messages. */
    static final String SERVE = "tcpload serve";

    private TcpLoadMain(PrintStream err) {
        this.err = err;
    }

    public static void main(String[] args) {
        configureProcess();
        System.exit(execute(System.out, System.err, true, args));
    }

    /** What the command's process is set up with before it runs anything. */
    static void configureProcess() {
        // The Kubernetes model logs through SLF4J; without a binding SLF4J would print three lines
        // of warnings on every run. Nothing the command does needs a log.
        System.setProperty("slf4j.internal.verbosity", "ERROR");
        // Its runs are the runner's: leak tracking off, as the runner's own main has it.
        RunnerMain.configureProcess();
    }

    /** As the command's main runs {@code args}, returning the exit status instead of exiting. */
    static int executeAsProcess(PrintStream out, PrintStream err, String... args) {
        return execute(out, err, true, args);
    }

    /** Runs the command line and returns the exit status (for tests and embedding). */
    public static int execute(PrintStream out, PrintStream err, String... args) {
        return execute(out, err, false, args);
    }

    /**
     * As {@link #execute(PrintStream, PrintStream, String...)}; with {@code ownProcess} (the
     * command's main) {@code runner ...} takes SIGINT and SIGTERM as the runner's own main does, so
     * that its result says it was stopped ({@code run} takes them in any case).
     */
    private static int execute(
            PrintStream out, PrintStream err, boolean ownProcess, String... args) {
        // The runner and the demo target parse their own flags: they get them before this
        // command's parser is built, which would cost every runner's start picocli's first look
        // at all of this command's options (about 30 ms of CPU).
        // Each is called as the user typed it, not by the runner jar's own name.
        if (args.length > 0 && args[0].equals("runner")) {
            String[] runnerArgs = Arrays.copyOfRange(args, 1, args.length);
            return ownProcess
                    ? RunnerMain.executeAsProcess(RUNNER, out, err, runnerArgs)
                    : RunnerMain.execute(RUNNER, out, err, runnerArgs);
        }
        if (args.length > 0 && args[0].equals("serve")) {
            return RunnerMain.serve(SERVE, out, err, Arrays.copyOfRange(args, 1, args.length));
        }
        CommandLine commandLine =
                new CommandLine(new TcpLoadMain(err))
                        .addSubcommand("run", new Run(out, err))
                        .addSubcommand("runner", new Runner())
                        .addSubcommand("serve", new Serve());
        commandLine.getCommandSpec().version(VERSION);
        // As each command is called: tcpload run 1.2.3, as tcpload runner and tcpload serve say.
        CommandLine.Model.CommandSpec run =
                commandLine.getSubcommands().get("run").getCommandSpec();
        run.version(run.qualifiedName() + " " + Version.NUMBER);
        commandLine
                .setExpandAtFiles(false)
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .setExecutionExceptionHandler(
                        (e, cmd, parsed) -> {
                            cmd.getErr()
                                    .println(
                                            cmd.getCommandSpec().qualifiedName()
                                                    + ": "
                                                    + (e.getMessage() != null
                                                            ? e.getMessage()
                                                            : e.toString()));
                            return LocalRun.EXIT_FAILED;
                        })
                .setParameterExceptionHandler(
                        (e, ignored) -> {
                            CommandLine cmd = e.getCommandLine();
                            cmd.getErr()
                                    .println(
                                            cmd.getCommandSpec().qualifiedName()
                                                    + ": "
                                                    + describe(e));
                            e.getCommandLine().getErr().println("Try --help.");
                            return LocalRun.EXIT_INVALID;
                        });
        return commandLine.execute(args);
    }

    /**
     * picocli's message, but for a first word that is no command, which says so and which command
     * was probably meant, rather than "Unmatched arguments from index 0".
     */
    private static String describe(CommandLine.ParameterException e) {
        if (e instanceof CommandLine.UnmatchedArgumentException unmatched
                && e.getCommandLine().getParent() == null
                && !unmatched.getUnmatched().isEmpty()
                && !unmatched.getUnmatched().get(0).startsWith("-")) {
            String word = unmatched.getUnmatched().get(0);
            return "'"
                    + word
                    + "' is not a command"
                    + Suggestions.nearest(word, COMMANDS)
                            .map(c -> "; did you mean " + c + "?")
                            .orElse(".")
                    + " The commands are run, runner and serve.";
        }
        return e.getMessage();
    }

    @Override
    public Integer call() {
        err.println("tcpload: give a command: run, runner or serve (see --help)");
        return LocalRun.EXIT_INVALID;
    }

    @Command(
            name = "run",
            mixinStandardHelpOptions = true,
            description = {
                "Runs a TcpLoadTest on this machine, as the operator would in a cluster: same"
                        + " validation, runner arguments, merge and status. Prints the report and"
                        + " the status block.",
                "Exit status: 0 thresholds met, 1 failed, 2 invalid input, 130 interrupted (SIGINT),"
                        + " 143 stopped (SIGTERM)."
            })
    static final class Run implements Callable<Integer> {
        @Option(
                names = {"-f", "--file"},
                required = true,
                paramLabel = "FILE",
                description =
                        "YAML with one TcpLoadTest and the ConfigMaps it refers to (what you"
                                + " would kubectl apply).")
        Path file;

        @Option(
                names = "--demo-target",
                description =
                        "Start the demo target for the profile on 127.0.0.1 and load it instead"
                                + " of the test's target.")
        boolean demoTarget;

        @Option(
                names = "--test",
                description =
                        "Dry run instead of the load: one connection, each request of the profile"
                                + " once (sign-ons first), its bytes, the response's framing, the"
                                + " values carried and the verdict. Exit 0 all successes, 1 not,"
                                + " 2 invalid.")
        boolean test;

        @Option(
                names = {"-d", "--duration"},
                paramLabel = "T",
                description =
                        "Run this long instead of spec.duration (stages are shortened in"
                                + " proportion): 10s, 2m, 500ms.")
        String duration;

        @Option(
                names = "--json",
                paramLabel = "FILE",
                description =
                        "Write the merged result as JSON, as the runner does ('-' = stdout, which"
                                + " then holds the JSON alone: the report and the status block go"
                                + " to stderr).")
        Path json;

        @Option(
                names = "--html",
                paramLabel = "FILE",
                description = "Write the merged result as a self-contained HTML report.")
        Path html;

        private final PrintStream out;
        private final PrintStream err;

        Run(PrintStream out, PrintStream err) {
            this.out = out;
            this.err = err;
        }

        @Override
        public Integer call() throws InterruptedException {
            return new LocalRun(out, err)
                    .run(
                            new LocalRun.Options(
                                    file,
                                    demoTarget,
                                    Optional.ofNullable(duration),
                                    Optional.ofNullable(json),
                                    Optional.ofNullable(html),
                                    test));
        }
    }

    /** In the help only: {@link #execute} hands {@code runner ...} over before parsing. */
    @Command(
            name = "runner",
            description =
                    "The runner's command line: tcpload runner [flags] PROFILE.ini|URL (runner"
                            + " --help lists the flags).")
    static final class Runner {}

    /** In the help only: {@link #execute} hands {@code serve ...} over before parsing. */
    @Command(
            name = "serve",
            description =
                    "The demo target: tcpload serve PROFILE.ini [--port N] [--host A]"
                            + " [--failure-rate F] [--delay-ms D] (serve --help for more).")
    static final class Serve {}
}
