package io.tcpload.runner.serve;

/** The bytes a client sent cannot be (the start of) a request of the profile. */
public final class MalformedRequestException extends Exception {
    private static final long serialVersionUID = 1L;

    public MalformedRequestException(String message) {
        super(message);
    }
}
