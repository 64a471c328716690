package io.tcpload.runner.session;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Whether the process's standard streams are terminals, which decides how progress is drawn. */
final class Terminal {
    private Terminal() {}

    /** Whether standard output is a terminal (and standard input: the JDK only tells both). */
    static boolean stdout() {
        return System.console() != null;
    }

    /**
     * Whether standard error is a terminal. The JDK cannot say; on Linux the descriptor's link
     * names the device. Elsewhere, or when it cannot be read, it is taken for a file or a pipe.
     */
    static boolean stderr() {
        try {
            String device = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return device.startsWith("/dev/pts/") || device.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }
}
