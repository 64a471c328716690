package io.tcpload.runner.profile;

/**
 * Which of a profile's TLS files are given from outside it: by the runner's {@code --tls-ca},
 * {@code --tls-cert} and {@code --tls-key}, which a TcpLoadTest's {@code spec.tls} becomes. The
 * loader then does not look up the profile's own paths for them ({@code tls_ca}, or {@code
 * tls_cert} and {@code tls_key}), which need not exist where the profile runs, and leaves those
 * files for the caller to fill in. Immutable.
 *
 * @param ca whether the CA bundle is given
 * @param clientCertificate whether the client certificate and its key are given
 */
public record TlsFilesGiven(boolean ca, boolean clientCertificate) {
    /** Every file as the profile says. */
    public static final TlsFilesGiven NONE = new TlsFilesGiven(false, false);
}
