package io.tcpload.runner.endpoint;

import io.tcpload.runner.client.StartGate;
import io.tcpload.runner.contract.ControlToken;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What an orchestrator (the operator) can do with a runner through its endpoint: set the start
 * instant, tell the steps of a distributed search ({@link StepChannel}), fetch the final result and
 * let the runner go. The runner thus needs no shared storage and no API access: the orchestrator
 * pulls.
 *
 * <p>Threading: the endpoint's threads and the run's thread share it; every method is safe from any
 * thread.
 */
public final class ControlChannel {
    /**
     * How far in the past an instant may lie and still start the run at once: a runner whose clock
     * runs ahead of the orchestrator's sees the instant late. Older than this, it is a mistake.
     */
    static final Duration PAST_LIMIT = Duration.ofSeconds(10);

    /** How far ahead an instant may lie: a start barrier is for seconds, not for days. */
    static final Duration FUTURE_LIMIT = Duration.ofDays(1);

    private final StartGate gate;
    private final Clock clock;
    private final Optional<ControlToken> token;
    private final Optional<StepChannel> steps;
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile String resultJson;

    /** A channel open to whoever reaches the endpoint: for one bound on loopback. */
    public ControlChannel(StartGate gate) {
        this(gate, Optional.empty());
    }

    /**
     * A channel that, with {@code token}, answers only requests that carry it; on the gate's clock.
     */
    public ControlChannel(StartGate gate, Optional<ControlToken> token) {
        this(gate, gate.clock(), token, Optional.empty());
    }

    /**
     * As {@link #ControlChannel(StartGate, Optional)}, for a runner of a distributed search whose
     * orchestrator tells it each step through {@code steps}.
     */
    public ControlChannel(StartGate gate, Optional<ControlToken> token, StepChannel steps) {
        this(gate, gate.clock(), token, Optional.of(steps));
    }

    ControlChannel(StartGate gate, Clock clock) {
        this(gate, clock, Optional.empty(), Optional.empty());
    }

    private ControlChannel(
            StartGate gate,
            Clock clock,
            Optional<ControlToken> token,
            Optional<StepChannel> steps) {
        this.gate = gate;
        this.clock = clock;
        this.token = token;
        this.steps = steps;
    }

    /** The steps of a distributed search, for a runner that takes them. */
    public Optional<StepChannel> steps() {
        return steps;
    }

    /**
     * Whether a request with this {@code Authorization} header (null when absent) may use the
     * control paths: it carries the token, or there is none to carry.
     */
    public boolean admits(String authorization) {
        return token.map(t -> t.admits(authorization)).orElse(true);
    }

    /** Whether the control paths require a token. */
    public boolean guarded() {
        return token.isPresent();
    }

    /** The gate the start instant opens. */
    public StartGate gate() {
        return gate;
    }

    /** What became of a start instant. */
    public enum StartOutcome {
        /** The run begins at that instant (or at once, when it has just passed). */
        STARTING,
        /** Another instant was set first, and stays. */
        CONFLICT,
        /** The instant lies too far in the past or ahead. */
        OUT_OF_RANGE
    }

    /** Sets the start instant, {@code atEpochMs} in milliseconds since the epoch. */
    public StartOutcome start(long atEpochMs) {
        return start(atEpochMs, 0);
    }

    /**
     * Sets the start instant, {@code atEpochMs} in milliseconds since the epoch on the
     * orchestrator's clock, from which this runner's is {@code offsetUs} off.
     */
    public StartOutcome start(long atEpochMs, long offsetUs) {
        long nowMs = clock.millis();
        long hereMs = atEpochMs + Math.floorDiv(offsetUs, 1000);
        if (Math.abs(offsetUs) > FUTURE_LIMIT.toMillis() * 1000
                || hereMs < nowMs - PAST_LIMIT.toMillis()
                || hereMs > nowMs + FUTURE_LIMIT.toMillis()) {
            return StartOutcome.OUT_OF_RANGE;
        }
        return gate.open(atEpochMs, offsetUs) ? StartOutcome.STARTING : StartOutcome.CONFLICT;
    }

    /** The run's final JSON result ({@code report.JsonResult}), from now on served. */
    public void publishResult(String json) {
        resultJson = json;
    }

    /** The result, once published. */
    public Optional<String> result() {
        return Optional.ofNullable(resultJson);
    }

    /**
     * The orchestrator says it has the result: the runner may exit.
     *
     * @return false, and nothing changes, when there is no result yet to have
     */
    public boolean finishRequested() {
        if (resultJson == null) {
            return false;
        }
        finished.countDown();
        return true;
    }

    /** The process is stopping: the runner exits whether or not the result was fetched. */
    public void finish() {
        finished.countDown();
    }

    /**
     * Waits for the finish at most {@code timeoutMs}.
     *
     * @return whether it came
     */
    public boolean awaitFinish(long timeoutMs) throws InterruptedException {
        return finished.await(timeoutMs, TimeUnit.MILLISECONDS);
    }
}
