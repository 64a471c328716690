package io.tcpload.runner.stats;

/**
 * Totals of a run (or of one second of it).
 *
 * @param requests complete responses, and requests not sent because they could not be built
 *     (successes plus failures)
 * @param successes responses judged successful
 * @param failures complete responses judged failed (wrong code or HTTP status, a value not found),
 *     and requests not sent because they could not be built (a {@code $(length)} that does not fit
 *     its field, a value missing): each with its reason among the error messages
 * @param connectErrors connects refused or failed
 * @param readErrors bad responses: framing errors, oversize, EOF before a full response
 * @param writeErrors failed writes
 * @param timeouts connects or responses that took longer than the timeout
 * @param bytesRead bytes received
 * @param bytesWritten bytes sent
 * @param non2xx3xx HTTP responses whose status was not 2xx or 3xx (wrk's line), 0 outside HTTP
 * @param retried requests written again on a new connection because the server closed the one they
 *     were written on before answering them, having answered before or said it would close (not
 *     errors: each still ends in a response, an error or the end of the run)
 * @param tlsErrors TLS handshakes that failed (a certificate refused on either side, no common
 *     protocol version or cipher suite)
 */
public record Counts(
        long requests,
        long successes,
        long failures,
        long connectErrors,
        long readErrors,
        long writeErrors,
        long timeouts,
        long bytesRead,
        long bytesWritten,
        long non2xx3xx,
        long retried,
        long tlsErrors) {

    public static final Counts ZERO = new Counts(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    /** Counts without TLS errors. */
    public Counts(
            long requests,
            long successes,
            long failures,
            long connectErrors,
            long readErrors,
            long writeErrors,
            long timeouts,
            long bytesRead,
            long bytesWritten,
            long non2xx3xx,
            long retried) {
        this(
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
                0);
    }

    /** Counts with nothing retried. */
    public Counts(
            long requests,
            long successes,
            long failures,
            long connectErrors,
            long readErrors,
            long writeErrors,
            long timeouts,
            long bytesRead,
            long bytesWritten,
            long non2xx3xx) {
        this(
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
                0);
    }

    /** All socket-level errors: connect, read, write, timeout and TLS. */
    public long errors() {
        return connectErrors + readErrors + writeErrors + timeouts + tlsErrors;
    }

    public Counts plus(Counts other) {
        return new Counts(
                requests + other.requests,
                successes + other.successes,
                failures + other.failures,
                connectErrors + other.connectErrors,
                readErrors + other.readErrors,
                writeErrors + other.writeErrors,
                timeouts + other.timeouts,
                bytesRead + other.bytesRead,
                bytesWritten + other.bytesWritten,
                non2xx3xx + other.non2xx3xx,
                retried + other.retried,
                tlsErrors + other.tlsErrors);
    }
}
