package io.tcpload.runner.stats;

import java.util.HashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The statistics of one event loop.
 *
 * <p>Threading: single writer. Every method, {@link #drainInto} included, must be called on the
 * owning event loop; readers get data only through {@link #drainInto}, which the collector submits
 * to the loop as a task, so no field needs to be volatile or atomic and the hot path pays for no
 * memory barrier.
 */
public final class LoopStats {
    private static final long RATE_SLICE_NS = 100_000_000L;

    private final Histogram latencyUs = Histograms.create();
    private final Histogram connectUs = Histograms.create();
    private final Histogram handshakeUs = Histograms.create();
    private final Histogram requestRate = Histograms.create();
    private final Map<String, long[]> errorMessages = new HashMap<>();
    private final AddressCounts addresses = new AddressCounts();

    /** Per named request of a mix; null without a mix. */
    private final NamedStats named;

    private long requests;
    private long successes;
    private long failures;
    private long connectErrors;
    private long readErrors;
    private long writeErrors;
    private long timeouts;
    private long tlsErrors;
    private long bytesRead;
    private long bytesWritten;
    private long non2xx3xx;
    private long retried;

    /** A level, not an interval count: never reset by {@link #drainInto}. */
    private int openConnections;

    private long sliceStartNs;
    private long sliceRequests;

    /** The statistics of a loop sending one request. */
    public LoopStats() {
        this(0);
    }

    /** The statistics of a loop sending a mix of {@code names} named requests (0 for none). */
    public LoopStats(int names) {
        this.named = names > 0 ? new NamedStats(names) : null;
    }

    /** Starts the Req/Sec slices at {@code nowNs}. */
    public void start(long nowNs) {
        sliceStartNs = nowNs;
        sliceRequests = 0;
    }

    public void recordResponse(boolean success, boolean non2xx3xxStatus, long latencyMicros) {
        requests++;
        sliceRequests++;
        if (success) {
            successes++;
        } else {
            failures++;
        }
        if (non2xx3xxStatus) {
            non2xx3xx++;
        }
        Histograms.record(latencyUs, latencyMicros);
    }

    /**
     * The named request {@code index} of a mix got the response just given to {@link
     * #recordResponse}, with the same outcome and latency.
     */
    public void recordNamed(int index, boolean success, long latencyMicros) {
        named.record(index, success, latencyMicros);
    }

    /** Moves the per-request figures recorded since the last call into {@code out}. */
    public void drainNamedInto(NamedStats out) {
        if (named != null) {
            named.moveTo(out);
        }
    }

    /** How many named requests this loop counts: 0 without a mix. */
    public int namedSize() {
        return named == null ? 0 : named.size();
    }

    /** One complete response from the target's address number {@code addressId}. */
    public void recordAddressResponse(int addressId) {
        addresses.addRequest(addressId);
    }

    /** One socket error on a connection to the target's address number {@code addressId}. */
    public void recordAddressError(int addressId) {
        addresses.addError(addressId);
    }

    /** Moves the per-address counts recorded since the last call into {@code out}. */
    public void drainAddressesInto(AddressCounts out) {
        addresses.moveTo(out);
    }

    public void recordConnect(long connectMicros) {
        Histograms.record(connectUs, connectMicros);
    }

    /** A TLS handshake that succeeded, from the TCP connect to its end. */
    public void recordHandshake(long handshakeMicros) {
        Histograms.record(handshakeUs, handshakeMicros);
    }

    /** A connection of this loop was established. */
    public void connectionOpened() {
        openConnections++;
    }

    /** A connection that {@link #connectionOpened} counted was let go of. */
    public void connectionClosed() {
        openConnections--;
    }

    /** Starts from the open connections of {@code previous}, whose figures are dropped. */
    public void carryOpenConnections(LoopStats previous) {
        openConnections = previous.openConnections;
    }

    /** Connections of this loop established and not yet let go of. */
    public int openConnections() {
        return openConnections;
    }

    public void recordBytesRead(long bytes) {
        bytesRead += bytes;
    }

    public void recordBytesWritten(long bytes) {
        bytesWritten += bytes;
    }

    /** Counts one request written again on a new connection (see {@link Counts#retried}). */
    public void recordRetry() {
        retried++;
    }

    /**
     * A request not sent because it could not be built ({@code message}: a value it needs is
     * missing, its {@code $(length)} does not fit): a failed request without a latency, or a
     * failure of a sign-on's own row only. Not a socket error: nothing was wrong with the
     * connection.
     *
     * @param index the named request's index, or -1 without a mix
     */
    public void recordUnsent(boolean signOn, int index, String message) {
        if (!signOn) {
            requests++;
            failures++;
        }
        if (named != null && index >= 0) {
            named.recordUnsent(index);
        }
        recordFailureReason(message);
    }

    /**
     * Why a complete response failed beyond its code (a value not found, an echo that differs):
     * aggregated with the error messages, counted under no error kind.
     */
    public void recordFailureReason(String message) {
        errorMessages.computeIfAbsent(message, m -> new long[1])[0]++;
    }

    /** Counts one error of {@code kind}; {@code message} is aggregated, never printed per error. */
    public void recordError(ErrorKind kind, String message) {
        switch (kind) {
            case CONNECT -> connectErrors++;
            case READ -> readErrors++;
            case WRITE -> writeErrors++;
            case TIMEOUT -> timeouts++;
            case TLS -> tlsErrors++;
        }
        errorMessages.computeIfAbsent(message, m -> new long[1])[0]++;
    }

    /**
     * Closes the current 100 ms Req/Sec slice if it is over; wrktcp samples each thread's own rate
     * every 100 ms and keeps only slices that completed something.
     */
    public void sampleRate(long nowNs) {
        long elapsedNs = nowNs - sliceStartNs;
        if (elapsedNs < RATE_SLICE_NS) {
            return;
        }
        if (sliceRequests > 0) {
            Histograms.record(requestRate, Math.round(sliceRequests * 1e9 / elapsedNs));
        }
        sliceStartNs = nowNs;
        sliceRequests = 0;
    }

    /**
     * Moves everything recorded since the last call into the given accumulators and returns the
     * counts of that interval. The histograms here are reset; the accumulators are only added to.
     */
    public Counts drainInto(
            Histogram latencyOut,
            Histogram connectOut,
            Histogram requestRateOut,
            Map<String, Long> errorsOut) {
        return drainInto(latencyOut, connectOut, null, requestRateOut, errorsOut);
    }

    /**
     * As {@link #drainInto(Histogram, Histogram, Histogram, Map)}, the TLS handshake times into
     * {@code handshakeOut} too (dropped when it is null).
     */
    public Counts drainInto(
            Histogram latencyOut,
            Histogram connectOut,
            Histogram handshakeOut,
            Histogram requestRateOut,
            Map<String, Long> errorsOut) {
        latencyOut.add(latencyUs);
        connectOut.add(connectUs);
        if (handshakeOut != null) {
            handshakeOut.add(handshakeUs);
        }
        requestRateOut.add(requestRate);
        latencyUs.reset();
        connectUs.reset();
        handshakeUs.reset();
        requestRate.reset();
        errorMessages.forEach((message, count) -> errorsOut.merge(message, count[0], Long::sum));
        errorMessages.clear();
        Counts interval =
                new Counts(
                        requests,
                        successes,
                        failures,
                        connectErrors,
                        readErrors,
                        writeErrors,
                        timeouts,
                        bytesRead,
                        bytesWritten,
                        non2xx3xx,
                        retried,
                        tlsErrors);
        requests = 0;
        successes = 0;
        failures = 0;
        connectErrors = 0;
        readErrors = 0;
        writeErrors = 0;
        timeouts = 0;
        tlsErrors = 0;
        bytesRead = 0;
        bytesWritten = 0;
        non2xx3xx = 0;
        retried = 0;
        return interval;
    }
}
