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
 * <p>The instant is the orchestrator's, on its clock; it comes with this runner's clock offset from
 * that clock (as the orchestrator estimated it), so that runners on nodes whose clocks disagree
 * still begin together: the gate opens at the instant plus the offset on this runner's clock.
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

    private final CompletableFuture<Aim> aim = new CompletableFuture<>();
    private final CountDownLatch cancelled = new CountDownLatch(1);
    private final boolean awaits;
    private final Clock clock;

    /**
     * The instant told and how this runner's clock is off from the clock it was given on.
     *
     * @param atEpochMs the orchestrator's instant, milliseconds since the epoch on its clock
     * @param offsetUs this runner's clock minus the orchestrator's, in microseconds
     */
    private record Aim(long atEpochMs, long offsetUs) {}

    private StartGate(boolean awaits, Clock clock) {
        this.awaits = awaits;
        this.clock = clock;
    }

    /** A gate that is open from the start. */
    public static StartGate immediate() {
        StartGate gate = new StartGate(false, Clock.systemUTC());
        gate.aim.complete(new Aim(0, 0));
        return gate;
    }

    /** A gate that waits for {@link #open}, on the system's wall clock. */
    public static StartGate awaiting() {
        return awaiting(Clock.systemUTC());
    }

    /** A gate that waits for {@link #open}, on {@code clock} (a runner's wall clock). */
    public static StartGate awaiting(Clock clock) {
        return new StartGate(true, clock);
    }

    /** The wall clock this gate keeps instants on. */
    public Clock clock() {
        return clock;
    }

    /** This gate's wall clock in microseconds since the epoch. */
    public long epochUs() {
        return epochUs(clock);
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
        return open(epochMs, 0);
    }

    /**
     * Sets the instant of the start on another clock, from which this gate's clock is {@code
     * offsetUs} off; a later call with another instant is refused, one with the same instant keeps
     * the first offset.
     *
     * @param epochMs the start, in milliseconds since the epoch on the other clock
     * @param offsetUs this gate's clock minus the other, in microseconds
     * @return whether the gate now opens at {@code epochMs}
     */
    public boolean open(long epochMs, long offsetUs) {
        aim.complete(new Aim(epochMs, offsetUs));
        return !aim.isCancelled() && aim.join().atEpochMs() == epochMs;
    }

    /**
     * Gives up waiting: {@link #awaitDeadlineNs} throws {@link CancellationException}, and {@link
     * #awaitCancel} returns true, also after the instant was set.
     */
    public void cancel() {
        aim.cancel(false);
        cancelled.countDown();
    }

    /** The instant set, in epoch milliseconds, once {@link #open} was called. */
    public Long startAtEpochMs() {
        return aim.isDone() && !aim.isCancelled() ? aim.join().atEpochMs() : null;
    }

    /** The clock offset told with the instant, in microseconds; 0 before or when none was told. */
    public long clockOffsetUs() {
        return aim.isDone() && !aim.isCancelled() ? aim.join().offsetUs() : 0;
    }

    /**
     * Waits until the instant is set and returns it as a {@link System#nanoTime} deadline (in the
     * past for an immediate gate or a past instant).
     *
     * @throws CancellationException when {@link #cancel} came first
     */
    long awaitDeadlineNs() throws InterruptedException {
        Aim told;
        try {
            told = aim.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
        if (told.atEpochMs() == 0) {
            return System.nanoTime();
        }
        // One reading of each clock, side by side: the deadline is as exact as the wall clock. The
        // instant on this runner's clock is the told one plus this clock's offset.
        long atEpochUs = told.atEpochMs() * 1000 + told.offsetUs();
        return System.nanoTime() + (atEpochUs - epochUs()) * 1000;
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

    /** The system's wall clock in microseconds since the epoch. */
    public static long nowEpochUs() {
        return epochUs(Clock.systemUTC());
    }

    /** {@code clock} in microseconds since the epoch. */
    public static long epochUs(Clock clock) {
        Instant now = clock.instant();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
    }
}
