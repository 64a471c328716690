package io.tcpload.runner.tls;

import java.io.IOException;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * The client certificate of a run, offered whenever the server asks for one, whichever CAs the
 * server names in its request, as curl and {@code openssl s_client} do. The JDK's key manager sends
 * no certificate when its issuer is not among the server's {@code certificate_authorities}: a
 * server that does not trust it then reports a missing certificate, and the user, who gave one,
 * reads the wrong reason. Offered, the certificate is judged by the server, which names the real
 * one ({@code unknown_ca}, an expired certificate, ...). The key type is still matched, so that a
 * key the server cannot use is not offered. Thread-safe: every method only reads.
 */
final class OfferedClientCertificate extends X509ExtendedKeyManager {
    private static final String ALIAS = "client";
    private static final char[] NO_PASSWORD = new char[0];

    private final X509ExtendedKeyManager keys;

    private OfferedClientCertificate(X509ExtendedKeyManager keys) {
        this.keys = keys;
    }

    /**
     * The key manager of {@code key} and its {@code chain} (the client's certificate first).
     *
     * @throws TlsSetupException when the JDK cannot hold the key (an algorithm it lacks)
     */
    static KeyManager of(PrivateKey key, List<X509Certificate> chain) throws TlsSetupException {
        try {
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            store.setKeyEntry(ALIAS, key, NO_PASSWORD, chain.toArray(X509Certificate[]::new));
            KeyManagerFactory factory =
                    KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            factory.init(store, NO_PASSWORD);
            for (KeyManager manager : factory.getKeyManagers()) {
                if (manager instanceof X509ExtendedKeyManager keys) {
                    return new OfferedClientCertificate(keys);
                }
            }
            throw new TlsSetupException("cannot set up TLS: the JDK has no X.509 key manager");
        } catch (GeneralSecurityException | IOException e) {
            throw new TlsSetupException(
                    "cannot set up TLS with the client key: " + e.getMessage(), e);
        }
    }

    @Override
    public String chooseClientAlias(String[] keyTypes, Principal[] issuers, Socket socket) {
        // No issuers: any certificate of a fitting key type, that is the one given.
        return keys.chooseClientAlias(keyTypes, null, socket);
    }

    @Override
    public String chooseEngineClientAlias(
            String[] keyTypes, Principal[] issuers, SSLEngine engine) {
        return keys.chooseEngineClientAlias(keyTypes, null, engine);
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return keys.getClientAliases(keyType, null);
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        return keys.getServerAliases(keyType, issuers);
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return keys.chooseServerAlias(keyType, issuers, socket);
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        return keys.chooseEngineServerAlias(keyType, issuers, engine);
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        return keys.getCertificateChain(alias);
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        return keys.getPrivateKey(alias);
    }
}
