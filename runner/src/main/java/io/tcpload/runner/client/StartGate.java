package io.tcpload.runner.client;

import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * When the load begins: at once, or at a wall-clock instant that another thread sets later, so that
 * the runners of a distributed test begin together. The runner gets everything ready (profile,
 * address, event loops, connections), waits at the gate, and begins at the instant.
 *
 * <p>The gate only says when: the instant is turned into a {@link System#nanoTime} deadline, and
 * each event loop waits for that deadline itself ({@link #waitUntil}), so that no hand-over between
 * threads lies between the instant and the first request.
 *
 * <p>Threading: {@link #open} and {@link #cancel} may be called from any thread, once or more (the
 * first instant wins); {@link #awaitDeadlineNs} and {@link #awaitCancel} are called by the thread
 * that runs the engine.
 */
public final class StartGate {
    /**
     * How long before the deadline a parked thread wakes to spin the rest: above the lateness of
     * {@link LockSupport#parkNanos} on Linux (tens of microseconds), so that the start is late by
     * microseconds, and short, so that many loops spinning at once on few cores do not crowd each
     * other out.
     */
    private static final long SPIN_NS = TimeUnit.MICROSECONDS.toNanos(100);

    private final CompletableFuture<Long> startAtEpochMs = new CompletableFuture<>();
    private final CountDownLatch cancelled = new CountDownLatch(1);
    private final boolean awaits;

    private StartGate(boolean awaits) {
        this.awaits = awaits;
    }

    /** A gate that is open from the start. */
    public static StartGate immediate() {
        StartGate gate = new StartGate(false);
        gate.startAtEpochMs.complete(0L);
        return gate;
    }

    /** A gate that waits for {@link #open}. */
    public static StartGate awaiting() {
        return new StartGate(true);
    }

    /** Whether the start waits for an instant set later (a distributed run): the engine arms. */
    public boolean awaitsInstant() {
        return awaits;
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

    /**
     * Gives up waiting: {@link #awaitDeadlineNs} throws {@link CancellationException}, and {@link
     * #awaitCancel} returns true, also after the instant was set.
     */
    public void cancel() {
        startAtEpochMs.cancel(false);
        cancelled.countDown();
    }

    /** The instant set, in epoch milliseconds, once {@link #open} was called. */
    public Long startAtEpochMs() {
        return startAtEpochMs.isDone() && !startAtEpochMs.isCancelled()
                ? startAtEpochMs.join()
                : null;
    }

    /**
     * Waits until the instant is set and returns it as a {@link System#nanoTime} deadline (in the
     * past for an immediate gate or a past instant).
     *
     * @throws CancellationException when {@link #cancel} came first
     */
    long awaitDeadlineNs() throws InterruptedException {
        long atEpochMs;
        try {
            atEpochMs = startAtEpochMs.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
        if (atEpochMs == 0) {
            return System.nanoTime();
        }
        // One reading of each clock, side by side: the deadline is as exact as the wall clock.
        return System.nanoTime() + (atEpochMs * 1000 - nowEpochUs()) * 1000;
    }

    /**
     * Waits until {@code deadlineNs} or a cancel, whichever comes first.
     *
     * @return whether the gate was cancelled
     */
    boolean awaitCancel(long deadlineNs) throws InterruptedException {
        long waitNs = deadlineNs - System.nanoTime();
        return waitNs > 0
                ? cancelled.await(waitNs, TimeUnit.NANOSECONDS)
                : cancelled.getCount() == 0;
    }

    /**
     * Returns at {@code deadlineNs}, late by microseconds: parks until shortly before, then spins.
     * Returns at once for a past deadline.
     */
    static void waitUntil(long deadlineNs) {
        for (long leftNs = deadlineNs - System.nanoTime();
                leftNs > 0;
                leftNs = deadlineNs - System.nanoTime()) {
            if (leftNs > SPIN_NS) {
                LockSupport.parkNanos(leftNs - SPIN_NS);
            } else {
                Thread.onSpinWait();
            }
        }
    }

    /** The wall clock in microseconds since the epoch. */
    public static long nowEpochUs() {
        Instant now = Clock.systemUTC().instant();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
    }
}
