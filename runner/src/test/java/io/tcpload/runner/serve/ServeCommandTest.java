package io.tcpload.runner.serve;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.ProfileLoader;
import io.tcpload.runner.testing.Corpus;
import io.tcpload.runner.tls.SelfSigned;
import java.io.DataInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.Socket;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ServeCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private CommandLine command() {
        CommandLine command = new CommandLine(new ServeCommand());
        command.setOut(new PrintWriter(out, true));
        command.setErr(new PrintWriter(err, true));
        return command;
    }

    private static Path corpusFile(String name) throws URISyntaxException {
        return Path.of(ServeCommandTest.class.getResource("/wrktcp-corpus/" + name).toURI());
    }

    @Test
    void profileProblemsGoToStderrWithExitCodeTwo(@TempDir Path dir) throws Exception {
        Path ini = dir.resolve("broken.ini");
        Files.writeString(ini, "[common]\nhost = 127.0.0.1\n[request]\n");
        int exit = command().execute(ini.toString());
        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("broken.ini");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void badOptionGivesExitCodeTwo() throws Exception {
        int exit = command().execute(corpusFile("01_tiny.ini").toString(), "--failure-rate", "2");
        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("failure rate 2.0 is outside 0..1");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "--tls-cert alone|--tls-cert CERT|--tls-cert needs --tls-key",
                "--tls-key alone|--tls-key KEY|--tls-key needs --tls-cert",
                "password without a key|--tls --tls-key-password-env PASS"
                        + "|--tls-key-password-env needs --tls-key",
                "--tls-cert-out without TLS|--tls-cert-out OUT|--tls-cert-out needs TLS",
                "--tls-cert-out with a certificate given|--tls-cert CERT --tls-key KEY"
                        + " --tls-cert-out OUT|with --tls-cert none is made",
                "missing certificate|--tls-cert MISSING --tls-key KEY"
                        + "|the --tls-cert certificate file MISSING does not exist.",
                "missing client CA|--tls-client-ca MISSING"
                        + "|the --tls-client-ca client CA bundle MISSING does not exist.",
                "a certificate as the key|--tls-cert CERT --tls-key CERT|CERT",
                "another certificate's key|--tls-cert CERT --tls-key STRANGER"
                        + "|STRANGER is not the private key of the certificate in CERT",
                "a key as the certificate|--tls-cert KEY --tls-key KEY|KEY",
                "a key as the client CA|--tls --tls-client-ca KEY|KEY",
                "encrypted key, no password|--tls-cert CERT --tls-key ENCRYPTED"
                        + "|tls-key-password-env",
                "encrypted key, password not set|--tls-cert CERT --tls-key ENCRYPTED"
                        + " --tls-key-password-env NOT_SET|NOT_SET",
            })
    void badTlsFlagsOrFilesGiveExitCodeTwoNamingThem(String name, String flags, String message)
            throws Exception {
        Path dir = Files.createTempDirectory("serve-tls");
        SelfSigned made = SelfSigned.forNames(List.of("127.0.0.1"));
        Path cert = Files.writeString(dir.resolve("server.crt"), made.certificatePem());
        Path key = Files.writeString(dir.resolve("server.key"), made.keyPem());
        Path stranger =
                Files.writeString(
                        dir.resolve("stranger.key"),
                        SelfSigned.forNames(List.of("127.0.0.1")).keyPem());
        Path encrypted =
                Files.writeString(
                        dir.resolve("encrypted.key"),
                        "-----BEGIN ENCRYPTED PRIVATE KEY-----\n"
                                + "MIIBvTBXBgkqhkiG9w0BBQ0wSjApBgkqhkiG9w0BBQwwHAQIm2pWrSrLTi0CAggA\n"
                                + "-----END ENCRYPTED PRIVATE KEY-----\n");
        Map<String, String> paths =
                Map.of(
                        "CERT", cert.toString(),
                        "KEY", key.toString(),
                        "ENCRYPTED", encrypted.toString(),
                        "STRANGER", stranger.toString(),
                        "MISSING", dir.resolve("missing.pem").toString(),
                        "OUT", dir.resolve("out.pem").toString());
        List<String> args = new ArrayList<>(List.of(corpusFile("01_tiny.ini").toString()));
        args.addAll(List.of("--port", "0"));
        for (String word : flags.split(" ")) {
            args.add(paths.getOrDefault(word, word));
        }
        String expected = message;
        for (Map.Entry<String, String> path : paths.entrySet()) {
            expected = expected.replace(path.getKey(), path.getValue());
        }

        int exit = command().execute(args.toArray(String[]::new));

        assertThat(exit).as(err.toString()).isEqualTo(2);
        assertThat(err.toString()).startsWith("serve: ").contains(expected);
        assertThat(err.toString()).doesNotContain("\tat ", "Exception");
        assertThat(out.toString()).isEmpty();
        assertThat(dir.resolve("out.pem")).doesNotExist();
    }

    @Test
    void servesACorpusProfileUntilInterrupted() throws Exception {
        Path ini = corpusFile("01_tiny.ini");
        AtomicInteger exit = new AtomicInteger(-1);
        Thread runner =
                new Thread(() -> exit.set(command().execute(ini.toString(), "--port", "0")));
        runner.start();
        Pattern banner = Pattern.compile("serving (.+) on 127\\.0\\.0\\.1:(\\d+) \\(tcp\\)\\R");
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> banner.matcher(out.toString()).find());
        Matcher matcher = banner.matcher(out.toString());
        assertThat(matcher.find()).isTrue();
        assertThat(matcher.group(1)).isEqualTo(ini.toString());
        int port = Integer.parseInt(matcher.group(2));

        Profile profile = ProfileLoader.load(ini).profile();
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write(Corpus.bytes("01_tiny.req1.bin"));
            byte[] response = new byte[Corpus.bytes("01_tiny.rsp1.bin").length];
            new DataInputStream(socket.getInputStream()).readFully(response);
            assertThat(new String(response, StandardCharsets.US_ASCII))
                    .isEqualTo("00000013000000SUCCESS");
            assertThat(profile.response().codeSuccess()).isEqualTo("000000");
        }

        runner.interrupt();
        runner.join(10_000);
        assertThat(runner.isAlive()).isFalse();
        assertThat(exit.get()).isZero();
        assertThat(
                        Thread.getAllStackTraces().keySet().stream()
                                .filter(Thread::isAlive)
                                .filter(t -> t.getName().startsWith("tcpload-serve")))
                .isEmpty();
    }
}
