package io.tcpload.runner.endpoint;

import io.tcpload.runner.client.StartGate;
import io.tcpload.runner.client.StepDriver;
import io.tcpload.runner.client.StepOrder;
import io.tcpload.runner.report.JsonResult;
import io.tcpload.runner.stats.RunSummary;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The steps of one runner of a distributed capacity search, as its orchestrator tells them: the
 * orchestrator {@link #post}s each step (its number, the whole test's rate, warm-up, duration and
 * start instant), the engine runs it on the connections it keeps open ({@link #next}, the {@link
 * StepDriver}), and the orchestrator fetches the step's own result ({@link #result}) to merge it
 * with the other runners' and decide the next step. The runner decides nothing.
 *
 * <p>The endpoint's {@code /step} and {@code /step-result} speak to it for a runner pod; local mode
 * speaks to it directly for its in-process runners.
 *
 * <p>Threading: {@link #next} on the engine's collector thread; everything else from any thread.
 */
public final class StepChannel implements StepDriver {
    /** How many steps' results are kept for the orchestrator: it fetches each as it ends. */
    static final int KEPT_RESULTS = 16;

    /**
     * A step asked for.
     *
     * @param number from 1, each the one after the last
     * @param ratePerSecond the whole test's rate; this runner sends its interleaved share
     * @param warmupMs run first at the rate, left out of the step's figures
     * @param durationMs measured, whole seconds
     * @param atEpochMs when the step begins, on the orchestrator's clock
     * @param offsetUs this runner's clock minus the orchestrator's, in microseconds
     */
    public record Request(
            int number,
            double ratePerSecond,
            long warmupMs,
            long durationMs,
            long atEpochMs,
            long offsetUs) {
        StepOrder order() {
            return new StepOrder(number, ratePerSecond, warmupMs, durationMs);
        }
    }

    /** What became of a posted step. */
    public enum PostOutcome {
        /** Taken now, or taken before (the same number again). */
        TAKEN,
        /** Another step is pending or running, or the number is not the next one. */
        CONFLICT,
        /** The search has ended (told, or the run stopped): no more steps. */
        ENDED,
        /** A value out of range: a rate or duration not positive, an instant too far off. */
        OUT_OF_RANGE
    }

    /** Where a step's result stands. */
    public enum ResultState {
        /** Never asked for, or forgotten ({@link #KEPT_RESULTS}). */
        UNKNOWN,
        /** Taken, not yet run to its end. */
        PENDING,
        /** Run: the result is there. */
        DONE
    }

    /**
     * A step's result as the orchestrator sees it.
     *
     * @param state where it stands
     * @param summary the result, when {@link ResultState#DONE}
     */
    public record StepResult(ResultState state, Optional<RunSummary> summary) {
        /** The result as {@code /step-result} serves it: every second a row, every histogram. */
        public Optional<String> json() {
            return summary.map(JsonResult::write);
        }
    }

    private final Clock clock;
    private final CountDownLatch cancelled = new CountDownLatch(1);
    private final Map<Integer, RunSummary> results =
            new LinkedHashMap<>() {
                @Override
                protected boolean removeEldestEntry(Map.Entry<Integer, RunSummary> eldest) {
                    return size() > KEPT_RESULTS;
                }
            };

    /** The step taken and not yet handed to the engine; null when none. */
    private Request pending;

    /** The step the engine runs now; null between steps. */
    private Request running;

    /** The last step taken (pending, running or done); 0 before any. */
    private int lastNumber;

    private boolean ended;

    /** On the system's wall clock. */
    public StepChannel() {
        this(Clock.systemUTC());
    }

    /** On {@code clock}, the runner's wall clock the instants are kept on. */
    public StepChannel(Clock clock) {
        this.clock = clock;
    }

    /**
     * Takes a step. The same number as the last one taken is taken again without change
     * (idempotent: the orchestrator may repeat a post whose answer it lost).
     */
    public synchronized PostOutcome post(Request request) {
        if (request.number() == lastNumber && lastNumber > 0) {
            return PostOutcome.TAKEN;
        }
        if (ended) {
            return PostOutcome.ENDED;
        }
        if (!(request.ratePerSecond() > 0)
                || request.warmupMs() < 0
                || request.durationMs() < 1
                || request.number() < 1
                || outOfRange(request)) {
            return PostOutcome.OUT_OF_RANGE;
        }
        if (pending != null || running != null || request.number() != lastNumber + 1) {
            return PostOutcome.CONFLICT;
        }
        pending = request;
        lastNumber = request.number();
        notifyAll();
        return PostOutcome.TAKEN;
    }

    private boolean outOfRange(Request request) {
        long nowMs = clock.millis();
        long hereMs = request.atEpochMs() + Math.floorDiv(request.offsetUs(), 1000);
        return Math.abs(request.offsetUs()) > ControlChannel.FUTURE_LIMIT.toMillis() * 1000
                || hereMs < nowMs - ControlChannel.PAST_LIMIT.toMillis()
                || hereMs > nowMs + ControlChannel.FUTURE_LIMIT.toMillis();
    }

    /** Ends the search: no step is taken from now on; a step running still runs to its end. */
    public synchronized void end() {
        ended = true;
        pending = null;
        notifyAll();
    }

    /**
     * The run is stopping: a wait for a step or for a step's instant ends at once, and a step not
     * run to its end never will be.
     */
    public void cancel() {
        synchronized (this) {
            ended = true;
            pending = null;
            running = null;
            notifyAll();
        }
        cancelled.countDown();
    }

    /** Whether the search has ended. */
    public synchronized boolean ended() {
        return ended;
    }

    /** The number of the step last taken (pending, running or run); 0 before any. */
    public synchronized int currentStep() {
        return lastNumber;
    }

    /** Step {@code number}'s result, or where it stands. */
    public synchronized StepResult result(int number) {
        RunSummary summary = results.get(number);
        if (summary != null) {
            return new StepResult(ResultState.DONE, Optional.of(summary));
        }
        boolean pendingNow =
                (pending != null && pending.number() == number)
                        || (running != null && running.number() == number);
        return new StepResult(
                pendingNow ? ResultState.PENDING : ResultState.UNKNOWN, Optional.empty());
    }

    /**
     * Waits for the next step posted (the previous step's result kept for the orchestrator), then
     * for its instant; empty once the search has ended.
     */
    @Override
    public Optional<StepOrder> next(Optional<RunSummary> previous) throws InterruptedException {
        Request request;
        synchronized (this) {
            if (running != null) {
                if (previous.isPresent()) {
                    results.put(running.number(), previous.get());
                }
                running = null;
            }
            while (pending == null && !ended) {
                wait();
            }
            if (pending == null) {
                return Optional.empty();
            }
            request = pending;
            pending = null;
            running = request;
        }
        // The instant on this runner's clock is the told one plus this clock's offset.
        long atEpochUs = request.atEpochMs() * 1000 + request.offsetUs();
        long deadlineNs = System.nanoTime() + (atEpochUs - StartGate.epochUs(clock)) * 1000;
        long waitNs = deadlineNs - System.nanoTime();
        if (waitNs > 0 && cancelled.await(waitNs, TimeUnit.NANOSECONDS)) {
            synchronized (this) {
                running = null;
            }
            return Optional.empty();
        }
        return Optional.of(request.order());
    }
}
