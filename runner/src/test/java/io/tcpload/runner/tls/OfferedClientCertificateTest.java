package io.tcpload.runner.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.KeyStore;
import java.security.Principal;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.security.auth.x500.X500Principal;
import org.junit.jupiter.api.Test;

class OfferedClientCertificateTest {
    private static final SelfSigned CLIENT = SelfSigned.forNames(List.of("client.test"));
    private static final String[] EC = {"EC"};
    private static final Principal[] ANOTHER_CA = {new X500Principal("CN=a CA of the server's")};

    @Test
    void theCertificateIsOfferedWhateverCasTheServerNames() throws Exception {
        X509ExtendedKeyManager offered =
                (X509ExtendedKeyManager)
                        OfferedClientCertificate.of(CLIENT.key(), List.of(CLIENT.certificate()));

        String alias = offered.chooseEngineClientAlias(EC, ANOTHER_CA, null);

        assertThat(alias).isNotNull();
        assertThat(offered.getCertificateChain(alias)).containsExactly(CLIENT.certificate());
        assertThat(offered.getPrivateKey(alias).getEncoded()).isEqualTo(CLIENT.key().getEncoded());
        assertThat(offered.chooseClientAlias(EC, ANOTHER_CA, null)).isEqualTo(alias);
    }

    @Test
    void theJdksOwnKeyManagerOffersNothingThenWhichIsWhyItIsWrapped() throws Exception {
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        store.setKeyEntry(
                "client", CLIENT.key(), new char[0], new X509Certificate[] {CLIENT.certificate()});
        KeyManagerFactory factory =
                KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(store, new char[0]);
        X509ExtendedKeyManager jdk = (X509ExtendedKeyManager) factory.getKeyManagers()[0];

        assertThat(jdk.chooseEngineClientAlias(EC, ANOTHER_CA, null)).isNull();
    }

    @Test
    void aKeyOfAnotherTypeThanTheServerTakesIsNotOffered() throws Exception {
        X509ExtendedKeyManager offered =
                (X509ExtendedKeyManager)
                        OfferedClientCertificate.of(CLIENT.key(), List.of(CLIENT.certificate()));

        assertThat(offered.chooseEngineClientAlias(new String[] {"RSA"}, ANOTHER_CA, null))
                .isNull();
    }
}
