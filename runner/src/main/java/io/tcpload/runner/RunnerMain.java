package io.tcpload.runner;

import io.netty.util.ResourceLeakDetector;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import io.tcpload.runner.cli.RunCommand;
import io.tcpload.runner.contract.InvocationOptions;
import io.tcpload.runner.serve.ServeCommand;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.function.Function;
import picocli.CommandLine;

/**
 * The runner's entry point: {@code tcpload-runner [flags] PROFILE|URL} and {@code serve PROFILE};
 * another command that hands the runner or the demo target its arguments names them as its user
 * typed them ({@code tcpload runner}, {@code tcpload serve}).
 */
public final class RunnerMain {
    /** Netty's switch for its JFR events (allocator chunks and buffers). */
    private static final String NETTY_JFR = "io.netty.jfr.enabled";

    private RunnerMain() {}

    public static void main(String[] args) {
        configureProcess();
        System.exit(executeAsProcess(System.out, System.err, args));
    }

    /**
     * As {@link #execute(PrintStream, PrintStream, String...)}, as the process's own command:
     * SIGINT and SIGTERM stop the load instead of the JVM, so that the report, the files and the
     * exit status ({@code 128 + signal}) say the run was stopped and the result is partial. For
     * main methods only: an embedded runner leaves the process's signals alone.
     */
    public static int executeAsProcess(PrintStream out, PrintStream err, String... args) {
        return executeAsProcess(RunCommand.NAME, out, err, args);
    }

    /**
     * The settings of a process that runs load, for every main method that runs the runner (this
     * one and the tcpload command's), first thing, before any Netty class is used; each is left as
     * given when its system property is set.
     */
    public static void configureProcess() {
        // Netty logs through the JDK's logging, which is where it ends up on its own, but only
        // after probing for SLF4J (on the command's class path, with no provider) and Log4J:
        // about 30 ms of every start.
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
        if (System.getProperty(NETTY_JFR) == null) {
            // Netty's buffer allocator otherwise registers its JFR events as a loop first
            // allocates, which generates classes and annotation proxies at the start of every run
            // for events nobody records.
            System.setProperty(NETTY_JFR, "false");
        }
        if (System.getProperty("io.netty.leakDetection.level") == null) {
            // Leak tracking samples buffers on the hot path; the tests keep it on, a load run
            // does not need it (ask for it with -Dio.netty.leakDetection.level=...).
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
    }

    /** Runs the command line and returns the exit status (for tests and embedding). */
    public static int execute(PrintStream out, PrintStream err, String... args) {
        return execute(RunCommand.NAME, out, err, args);
    }

    /**
     * As {@link #execute(PrintStream, PrintStream, String...)}, the command called {@code name} in
     * its usage, its messages and its version: the command as the user typed it ({@code tcpload
     * runner} when another command hands the runner its arguments).
     */
    public static int execute(String name, PrintStream out, PrintStream err, String... args) {
        return execute(name, out, err, System::getenv, Clock.systemUTC(), false, args);
    }

    /**
     * As {@link #executeAsProcess(PrintStream, PrintStream, String...)}, the command called {@code
     * name}, as {@link #execute(String, PrintStream, PrintStream, String...)} says.
     */
    public static int executeAsProcess(
            String name, PrintStream out, PrintStream err, String... args) {
        return execute(name, out, err, System::getenv, Clock.systemUTC(), true, args);
    }

    /**
     * As {@link #execute(PrintStream, PrintStream, String...)}, reading environment variables from
     * {@code environment} instead of the process's (to embed several runners in one process).
     */
    public static int execute(
            PrintStream out,
            PrintStream err,
            Function<String, String> environment,
            String... args) {
        return execute(RunCommand.NAME, out, err, environment, Clock.systemUTC(), false, args);
    }

    /**
     * As {@link #execute(PrintStream, PrintStream, Function, String...)}, with {@code clock} as the
     * wall clock the start instant is kept on (to embed runners that stand for machines whose
     * clocks disagree).
     */
    public static int execute(
            PrintStream out,
            PrintStream err,
            Function<String, String> environment,
            Clock clock,
            String... args) {
        return execute(RunCommand.NAME, out, err, environment, clock, false, args);
    }

    /**
     * The demo target alone ({@code serve}'s flags, without {@code serve} before them), called
     * {@code name} in its usage, its messages and its version: the command as the user typed it
     * ({@code tcpload serve}).
     */
    public static int serve(String name, PrintStream out, PrintStream err, String... args) {
        // Parsed as it is under the runner's command (tcpload-runner serve ...).
        return configure(new CommandLine(new ServeCommand()), name, out, err).execute(args);
    }

    private static int execute(
            String name,
            PrintStream out,
            PrintStream err,
            Function<String, String> environment,
            Clock clock,
            boolean catchSignals,
            String... args) {
        return configure(
                        new CommandLine(new RunCommand(out, err, environment, clock, catchSignals)),
                        name,
                        out,
                        err)
                .execute(args);
    }

    /**
     * {@code commandLine} called {@code name}: each of its commands says its name as typed ({@code
     * tcpload-runner serve}, {@code tcpload serve}) in its usage, before its errors and in its
     * version, so that none names a command the user never typed.
     */
    private static CommandLine configure(
            CommandLine commandLine, String name, PrintStream out, PrintStream err) {
        InvocationOptions.configure(commandLine)
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setCommandName(name)
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .setExecutionExceptionHandler(
                        (e, cmd, parsed) -> {
                            // Never "null": an exception without a message is named.
                            cmd.getErr()
                                    .println(
                                            cmd.getCommandSpec().qualifiedName()
                                                    + ": "
                                                    + (e instanceof InterruptedException
                                                            ? "interrupted"
                                                            : e.getMessage() != null
                                                                    ? e.getMessage()
                                                                    : e.toString()));
                            return RunCommand.EXIT_FAILED;
                        })
                .setParameterExceptionHandler(
                        (e, args1) -> {
                            CommandLine cmd = e.getCommandLine();
                            cmd.getErr()
                                    .println(
                                            cmd.getCommandSpec().qualifiedName()
                                                    + ": "
                                                    + InvocationOptions.describe(e));
                            cmd.getErr().println("Try --help for the flags.");
                            return RunCommand.EXIT_INVALID;
                        });
        nameVersions(commandLine);
        return commandLine;
    }

    /** Each command's version is its name as typed and the project version. */
    private static void nameVersions(CommandLine commandLine) {
        commandLine
                .getCommandSpec()
                .version(commandLine.getCommandSpec().qualifiedName() + " " + Version.NUMBER);
        commandLine.getSubcommands().values().forEach(RunnerMain::nameVersions);
    }
}
