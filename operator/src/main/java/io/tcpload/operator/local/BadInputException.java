package io.tcpload.operator.local;

/**
 * The test file cannot be run as given: it does not parse, names an unknown field, or fails
 * validation. The message names the file and the field and is meant for the user as it is.
 */
public final class BadInputException extends Exception {
    private static final long serialVersionUID = 1L;

    public BadInputException(String message) {
        super(message);
    }

    public BadInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
