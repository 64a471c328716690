package io.tcpload.operator.reconciler;

import io.tcpload.operator.status.RunnerProbe;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The operator's side of a runner pod's control channel (its HTTP port). Implementations are
 * thread-safe; every call is bounded in time.
 */
public interface RunnerClient {
    /** The runner's {@code /stats}; {@link RunnerProbe#UNREACHABLE} when it does not answer. */
    RunnerProbe stats(String podIp);

    /** {@link #stats} of every runner, by pod IP; an implementation may ask them all at once. */
    default Map<String, RunnerProbe> stats(Collection<String> podIps) {
        Map<String, RunnerProbe> probes = new LinkedHashMap<>();
        podIps.forEach(podIp -> probes.put(podIp, stats(podIp)));
        return probes;
    }

    /** The runner's final JSON result, once its run has finished. */
    Optional<String> result(String podIp);

    /**
     * Tells the start instant.
     *
     * @return whether the runner took it (or had taken the same); false when it had another
     * @throws IllegalStateException when the runner could not be reached
     */
    boolean start(String podIp, long atEpochMs);

    /**
     * Tells every runner the start instant; an implementation should tell them all at once, so that
     * the last runner hears of the instant as early as the first.
     *
     * @throws IllegalStateException when a runner could not be reached
     */
    default void start(Collection<String> podIps, long atEpochMs) {
        podIps.forEach(podIp -> start(podIp, atEpochMs));
    }

    /** Tells the runner its result is in; failures are ignored (it exits on its own later). */
    void finish(String podIp);
}
