package io.tcpload.runner.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code openssl s_server -www} on a free port of 127.0.0.1 (another one tried when the bind
 * fails): a TLS server nobody here wrote, answering each HTTP request with its status page and
 * closing. Closing this stops the process.
 */
public final class OpensslServer implements AutoCloseable {
    private static final int START_ATTEMPTS = 5;

    private final Process process;
    private final int port;

    private OpensslServer(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /**
     * Starts it in {@code dir} with {@code options} after the port (e.g. {@code -cert server.crt
     * -key server.key -Verify 1 -CAfile ca.crt}), and waits until it accepts connections.
     */
    public static OpensslServer start(Path dir, String... options)
            throws IOException, InterruptedException {
        IOException last = null;
        for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
            int port = Nginx.freePort();
            List<String> command = new ArrayList<>();
            command.addAll(List.of("openssl", "s_server", "-accept", "127.0.0.1:" + port));
            command.addAll(List.of(options));
            command.addAll(List.of("-www", "-quiet", "-naccept", "100000"));
            Path log = dir.resolve("s_server-" + attempt + ".log");
            Process process =
                    new ProcessBuilder(command)
                            .directory(dir.toFile())
                            .redirectErrorStream(true)
                            .redirectOutput(log.toFile())
                            .redirectInput(ProcessBuilder.Redirect.PIPE)
                            .start();
            if (awaitListening(process, port)) {
                return new OpensslServer(process, port);
            }
            stop(process);
            last =
                    new IOException(
                            "s_server did not start on " + port + ": " + Files.readString(log));
        }
        throw last;
    }

    public int port() {
        return port;
    }

    /** {@code https://127.0.0.1:PORT/}. */
    public String url() {
        return "https://127.0.0.1:" + port + "/";
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

    private static boolean awaitListening(Process process, int port) throws InterruptedException {
        long deadlineNs = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadlineNs && process.isAlive()) {
            try (Socket probe = new Socket()) {
                probe.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
                return true;
            } catch (IOException notYet) {
                Thread.sleep(20);
            }
        }
        return false;
    }
}
