package io.tcpload.runner.serve;

import io.tcpload.runner.profile.LoadedProfile;
import io.tcpload.runner.profile.ProfileException;
import io.tcpload.runner.profile.ProfileLoader;
import io.tcpload.runner.profile.ProfileProblem;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code serve PROFILE.ini}: answers the profile's requests with valid responses until interrupted,
 * to try a profile without the real service. Exit status 2 when the profile or an option is wrong,
 * 1 when the port cannot be bound.
 */
@Command(
        name = "serve",
        mixinStandardHelpOptions = true,
        description = {
            "Answers the requests of a profile with valid responses (success, or the failure code"
                    + " at the given rate), framed as its [response] section says.",
            "Runs until interrupted."
        })
public final class ServeCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "PROFILE", description = "The INI profile to serve.")
    Path profileFile;

    @Option(
            names = "--port",
            paramLabel = "N",
            description = "The port to listen on (default: the profile's port; 0 = any free port).")
    Integer port;

    @Option(
            names = "--host",
            paramLabel = "ADDRESS",
            defaultValue = "127.0.0.1",
            description = "The address to bind (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(
            names = "--failure-rate",
            paramLabel = "F",
            defaultValue = "0",
            description = "The fraction of responses, 0..1, that carry the failure code.")
    double failureRate;

    @Option(
            names = "--delay-ms",
            paramLabel = "D",
            defaultValue = "0",
            description = "Answer each request D milliseconds after it arrives.")
    long delayMs;

    @Option(
            names = "--stall-every-ms",
            paramLabel = "P",
            defaultValue = "0",
            description =
                    "Stall every P milliseconds (with --stall-for-ms): responses due during a"
                            + " stall are held until it ends, to see coordinated omission.")
    long stallEveryMs;

    @Option(
            names = "--stall-for-ms",
            paramLabel = "S",
            defaultValue = "0",
            description = "How long each stall lasts, in milliseconds (less than P).")
    long stallForMs;

    @Option(
            names = "--threads",
            paramLabel = "N",
            defaultValue = "2",
            description = "Event-loop threads (default: ${DEFAULT-VALUE}).")
    int threads;

    @Spec CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter out = spec.commandLine().getOut();
        LoadedProfile loaded;
        try {
            loaded = ProfileLoader.load(profileFile);
        } catch (ProfileException e) {
            for (ProfileProblem problem : e.problems()) {
                err.println(problem);
            }
            err.flush();
            return 2;
        }
        for (ProfileProblem warning : loaded.warnings()) {
            err.println(warning);
        }
        ServeOptions options;
        try {
            int listenPort = port != null ? port : loaded.profile().target().port();
            options =
                    new ServeOptions(
                            host,
                            listenPort,
                            failureRate,
                            delayMs,
                            threads,
                            stallEveryMs,
                            stallForMs);
        } catch (IllegalArgumentException e) {
            err.println("serve: " + e.getMessage());
            err.flush();
            return 2;
        }
        String transport = loaded.profile().request().http() ? "http" : "tcp";
        DemoServer server;
        try {
            server = DemoServer.start(loaded.profile(), options);
        } catch (IllegalArgumentException e) {
            err.println(profileFile + ": " + e.getMessage());
            err.flush();
            return 2;
        } catch (IllegalStateException e) {
            err.println("serve: " + e.getMessage());
            err.flush();
            return 1;
        }
        out.println(
                "serving "
                        + profileFile
                        + " on "
                        + host
                        + ":"
                        + server.port()
                        + " ("
                        + transport
                        + ")");
        out.flush();
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook =
                new Thread(
                        () -> {
                            server.close();
                            stopped.countDown();
                        },
                        "tcpload-serve-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // asked to stop: close below and report success
        } finally {
            server.close();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // The hook is running or has run: nothing left to undo.
            }
        }
        return 0;
    }
}
