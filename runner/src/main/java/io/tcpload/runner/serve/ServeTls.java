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
 * @param keyPasswordEnv the environment variable holding an encrypted key's password; empty for a
 *     plain key or none
 * @param clientCa the CAs that sign the client certificates required; empty for none required
 */
public record ServeTls(
        Optional<PemFile> certificate,
        Optional<PemFile> key,
        Optional<String> keyPasswordEnv,
        Optional<PemFile> clientCa) {
    /** A made certificate, no client certificate required. */
    public static final ServeTls GENERATED =
            new ServeTls(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());

    public ServeTls {
        Objects.requireNonNull(certificate, "certificate");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(keyPasswordEnv, "keyPasswordEnv");
        Objects.requireNonNull(clientCa, "clientCa");
        if (certificate.isPresent() != key.isPresent()) {
            throw new IllegalArgumentException("a certificate goes with its key: give both");
        }
        if (keyPasswordEnv.isPresent() && key.isEmpty()) {
            throw new IllegalArgumentException(
                    "a key password variable goes with a key: a made certificate has none");
        }
    }

    /** A made certificate, with client certificates signed by {@code newClientCa} required. */
    public static ServeTls generated(Optional<PemFile> newClientCa) {
        return new ServeTls(Optional.empty(), Optional.empty(), Optional.empty(), newClientCa);
    }
}
