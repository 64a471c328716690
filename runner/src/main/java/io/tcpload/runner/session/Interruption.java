package io.tcpload.runner.session;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C (SIGINT) and SIGTERM during a run: instead of ending the JVM they stop the load, so that
 * what it did is still reported (merged and printed with its status, in local mode; served to the
 * operator through the pod's grace period, in a runner pod); the process then exits {@code 128 +
 * signal}, as a shell expects of an interrupted command and the kubelet reports of a terminated
 * container. The JDK has no public API to take a signal without shutting down, hence {@code
 * sun.misc.Signal}; where it is missing, the default handling stays.
 */
public final class Interruption implements AutoCloseable {
    /** A signal that interrupted the run, and the exit status it gives. */
    public record Caught(String name, int exitStatus) {
        /** {@code SIGTERM}, as a person names it. */
        public String signal() {
            return "SIG" + name;
        }
    }

    private static final List<Caught> SIGNALS =
            List.of(new Caught("INT", 130), new Caught("TERM", 143));

    private final AtomicReference<Caught> caught = new AtomicReference<>();
    private final List<Restore> previous;

    private record Restore(Signal signal, SignalHandler handler) {}

    private Interruption(Consumer<Caught> stop) {
        List<Restore> installed = new java.util.ArrayList<>();
        for (Caught signal : SIGNALS) {
            try {
                Signal os = new Signal(signal.name());
                SignalHandler before =
                        Signal.handle(
                                os,
                                ignored -> {
                                    if (caught.compareAndSet(null, signal)) {
                                        stop.accept(signal);
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
    public static Interruption install(Consumer<Caught> stop) {
        return new Interruption(stop);
    }

    /** The signal that stopped the run, if one did. */
    public Optional<Caught> caught() {
        return Optional.ofNullable(caught.get());
    }

    @Override
    public void close() {
        for (Restore restore : previous) {
            Signal.handle(restore.signal(), restore.handler());
        }
    }
}
