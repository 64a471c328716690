package io.tcpload.runner.client;

import io.tcpload.runner.stats.RunSummary;
import java.util.Optional;

/**
 * Decides a stepped run's steps ({@link LoadEngine#runSteps}): each a constant rate on the
 * connections the run keeps open. A capacity search alone chooses them itself; a runner of a
 * distributed search waits for its orchestrator's word.
 *
 * <p>Called on the engine's collector thread, between steps; it may block for as long as the
 * decision takes (the connections stay open, sending nothing).
 */
@FunctionalInterface
public interface StepDriver {
    /**
     * The next step, or empty to end the run.
     *
     * @param previous this runner's figures of the step just run; empty before the first
     */
    Optional<StepOrder> next(Optional<RunSummary> previous) throws InterruptedException;
}
