package io.tcpload.operator.local;

import io.tcpload.runner.stats.RunSummary;
import java.util.Objects;
import java.util.Optional;

/**
 * How one in-process runner of a local run ended: with its result, or without one and a reason.
 * {@link LocalStatus} shows it to the operator's state machine as a finished runner pod. Immutable.
 *
 * @param index the runner's index, from 0
 * @param result the runner's result when it reported one
 * @param message why the runner failed, or empty
 */
record RunnerOutcome(int index, Optional<RunSummary> result, Optional<String> message) {

    RunnerOutcome {
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(message, "message");
    }

    /** A runner that ran to its end and reported {@code result}. */
    static RunnerOutcome reported(int index, RunSummary result) {
        return new RunnerOutcome(index, Optional.of(result), Optional.empty());
    }

    /** A runner that ended without a result, for {@code reason}. */
    static RunnerOutcome failed(int index, String reason) {
        return new RunnerOutcome(index, Optional.empty(), Optional.of(reason));
    }
}
