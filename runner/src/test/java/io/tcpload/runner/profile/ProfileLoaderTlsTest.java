package io.tcpload.runner.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tcpload.runner.tls.SelfSigned;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The TLS keys of [common]: the files they name, looked up beside the profile as FILE data files
 * are, and left out of the lookup when the command line gives them instead.
 */
class ProfileLoaderTlsTest {
    @TempDir Path dir;

    private Path profile(String... tlsLines) throws Exception {
        StringBuilder text =
                new StringBuilder("[common]\nhost = 127.0.0.1\nport = 9\ntls = true\n");
        for (String line : tlsLines) {
            text.append(line).append('\n');
        }
        text.append("[request]\nreq_body = x\n");
        return Files.writeString(dir.resolve("tls.ini"), text.toString());
    }

    private void pair(String certName, String keyName) throws Exception {
        SelfSigned made = SelfSigned.forNames(List.of("127.0.0.1"));
        Files.writeString(dir.resolve(certName), made.certificatePem());
        Files.writeString(dir.resolve(keyName), made.keyPem());
    }

    @Test
    void theFilesAreReadBesideTheProfile() throws Exception {
        pair("ca.crt", "unused.key");
        pair("client.crt", "client.key");
        Path file =
                profile(
                        "tls_ca = ca.crt",
                        "tls_cert = client.crt",
                        "tls_key = client.key",
                        "tls_server_name = pay.example",
                        "tls_protocols = TLSv1.3",
                        "tls_groups = X25519:P-256, X25519",
                        "tls_session_reuse = false");

        TlsSpec tls = ProfileLoader.load(file).profile().tls().orElseThrow();

        assertThat(tls.ca().orElseThrow().content().toByteArray())
                .isEqualTo(Files.readAllBytes(dir.resolve("ca.crt")));
        assertThat(tls.certificate()).isPresent();
        assertThat(tls.key().orElseThrow().source()).endsWith("client.key");
        assertThat(tls.serverName()).contains("pay.example");
        assertThat(tls.protocols()).containsExactly("TLSv1.3");
        assertThat(tls.groups()).containsExactly("X25519", "P-256");
        assertThat(tls.sessionReuse()).isFalse();
        assertThat(tls.verify()).isTrue();
    }

    @Test
    void groupsAreNamesSeparatedByCommasAndNotEmpty() throws Exception {
        assertThat(ProfileLoader.load(profile()).profile().tls().orElseThrow().groups()).isEmpty();
        for (String value : List.of("X25519, P@256", "")) {
            Path file = profile("tls_groups = " + value);
            String expected =
                    value.isEmpty() ? "is empty" : "'P@256' is not a key-exchange group name";

            assertThatThrownBy(() -> ProfileLoader.load(file))
                    .isInstanceOfSatisfying(
                            ProfileException.class,
                            e ->
                                    assertThat(e.problems())
                                            .singleElement()
                                            .satisfies(
                                                    p -> {
                                                        assertThat(p.line()).isEqualTo(5);
                                                        assertThat(p.key()).isEqualTo("tls_groups");
                                                        assertThat(p.message()).contains(expected);
                                                    }));
        }
    }

    @Test
    void aMissingFileIsAnErrorWithItsLineAndKey() throws Exception {
        Path file = profile("tls_ca = missing.crt");

        assertThatThrownBy(() -> ProfileLoader.load(file))
                .isInstanceOf(ProfileException.class)
                .satisfies(
                        e ->
                                assertThat(((ProfileException) e).problems())
                                        .singleElement()
                                        .satisfies(p -> assertThat(p.line()).isEqualTo(5))
                                        .satisfies(p -> assertThat(p.key()).isEqualTo("tls_ca")));
    }

    @Test
    void filesGivenFromOutsideAreNotLookedUp() throws Exception {
        Path file =
                profile(
                        "tls_ca = /nowhere/ca.crt",
                        "tls_cert = /nowhere/client.crt",
                        "tls_key = /nowhere/client.key");

        TlsSpec tls =
                ProfileLoader.load(file, new TlsFilesGiven(true, true))
                        .profile()
                        .tls()
                        .orElseThrow();

        assertThat(tls.ca()).isEmpty();
        assertThat(tls.certificate()).isEmpty();
        assertThat(tls.key()).isEmpty();
    }

    @Test
    void onlyTheFilesGivenAreLeftOut() throws Exception {
        pair("client.crt", "client.key");
        Path file =
                profile(
                        "tls_ca = /nowhere/ca.crt",
                        "tls_cert = client.crt",
                        "tls_key = client.key");

        TlsSpec tls =
                ProfileLoader.load(file, new TlsFilesGiven(true, false))
                        .profile()
                        .tls()
                        .orElseThrow();
        assertThat(tls.ca()).isEmpty();
        assertThat(tls.certificate()).isPresent();

        assertThatThrownBy(() -> ProfileLoader.load(file, new TlsFilesGiven(false, true)))
                .isInstanceOf(ProfileException.class)
                .hasMessageContaining("tls_ca");
    }

    @Test
    void anEncryptedKeyNeedsItsPasswordVariableUnlessTheKeyIsGivenFromOutside() throws Exception {
        pair("client.crt", "plain.key");
        Files.writeString(
                dir.resolve("client.key"),
                "-----BEGIN ENCRYPTED PRIVATE KEY-----\n"
                        + "MIIBvTBXBgkqhkiG9w0BBQ0wSjApBgkqhkiG9w0BBQwwHAQIm2pWrSrLTi0CAggA\n"
                        + "-----END ENCRYPTED PRIVATE KEY-----\n");
        Path file = profile("tls_cert = client.crt", "tls_key = client.key");

        assertThatThrownBy(() -> ProfileLoader.load(file))
                .isInstanceOf(ProfileException.class)
                .hasMessageContaining("tls_key_password_env");
        assertThat(ProfileLoader.load(file, new TlsFilesGiven(false, true)).profile().tls())
                .isPresent();
    }
}
