package io.tcpload.runner.session;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
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

    /** Where Linux tells a process its limits, one line a limit. */
    private static final Path PROC_LIMITS = Path.of("/proc/self/limits");

    /**
     * This process's soft limit on open files: from {@code /proc/self/limits} on Linux, where the
     * JDK's management bean would cost its platform set-up (about 13 ms of every start); else where
     * the JDK can tell (on Unix).
     */
    public static OptionalLong current() {
        try {
            OptionalLong fromProc = fromProcLimits(Files.readString(PROC_LIMITS));
            if (fromProc.isPresent()) {
                return fromProc;
            }
        } catch (IOException | RuntimeException e) {
            // Not Linux, or /proc is not mounted: the JDK is asked instead.
        }
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            long limit = unix.getMaxFileDescriptorCount();
            return limit > 0 ? OptionalLong.of(limit) : OptionalLong.empty();
        }
        return OptionalLong.empty();
    }

    /**
     * The soft limit of the {@code Max open files} line of a {@code /proc/PID/limits} text ({@code
     * Long.MAX_VALUE} for {@code unlimited}); empty when the text has no such line.
     */
    static OptionalLong fromProcLimits(String limits) {
        for (String line : limits.split("\n")) {
            if (!line.startsWith("Max open files")) {
                continue;
            }
            String[] columns = line.substring("Max open files".length()).trim().split("\\s+");
            if (columns[0].equals("unlimited")) {
                return OptionalLong.of(Long.MAX_VALUE);
            }
            try {
                long limit = Long.parseLong(columns[0]);
                return limit > 0 ? OptionalLong.of(limit) : OptionalLong.empty();
            } catch (NumberFormatException e) {
                return OptionalLong.empty();
            }
        }
        return OptionalLong.empty();
    }
}
