package io.tcpload.runner.session;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Whether a run's connections fit in the process's open-file limit: each connection is a file
 * descriptor, and so is each of the runner's own (its jars, event loops, endpoint; with {@code
 * --demo-target} the target's side of every connection too). A run that does not fit still runs:
 * the connections that cannot be opened count as connect errors, and the report is written; this
 * says so before it starts, and how to raise the limit.
 */
public final class OpenFileLimit {
    /** The runner's own descriptors, generously: the JVM's jars and the event loops' own. */
    static final long RUNNER_OWN_FILES = 128;

    private OpenFileLimit() {}

    /**
     * The warning for {@code connections} under {@code limit}, or empty when they fit.
     *
     * @param demoTarget whether the target runs in this process, holding the other end of each
     *     connection
     */
    public static Optional<String> warning(long connections, boolean demoTarget, long limit) {
        long needed = connections * (demoTarget ? 2 : 1) + RUNNER_OWN_FILES;
        if (needed <= limit) {
            return Optional.empty();
        }
        return Optional.of(
                String.format(
                        Locale.ROOT,
                        "warning: %d connections%s need about %d open files, more than this"
                                + " process's limit of %d; the connections beyond it will fail"
                                + " as connect errors. Raise the limit before the run:"
                                + " 'ulimit -n %d' in the shell (LimitNOFILE= for a systemd"
                                + " service, the container runtime's nofile ulimit in a"
                                + " container)",
                        connections,
                        demoTarget ? " and the demo target's side of them" : "",
                        needed,
                        limit,
                        Math.max(needed, 1024)));
    }

    /** This process's soft limit on open files, where the JDK can tell (on Unix). */
    public static OptionalLong current() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            long limit = unix.getMaxFileDescriptorCount();
            return limit > 0 ? OptionalLong.of(limit) : OptionalLong.empty();
        }
        return OptionalLong.empty();
    }
}
