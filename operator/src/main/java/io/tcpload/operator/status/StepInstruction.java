package io.tcpload.operator.status;

/**
 * One step of a capacity search as the runners are told it ({@code POST /step}). Immutable.
 *
 * @param number from 1
 * @param ratePerSecond the whole test's rate; each runner sends its interleaved share
 * @param warmupMs run first at the rate, left out of the step's figures
 * @param durationMs measured, whole seconds
 * @param atEpochMs when the step begins, on the operator's clock (each runner is told its offset)
 */
public record StepInstruction(
        int number, double ratePerSecond, long warmupMs, long durationMs, long atEpochMs) {
    /** When the step's measured part ends, on the operator's clock. */
    public long endEpochMs() {
        return atEpochMs + warmupMs + durationMs;
    }
}
