package io.tcpload.runner.tls;

import java.net.Socket;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The JDK's check of a server's chain, remembered: a load test makes thousands of full handshakes
 * with one server, which shows the same chain every time, and parsing and validating it again
 * (X.509, the path to the CA, the host name) took about a third of a full handshake's client CPU
 * and most of what the JIT compiled in a short run. A chain the check accepted is accepted again
 * without it when the same certificates, key exchange and host come back, while the time is still
 * within every certificate's validity; anything else is checked in full, and refusals are never
 * remembered, so that every refused handshake says why.
 *
 * <p>The answer of the check depends on nothing else: the trust anchors, the algorithm constraints
 * and the host-name rule are fixed for a run. Revocation is the exception (its answer changes over
 * time), so with the JDK's revocation checking turned on ({@code com.sun.net.ssl.checkRevocation})
 * nothing is remembered.
 *
 * <p>At most {@link #MAX_CHAINS} chains are remembered, so that a server showing a new chain on
 * every connection costs only the full checks. Thread-safe: connections on several event loops
 * share one.
 */
final class RememberedTrust extends X509ExtendedTrustManager {
    /** The most chains remembered; a run meets one or a few. */
    static final int MAX_CHAINS = 64;

    private final X509ExtendedTrustManager checker;
    private final LongSupplier clockMs;
    private final boolean remember;
    private final Map<Accepted, Validity> accepted = new ConcurrentHashMap<>();

    /** When every certificate of a chain is valid: from the latest start to the earliest end. */
    private record Validity(long fromMs, long untilMs) {
        boolean covers(long nowMs) {
            return nowMs >= fromMs && nowMs <= untilMs;
        }
    }

    RememberedTrust(X509ExtendedTrustManager checker, LongSupplier clockMs) {
        this(checker, clockMs, !Boolean.getBoolean("com.sun.net.ssl.checkRevocation"));
    }

    RememberedTrust(X509ExtendedTrustManager checker, LongSupplier clockMs, boolean remember) {
        this.checker = checker;
        this.clockMs = clockMs;
        this.remember = remember;
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        if (!remember || chain == null || chain.length == 0) {
            checker.checkServerTrusted(chain, authType, engine);
            return;
        }
        Accepted key = Accepted.of(chain, authType, engine == null ? null : engine.getPeerHost());
        Validity validity = accepted.get(key);
        if (validity != null && validity.covers(clockMs.getAsLong())) {
            return;
        }
        checker.checkServerTrusted(chain, authType, engine);
        if (validity == null && accepted.size() < MAX_CHAINS) {
            accepted.put(key, validityOf(chain));
        }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        checker.checkServerTrusted(chain, authType, socket);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType)
            throws CertificateException {
        checker.checkServerTrusted(chain, authType);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        checker.checkClientTrusted(chain, authType, engine);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        checker.checkClientTrusted(chain, authType, socket);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType)
            throws CertificateException {
        checker.checkClientTrusted(chain, authType);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return checker.getAcceptedIssuers();
    }

    /** How many chains are remembered now. */
    int remembered() {
        return accepted.size();
    }

    private static Validity validityOf(X509Certificate[] chain) {
        long fromMs = Long.MIN_VALUE;
        long untilMs = Long.MAX_VALUE;
        for (X509Certificate certificate : chain) {
            fromMs = Math.max(fromMs, certificate.getNotBefore().getTime());
            untilMs = Math.min(untilMs, certificate.getNotAfter().getTime());
        }
        return new Validity(fromMs, untilMs);
    }

    /** A chain as the server sent it (its certificates' bytes), with the key exchange and host. */
    private static final class Accepted {
        private final byte[][] encoded;
        private final String authType;
        private final String host;
        private final int hash;

        private Accepted(byte[][] encoded, String authType, String host) {
            this.encoded = encoded;
            this.authType = authType;
            this.host = host;
            int h = Arrays.deepHashCode(encoded);
            h = 31 * h + (authType == null ? 0 : authType.hashCode());
            this.hash = 31 * h + (host == null ? 0 : host.hashCode());
        }

        static Accepted of(X509Certificate[] chain, String authType, String host)
                throws CertificateEncodingException {
            byte[][] encoded = new byte[chain.length][];
            for (int i = 0; i < chain.length; i++) {
                encoded[i] = chain[i].getEncoded();
            }
            return new Accepted(encoded, authType, host);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Accepted other
                    && hash == other.hash
                    && java.util.Objects.equals(authType, other.authType)
                    && java.util.Objects.equals(host, other.host)
                    && Arrays.deepEquals(encoded, other.encoded);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
