package io.tcpload.runner.codec;

/**
 * How one complete response was judged. A response decoder fires exactly one of these (with {@code
 * ctx.fireChannelRead}) per complete response, in arrival order. Enum constants, so firing one
 * allocates nothing.
 */
public enum ResponseOutcome {
    /** The code check (and, in HTTP mode, the status rule) passed; any status was 2xx or 3xx. */
    SUCCESS,
    /** The code check or the status rule failed; any status was 2xx or 3xx. */
    FAILURE,
    /** The checks passed, but the HTTP status was outside 200..399. */
    SUCCESS_NON_2XX_3XX,
    /** A check failed, and the HTTP status was outside 200..399. */
    FAILURE_NON_2XX_3XX;

    /** Whether the response counts as a success (wrk's split of complete requests). */
    public boolean success() {
        return this == SUCCESS || this == SUCCESS_NON_2XX_3XX;
    }

    /** Whether the HTTP status was outside 200..399 (wrk's "Non-2xx or 3xx responses"). */
    public boolean non2xx3xx() {
        return this == SUCCESS_NON_2XX_3XX || this == FAILURE_NON_2XX_3XX;
    }

    static ResponseOutcome of(boolean success, boolean non2xx3xx) {
        if (non2xx3xx) {
            return success ? SUCCESS_NON_2XX_3XX : FAILURE_NON_2XX_3XX;
        }
        return success ? SUCCESS : FAILURE;
    }

    /** The outcome for an HTTP response with status {@code statusCode}. */
    public static ResponseOutcome ofHttp(boolean success, int statusCode) {
        return of(success, statusCode < 200 || statusCode > 399);
    }
}
