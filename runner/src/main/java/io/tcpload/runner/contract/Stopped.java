package io.tcpload.runner.contract;

import java.util.Locale;

/**
 * Why a run ended before its duration: the result it gives is partial. Carried in the runner's
 * result as {@code "stopped"} (absent for a run that went to its end), so that an orchestrator
 * never presents such a result as a whole one.
 *
 * @param signal the signal that stopped it, {@code SIGTERM} or {@code SIGINT}
 * @param afterMs how long the load had run when it stopped, in milliseconds
 */
public record Stopped(String signal, long afterMs) {
    public Stopped {
        if (signal == null || signal.isBlank()) {
            throw new IllegalArgumentException("a stop names its signal");
        }
        if (afterMs < 0) {
            throw new IllegalArgumentException("afterMs must be at least 0, got " + afterMs);
        }
    }

    /** {@code stopped by SIGTERM after 12.3 s}. */
    public String describe() {
        return "stopped by "
                + signal
                + " after "
                + String.format(Locale.ROOT, "%.1f", afterMs / 1000.0)
                + " s";
    }
}
