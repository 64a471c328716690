package io.tcpload.runner.contract;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** Where a runner's run is, as {@link RunnerProtocol#STATS} says it. */
public enum LivePhase {
    /** Before the load can start: loading, resolving, opening connections. */
    WAITING,
    /** Armed and waiting for the start instant of a distributed test. */
    READY,
    RUNNING,
    FINISHED;

    /** Ready to start, or past that. */
    public boolean ready() {
        return this != WAITING;
    }

    /** The name on the wire: {@code waiting}, {@code ready}, {@code running}, {@code finished}. */
    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
