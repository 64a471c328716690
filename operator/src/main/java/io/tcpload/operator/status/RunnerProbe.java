package io.tcpload.operator.status;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a runner's {@code /stats} said, or that it could not be reached. Immutable.
 *
 * @param state where the runner is
 * @param startAtEpochMs the start instant it was told (0 before)
 * @param startEpochUs when its load really began (0 before)
 * @param requests complete responses so far
 * @param successes successful responses so far
 * @param failures failed responses so far
 * @param errors socket errors so far
 * @param tps responses in its last second
 * @param p99Us its cumulative latency p99, in microseconds
 */
public record RunnerProbe(
        State state,
        long startAtEpochMs,
        long startEpochUs,
        long requests,
        long successes,
        long failures,
        long errors,
        double tps,
        long p99Us) {

    /** A runner's state, as its {@code /stats} phase says. */
    public enum State {
        UNREACHABLE,
        WAITING,
        READY,
        RUNNING,
        FINISHED;

        /** Ready to start, or past that. */
        public boolean ready() {
            return this == READY || this == RUNNING || this == FINISHED;
        }
    }

    public static final RunnerProbe UNREACHABLE =
            new RunnerProbe(State.UNREACHABLE, 0, 0, 0, 0, 0, 0, 0, 0);

    /** Reads the runner's {@code /stats} JSON. */
    public static RunnerProbe fromStats(JsonNode stats) {
        State state =
                switch (stats.path("phase").asText()) {
                    case "ready" -> State.READY;
                    case "running" -> State.RUNNING;
                    case "finished" -> State.FINISHED;
                    default -> State.WAITING;
                };
        JsonNode cumulative = stats.path("cumulative");
        JsonNode lastSecond = stats.path("lastSecond");
        return new RunnerProbe(
                state,
                stats.path("startAtEpochMs").asLong(),
                stats.path("startEpochUs").asLong(),
                cumulative.path("requests").asLong(),
                cumulative.path("successes").asLong(),
                cumulative.path("failures").asLong(),
                cumulative.path("connectErrors").asLong()
                        + cumulative.path("readErrors").asLong()
                        + cumulative.path("writeErrors").asLong()
                        + cumulative.path("timeouts").asLong(),
                lastSecond.path("successTps").asLong() + lastSecond.path("failureTps").asLong(),
                stats.path("latencyUs").path("p99").asLong());
    }
}
