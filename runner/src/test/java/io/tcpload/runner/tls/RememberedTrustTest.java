package io.tcpload.runner.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.Socket;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import org.junit.jupiter.api.Test;

/**
 * The remembered check against the JDK's own: what it accepted is accepted again without it while
 * the chain is valid; a refusal, a chain past its validity, another host or another chain are
 * checked in full every time.
 */
class RememberedTrustTest {
    private static final SelfSigned SERVER = SelfSigned.forNames(List.of("127.0.0.1"));
    private static final SelfSigned OTHER = SelfSigned.forNames(List.of("127.0.0.1"));
    private static final String AUTH = "ECDHE_ECDSA";

    /**
     * The JDK's checker trusting {@link #SERVER}, counting its calls of the engine's server check;
     * or, {@code acceptsAll}, a checker that accepts any server chain.
     */
    private static final class Counting extends X509ExtendedTrustManager {
        final X509ExtendedTrustManager jdk;
        final boolean acceptsAll;
        final AtomicInteger checks = new AtomicInteger();

        Counting() throws Exception {
            this(false);
        }

        Counting(boolean acceptsAll) throws Exception {
            this.acceptsAll = acceptsAll;
            KeyStore anchors = KeyStore.getInstance(KeyStore.getDefaultType());
            anchors.load(null, null);
            anchors.setCertificateEntry("ca", SERVER.certificate());
            TrustManagerFactory factory =
                    TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(anchors);
            X509ExtendedTrustManager found = null;
            for (TrustManager manager : factory.getTrustManagers()) {
                if (manager instanceof X509ExtendedTrustManager extended) {
                    found = extended;
                }
            }
            jdk = found;
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            checks.incrementAndGet();
            if (!acceptsAll) {
                jdk.checkServerTrusted(chain, authType, engine);
            }
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            jdk.checkServerTrusted(chain, authType, socket);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType)
                throws CertificateException {
            jdk.checkServerTrusted(chain, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            jdk.checkClientTrusted(chain, authType, engine);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            jdk.checkClientTrusted(chain, authType, socket);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType)
                throws CertificateException {
            jdk.checkClientTrusted(chain, authType);
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return jdk.getAcceptedIssuers();
        }
    }

    private static X509Certificate[] chain(SelfSigned made) {
        return new X509Certificate[] {made.certificate()};
    }

    @Test
    void anAcceptedChainIsAcceptedAgainWithoutTheCheckWhileItIsValid() throws Exception {
        Counting jdk = new Counting();
        AtomicLong nowMs = new AtomicLong(System.currentTimeMillis());
        RememberedTrust trust = new RememberedTrust(jdk, nowMs::get, true);

        for (int i = 0; i < 100; i++) {
            trust.checkServerTrusted(chain(SERVER), AUTH, (SSLEngine) null);
        }
        assertThat(jdk.checks).hasValue(1);
        assertThat(trust.remembered()).isEqualTo(1);

        // Another key exchange is another question.
        trust.checkServerTrusted(chain(SERVER), "RSA", (SSLEngine) null);
        assertThat(jdk.checks).hasValue(2);

        // Past the certificate's end (and before its start) the JDK decides again, each time.
        nowMs.set(SERVER.certificate().getNotAfter().getTime() + 1);
        trust.checkServerTrusted(chain(SERVER), AUTH, (SSLEngine) null);
        trust.checkServerTrusted(chain(SERVER), AUTH, (SSLEngine) null);
        nowMs.set(SERVER.certificate().getNotBefore().getTime() - 1);
        trust.checkServerTrusted(chain(SERVER), AUTH, (SSLEngine) null);
        assertThat(jdk.checks).hasValue(5);
    }

    @Test
    void aRefusedChainIsCheckedInFullEveryTime() throws Exception {
        Counting jdk = new Counting();
        RememberedTrust trust = new RememberedTrust(jdk, System::currentTimeMillis, true);

        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> trust.checkServerTrusted(chain(OTHER), AUTH, (SSLEngine) null))
                    .isInstanceOf(CertificateException.class);
        }
        assertThat(jdk.checks).hasValue(3);
        assertThat(trust.remembered()).isZero();
        // The trusted chain is still accepted, and another chain is not taken for it.
        trust.checkServerTrusted(chain(SERVER), AUTH, (SSLEngine) null);
        assertThatThrownBy(() -> trust.checkServerTrusted(chain(OTHER), AUTH, (SSLEngine) null))
                .isInstanceOf(CertificateException.class);
        assertThat(jdk.checks).hasValue(5);
    }

    @Test
    void withRevocationCheckingNothingIsRemembered() throws Exception {
        Counting jdk = new Counting();
        RememberedTrust trust = new RememberedTrust(jdk, System::currentTimeMillis, false);

        trust.checkServerTrusted(chain(SERVER), AUTH, (SSLEngine) null);
        trust.checkServerTrusted(chain(SERVER), AUTH, (SSLEngine) null);
        assertThat(jdk.checks).hasValue(2);
        assertThat(trust.remembered()).isZero();
    }

    @Test
    void noMoreThanItsBoundOfChainsIsRemembered() throws Exception {
        // A checker that accepts anything: many servers' chains, each accepted once.
        Counting jdk = new Counting(true);
        RememberedTrust trust = new RememberedTrust(jdk, System::currentTimeMillis, true);
        X509Certificate[] chain = chain(SERVER);
        for (int i = 0; i < RememberedTrust.MAX_CHAINS + 10; i++) {
            trust.checkServerTrusted(chain, "AUTH" + i, (SSLEngine) null);
        }
        assertThat(trust.remembered()).isEqualTo(RememberedTrust.MAX_CHAINS);
        assertThat(jdk.checks).hasValue(RememberedTrust.MAX_CHAINS + 10);
    }
}
