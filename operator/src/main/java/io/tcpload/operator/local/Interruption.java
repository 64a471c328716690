package io.tcpload.operator.local;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C (SIGINT) and SIGTERM during a local run: instead of ending the JVM they stop the runners,
 * so that what they did is still merged, printed with its status and the temporary files removed;
 * the run then exits {@code 128 + signal}, as a shell expects of an interrupted command. The JDK
 * has no public API to take a signal without shutting down, hence {@code sun.misc.Signal}; where it
 * is missing, the default handling stays.
 */
final class Interruption implements AutoCloseable {
    /** A signal that interrupted the run, and the exit status it gives. */
    record Caught(String name, int exitStatus) {}

    private static final List<Caught> SIGNALS =
            List.of(new Caught("INT", 130), new Caught("TERM", 143));

    private final AtomicReference<Caught> caught = new AtomicReference<>();
    private final List<Restore> previous;

    private record Restore(Signal signal, SignalHandler handler) {}

    private Interruption(Runnable stop) {
        List<Restore> installed = new java.util.ArrayList<>();
        for (Caught signal : SIGNALS) {
            try {
                Signal os = new Signal(signal.name());
                SignalHandler before =
                        Signal.handle(
                                os,
                                ignored -> {
                                    if (caught.compareAndSet(null, signal)) {
                                        stop.run();
                                    }
                                });
                installed.add(new Restore(os, before));
            } catch (IllegalArgumentException | UnsupportedOperationException e) {
                // Not on this platform, or taken by the JVM: the default handling stays.
            }
        }
        previous = List.copyOf(installed);
    }

    /** Until {@link #close}, SIGINT and SIGTERM call {@code stop} (once) instead of exiting. */
    static Interruption install(Runnable stop) {
        return new Interruption(stop);
    }

    /** The signal that stopped the run, if one did. */
    Optional<Caught> caught() {
        return Optional.ofNullable(caught.get());
    }

    @Override
    public void close() {
        for (Restore restore : previous) {
            Signal.handle(restore.signal(), restore.handler());
        }
    }
}
