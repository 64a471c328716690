package io.tcpload.runner.serve;

import io.tcpload.runner.files.BoundedRead;
import io.tcpload.runner.files.UnreadableFileException;
import io.tcpload.runner.profile.ImmutableBytes;
import io.tcpload.runner.profile.LoadedProfile;
import io.tcpload.runner.profile.ProfileException;
import io.tcpload.runner.profile.ProfileLoader;
import io.tcpload.runner.profile.ProfileProblem;
import io.tcpload.runner.profile.TlsSpec.PemFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
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
    private static final long MAX_PEM_BYTES = 1024 * 1024;

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
            names = "--workers",
            paramLabel = "N",
            defaultValue = "0",
            description =
                    "Serve through N workers (with --service-time-ms) from one queue in arrival"
                            + " order: a capacity of N * 1000 / T requests per second, past which"
                            + " the queue and the latency grow (default: none, answer at once).")
    int workers;

    @Option(
            names = "--service-time-ms",
            paramLabel = "T",
            defaultValue = "0",
            description = "How long each worker takes per request, in milliseconds.")
    long serviceTimeMs;

    @Option(
            names = "--threads",
            paramLabel = "N",
            defaultValue = "2",
            description = "Event-loop threads (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(
            names = "--tls",
            description =
                    "Serve TLS with a certificate made at start for 127.0.0.1, ::1, localhost, the"
                            + " address bound and the profile's host and tls_server_name (a"
                            + " profile with 'tls = true' is served so anyway).")
    boolean tls;

    @Option(
            names = "--tls-cert",
            paramLabel = "FILE",
            description =
                    "Serve TLS with this certificate chain (PEM, the server's first), with"
                            + " --tls-key, in place of a certificate made at start.")
    Path tlsCert;

    @Option(
            names = "--tls-key",
            paramLabel = "FILE",
            description =
                    "The private key of --tls-cert (PEM: PKCS#8, plain or encrypted, PKCS#1 or"
                            + " SEC1).")
    Path tlsKey;

    @Option(
            names = "--tls-key-password-env",
            paramLabel = "VAR",
            description = "The environment variable holding an encrypted --tls-key's password.")
    String tlsKeyPasswordEnv;

    @Option(
            names = "--tls-client-ca",
            paramLabel = "FILE",
            description =
                    "Require every client to present a certificate signed by a CA of this PEM"
                            + " bundle (mutual TLS); implies --tls.")
    Path tlsClientCa;

    @Option(
            names = "--tls-cert-out",
            paramLabel = "FILE",
            description =
                    "Write the certificate made at start to FILE (PEM), for a client's --tls-ca"
                            + " or tls_ca.")
    Path tlsCertOut;

    @Spec CommandSpec spec;

    private final Function<String, String> environment;

    /** The command as picocli makes it, reading variables from the process's environment. */
    public ServeCommand() {
        this(System::getenv);
    }

    /** A command reading variables (an encrypted key's password) from {@code environment}. */
    ServeCommand(Function<String, String> environment) {
        this.environment = environment;
    }

    /**
     * The TLS the flags ask for, their files read; empty for none (a profile with {@code tls =
     * true} is then served with a certificate made at start).
     *
     * @param profileTls whether the profile says {@code tls = true}
     */
    private Optional<ServeTls> serveTls(boolean profileTls) throws UnreadableFileException {
        if ((tlsCert == null) != (tlsKey == null)) {
            throw new IllegalArgumentException(
                    tlsCert == null
                            ? "--tls-key needs --tls-cert, the certificate it is the key of"
                            : "--tls-cert needs --tls-key, its private key");
        }
        if (tlsKeyPasswordEnv != null && tlsKey == null) {
            throw new IllegalArgumentException("--tls-key-password-env needs --tls-key");
        }
        if (tlsCertOut != null && tlsCert != null) {
            throw new IllegalArgumentException(
                    "--tls-cert-out writes the certificate made at start, and with --tls-cert"
                            + " none is made");
        }
        boolean asked = tls || tlsCert != null || tlsClientCa != null;
        if (tlsCertOut != null && !asked && !profileTls) {
            throw new IllegalArgumentException(
                    "--tls-cert-out needs TLS: give --tls, or serve a profile with 'tls = true'");
        }
        if (!asked) {
            return Optional.empty();
        }
        return Optional.of(
                new ServeTls(
                        pem(tlsCert, "--tls-cert", "certificate file"),
                        pem(tlsKey, "--tls-key", "key file"),
                        Optional.ofNullable(tlsKeyPasswordEnv),
                        pem(tlsClientCa, "--tls-client-ca", "client CA bundle")));
    }

    private static Optional<PemFile> pem(Path file, String flag, String what)
            throws UnreadableFileException {
        if (file == null) {
            return Optional.empty();
        }
        byte[] content = BoundedRead.readAtMost(file, MAX_PEM_BYTES, flag + " " + what);
        return Optional.of(new PemFile(file.toString(), ImmutableBytes.copyOf(content)));
    }

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter out = spec.commandLine().getOut();
        // As the user typed it (tcpload serve, tcpload-runner serve): what its errors begin with.
        String name = spec.qualifiedName();
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
        Optional<ServeTls> serveTls;
        try {
            serveTls = serveTls(loaded.profile().tls().isPresent());
        } catch (UnreadableFileException | IllegalArgumentException e) {
            err.println(name + ": " + e.getMessage());
            err.flush();
            return 2;
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
                            stallForMs,
                            serveTls,
                            workers,
                            serviceTimeMs);
        } catch (IllegalArgumentException e) {
            err.println(name + ": " + e.getMessage());
            err.flush();
            return 2;
        }
        String transport =
                (loaded.profile().request().http() ? "http" : "tcp")
                        + (serveTls.isPresent() || loaded.profile().tls().isPresent()
                                ? ", TLS"
                                : "");
        DemoServer server;
        try {
            server = DemoServer.start(loaded.profile(), options, environment);
        } catch (ServeTlsException e) {
            err.println(name + ": " + e.getMessage());
            err.flush();
            return 2;
        } catch (IllegalArgumentException e) {
            err.println(profileFile + ": " + e.getMessage());
            err.flush();
            return 2;
        } catch (IllegalStateException e) {
            err.println(name + ": " + e.getMessage());
            err.flush();
            return 1;
        }
        if (tlsCertOut != null && server.generatedCertificatePem().isPresent()) {
            try {
                Files.writeString(tlsCertOut, server.generatedCertificatePem().get());
            } catch (IOException e) {
                server.close();
                err.println(
                        name
                                + ": --tls-cert-out: cannot write "
                                + tlsCertOut
                                + ": "
                                + (e.getMessage() == null ? e : e.getMessage()));
                err.flush();
                return 2;
            }
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
                        + ")"
                        + (options.queued()
                                ? String.format(
                                        Locale.ROOT,
                                        ", %d workers of %d ms: capacity %.0f requests/sec",
                                        options.workers(),
                                        options.serviceTimeMs(),
                                        options.capacityPerSecond())
                                : ""));
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
