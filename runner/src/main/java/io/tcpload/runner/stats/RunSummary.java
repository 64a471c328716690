package io.tcpload.runner.stats;

import java.util.List;
import java.util.Objects;
import org.HdrHistogram.Histogram;

/**
 * The whole result of a run, merged over every event loop. The histograms belong to the summary:
 * readers must not change them.
 *
 * @param info what was asked for
 * @param runtimeUs wall time from start to stop, in microseconds
 * @param counts totals
 * @param latencyUs response latency (first byte written to response complete), in microseconds
 * @param connectUs TCP connect time, in microseconds
 * @param requestRate per event loop, every 100 ms, the requests per second it completed in that
 *     slice (only slices that completed something), as wrktcp's {@code Req/Sec} row uses
 * @param seconds the per-second series, in order
 * @param errorMessages distinct error messages with their counts, most frequent first
 * @param rate what a constant-rate or staged run adds, or {@code null} for a closed-loop run
 * @param startEpochUs when the load really began (its first event loop began sending; after a
 *     warm-up, when the measured run began), in microseconds since the epoch (wall clock), so that
 *     the runners of one distributed test can be compared; 0 when unknown
 * @param lastStartEpochUs when the last of its event loops began, on the same clock: the start's
 *     own spread ends here; 0 when unknown
 * @param addresses per address the target's name resolved to (in the order first seen), what its
 *     connections got; empty when unknown
 * @param handshakeUs TLS handshake time (TCP connected to handshake done), in microseconds; empty
 *     for plain TCP
 * @param byRequest per named request of a transaction mix, in the profile's order, its complete
 *     responses; they add up to the totals exactly. Empty for a profile of one plain request
 */
public record RunSummary(
        RunInfo info,
        long runtimeUs,
        Counts counts,
        Histogram latencyUs,
        Histogram connectUs,
        Histogram requestRate,
        List<SecondSample> seconds,
        List<ErrorCount> errorMessages,
        long startEpochUs,
        long lastStartEpochUs,
        RateSummary rate,
        List<AddressCount> addresses,
        Histogram handshakeUs,
        List<RequestStats> byRequest) {

    public RunSummary {
        seconds = List.copyOf(seconds);
        errorMessages = List.copyOf(errorMessages);
        addresses = List.copyOf(addresses);
        Objects.requireNonNull(handshakeUs, "handshakeUs");
        byRequest = List.copyOf(byRequest);
    }

    /** One distinct error message and how many times it happened. */
    public record ErrorCount(String message, long count) {}

    /**
     * What the connections to one address of the target got.
     *
     * @param address {@code ip:port} ({@code [ip]:port} for IPv6)
     * @param requests complete responses from it
     * @param errors socket errors (connect, read, write, timeout, TLS) on connections to it
     */
    public record AddressCount(String address, long requests, long errors) {}

    /**
     * What one named request of a transaction mix got.
     *
     * @param name the request's name ({@code [request.NAME]})
     * @param requests its complete responses
     * @param successes of those, the ones judged a success
     * @param failures the others
     * @param latencyUs their latency, in microseconds, in the one histogram shape ({@link
     *     Histograms}); readers must not change it
     */
    public record RequestStats(
            String name, long requests, long successes, long failures, Histogram latencyUs) {}
}
