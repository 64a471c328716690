package io.tcpload.runner.tls;

import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.NotSslRecordException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.util.Locale;

/**
 * A failed handshake's cause as one short, stable reason, so that thousands of failures aggregate
 * into a few lines of the error table: the JDK's and BoringSSL's many wordings of one cause (and
 * the dates, names and addresses in them) become one sentence. Pure.
 */
public final class TlsFailures {
    private TlsFailures() {}

    /** The reason, starting with {@code tls: }. */
    public static String reason(Throwable failure) {
        StringBuilder chain = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof CertificateExpiredException) {
                return "tls: the server's certificate has expired";
            }
            if (t instanceof CertificateNotYetValidException) {
                return "tls: the server's certificate is not valid yet";
            }
            if (t instanceof NotSslRecordException) {
                return "tls: the server does not speak TLS";
            }
            chain.append(' ').append(t.getClass().getSimpleName()).append(": ");
            chain.append(t.getMessage());
        }
        String text = chain.toString().toLowerCase(Locale.ROOT);
        if (has(text, "no subject alternative", "no name matching", "hostname", "host name")) {
            return "tls: the server's certificate does not name the server"
                    + " (set tls_server_name, or --tls-server-name)";
        }
        if (has(text, "certificate_expired", "certificate expired", "alert_certificate_expired")) {
            return "tls: the server refused the client certificate: expired";
        }
        if (has(text, "validity check failed", "notafter")) {
            return "tls: the server's certificate has expired";
        }
        if (has(text, "certificate_required", "certificate required")) {
            return "tls: the server requires a client certificate (give tls_cert and tls_key)";
        }
        if (has(text, "unknown_ca", "unknown ca", "alert_unknown_ca")) {
            return "tls: the server does not trust the client certificate (unknown CA)";
        }
        if (has(text, "bad_certificate", "bad certificate")) {
            return "tls: the server refused the client certificate (bad certificate)";
        }
        if (has(
                text,
                "unable to find valid certification path",
                "pkix path building failed",
                "pkix path validation failed",
                "signature check failed",
                "self-signed certificate",
                "self signed certificate",
                "trust anchor")) {
            return "tls: the server's certificate is not signed by a trusted CA"
                    + " (set tls_ca, or --tls-ca)";
        }
        if (has(
                text,
                "protocol_version",
                "protocol version",
                "unsupported_protocol",
                "no appropriate protocol",
                "not accepted by client preferences",
                "wrong_version_number",
                "unsupported protocol")) {
            return "tls: no protocol version both sides accept (see tls_protocols)";
        }
        if (has(text, "no_shared_cipher", "no cipher suites in common", "insufficient_security")) {
            return "tls: no cipher suite both sides accept (see tls_ciphers)";
        }
        if (has(text, "handshake_failure", "handshake failure")) {
            // Most often nothing in common but the version: groups, suites or signatures.
            return "tls: the server ended the handshake (handshake_failure alert; see tls_groups"
                    + " and tls_ciphers)";
        }
        if (has(
                text,
                "closedchannelexception",
                "connection closed",
                "connection reset",
                "closed while handshake")) {
            return "tls: the connection closed during the handshake";
        }
        return "tls: " + shortMessage(failure);
    }

    private static boolean has(String text, String... needles) {
        for (String needle : needles) {
            if (text.contains(needle)) {
                return true;
            }
        }
        return false;
    }

    /** The innermost message, first line, without digits that change per call. */
    private static String shortMessage(Throwable failure) {
        Throwable innermost = failure;
        while (innermost instanceof DecoderException && innermost.getCause() != null) {
            innermost = innermost.getCause();
        }
        String message = innermost.getMessage();
        if (message == null || message.isBlank()) {
            return innermost.getClass().getSimpleName();
        }
        String line = message.lines().findFirst().orElse(message);
        line = line.length() > 120 ? line.substring(0, 120) + "..." : line;
        return line.toLowerCase(Locale.ROOT);
    }
}
