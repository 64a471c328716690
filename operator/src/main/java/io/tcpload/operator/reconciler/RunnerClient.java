package io.tcpload.operator.reconciler;

import io.tcpload.operator.status.RunnerProbe;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/**
 * The operator's side of a runner pod's control channel (its HTTP port). Implementations are
 * thread-safe; every call is bounded in time.
 */
public interface RunnerClient {
    /**
     * Every runner's {@code /stats}, by pod IP, asked all at once so that a reconcile waits for the
     * slowest, not for the sum; {@link RunnerProbe#UNREACHABLE} for one that does not answer.
     */
    Map<String, RunnerProbe> stats(Collection<String> podIps);

    /** The runner's final JSON result, once its run has finished. */
    Optional<String> result(String podIp);

    /**
     * Tells every runner the start instant, all at once, so that the last runner hears of it as
     * early as the first. A runner that already has the same instant, or another, keeps its own.
     *
     * @throws IllegalStateException when a runner could not be reached or refused
     */
    void start(Collection<String> podIps, long atEpochMs);

    /** Tells the runner its result is in; failures are ignored (it exits on its own later). */
    void finish(String podIp);
}
