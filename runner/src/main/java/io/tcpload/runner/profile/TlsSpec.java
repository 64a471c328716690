package io.tcpload.runner.profile;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How connections to the target speak TLS, as a profile's {@code [common]} (or an {@code https://}
 * URL, or the command line's TLS flags) says. The certificate and key files are held as their
 * bytes, read when the profile was loaded, so building the client's TLS context later reads no
 * file; an encrypted key's password is read from its environment variable only then. Immutable.
 *
 * @param serverName the name sent as SNI and checked against the server's certificate; empty for
 *     the target's host
 * @param ca the PEM bundle of the certificate authorities trusted; empty for the system's store
 * @param certificate the client's certificate chain (PEM), for mutual TLS; empty for none
 * @param key the client certificate's private key (PEM); present exactly when {@code certificate}
 *     is
 * @param keyPasswordEnv the environment variable holding an encrypted key's password; empty for a
 *     plain key
 * @param verify whether the server's chain and host name are checked; false accepts any certificate
 * @param protocols the protocol versions offered ({@code TLSv1.2}, {@code TLSv1.3}); empty for the
 *     engine's defaults
 * @param ciphers the cipher suites offered, by their IANA names; empty for the engine's defaults
 * @param groups the key-exchange groups offered, most preferred first ({@code X25519}, {@code
 *     P-256}, {@code X25519MLKEM768}); empty for the engine's defaults
 * @param sessionReuse whether a new connection resumes an earlier connection's session (as real
 *     clients do); false makes every handshake a full one
 */
public record TlsSpec(
        Optional<String> serverName,
        Optional<PemFile> ca,
        Optional<PemFile> certificate,
        Optional<PemFile> key,
        Optional<String> keyPasswordEnv,
        boolean verify,
        List<String> protocols,
        List<String> ciphers,
        List<String> groups,
        boolean sessionReuse) {

    /** TLS with every default: the system's trust store, full checks, sessions resumed. */
    public static final TlsSpec DEFAULTS =
            new TlsSpec(
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty(),
                    true,
                    List.of(),
                    List.of(),
                    List.of(),
                    true);

    /** The protocol versions a profile may name. */
    public static final List<String> PROTOCOLS = List.of("TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3");

    public TlsSpec {
        Objects.requireNonNull(serverName, "serverName");
        Objects.requireNonNull(ca, "ca");
        Objects.requireNonNull(certificate, "certificate");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(keyPasswordEnv, "keyPasswordEnv");
        protocols = List.copyOf(protocols);
        ciphers = List.copyOf(ciphers);
        groups = List.copyOf(groups);
    }

    /**
     * A PEM file's content and how messages name it.
     *
     * @param source its path, or its name where that is all there is
     * @param content every byte of it
     */
    public record PemFile(String source, ImmutableBytes content) {
        public PemFile {
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(content, "content");
        }
    }

    public TlsSpec withServerName(Optional<String> newServerName) {
        return new TlsSpec(
                newServerName,
                ca,
                certificate,
                key,
                keyPasswordEnv,
                verify,
                protocols,
                ciphers,
                groups,
                sessionReuse);
    }

    public TlsSpec withCa(Optional<PemFile> newCa) {
        return new TlsSpec(
                serverName,
                newCa,
                certificate,
                key,
                keyPasswordEnv,
                verify,
                protocols,
                ciphers,
                groups,
                sessionReuse);
    }

    /** The client certificate and its key, both or neither. */
    public TlsSpec withClientCertificate(
            Optional<PemFile> newCertificate, Optional<PemFile> newKey) {
        return new TlsSpec(
                serverName,
                ca,
                newCertificate,
                newKey,
                keyPasswordEnv,
                verify,
                protocols,
                ciphers,
                groups,
                sessionReuse);
    }

    public TlsSpec withKeyPasswordEnv(Optional<String> newKeyPasswordEnv) {
        return new TlsSpec(
                serverName,
                ca,
                certificate,
                key,
                newKeyPasswordEnv,
                verify,
                protocols,
                ciphers,
                groups,
                sessionReuse);
    }

    public TlsSpec withVerify(boolean newVerify) {
        return new TlsSpec(
                serverName,
                ca,
                certificate,
                key,
                keyPasswordEnv,
                newVerify,
                protocols,
                ciphers,
                groups,
                sessionReuse);
    }

    public TlsSpec withSessionReuse(boolean newSessionReuse) {
        return new TlsSpec(
                serverName,
                ca,
                certificate,
                key,
                keyPasswordEnv,
                verify,
                protocols,
                ciphers,
                groups,
                newSessionReuse);
    }
}
