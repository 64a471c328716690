package io.tcpload.runner.serve;

import java.util.Objects;
import java.util.Optional;

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
 */
public record ServeOptions(
        String bindHost,
        int port,
        double failureRate,
        long delayMs,
        int threads,
        long stallEveryMs,
        long stallForMs,
        Optional<ServeTls> tls) {

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
        return new ServeOptions(
                newBindHost, port, failureRate, delayMs, threads, stallEveryMs, stallForMs, tls);
    }

    public ServeOptions withPort(int newPort) {
        return new ServeOptions(
                bindHost, newPort, failureRate, delayMs, threads, stallEveryMs, stallForMs, tls);
    }

    public ServeOptions withFailureRate(double newFailureRate) {
        return new ServeOptions(
                bindHost, port, newFailureRate, delayMs, threads, stallEveryMs, stallForMs, tls);
    }

    public ServeOptions withDelayMs(long newDelayMs) {
        return new ServeOptions(
                bindHost, port, failureRate, newDelayMs, threads, stallEveryMs, stallForMs, tls);
    }

    public ServeOptions withThreads(int newThreads) {
        return new ServeOptions(
                bindHost, port, failureRate, delayMs, newThreads, stallEveryMs, stallForMs, tls);
    }

    public ServeOptions withTls(Optional<ServeTls> newTls) {
        return new ServeOptions(
                bindHost, port, failureRate, delayMs, threads, stallEveryMs, stallForMs, newTls);
    }

    /** Stalls of {@code newStallForMs} every {@code newStallEveryMs}. */
    public ServeOptions withStalls(long newStallEveryMs, long newStallForMs) {
        return new ServeOptions(
                bindHost, port, failureRate, delayMs, threads, newStallEveryMs, newStallForMs, tls);
    }
}
