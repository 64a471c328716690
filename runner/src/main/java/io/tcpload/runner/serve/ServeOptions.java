package io.tcpload.runner.serve;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * How the demo server listens and answers. Immutable.
 *
 * @param bindHost the address to bind, a loopback address by default so a demo is never exposed
 * @param port the TCP port, 0 for any free port
 * @param failureRate the fraction of responses, 0..1, that carry the failure code
 * @param delayMs how long each response waits before it is written
 * @param threads the number of event-loop threads (accepting and serving)
 * @param stallEveryMs with {@code stallForMs}: every this many milliseconds from the start, the
 *     server stalls; 0 for never
 * @param stallForMs how long each stall lasts: responses due during it are all written when it ends
 *     (the coordinated-omission experiment of wrk2)
 * @param tls how to speak TLS; empty for plain TCP unless the profile says {@code tls = true}, when
 *     a certificate is made at start
 * @param workers with {@code serviceTimeMs}: requests are served by this many workers, each taking
 *     {@code serviceTimeMs} per request, from one queue in arrival order, so that the target's
 *     capacity is {@code workers * 1000 / serviceTimeMs} per second; 0 for no workers (answered at
 *     once)
 * @param serviceTimeMs how long each worker takes per request
 */
public record ServeOptions(
        String bindHost,
        int port,
        double failureRate,
        long delayMs,
        int threads,
        long stallEveryMs,
        long stallForMs,
        Optional<ServeTls> tls,
        int workers,
        long serviceTimeMs) {

    /** The most workers the demo target runs. */
    public static final int MAX_WORKERS = 100_000;

    public ServeOptions {
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(bindHost, "bindHost");
        if (bindHost.isBlank()) {
            throw new IllegalArgumentException("bind host is empty");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is outside 0..65535");
        }
        if (!(failureRate >= 0.0 && failureRate <= 1.0)) {
            throw new IllegalArgumentException("failure rate " + failureRate + " is outside 0..1");
        }
        if (delayMs < 0) {
            throw new IllegalArgumentException("delay " + delayMs + " ms is negative");
        }
        if (threads < 1) {
            throw new IllegalArgumentException("threads " + threads + " is less than 1");
        }
        if (stallEveryMs < 0
                || stallForMs < 0
                || (stallEveryMs > 0 && stallForMs >= stallEveryMs)) {
            throw new IllegalArgumentException(
                    "a stall of "
                            + stallForMs
                            + " ms every "
                            + stallEveryMs
                            + " ms is not possible: it must be shorter than its period");
        }
        if (workers < 0 || workers > MAX_WORKERS) {
            throw new IllegalArgumentException(
                    "--workers " + workers + " is outside 0.." + MAX_WORKERS);
        }
        if (serviceTimeMs < 0) {
            throw new IllegalArgumentException(
                    "--service-time-ms " + serviceTimeMs + " is negative");
        }
        if ((workers > 0) != (serviceTimeMs > 0)) {
            throw new IllegalArgumentException(
                    "--workers and --service-time-ms go together: N workers that each take T ms"
                            + " a request");
        }
    }

    /** Options without workers: every request is answered as it arrives (after the delay). */
    public ServeOptions(
            String bindHost,
            int port,
            double failureRate,
            long delayMs,
            int threads,
            long stallEveryMs,
            long stallForMs,
            Optional<ServeTls> tls) {
        this(bindHost, port, failureRate, delayMs, threads, stallEveryMs, stallForMs, tls, 0, 0);
    }

    /** Whether requests queue for workers ({@link #workers} of {@link #serviceTimeMs} each). */
    public boolean queued() {
        return workers > 0;
    }

    /** The capacity workers give, requests per second; infinite without workers. */
    public double capacityPerSecond() {
        return queued() ? workers * 1000.0 / serviceTimeMs : Double.POSITIVE_INFINITY;
    }

    /** Options without TLS of their own. */
    public ServeOptions(
            String bindHost,
            int port,
            double failureRate,
            long delayMs,
            int threads,
            long stallEveryMs,
            long stallForMs) {
        this(
                bindHost,
                port,
                failureRate,
                delayMs,
                threads,
                stallEveryMs,
                stallForMs,
                Optional.empty());
    }

    /** Options without stalls. */
    public ServeOptions(String bindHost, int port, double failureRate, long delayMs, int threads) {
        this(bindHost, port, failureRate, delayMs, threads, 0, 0);
    }

    /** 127.0.0.1, any free port, no failures, no delay, two threads. */
    public static ServeOptions defaults() {
        return new ServeOptions("127.0.0.1", 0, 0.0, 0, 2);
    }

    public ServeOptions withBindHost(String newBindHost) {
        return copy(c -> c.bindHost = newBindHost);
    }

    public ServeOptions withPort(int newPort) {
        return copy(c -> c.port = newPort);
    }

    public ServeOptions withFailureRate(double newFailureRate) {
        return copy(c -> c.failureRate = newFailureRate);
    }

    public ServeOptions withDelayMs(long newDelayMs) {
        return copy(c -> c.delayMs = newDelayMs);
    }

    public ServeOptions withThreads(int newThreads) {
        return copy(c -> c.threads = newThreads);
    }

    public ServeOptions withTls(Optional<ServeTls> newTls) {
        return copy(c -> c.tls = newTls);
    }

    /** Stalls of {@code newStallForMs} every {@code newStallEveryMs}. */
    public ServeOptions withStalls(long newStallEveryMs, long newStallForMs) {
        return copy(
                c -> {
                    c.stallEveryMs = newStallEveryMs;
                    c.stallForMs = newStallForMs;
                });
    }

    /** {@code newWorkers} workers taking {@code newServiceTimeMs} each per request. */
    public ServeOptions withWorkers(int newWorkers, long newServiceTimeMs) {
        return copy(
                c -> {
                    c.workers = newWorkers;
                    c.serviceTimeMs = newServiceTimeMs;
                });
    }

    /**
     * Applies {@code change} to a copy of this ServeOptions's components: the one place the {@code
     * with} copies above list them.
     */
    private ServeOptions copy(Consumer<Copy> change) {
        Copy copy = new Copy(this);
        change.accept(copy);
        return copy.build();
    }

    /** The components of a ServeOptions being copied, one of them changed. */
    private static final class Copy {
        private String bindHost;
        private int port;
        private double failureRate;
        private long delayMs;
        private int threads;
        private long stallEveryMs;
        private long stallForMs;
        private Optional<ServeTls> tls;
        private int workers;
        private long serviceTimeMs;

        private Copy(ServeOptions of) {
            bindHost = of.bindHost;
            port = of.port;
            failureRate = of.failureRate;
            delayMs = of.delayMs;
            threads = of.threads;
            stallEveryMs = of.stallEveryMs;
            stallForMs = of.stallForMs;
            tls = of.tls;
            workers = of.workers;
            serviceTimeMs = of.serviceTimeMs;
        }

        private ServeOptions build() {
            return new ServeOptions(
                    bindHost,
                    port,
                    failureRate,
                    delayMs,
                    threads,
                    stallEveryMs,
                    stallForMs,
                    tls,
                    workers,
                    serviceTimeMs);
        }
    }
}
