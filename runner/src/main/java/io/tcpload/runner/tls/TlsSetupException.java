package io.tcpload.runner.tls;

/**
 * TLS cannot be set up as asked: a key that does not decrypt, a password variable that is not set,
 * cipher suites the engine does not know. The message is one plain sentence naming the file, key or
 * variable; it is an input problem, reported before anything connects.
 */
public final class TlsSetupException extends Exception {
    private static final long serialVersionUID = 1L;

    public TlsSetupException(String message) {
        super(message);
    }

    public TlsSetupException(String message, Throwable cause) {
        super(message, cause);
    }
}
