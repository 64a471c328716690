package io.tcpload.runner.rate;

/**
 * One step of a {@code --stages} run: over {@code durationMs} the rate moves linearly from the
 * previous stage's target (or the starting rate) to {@code targetRate}. Immutable.
 *
 * @param durationMs how long the stage lasts, positive
 * @param targetRate requests per second across the whole run (every runner and event loop) at the
 *     end of the stage; 0 allowed, so that a stage from 0 to 0 is a pause
 */
public record Stage(long durationMs, double targetRate) {

    public Stage {
        if (durationMs < 1) {
            throw new IllegalArgumentException(
                    "stage duration must be positive, not " + durationMs + " ms");
        }
        if (!(targetRate >= 0) || targetRate > RateSchedule.MAX_RATE) {
            throw new IllegalArgumentException(
                    "stage rate "
                            + targetRate
                            + " must be between 0 and "
                            + (long) RateSchedule.MAX_RATE
                            + " per second");
        }
    }
}
