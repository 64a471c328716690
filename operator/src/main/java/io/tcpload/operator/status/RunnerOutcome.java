package io.tcpload.operator.status;

import io.tcpload.runner.stats.RunSummary;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * How one runner of a test ended: with its result, or without one and a reason. Immutable.
 *
 * @param index the runner's index, from 0
 * @param pod the runner pod's name, or empty for a runner run in-process
 * @param result the runner's result when it reported one
 * @param startTime when the runner started its load, when known
 * @param message why the runner failed, or empty
 */
public record RunnerOutcome(
        int index,
        Optional<String> pod,
        Optional<RunSummary> result,
        Optional<Instant> startTime,
        Optional<String> message) {

    public RunnerOutcome {
        Objects.requireNonNull(pod, "pod");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(startTime, "startTime");
        Objects.requireNonNull(message, "message");
    }

    /** A runner that ran to its end and reported {@code result}. */
    public static RunnerOutcome reported(
            int index, Optional<String> pod, RunSummary result, Instant startTime) {
        return new RunnerOutcome(
                index, pod, Optional.of(result), Optional.of(startTime), Optional.empty());
    }

    /** A runner that ended without a result, for {@code reason}. */
    public static RunnerOutcome failed(
            int index, Optional<String> pod, Optional<Instant> startTime, String reason) {
        return new RunnerOutcome(index, pod, Optional.empty(), startTime, Optional.of(reason));
    }
}
