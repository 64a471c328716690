package io.tcpload.operator.reconciler;

import io.tcpload.operator.status.RunnerProbe;
import io.tcpload.operator.status.StepInstruction;
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
     * slowest, not for the sum; {@link RunnerProbe#UNREACHABLE} for one that does not answer. Each
     * answer also reads the runner's clock: the probes carry the estimate of its offset.
     */
    Map<String, RunnerProbe> stats(Collection<String> podIps);

    /** The runner's final JSON result, once its run has finished, asked with the test's token. */
    Optional<String> result(String podIp, String token);

    /**
     * Tells every runner the start instant (on the operator's clock) and the estimate of its
     * clock's offset, all at once, so that the last runner hears of it as early as the first. A
     * runner that already has the same instant keeps it; one that has another says so (409), and
     * its {@code /stats} will show it.
     *
     * @throws IllegalStateException when a runner could not be reached or refused
     */
    void start(Collection<String> podIps, long atEpochMs, String token);

    /**
     * Tells every runner of a capacity search its next step (with the estimate of its clock's
     * offset, as for the start), all at once. A runner told the same step before takes it again
     * without change, so a step told again after a lost answer or a restart is harmless.
     *
     * @throws IllegalStateException when a runner could not be reached or refused
     */
    void step(Collection<String> podIps, StepInstruction step, String token);

    /**
     * Step {@code number}'s result from the runner, with the test's token; empty until it has run
     * to its end, or when the runner cannot be reached.
     */
    Optional<String> stepResult(String podIp, int number, String token);

    /**
     * Tells every runner of a capacity search that the search has ended: each ends its run and
     * holds its last step's result on {@code /result}. Failures are ignored (a runner not told is
     * told again on the next look).
     */
    void endSteps(Collection<String> podIps, String token);

    /** Tells the runner its result is in; failures are ignored (it exits on its own later). */
    void finish(String podIp, String token);
}
