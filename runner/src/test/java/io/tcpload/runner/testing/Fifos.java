package io.tcpload.runner.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Named pipes for tests of inputs that are not regular files. Each writer is a child process, so
 * that closing it always ends it, wherever it is blocked: a FIFO writer waits in {@code open} until
 * a reader comes, and a reader waits until a writer comes, so a test must always start its writer.
 */
public final class Fifos {
    private static final long WAIT_SECONDS = 10;

    private Fifos() {}

    /** Makes a FIFO at {@code path}; the test is skipped where {@code mkfifo} is missing. */
    public static Path create(Path path) throws IOException, InterruptedException {
        Process mkfifo =
                new ProcessBuilder("mkfifo", path.toString()).redirectErrorStream(true).start();
        boolean done = mkfifo.waitFor(WAIT_SECONDS, TimeUnit.SECONDS);
        if (!done) {
            mkfifo.destroyForcibly();
        }
        assumeTrue(done && mkfifo.exitValue() == 0, "mkfifo is not available");
        return path;
    }

    /** Starts a writer that writes {@code content} into the FIFO and ends. */
    public static Writer write(Path fifo, byte[] content) throws IOException {
        Path source = Files.createTempFile("fifo-content-", ".bin");
        Files.write(source, content);
        Process process =
                new ProcessBuilder("sh", "-c", "exec cat > \"$0\"", fifo.toString())
                        .redirectInput(source.toFile())
                        .start();
        return new Writer(process, source);
    }

    /** Starts a writer that writes zero bytes into the FIFO until it is closed. */
    public static Writer writeEndlessly(Path fifo) throws IOException {
        Process process =
                new ProcessBuilder("sh", "-c", "exec cat /dev/zero > \"$0\"", fifo.toString())
                        .start();
        return new Writer(process, null);
    }

    /** A writing child process; closing ends it. */
    public static final class Writer implements AutoCloseable {
        private final Process process;
        private final Path source;

        private Writer(Process process, Path source) {
            this.process = process;
            this.source = source;
        }

        @Override
        public void close() throws IOException, InterruptedException {
            process.destroyForcibly();
            process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS);
            if (source != null) {
                Files.deleteIfExists(source);
            }
        }
    }
}
