package io.tcpload.runner.serve;

import io.tcpload.runner.profile.TlsSpec.PemFile;
import java.util.Objects;
import java.util.Optional;

/**
 * How the demo target speaks TLS: with the given certificate and key, or with a certificate it
 * makes at start (see {@link io.tcpload.runner.tls.SelfSigned}); with a client CA, every client
 * must present a certificate it signed. Immutable.
 *
 * @param certificate the server's certificate chain (PEM); empty to make one
 * @param key its key (PEM); present exactly when {@code certificate} is
 * @param clientCa the CAs that sign the client certificates required; empty for none required
 */
public record ServeTls(
        Optional<PemFile> certificate, Optional<PemFile> key, Optional<PemFile> clientCa) {
    /** A made certificate, no client certificate required. */
    public static final ServeTls GENERATED =
            new ServeTls(Optional.empty(), Optional.empty(), Optional.empty());

    public ServeTls {
        Objects.requireNonNull(certificate, "certificate");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(clientCa, "clientCa");
        if (certificate.isPresent() != key.isPresent()) {
            throw new IllegalArgumentException("a certificate goes with its key: give both");
        }
    }
}
