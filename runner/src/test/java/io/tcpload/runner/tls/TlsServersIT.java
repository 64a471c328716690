package io.tcpload.runner.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tcpload.runner.RunnerMain;
import io.tcpload.runner.profile.ProfileLoader;
import io.tcpload.runner.report.JsonResult;
import io.tcpload.runner.serve.DemoServer;
import io.tcpload.runner.serve.ServeOptions;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.testing.Nginx;
import io.tcpload.runner.testing.OpensslCerts;
import io.tcpload.runner.testing.OpensslServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The runner's TLS against servers nobody here wrote, on loopback, with certificates made by the
 * openssl command: nginx with {@code ssl} (HTTPS keep-alive, short connections with and without
 * session resumption as nginx logs it, SNI, and a raw TCP profile through nginx's {@code stream}
 * module in front of the demo target), and {@code openssl s_server} (mutual TLS with each key form,
 * and each way a handshake fails). Every run lasts a second or two; every server is stopped.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TlsServersIT {
    private static final Path STREAM_MODULE =
            Path.of("/usr/lib/nginx/modules/ngx_stream_module.so");

    @TempDir static Path certsDir;
    @TempDir Path dir;

    private static OpensslCerts certs;

    @BeforeAll
    static void makeCertificates() throws Exception {
        assumeTrue(OpensslCerts.installed(), "openssl is not installed (apt-get install openssl)");
        certs = OpensslCerts.make(certsDir);
    }

    /** One in-process run of the runner's command line, its JSON result read back. */
    private record Run(int exitCode, String out, String err, RunSummary result) {}

    private Run run(Map<String, String> environment, String... args) throws IOException {
        Path json = dir.resolve("result-" + System.nanoTime() + ".json");
        // A timeout far above a loopback answer: on a loaded machine openssl s_server, single
        // threaded, can take a second or two, which is not what these tests are about.
        List<String> all = new ArrayList<>(List.of("-T10s", "--json=" + json));
        all.addAll(List.of(args));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = RunnerMain.execute(o, e, environment::get, all.toArray(String[]::new));
        }
        RunSummary result = Files.exists(json) ? JsonResult.read(Files.readString(json)) : null;
        return new Run(
                code,
                out.toString(StandardCharsets.UTF_8),
                err.toString(StandardCharsets.UTF_8),
                result);
    }

    private Run run(String... args) throws IOException {
        return run(Map.of(), args);
    }

    /** openssl s_server with the server's certificate and key, and {@code options} besides. */
    private OpensslServer opensslServer(String... options) throws Exception {
        List<String> all =
                new ArrayList<>(
                        List.of(
                                "-cert",
                                certs.file("server.crt").toString(),
                                "-key",
                                certs.file("server.key").toString()));
        all.addAll(List.of(options));
        return OpensslServer.start(dir, all.toArray(String[]::new));
    }

    private Path profile(String name, String... lines) throws IOException {
        return Files.writeString(dir.resolve(name), String.join("\n", lines) + "\n");
    }

    /** nginx serving index.html over TLS, logging whether each request's session was resumed. */
    private Nginx httpsNginx() throws Exception {
        assumeTrue(Nginx.installed(), "nginx is not installed (apt-get install nginx-light)");
        Path root = dir;
        return Nginx.start(
                dir,
                (attempt, accessLog, port) ->
                        String.join(
                                "\n",
                                Nginx.head(attempt),
                                "events { }",
                                "http {",
                                Nginx.tempPaths(attempt),
                                "  log_format tls '$ssl_session_reused $connection"
                                        + " $ssl_protocol sni=$ssl_server_name';",
                                "  access_log " + accessLog + " tls;",
                                "  ssl_session_cache shared:tls:1m;",
                                "  ssl_protocols TLSv1.2 TLSv1.3;",
                                "  server {",
                                "    listen 127.0.0.1:" + port + " ssl;",
                                "    ssl_certificate " + certs.file("server.crt") + ";",
                                "    ssl_certificate_key " + certs.file("server.key") + ";",
                                "    root " + root + ";",
                                "  }",
                                "}",
                                ""));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"openssl", "jdk"})
    void httpsKeepAliveAgainstNginxHandshakesOncePerConnection(String provider) throws Exception {
        try (Nginx nginx = httpsNginx()) {
            String url = "https://127.0.0.1:" + nginx.port() + "/index.html";
            Run run =
                    run(
                            "-c4",
                            "-d2s",
                            "--tls-provider=" + provider,
                            "--tls-ca=" + certs.file("ca.crt"),
                            url);

            assertThat(run.exitCode()).as(run.err()).isZero();
            RunSummary result = run.result();
            assertThat(result.counts().successes()).isGreaterThan(20);
            assertThat(result.counts().errors()).as(run.err()).isZero();
            // nginx keeps a connection for 1000 requests: a handshake per connection, not per
            // request.
            assertThat(result.handshakeUs().getTotalCount())
                    .isBetween(4L, 4 + result.counts().requests() / 1000 + 4);
            assertThat(run.out()).contains("Handshake");
            // An IP target sends no SNI.
            assertThat(nginx.accessLogLines()).allMatch(line -> line.endsWith(" sni=-"));
        }
    }

    @ParameterizedTest(name = "{0}, session reuse {1}")
    @CsvSource({"openssl, true", "openssl, false", "jdk, true", "jdk, false"})
    void shortConnectionsResumeSessionsUnlessToldNot(String provider, boolean reuse)
            throws Exception {
        try (Nginx nginx = httpsNginx()) {
            Path profile =
                    profile(
                            "short.ini",
                            "[common]",
                            "host = 127.0.0.1",
                            "port = " + nginx.port(),
                            "http_line = GET /index.html HTTP/1.1",
                            "tls = true",
                            "tls_ca = " + certs.file("ca.crt"),
                            "tls_server_name = " + OpensslCerts.SERVER_NAME,
                            "tls_session_reuse = " + reuse,
                            "[request]",
                            "req_head = Host: localhost",
                            "req_body =",
                            "[response]",
                            "rsp_code_type = fixed",
                            "rsp_code_location = body",
                            "rsp_code_location_tag = 1 5",
                            "rsp_code_success = Hello",
                            "rsp_http_status = 200");
            Run run = run("-c2", "-d2s", "--tls-provider=" + provider, profile.toString());

            assertThat(run.exitCode()).as(run.err()).isZero();
            RunSummary result = run.result();
            assertThat(result.counts().errors()).as(run.err()).isZero();
            assertThat(result.counts().successes()).isGreaterThan(10);
            // One connection, so one handshake, per request.
            assertThat(result.handshakeUs().getTotalCount())
                    .isGreaterThanOrEqualTo(result.counts().requests());
            List<String> lines = nginx.accessLogLines();
            long resumed = lines.stream().filter(line -> line.startsWith("r ")).count();
            // The server name is sent as SNI, and checked against the certificate.
            assertThat(lines).allMatch(line -> line.endsWith(" sni=" + OpensslCerts.SERVER_NAME));
            if (reuse) {
                // BoringSSL resumes nearly every time; the JDK uses each TLS 1.3 ticket once and
                // keeps one per server, so of two connections at a time about one resumes.
                assertThat(resumed)
                        .as("resumed of %d", lines.size())
                        .isGreaterThan(lines.size() / 4);
            } else {
                assertThat(resumed).as("resumed of %d", lines.size()).isZero();
            }
        }
    }

    @Test
    void aRawTcpProfileGoesOverTlsThroughNginxStream() throws Exception {
        assumeTrue(Nginx.installed(), "nginx is not installed (apt-get install nginx-light)");
        assumeTrue(
                Files.exists(STREAM_MODULE),
                "nginx's stream module is not installed (apt-get install libnginx-mod-stream)");
        Path plain =
                profile(
                        "bank.ini",
                        "[common]",
                        "host = 127.0.0.1",
                        "port = 9",
                        "[request]",
                        "req_head = $(length)",
                        "req_body = <req><trace>$(TRACE)</trace><op>balance</op></req>",
                        "[response]",
                        "rsp_code_type = xml",
                        "rsp_code_location = body",
                        "rsp_code_location_tag = <retCode>",
                        "rsp_code_success = 000000",
                        "[parameters]",
                        "TRACE = COUNTER, 1, 99999999, 1, %08ld");
        try (DemoServer demo =
                        DemoServer.start(
                                ProfileLoader.load(plain).profile(), ServeOptions.defaults());
                Nginx nginx =
                        Nginx.start(
                                dir,
                                (attempt, accessLog, port) ->
                                        String.join(
                                                "\n",
                                                "load_module " + STREAM_MODULE + ";",
                                                Nginx.head(attempt),
                                                "events { }",
                                                "stream {",
                                                "  server {",
                                                "    listen 127.0.0.1:" + port + " ssl;",
                                                "    ssl_certificate "
                                                        + certs.file("server.crt")
                                                        + ";",
                                                "    ssl_certificate_key "
                                                        + certs.file("server.key")
                                                        + ";",
                                                "    proxy_pass 127.0.0.1:" + demo.port() + ";",
                                                "  }",
                                                "}",
                                                ""))) {
            Path tls =
                    profile(
                            "bank-tls.ini",
                            Files.readString(plain)
                                    .replace(
                                            "port = 9",
                                            "port = "
                                                    + nginx.port()
                                                    + "\ntls = true\ntls_ca = "
                                                    + certs.file("ca.crt")));
            Run run = run("-c4", "-d2s", "-k", tls.toString());

            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.result().counts().errors()).as(run.err()).isZero();
            assertThat(run.result().counts().successes())
                    .as(run.out() + run.err())
                    .isGreaterThan(20);
            assertThat(demo.requestsServed())
                    .isGreaterThanOrEqualTo(run.result().counts().requests());
            assertThat(run.result().handshakeUs().getTotalCount()).isEqualTo(4);
        }
    }

    @ParameterizedTest(name = "{0} key, {2}")
    @CsvSource({
        "client.key, client.crt, openssl",
        "client-pkcs8-encrypted.key, client.crt, openssl",
        "client-pkcs1.key, client.crt, openssl",
        "client-ec.key, client-ec.crt, openssl",
        "client-pkcs1.key, client.crt, jdk",
        "client-ec.key, client-ec.crt, jdk"
    })
    void mutualTlsWithEachKeyForm(String key, String cert, String provider) throws Exception {
        try (OpensslServer server =
                opensslServer("-Verify", "1", "-CAfile", certs.file("ca.crt").toString())) {
            Run run =
                    run(
                            Map.of("CLIENT_KEY_PASSWORD", OpensslCerts.KEY_PASSWORD),
                            "-c1",
                            "-d2s",
                            "--tls-provider=" + provider,
                            "--tls-ca=" + certs.file("ca.crt"),
                            "--tls-cert=" + certs.file(cert),
                            "--tls-key=" + certs.file(key),
                            "--tls-key-password-env=CLIENT_KEY_PASSWORD",
                            server.url());

            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.result().counts().errors()).as(run.err()).isZero();
            assertThat(run.result().counts().successes()).as(run.err()).isPositive();
        }
    }

    @ParameterizedTest(name = "{0} ({3})")
    @CsvSource(
            delimiter = '|',
            value = {
                "wrong CA|-cert server.crt -key server.key|--tls-ca=other-ca.crt|openssl"
                        + "|not signed by a trusted CA",
                "wrong name|-cert server.crt -key server.key|--tls-server-name=pay.example"
                        + "|openssl|does not name the server",
                "expired|-cert expired.crt -key server.key||openssl|has expired",
                "expired|-cert expired.crt -key server.key||jdk|has expired",
                "TLS 1.2 server, TLS 1.3 client|-cert server.crt -key server.key -tls1_2"
                        + "|--tls13-only|openssl|no protocol version",
                "TLS 1.2 server, TLS 1.3 client|-cert server.crt -key server.key -tls1_2"
                        + "|--tls13-only|jdk|no protocol version",
                "client certificate missing|-cert server.crt -key server.key -Verify 1 -CAfile"
                        + " ca.crt||openssl|requires a client certificate",
                "client certificate missing|-cert server.crt -key server.key -Verify 1 -CAfile"
                        + " ca.crt||jdk|requires a client certificate",
                // Offered though the server names another CA, so that the server judges it.
                "client certificate of another issuer|-cert server.crt -key server.key -Verify 1"
                        + " -verify_return_error -CAfile ca.crt|--tls-cert=other-ca|openssl"
                        + "|does not trust the client certificate (unknown CA)",
                "client certificate of another issuer|-cert server.crt -key server.key -Verify 1"
                        + " -verify_return_error -CAfile ca.crt|--tls-cert=other-ca|jdk"
                        + "|does not trust the client certificate (unknown CA)",
            })
    void eachHandshakeFailureIsATlsErrorWithItsReason(
            String name, String serverOptions, String clientFlag, String provider, String reason)
            throws Exception {
        List<String> options = new ArrayList<>();
        for (String option : serverOptions.split(" ")) {
            options.add(
                    option.endsWith(".crt") || option.endsWith(".key")
                            ? certs.file(option).toString()
                            : option);
        }
        try (OpensslServer server = OpensslServer.start(dir, options.toArray(String[]::new))) {
            List<String> args =
                    new ArrayList<>(List.of("-c1", "-d1s", "--tls-provider=" + provider));
            String target = server.url();
            if (clientFlag == null) {
                args.add("--tls-ca=" + certs.file("ca.crt"));
            } else if (clientFlag.equals("--tls13-only")) {
                target =
                        profile(
                                        "tls13.ini",
                                        "[common]",
                                        "host = 127.0.0.1",
                                        "port = " + server.port(),
                                        "http_line = GET / HTTP/1.1",
                                        "tls = true",
                                        "tls_ca = " + certs.file("ca.crt"),
                                        "tls_protocols = TLSv1.3",
                                        "[request]",
                                        "req_head = Host: localhost",
                                        "req_body =")
                                .toString();
            } else if (clientFlag.startsWith("--tls-cert=")) {
                String pair = clientFlag.substring("--tls-cert=".length());
                args.add("--tls-ca=" + certs.file("ca.crt"));
                args.add("--tls-cert=" + certs.file(pair + ".crt"));
                args.add("--tls-key=" + certs.file(pair + ".key"));
            } else if (clientFlag.startsWith("--tls-ca=")) {
                args.add("--tls-ca=" + certs.file(clientFlag.substring("--tls-ca=".length())));
            } else {
                args.add("--tls-ca=" + certs.file("ca.crt"));
                args.add(clientFlag);
            }
            args.add(target);
            Run run = run(args.toArray(String[]::new));

            assertThat(run.exitCode()).as(run.err()).isZero();
            RunSummary result = run.result();
            assertThat(result.counts().requests()).isZero();
            assertThat(result.counts().tlsErrors()).as(run.err()).isPositive();
            assertThat(result.errorMessages())
                    .as(run.err())
                    .allSatisfy(error -> assertThat(error.message()).contains(reason));
            assertThat(run.out()).contains("Socket errors:", ", tls ");
            assertThat(run.err()).doesNotContain("\tat ", "Exception");
        }
    }

    /**
     * A handshake ends as soon as the client has sent its last message, not when the server next
     * sends something: against servers that send nothing after their last handshake message (TLS
     * 1.3 without session tickets; TLS 1.2, where the server's Finished comes last), each handshake
     * takes milliseconds, not the run's timeout.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {"-num_tickets 0", "-tls1_2 -no_ticket"})
    void aHandshakeEndsWithoutWaitingForTheServer(String options) throws Exception {
        try (OpensslServer server = opensslServer(options.split(" "))) {
            Run run = run("-c2", "-d1s", "--tls-ca=" + certs.file("ca.crt"), server.url());

            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.result().counts().errors()).as(run.err()).isZero();
            assertThat(run.result().counts().successes()).as(run.err()).isPositive();
            assertThat(run.result().handshakeUs().getTotalCount()).isGreaterThanOrEqualTo(2);
            assertThat(run.result().handshakeUs().getMaxValue()).isLessThan(2_000_000);
        }
    }

    @Test
    void insecureAcceptsACertificateNobodyTrustsWithAWarning() throws Exception {
        try (OpensslServer server = opensslServer()) {
            Run run = run("-c1", "-d1s", "--tls-insecure", server.url());

            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.result().counts().errors()).isZero();
            assertThat(run.result().counts().successes()).isPositive();
            assertThat(run.err()).contains("not verified");
        }
    }

    /**
     * {@code tls_groups} sets the key-exchange groups offered: against a server that takes P-384
     * alone, X25519 alone is refused, and P-384, or X25519 then P-384 (the server asks again for
     * the one it takes), connect.
     */
    @ParameterizedTest(name = "tls_groups = {0}")
    @CsvSource(
            delimiter = '|',
            value = {"X25519|false", "P-384|true", "X25519, P-384|true"})
    void theGroupsOfferedAreTheProfiles(String groups, boolean connects) throws Exception {
        try (OpensslServer server = opensslServer("-groups", "P-384")) {
            Path profile =
                    profile(
                            "groups.ini",
                            "[common]",
                            "host = 127.0.0.1",
                            "port = " + server.port(),
                            "http_line = GET / HTTP/1.1",
                            "tls = true",
                            "tls_ca = " + certs.file("ca.crt"),
                            "tls_groups = " + groups,
                            "[request]",
                            "req_head = Host: localhost",
                            "req_body =",
                            "[response]",
                            "rsp_code_type = fixed",
                            "rsp_code_location = body",
                            "rsp_code_location_tag = 1 6",
                            "rsp_code_success = <HTML>",
                            "rsp_http_status = 200");
            Run run = run("-c1", "-d1s", "--tls-provider=openssl", profile.toString());

            assertThat(run.exitCode()).as(run.err()).isZero();
            RunSummary result = run.result();
            if (connects) {
                assertThat(result.counts().errors()).as(run.err()).isZero();
                assertThat(result.counts().successes()).as(run.err()).isPositive();
            } else {
                assertThat(result.counts().requests()).isZero();
                assertThat(result.counts().tlsErrors()).as(run.err()).isPositive();
                assertThat(result.errorMessages())
                        .allSatisfy(
                                error ->
                                        assertThat(error.message())
                                                .startsWith("tls: ")
                                                .contains("tls_groups"));
            }
        }
    }

    @Test
    void groupsTheProviderDoesNotKnowAreRefusedBeforeTheRun() throws Exception {
        Path profile =
                profile(
                        "unknown-groups.ini",
                        "[common]",
                        "host = 127.0.0.1",
                        "port = 9",
                        "tls = true",
                        "tls_groups = X25519, P-999",
                        "[request]",
                        "req_body = x");

        Run openssl = run("-c1", "-d1s", "--tls-provider=openssl", profile.toString());
        Run jdk = run("-c1", "-d1s", "--tls-provider=jdk", profile.toString());

        assertThat(openssl.exitCode()).isEqualTo(2);
        assertThat(openssl.err())
                .contains("tls_groups: P-999 is not known to the openssl TLS provider")
                .doesNotContain("X25519 is", "\tat ");
        assertThat(jdk.exitCode()).isEqualTo(2);
        assertThat(jdk.err()).contains("tls_groups: the jdk TLS provider cannot be given");
    }
}
