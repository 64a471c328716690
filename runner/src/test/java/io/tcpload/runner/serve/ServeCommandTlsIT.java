package io.tcpload.runner.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tcpload.runner.RunnerMain;
import io.tcpload.runner.pem.Pem;
import io.tcpload.runner.report.JsonResult;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.testing.Corpus;
import io.tcpload.runner.testing.OpensslCerts;
import io.tcpload.runner.tls.SelfSigned;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/**
 * {@code serve --tls}: a certificate made at start (and written out for the client), the
 * certificate and key given as PEM files in each key form (made by the openssl command), and client
 * certificates required when a client CA is given, each checked by a client: the JDK's TLS socket
 * or the runner itself. Every server is stopped, every run lasts a second.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ServeCommandTlsIT {
    private static final Pattern BANNER =
            Pattern.compile("serving .+ on 127\\.0\\.0\\.1:(\\d+) \\((.+)\\)\\R");

    @TempDir static Path certsDir;
    @TempDir Path dir;

    private static OpensslCerts certs;

    private final List<Thread> servers = new ArrayList<>();

    @BeforeAll
    static void makeCertificates() throws Exception {
        if (OpensslCerts.installed()) {
            certs = OpensslCerts.make(certsDir);
        }
    }

    @AfterEach
    void stopServers() throws InterruptedException {
        for (Thread server : servers) {
            server.interrupt();
            server.join(10_000);
            assertThat(server.isAlive()).isFalse();
        }
    }

    private static Path tiny() throws URISyntaxException {
        return Path.of(ServeCommandTlsIT.class.getResource("/wrktcp-corpus/01_tiny.ini").toURI());
    }

    private static OpensslCerts certs() {
        assumeTrue(certs != null, "openssl is not installed (apt-get install openssl)");
        return certs;
    }

    /** A serve command started on a thread of its own; its port and transport once listening. */
    private record Served(int port, String transport, StringWriter err, AtomicInteger exit) {}

    private Served serve(Function<String, String> environment, String... args)
            throws URISyntaxException {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine command = new CommandLine(new ServeCommand(environment));
        command.setOut(new PrintWriter(out, true));
        command.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of(tiny().toString(), "--port", "0"));
        all.addAll(List.of(args));
        AtomicInteger exit = new AtomicInteger(-1);
        Thread thread =
                new Thread(() -> exit.set(command.execute(all.toArray(String[]::new))), "serve");
        thread.start();
        servers.add(thread);
        Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .until(() -> BANNER.matcher(out.toString()).find() || exit.get() != -1);
        Matcher matcher = BANNER.matcher(out.toString());
        assertThat(matcher.find()).as(err.toString()).isTrue();
        return new Served(Integer.parseInt(matcher.group(1)), matcher.group(2), err, exit);
    }

    private Served serve(String... args) throws URISyntaxException {
        return serve(name -> null, args);
    }

    /** One request of 01_tiny over the JDK's TLS, trusting {@code trusted} alone. */
    private static String exchange(int port, Path trusted) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        int i = 0;
        for (X509Certificate certificate : Pem.certificates(Files.readAllBytes(trusted))) {
            store.setCertificateEntry("ca" + i++, certificate);
        }
        TrustManagerFactory trust =
                TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        try (SSLSocket socket =
                (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port)) {
            SSLParameters parameters = socket.getSSLParameters();
            // The host-name check HTTPS clients make: the certificate must name 127.0.0.1.
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            socket.setSSLParameters(parameters);
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write(Corpus.bytes("01_tiny.req1.bin"));
            byte[] response = new byte[Corpus.bytes("01_tiny.rsp1.bin").length];
            new DataInputStream(socket.getInputStream()).readFully(response);
            return new String(response, StandardCharsets.US_ASCII);
        }
    }

    /** The runner run in-process for a second against the server, its JSON result read back. */
    private record Run(int exitCode, String err, RunSummary result) {}

    private Run runner(int port, String... args) throws IOException, URISyntaxException {
        return runnerOn(tiny(), port, args);
    }

    private Run runnerOn(Path profile, int port, String... args) throws IOException {
        Path json = dir.resolve("result-" + System.nanoTime() + ".json");
        List<String> all =
                new ArrayList<>(
                        List.of(
                                "-c1",
                                "-d1s",
                                "-T10s",
                                "--tls",
                                "--target=127.0.0.1:" + port,
                                "--json=" + json));
        all.addAll(List.of(args));
        all.add(profile.toString());
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(new ByteArrayOutputStream(), true, "UTF-8");
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = RunnerMain.execute(o, e, name -> null, all.toArray(String[]::new));
        }
        RunSummary result = Files.exists(json) ? JsonResult.read(Files.readString(json)) : null;
        return new Run(code, err.toString(StandardCharsets.UTF_8), result);
    }

    @Test
    void tlsServesACertificateMadeAtStartAndWritesItForTheClient() throws Exception {
        Path cert = dir.resolve("demo.crt");
        Served served = serve("--tls", "--tls-cert-out", cert.toString());

        assertThat(served.transport()).isEqualTo("tcp, TLS");
        assertThat(exchange(served.port(), cert)).isEqualTo("00000013000000SUCCESS");
        // The runner trusts it as its CA, and checks the name as it would a real server's.
        Run run = runner(served.port(), "--tls-ca=" + cert);
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.result().counts().errors()).as(run.err()).isZero();
        assertThat(run.result().counts().successes()).isPositive();
        assertThat(run.result().handshakeUs().getTotalCount()).isPositive();
    }

    @Test
    void theFlagsFilesStandForTheProfilesOwnWhichNeedNotExist() throws Exception {
        Path cert = dir.resolve("demo.crt");
        Served served = serve("--tls", "--tls-cert-out", cert.toString());
        Path profile =
                Files.writeString(
                        dir.resolve("elsewhere.ini"),
                        Files.readString(tiny())
                                .replace(
                                        "port = 18101",
                                        "port = 18101\ntls = true\ntls_ca = /nowhere/ca.crt\n"
                                                + "tls_cert = /nowhere/client.crt\n"
                                                + "tls_key = /nowhere/client.key"));
        SelfSigned client = SelfSigned.forNames(List.of("client"));
        Path clientCert = Files.writeString(dir.resolve("client.crt"), client.certificatePem());
        Path clientKey = Files.writeString(dir.resolve("client.key"), client.keyPem());

        Run run =
                runnerOn(
                        profile,
                        served.port(),
                        "--tls-ca=" + cert,
                        "--tls-cert=" + clientCert,
                        "--tls-key=" + clientKey);

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.result().counts().errors()).as(run.err()).isZero();
        assertThat(run.result().counts().successes()).isPositive();
    }

    @Test
    void eachStartMakesANewCertificate() throws Exception {
        Path first = dir.resolve("first.crt");
        Path second = dir.resolve("second.crt");
        Served one = serve("--tls", "--tls-cert-out", first.toString());
        Served two = serve("--tls", "--tls-cert-out", second.toString());

        assertThat(Files.readString(first)).isNotEqualTo(Files.readString(second));
        assertThat(exchange(one.port(), first)).isEqualTo("00000013000000SUCCESS");
        // A client trusting another start's certificate is refused.
        Run run = runner(two.port(), "--tls-ca=" + first);
        assertThat(run.result().counts().tlsErrors()).as(run.err()).isPositive();
        assertThat(run.result().counts().requests()).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "PKCS#8, server.crt, server.key",
        "PKCS#8 encrypted, server.crt, server-pkcs8-encrypted.key",
        "PKCS#1, server.crt, server-pkcs1.key",
        "SEC1, server-ec.crt, server-ec.key"
    })
    void servesTheCertificateAndKeyGivenInEachKeyForm(String form, String cert, String key)
            throws Exception {
        OpensslCerts files = certs();
        Served served =
                serve(
                        Map.of("SERVE_KEY_PASSWORD", OpensslCerts.KEY_PASSWORD)::get,
                        "--tls-cert",
                        files.file(cert).toString(),
                        "--tls-key",
                        files.file(key).toString(),
                        "--tls-key-password-env",
                        "SERVE_KEY_PASSWORD");

        assertThat(served.transport()).isEqualTo("tcp, TLS");
        // Trusting the CA that signed the certificate given, not a certificate made at start.
        assertThat(exchange(served.port(), files.file("ca.crt")))
                .isEqualTo("00000013000000SUCCESS");
    }

    @Test
    void aClientCaRequiresClientCertificatesItSigned() throws Exception {
        OpensslCerts files = certs();
        Path cert = dir.resolve("demo.crt");
        Served served =
                serve(
                        "--tls-client-ca",
                        files.file("ca.crt").toString(),
                        "--tls-cert-out",
                        cert.toString());

        Run signed =
                runner(
                        served.port(),
                        "--tls-ca=" + cert,
                        "--tls-cert=" + files.file("client.crt"),
                        "--tls-key=" + files.file("client.key"));
        assertThat(signed.exitCode()).as(signed.err()).isZero();
        assertThat(signed.result().counts().errors()).as(signed.err()).isZero();
        assertThat(signed.result().counts().successes()).isPositive();

        Run without = runner(served.port(), "--tls-ca=" + cert);
        assertThat(without.result().counts().successes()).isZero();
        assertThat(without.result().counts().tlsErrors()).as(without.err()).isPositive();

        // A certificate another CA signed is refused as well: the server made its own, so it is
        // both a CA and a certificate the client CA did not sign.
        Path self = dir.resolve("self.crt");
        Path selfKey = dir.resolve("self.key");
        SelfSigned other = SelfSigned.forNames(List.of("127.0.0.1"));
        Files.writeString(self, other.certificatePem());
        Files.writeString(selfKey, other.keyPem());
        Run unsigned =
                runner(
                        served.port(),
                        "--tls-ca=" + cert,
                        "--tls-cert=" + self,
                        "--tls-key=" + selfKey);
        assertThat(unsigned.result().counts().successes()).isZero();
        assertThat(unsigned.result().counts().tlsErrors()).as(unsigned.err()).isPositive();
        assertThat(served.err().toString()).doesNotContain("\tat ", "Exception");
    }
}
