package io.tcpload.runner.client;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Lets another thread (a Ctrl-C hook, a test) end a run early; the run then stops as if its
 * duration were over and still produces its summary.
 */
public final class RunControl {
    private final CountDownLatch stopRequested = new CountDownLatch(1);

    public void stop() {
        stopRequested.countDown();
    }

    public boolean stopRequested() {
        return stopRequested.getCount() == 0;
    }

    /**
     * Waits until {@code deadlineNs} (a {@link System#nanoTime} value) or a stop; true if stopped.
     */
    boolean awaitStop(long deadlineNs) throws InterruptedException {
        long waitNs = deadlineNs - System.nanoTime();
        return waitNs > 0 ? stopRequested.await(waitNs, TimeUnit.NANOSECONDS) : stopRequested();
    }
}
