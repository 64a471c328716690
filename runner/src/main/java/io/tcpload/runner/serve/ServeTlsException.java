package io.tcpload.runner.serve;

/**
 * The demo target cannot serve TLS with what it was given: a certificate or key file that does not
 * parse, an encrypted key without its password, a key the engine refuses. An input problem, so an
 * {@link IllegalArgumentException}; its message names the file or the variable.
 */
public final class ServeTlsException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public ServeTlsException(String message, Throwable cause) {
        super(message, cause);
    }
}
