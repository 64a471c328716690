package io.tcpload.runner.template;

/**
 * A request could not be built: its {@code $(length)} does not fit {@code req_len_len} digits, or
 * ({@link MissingValueException}) a value it carries from a response is missing. Nothing was
 * written to the output buffer. The request is not sent; the load counts it as a failed request
 * with this message as its reason. The message is a plain sentence meant for the user, the same for
 * every request that fails for the same reason, so that a run's failures aggregate by it.
 */
public class RequestBuildException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RequestBuildException(String message) {
        super(message);
    }

    /** Thrown per request on the load's path: no stack trace is filled in. */
    RequestBuildException(String message, boolean withoutStack) {
        super(message, null, false, !withoutStack);
    }
}
