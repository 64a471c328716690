package io.tcpload.runner.tls;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.tcpload.runner.profile.TlsSpec.PemFile;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import javax.net.ssl.SSLException;

/**
 * The demo target's side of TLS: a server context from a certificate chain and its key, and with a
 * client CA, client certificates required and checked against it. Built once per server.
 */
public final class ServerTls {
    private ServerTls() {}

    /**
     * @param chain the server's certificate chain
     * @param key its key
     * @param clientCa when present, clients must present a certificate this bundle's CAs signed
     * @throws TlsSetupException when the engine refuses the key or the certificates
     */
    public static SslContext context(
            List<X509Certificate> chain, PrivateKey key, Optional<List<X509Certificate>> clientCa)
            throws TlsSetupException {
        SslContextBuilder builder =
                SslContextBuilder.forServer(key, chain)
                        .sslProvider(
                                io.netty.handler.ssl.OpenSsl.isAvailable()
                                        ? SslProvider.OPENSSL
                                        : SslProvider.JDK);
        if (clientCa.isPresent()) {
            builder.trustManager(clientCa.get()).clientAuth(ClientAuth.REQUIRE);
        }
        try {
            return builder.build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new TlsSetupException("cannot serve TLS: " + e.getMessage(), e);
        }
    }

    /** A context from PEM files: the chain, the key (any form {@link KeyMaterial} reads). */
    public static SslContext context(
            PemFile chain,
            PemFile key,
            Optional<PemFile> clientCa,
            Optional<String> keyPasswordEnv,
            Function<String, String> environment)
            throws TlsSetupException {
        List<X509Certificate> certificates = KeyMaterial.certificates(chain);
        PrivateKey privateKey = KeyMaterial.privateKey(key, keyPasswordEnv, environment);
        KeyMaterial.checkPair(chain, certificates, key, privateKey);
        Optional<List<X509Certificate>> clients = Optional.empty();
        if (clientCa.isPresent()) {
            clients = Optional.of(KeyMaterial.certificates(clientCa.get()));
        }
        return context(certificates, privateKey, clients);
    }
}
