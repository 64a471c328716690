package io.tcpload.runner.tls;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.IdentityCipherSuiteFilter;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.OpenSslCachingX509KeyManagerFactory;
import io.netty.handler.ssl.OpenSslContextOption;
import io.netty.handler.ssl.OpenSslSessionContext;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.netty.handler.ssl.util.KeyManagerFactoryWrapper;
import io.netty.util.ReferenceCountUtil;
import io.tcpload.runner.profile.TlsSpec;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The client side of a run's TLS: one {@link SslContext}, built once per run from the profile's
 * {@link TlsSpec} (every certificate and key already in memory, the key decrypted here), and a
 * handler (for a channel) or an engine (for a bare socket) per connection made from it with the
 * peer's name and port, which the host-name check and session resumption need. Making either reads
 * no file and takes no lock of this class: a connection's handshake runs on its event loop alone.
 *
 * <p>Verification: with {@code tls_verify = true} (the default) the chain is checked against the CA
 * bundle (or the system's trust store) and the name against the certificate's DNS or IP entries (an
 * IP target sends no SNI and is matched against the IP entries); {@code false} turns off both. A
 * chain once accepted is accepted again without the check while it is valid ({@link
 * RememberedTrust}): full handshakes with one server would otherwise spend a third of their CPU
 * checking the same chain. In HTTP mode ALPN offers {@code http/1.1}.
 *
 * <p>Thread-safe and immutable once built; release it with {@link #close} after the run.
 */
public final class ClientTls implements AutoCloseable {
    private final SslContext context;
    private final String peerHost;
    private final boolean sessionReuse;
    private final String providerName;

    /**
     * Without session reuse on the JDK's provider, the port each handler is made with, counted up:
     * the JDK keeps sessions by host and port and cannot be told not to keep them, so each
     * connection looks a session up under a key nobody stored (and the cache holds one entry). The
     * port is only the cache's key: connections go to the real one.
     */
    private final AtomicInteger uncachedPorts;

    private ClientTls(
            SslContext context,
            String peerHost,
            boolean sessionReuse,
            String providerName,
            AtomicInteger uncachedPorts) {
        this.context = context;
        this.peerHost = peerHost;
        this.sessionReuse = sessionReuse;
        this.providerName = providerName;
        this.uncachedPorts = uncachedPorts;
    }

    /**
     * Builds the context.
     *
     * @param targetHost the host connections go to; the server name unless the spec names one
     * @param http whether the profile speaks HTTP, so ALPN offers {@code http/1.1}
     * @param environment where an encrypted key's password variable is read
     * @throws TlsSetupException when a key does not decrypt, the variable is not set, or the engine
     *     refuses the protocols or cipher suites
     */
    public static ClientTls build(
            TlsSpec spec,
            String targetHost,
            boolean http,
            TlsProvider provider,
            Function<String, String> environment)
            throws TlsSetupException {
        SslProvider engine = provider.netty();
        SslContextBuilder builder = SslContextBuilder.forClient().sslProvider(engine);
        if (!spec.verify()) {
            // Netty 4.2 checks host names by default: the check goes off with the chain's.
            builder.trustManager(InsecureTrustManagerFactory.INSTANCE)
                    .endpointIdentificationAlgorithm(null);
        } else {
            builder.endpointIdentificationAlgorithm("HTTPS")
                    .trustManager(
                            rememberedTrust(
                                    spec.ca().isPresent()
                                            ? KeyMaterial.certificates(spec.ca().get())
                                            : null));
        }
        if (spec.certificate().isPresent() && spec.key().isPresent()) {
            List<X509Certificate> chain = KeyMaterial.certificates(spec.certificate().get());
            PrivateKey key =
                    KeyMaterial.privateKey(spec.key().get(), spec.keyPasswordEnv(), environment);
            KeyMaterial.checkPair(spec.certificate().get(), chain, spec.key().get(), key);
            KeyManager offered = OfferedClientCertificate.of(key, chain);
            // BoringSSL converts a key manager's certificate and key for every handshake unless
            // they are cached, as Netty caches those given as a key and a chain.
            builder.keyManager(
                    engine == SslProvider.JDK
                            ? new KeyManagerFactoryWrapper(offered)
                            : new OpenSslCachingX509KeyManagerFactory(
                                    new KeyManagerFactoryWrapper(offered)));
        }
        if (!spec.protocols().isEmpty()) {
            builder.protocols(spec.protocols());
        }
        if (!spec.ciphers().isEmpty()) {
            unknownCiphers(spec, engine);
            builder.ciphers(spec.ciphers(), IdentityCipherSuiteFilter.INSTANCE);
        }
        if (!spec.groups().isEmpty()) {
            if (engine == SslProvider.JDK) {
                // Java 17's provider takes its groups from a JVM-wide property only.
                throw new TlsSetupException(
                        "tls_groups: the jdk TLS provider cannot be given key-exchange groups;"
                                + " leave tls_groups out or use --tls-provider openssl");
            }
            builder.option(OpenSslContextOption.GROUPS, spec.groups().toArray(String[]::new));
        }
        if (http) {
            builder.applicationProtocolConfig(
                    new ApplicationProtocolConfig(
                            ApplicationProtocolConfig.Protocol.ALPN,
                            ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                            ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                            ApplicationProtocolNames.HTTP_1_1));
        }
        String peerHost = spec.serverName().orElse(targetHost);
        SslContext context;
        AtomicInteger uncachedPorts = null;
        try {
            context = builder.build();
            if (!spec.sessionReuse()) {
                if (context.sessionContext() instanceof OpenSslSessionContext openSsl) {
                    // No session kept, so none offered: TLS 1.3 tickets and TLS 1.2 ids alike.
                    openSsl.setSessionCacheEnabled(false);
                } else {
                    context.sessionContext().setSessionCacheSize(1);
                    uncachedPorts = new AtomicInteger(1);
                }
            }
            // One engine made and dropped now, so that what the engine refuses only when a
            // connection is made (a protocol it lacks) is said before the run, not on a loop.
            ReferenceCountUtil.release(
                    context.newHandler(ByteBufAllocator.DEFAULT, peerHost, 443).engine());
        } catch (SSLException | IllegalArgumentException e) {
            List<String> unknown = unknownGroups(spec.groups(), engine);
            if (!unknown.isEmpty()) {
                throw notKnown(
                        "tls_groups", unknown, engine, "e.g. X25519, P-256, P-384, X25519MLKEM768");
            }
            throw new TlsSetupException("cannot set up TLS: " + e.getMessage(), e);
        }
        return new ClientTls(
                context,
                peerHost,
                spec.sessionReuse(),
                TlsProvider.describe(engine),
                uncachedPorts);
    }

    /** A new connection's handler, for a peer on {@code port}; its handshake starts on connect. */
    public SslHandler newHandler(ByteBufAllocator allocator, int port) {
        SslHandler handler = context.newHandler(allocator, peerHost, cacheKeyPort(port));
        // The runner's own timeout bounds the handshake (see the connection's timer).
        handler.setHandshakeTimeoutMillis(0);
        return handler;
    }

    /**
     * A new connection's engine, for a peer on {@code port}, for a connection that runs it without
     * a pipeline. With the OpenSSL provider the engine holds native memory: the caller releases it
     * ({@link ReferenceCountUtil#release}) once the connection is closed.
     */
    public SSLEngine newEngine(ByteBufAllocator allocator, int port) {
        return context.newEngine(allocator, peerHost, cacheKeyPort(port));
    }

    private int cacheKeyPort(int port) {
        return uncachedPorts == null ? port : (uncachedPorts.getAndIncrement() & 0x7fffffff) + 1;
    }

    /** Whether sessions are resumed; when not, every handshake is a full one. */
    public boolean sessionReuse() {
        return sessionReuse;
    }

    /** The name sent as SNI and checked against the certificate. */
    public String peerHost() {
        return peerHost;
    }

    /** {@code openssl} or {@code jdk}. */
    public String providerName() {
        return providerName;
    }

    @Override
    public void close() {
        ReferenceCountUtil.release(context);
    }

    /**
     * The JDK's check of the server's chain against {@code ca} (the system's trust store when
     * null), remembering the chains it accepted (see {@link RememberedTrust}).
     */
    private static RememberedTrust rememberedTrust(List<X509Certificate> ca)
            throws TlsSetupException {
        try {
            KeyStore anchors = null;
            if (ca != null) {
                anchors = KeyStore.getInstance(KeyStore.getDefaultType());
                anchors.load(null, null);
                for (int i = 0; i < ca.size(); i++) {
                    anchors.setCertificateEntry("ca-" + i, ca.get(i));
                }
            }
            TrustManagerFactory factory =
                    TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(anchors);
            for (TrustManager manager : factory.getTrustManagers()) {
                if (manager instanceof X509ExtendedTrustManager checker) {
                    return new RememberedTrust(checker, System::currentTimeMillis);
                }
            }
            throw new TlsSetupException("cannot set up TLS: the JDK has no X.509 trust manager");
        } catch (GeneralSecurityException | IOException e) {
            throw new TlsSetupException("cannot set up TLS: " + e.getMessage(), e);
        }
    }

    /** Refuses cipher suites the engine does not know, by name. */
    private static void unknownCiphers(TlsSpec spec, SslProvider engine) throws TlsSetupException {
        Set<String> known = new HashSet<>(supportedCiphers(engine));
        List<String> unknown = new ArrayList<>();
        for (String cipher : spec.ciphers()) {
            if (!known.contains(cipher)) {
                unknown.add(cipher);
            }
        }
        if (!unknown.isEmpty()) {
            throw notKnown(
                    "tls_ciphers",
                    unknown,
                    engine,
                    "use IANA names, e.g. TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256");
        }
    }

    /** {@code KEY: A, B are not known to the ENGINE TLS provider (HINT)}. */
    private static TlsSetupException notKnown(
            String key, List<String> unknown, SslProvider engine, String hint) {
        return new TlsSetupException(
                key
                        + ": "
                        + String.join(", ", unknown)
                        + (unknown.size() == 1 ? " is" : " are")
                        + " not known to the "
                        + TlsProvider.describe(engine)
                        + " TLS provider ("
                        + hint
                        + ")");
    }

    /**
     * The groups the engine refuses, each tried alone; only called once a context with all of them
     * failed, to say which.
     */
    private static List<String> unknownGroups(List<String> groups, SslProvider engine) {
        List<String> unknown = new ArrayList<>();
        for (String group : groups) {
            try {
                ReferenceCountUtil.release(
                        SslContextBuilder.forClient()
                                .sslProvider(engine)
                                .option(OpenSslContextOption.GROUPS, new String[] {group})
                                .build());
            } catch (SSLException | IllegalArgumentException e) {
                unknown.add(group);
            }
        }
        return unknown;
    }

    private static List<String> supportedCiphers(SslProvider engine) {
        if (engine != SslProvider.JDK) {
            return List.copyOf(OpenSsl.availableJavaCipherSuites());
        }
        try {
            return List.of(SSLContext.getDefault().getSupportedSSLParameters().getCipherSuites());
        } catch (NoSuchAlgorithmException e) {
            return List.of();
        }
    }
}
