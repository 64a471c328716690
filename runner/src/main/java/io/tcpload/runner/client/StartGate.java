package io.tcpload.runner.client;

import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * When the load begins: at once, or at a wall-clock instant that another thread sets later, so that
 * the runners of a distributed test begin together. The runner gets everything ready (profile,
 * address, event loops), waits at the gate, and begins at the instant.
 *
 * <p>The wait is precise: the instant is turned into a {@link System#nanoTime} deadline, the
 * waiting thread parks until a millisecond before it and spins the rest, so the start is late by
 * microseconds, not by a sleep's granularity.
 *
 * <p>Threading: {@link #open} and {@link #cancel} may be called from any thread, once or more (the
 * first instant wins); {@link #await} is called by the thread that runs the engine.
 */
public final class StartGate {
    private static final long SPIN_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final CompletableFuture<Long> startAtEpochMs = new CompletableFuture<>();
    private volatile boolean arrived;

    private StartGate() {}

    /** A gate that is open from the start. */
    public static StartGate immediate() {
        StartGate gate = new StartGate();
        gate.startAtEpochMs.complete(0L);
        return gate;
    }

    /** A gate that waits for {@link #open}. */
    public static StartGate awaiting() {
        return new StartGate();
    }

    /**
     * Sets the instant of the start; a later call with another instant is refused.
     *
     * @param epochMs the start, in milliseconds since the epoch; a past instant starts at once
     * @return whether the gate now opens at {@code epochMs}
     */
    public boolean open(long epochMs) {
        startAtEpochMs.complete(epochMs);
        return !startAtEpochMs.isCancelled() && startAtEpochMs.join() == epochMs;
    }

    /** Gives up waiting: {@link #await} throws {@link CancellationException}. */
    public void cancel() {
        startAtEpochMs.cancel(false);
    }

    /** Whether the engine is ready and waiting at the gate (or already past it). */
    public boolean arrived() {
        return arrived;
    }

    /** The instant set, in epoch milliseconds, once {@link #open} was called. */
    public Long startAtEpochMs() {
        return startAtEpochMs.isDone() && !startAtEpochMs.isCancelled()
                ? startAtEpochMs.join()
                : null;
    }

    /**
     * Waits for the instant and returns when the load really begins.
     *
     * @return the real start, in microseconds since the epoch
     * @throws CancellationException when {@link #cancel} came first
     */
    long await() throws InterruptedException {
        arrived = true;
        long atEpochMs;
        try {
            atEpochMs = startAtEpochMs.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
        long delayNs = (atEpochMs * 1000 - nowEpochUs()) * 1000;
        long deadlineNs = System.nanoTime() + delayNs;
        while (deadlineNs - System.nanoTime() > SPIN_NS) {
            LockSupport.parkNanos(deadlineNs - System.nanoTime() - SPIN_NS);
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting for the start");
            }
            if (startAtEpochMs.isCancelled()) {
                throw new CancellationException("the start was cancelled");
            }
        }
        while (System.nanoTime() - deadlineNs < 0) {
            Thread.onSpinWait();
        }
        return nowEpochUs();
    }

    /** The wall clock in microseconds since the epoch. */
    public static long nowEpochUs() {
        Instant now = Clock.systemUTC().instant();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
    }
}
