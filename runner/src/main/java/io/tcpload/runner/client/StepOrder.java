package io.tcpload.runner.client;

/**
 * One step of a stepped run: a constant rate for a warm-up left out of its figures, then for its
 * measured duration. Immutable.
 *
 * @param number the step's number from 1, for the progress and the result
 * @param ratePerSecond the whole test's rate; each runner sends its interleaved share
 * @param warmupMs run first at the rate and left out of the step's figures; 0 for none
 * @param durationMs measured, whole seconds
 */
public record StepOrder(int number, double ratePerSecond, long warmupMs, long durationMs) {
    public StepOrder {
        if (!(ratePerSecond > 0)) {
            throw new IllegalArgumentException("a step's rate must be positive");
        }
        if (warmupMs < 0 || durationMs < 1) {
            throw new IllegalArgumentException("a step lasts a positive time");
        }
    }
}
