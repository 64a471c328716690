package io.tcpload.operator.local;

import io.tcpload.runner.session.Interruption;
import java.util.Optional;

/**
 * SIGINT and SIGTERM over a local run, from its first step until its runners have ended, so that a
 * signal at any point of it ends with the status of an interrupted run rather than a silent exit.
 * While the run sets up (the test file read and validated, the demo target and the runners made) a
 * signal interrupts the thread setting up, which ends what it waits for (a test file read from a
 * pipe) and then stops at the next step; once the runners start ({@link #load}) it stops them
 * instead. {@link #close} gives the signals back to the JVM, as they were before.
 *
 * <p>Threading: the handler runs on the JVM's signal thread; {@link #load} and {@link #close} run
 * on the run's thread. Both sides hold this object's lock, so that a signal is either seen by
 * {@link #load} (which then refuses to start) or handed to the runners' stop, never lost between.
 */
final class LocalSignals implements AutoCloseable {
    private final Thread setupThread;
    private final Interruption interruption;

    /** What a signal does once the runners run; null while the run sets up. */
    private Runnable stop;

    private boolean closed;

    /** Whether a signal interrupted {@link #setupThread}, which {@link #release} then clears. */
    private boolean interrupted;

    private LocalSignals(Thread setupThread) {
        this.setupThread = setupThread;
        this.interruption = Interruption.install(this::caught);
    }

    /** Takes SIGINT and SIGTERM for a run set up on the calling thread. */
    static LocalSignals install() {
        return new LocalSignals(Thread.currentThread());
    }

    private synchronized void caught(Interruption.Caught signal) {
        if (closed) {
            return;
        }
        if (stop == null) {
            interrupted = true;
            setupThread.interrupt();
        } else {
            stop.run();
        }
    }

    /** The signal caught, if one was. */
    Optional<Interruption.Caught> caught() {
        return interruption.caught();
    }

    /**
     * The setup is done and the runners are about to start: from now a signal calls {@code stop}.
     *
     * @return false when a signal came during the setup: the runners must not start
     */
    synchronized boolean load(Runnable stop) {
        if (caught().isPresent()) {
            return false;
        }
        this.stop = stop;
        return true;
    }

    /** Whether the runners run: a signal stops them rather than the setup. */
    synchronized boolean loading() {
        return stop != null;
    }

    /**
     * Gives the signals back to the JVM (a dry run, which sends each request once, is ended by them
     * as it always was; so is the writing of the report after the load) and clears the interrupt a
     * signal during the setup left on the setup's thread.
     *
     * @return the signal caught until now, if one was
     */
    synchronized Optional<Interruption.Caught> release() {
        if (!closed) {
            closed = true;
            interruption.close();
        }
        if (interrupted && Thread.currentThread() == setupThread) {
            // Cleared after closed is set, so that no later signal interrupts it again; an
            // interrupt of the caller's own is left alone.
            interrupted = false;
            Thread.interrupted();
        }
        return caught();
    }

    @Override
    public void close() {
        release();
    }
}
