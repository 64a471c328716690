package io.tcpload.runner.template;

/**
 * A request could not be built, such as a length that does not fit its field. Nothing was written
 * to the output buffer. The message is a plain sentence meant for the user.
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
