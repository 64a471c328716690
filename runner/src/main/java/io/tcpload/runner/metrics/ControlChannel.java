package io.tcpload.runner.metrics;

import io.tcpload.runner.client.StartGate;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What an orchestrator (the operator) can do with a runner through its HTTP endpoint: set the start
 * instant ({@code POST /start?at=EPOCH_MS}), fetch the final result ({@code GET /result}) and let
 * the runner go ({@code POST /finish}). The runner thus needs no shared storage and no API access:
 * the orchestrator pulls.
 *
 * <p>Threading: the endpoint's thread and the run's thread share it; every method is safe from any
 * thread.
 */
public final class ControlChannel {
    private final StartGate gate;
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile String resultJson;

    public ControlChannel(StartGate gate) {
        this.gate = gate;
    }

    /** The gate {@code POST /start} opens. */
    public StartGate gate() {
        return gate;
    }

    /** The run's final JSON result ({@code report.JsonResult}), from now on served at /result. */
    public void publishResult(String json) {
        resultJson = json;
    }

    /** The result, once published. */
    public Optional<String> result() {
        return Optional.ofNullable(resultJson);
    }

    /** The orchestrator has the result (or the process is stopping): the runner may exit. */
    public void finish() {
        finished.countDown();
    }

    /**
     * Waits for {@link #finish} at most {@code timeoutMs}.
     *
     * @return whether it came
     */
    public boolean awaitFinish(long timeoutMs) throws InterruptedException {
        return finished.await(timeoutMs, TimeUnit.MILLISECONDS);
    }
}
