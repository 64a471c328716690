package io.tcpload.runner.stats;

/** The socket-level error kinds, as wrktcp's {@code Socket errors} line names them. */
public enum ErrorKind {
    /** A connect was refused or failed. */
    CONNECT,
    /** A bad response: framing error, oversize, or EOF before the response was complete. */
    READ,
    /** A request could not be built or written. */
    WRITE,
    /** A connect, a TLS handshake or a response took longer than the timeout. */
    TIMEOUT,
    /** A TLS handshake failed: the certificate was refused, or the server refused this client. */
    TLS
}
