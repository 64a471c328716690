package io.tcpload.runner.serve;

import java.util.Arrays;

/**
 * The demo target's workers: {@code workers} of them, each taking {@code serviceNs} per request,
 * with one queue in front, served in arrival order. So the target's capacity is exactly {@code
 * workers * 1e9 / serviceNs} requests per second and, past it, the queue and the latency grow as a
 * real service's do.
 *
 * <p>Pure and clock-free: {@link #doneNs} is told each request's arrival time and answers when its
 * worker finishes it, so that the timer that writes the response being a little late never
 * lengthens the service time or lowers the capacity. A request arriving at {@code t} starts on the
 * worker that frees up first, at {@code max(t, its free time)}: since arrivals are taken in order,
 * that is the first-come, first-served queue of {@code workers} servers.
 *
 * <p>Thread-safe: the server's event loops share one queue (one lock, held for a heap update).
 */
final class WorkerQueue {
    private final long serviceNs;

    /** A min-heap of the instants each worker frees up. */
    private final long[] freeAtNs;

    /**
     * @param workers at least 1
     * @param serviceNs the time each request takes, positive
     */
    WorkerQueue(int workers, long serviceNs) {
        if (workers < 1) {
            throw new IllegalArgumentException("workers " + workers + " is less than 1");
        }
        if (serviceNs < 1) {
            throw new IllegalArgumentException("service time must be positive");
        }
        this.serviceNs = serviceNs;
        this.freeAtNs = new long[workers];
        Arrays.fill(freeAtNs, Long.MIN_VALUE);
    }

    /** The capacity, in requests per second. */
    double capacityPerSecond() {
        return freeAtNs.length * 1e9 / serviceNs;
    }

    /**
     * A request arrives at {@code arrivalNs} (not before the one told before it): when its worker
     * is done with it.
     */
    synchronized long doneNs(long arrivalNs) {
        long startNs = Math.max(arrivalNs, freeAtNs[0]);
        long doneNs = startNs + serviceNs;
        freeAtNs[0] = doneNs;
        siftDown();
        return doneNs;
    }

    private void siftDown() {
        int n = freeAtNs.length;
        int i = 0;
        long value = freeAtNs[0];
        while (true) {
            int child = 2 * i + 1;
            if (child >= n) {
                break;
            }
            if (child + 1 < n && freeAtNs[child + 1] < freeAtNs[child]) {
                child++;
            }
            if (freeAtNs[child] >= value) {
                break;
            }
            freeAtNs[i] = freeAtNs[child];
            i = child;
        }
        freeAtNs[i] = value;
    }
}
