package io.tcpload.runner.template;

/**
 * A request needs a variable its connection does not hold (no response has carried it yet, or the
 * last one that should have did not): the request is not sent, and counts as a failure with the
 * message {@code missing value NAME}. Never sent with an empty or stale value.
 */
public final class MissingValueException extends RequestBuildException {
    private static final long serialVersionUID = 1L;

    private final String variable;

    MissingValueException(String variable) {
        super("missing value " + variable, true);
        this.variable = variable;
    }

    /** The variable's name. */
    public String variable() {
        return variable;
    }
}
