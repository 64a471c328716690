package io.tcpload.runner.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real nginx (Debian's package) on 127.0.0.1 for tests, with its default HTTP settings ({@code
 * keepalive_requests 1000}, {@code keepalive_timeout 75s}), serving one small file, with its pid
 * file, logs and temporary folders in a test's folder. One process, no master (so it runs as
 * whoever runs the tests). Closing it stops the process.
 */
public final class Nginx implements AutoCloseable {
    /** Where Debian installs it; tests that need it are skipped without it. */
    public static final Path BINARY = Path.of("/usr/sbin/nginx");

    /** The body of {@link #url}'s file. */
    public static final String BODY = "Hello, world\n";

    private static final int START_ATTEMPTS = 5;

    private final Process process;
    private final Path accessLog;
    private final int port;

    private Nginx(Process process, Path accessLog, int port) {
        this.process = process;
        this.accessLog = accessLog;
        this.port = port;
    }

    /** Whether nginx is installed here. */
    public static boolean installed() {
        return Files.isExecutable(BINARY);
    }

    /**
     * Starts nginx in {@code dir} on a free port of 127.0.0.1, trying another port if the one
     * chosen was taken meanwhile, and waits until it accepts connections.
     */
    public static Nginx start(Path dir) throws IOException, InterruptedException {
        return start(
                dir, (attemptDir, accessLog, port) -> config(dir, attemptDir, accessLog, port));
    }

    /** What nginx is to run: the whole configuration for one attempt's folder and port. */
    @FunctionalInterface
    public interface Config {
        String text(Path attemptDir, Path accessLog, int port) throws IOException;
    }

    /**
     * Starts nginx with {@code config} (which must use the port it is given, and may write its
     * access log to the path it is given), as {@link #start(Path)} does; {@code index.html} is
     * served from {@code dir}.
     */
    public static Nginx start(Path dir, Config configs) throws IOException, InterruptedException {
        Files.writeString(dir.resolve("index.html"), BODY, StandardCharsets.US_ASCII);
        IOException last = null;
        for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
            int port = freePort();
            Path attemptDir = Files.createDirectories(dir.resolve("nginx-" + attempt));
            Path config = attemptDir.resolve("nginx.conf");
            Path accessLog = attemptDir.resolve("access.log");
            Files.writeString(config, configs.text(attemptDir, accessLog, port));
            Process process =
                    new ProcessBuilder(
                                    BINARY.toString(),
                                    "-p",
                                    attemptDir.toString(),
                                    "-c",
                                    config.toString(),
                                    "-e",
                                    attemptDir.resolve("error.log").toString())
                            .redirectErrorStream(true)
                            .redirectOutput(attemptDir.resolve("nginx.out").toFile())
                            .start();
            if (awaitListening(process, attemptDir.resolve("nginx.pid"), port)) {
                return new Nginx(process, accessLog, port);
            }
            stop(process);
            last =
                    new IOException(
                            "nginx did not start on port "
                                    + port
                                    + ": "
                                    + Files.readString(attemptDir.resolve("error.log")));
        }
        throw last;
    }

    /** The temporary folders of {@code http}, inside the attempt's folder. */
    public static String tempPaths(Path dir) {
        return String.join(
                "\n",
                "  client_body_temp_path " + dir.resolve("body") + ";",
                "  proxy_temp_path " + dir.resolve("proxy") + ";",
                "  fastcgi_temp_path " + dir.resolve("fastcgi") + ";",
                "  uwsgi_temp_path " + dir.resolve("uwsgi") + ";",
                "  scgi_temp_path " + dir.resolve("scgi") + ";");
    }

    /** The lines every configuration starts with: one process, pid file and error log. */
    public static String head(Path dir) {
        return String.join(
                "\n",
                "daemon off;",
                "master_process off;",
                "pid " + dir.resolve("nginx.pid") + ";",
                "error_log " + dir.resolve("error.log") + " warn;");
    }

    /** The access log's lines so far. */
    public java.util.List<String> accessLogLines() {
        if (!Files.exists(accessLog)) {
            return java.util.List.of();
        }
        try {
            return Files.readAllLines(accessLog, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String config(Path root, Path dir, Path accessLog, int port) {
        return String.join(
                "\n",
                "daemon off;",
                "master_process off;",
                "pid " + dir.resolve("nginx.pid") + ";",
                "error_log " + dir.resolve("error.log") + " warn;",
                "events { }",
                "http {",
                "  access_log " + accessLog + ";",
                "  client_body_temp_path " + dir.resolve("body") + ";",
                "  proxy_temp_path " + dir.resolve("proxy") + ";",
                "  fastcgi_temp_path " + dir.resolve("fastcgi") + ";",
                "  uwsgi_temp_path " + dir.resolve("uwsgi") + ";",
                "  scgi_temp_path " + dir.resolve("scgi") + ";",
                "  server {",
                "    listen 127.0.0.1:" + port + ";",
                "    root " + root + ";",
                "  }",
                "}",
                "");
    }

    /** {@code http://127.0.0.1:PORT/index.html}. */
    public String url() {
        return "http://127.0.0.1:" + port + "/index.html";
    }

    public int port() {
        return port;
    }

    /** The requests nginx has logged so far (one access-log line each). */
    public long requestsLogged() {
        if (!Files.exists(accessLog)) {
            return 0;
        }
        try (Stream<String> lines = Files.lines(accessLog, StandardCharsets.ISO_8859_1)) {
            return lines.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop(process);
    }

    private static void stop(Process process) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /**
     * Waits until nginx listens: it writes its pid file only once its port is bound (so a probe
     * that reaches another process holding the port does not count), then accepts.
     */
    private static boolean awaitListening(Process process, Path pidFile, int port)
            throws InterruptedException {
        long deadlineNs = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadlineNs && process.isAlive()) {
            if (!Files.exists(pidFile)) {
                Thread.sleep(20);
                continue;
            }
            try (Socket probe = new Socket()) {
                probe.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
                return true;
            } catch (IOException notYet) {
                Thread.sleep(20);
            }
        }
        return false;
    }

    /** A port free now; nginx cannot be told to pick one itself. */
    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
