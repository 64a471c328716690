package io.tcpload.runner.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.report.DryRunResult;
import io.tcpload.runner.report.DryRunResult.Exchange;
import io.tcpload.runner.testing.Corpus;
import io.tcpload.runner.testing.ScriptedServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --test}: each request once, its bytes and the response's printed, framed, judged; exit 0
 * when every response is a success, 1 otherwise, 2 for a bad profile.
 */
class DryRunTest {
    private static final Pattern HEX_LINE =
            Pattern.compile(
                    "^    [0-9a-f]{4}  ((?:[0-9a-f]{2} )+)\\s*\\|.*\\|$", Pattern.MULTILINE);

    @TempDir Path dir;

    /** The bytes of the hex dumps of one block of the output, in order. */
    private static byte[] dumped(String block) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Matcher matcher = HEX_LINE.matcher(block);
        while (matcher.find()) {
            for (String hex : matcher.group(1).trim().split(" ")) {
                bytes.write(Integer.parseInt(hex, 16));
            }
        }
        return bytes.toByteArray();
    }

    /** The text between {@code from} and the next line starting with {@code to}. */
    private static String between(String text, String from, String to) {
        int start = text.indexOf(from);
        assertThat(start).as("'%s' in %s", from, text).isNotNegative();
        int end = text.indexOf(to, start + from.length());
        return text.substring(start + from.length(), end < 0 ? text.length() : end);
    }

    /** A target that reads a request of {@code requestSize} bytes and answers {@code response}. */
    private static ScriptedServer answering(int requestSize, byte[] response) throws IOException {
        return new ScriptedServer(
                (index, in, out) -> {
                    in.readNBytes(requestSize);
                    out.write(response);
                    out.flush();
                    drain(in);
                });
    }

    private static void drain(InputStream in) throws IOException {
        in.readAllBytes();
    }

    private Path corpusProfile(String name, int port) throws IOException {
        Path file = dir.resolve(name + ".ini");
        Files.writeString(
                file,
                Corpus.text(name + ".ini").replaceAll("(?m)^port = \\d+$", "port = " + port),
                StandardCharsets.UTF_8);
        return file;
    }

    @ParameterizedTest
    @ValueSource(strings = {"01_tiny", "02_xml_body", "05_json_code", "09_http"})
    void aCorpusProfilesDryRunShowsTheCapturedBytes(String name) throws Exception {
        byte[] request = Corpus.bytes(name + ".req1.bin");
        byte[] response = Corpus.bytes(name + ".rsp1.bin");
        try (ScriptedServer server = answering(request.length, response)) {
            Path profile = corpusProfile(name, server.port());

            CliResult result = CliResult.run("--test", profile.toString());

            assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
            assertThat(dumped(between(result.out(), "  request, ", "  connected")))
                    .isEqualTo(request);
            String until = name.equals("09_http") ? "  framing: HTTP" : "  framing:";
            assertThat(dumped(between(result.out(), "  response, ", until))).isEqualTo(response);
            assertThat(result.out())
                    .contains("[1/1] request")
                    .contains("  verdict: success")
                    .contains("Dry run: 1 of 1 response a success");
        }
    }

    @Test
    void theFramingAndTheCodeFoundAreShown() throws Exception {
        byte[] request = Corpus.bytes("05_json_code.req1.bin");
        try (ScriptedServer server =
                answering(request.length, Corpus.bytes("05_json_code.rsp1.bin"))) {
            CliResult result =
                    CliResult.run(
                            "--test", corpusProfile("05_json_code", server.port()).toString());

            assertThat(result.out())
                    .contains(
                            "  framing: head 8 bytes, length field (bytes 1-8) \"00000032\" = 32,"
                                    + " body 32 bytes")
                    .contains("  code: \"0000\" (json \"retCode\" in body), success is \"0000\"");
        }
    }

    @Test
    void aFailureIsExitStatusOneAndTheCodeFoundIsNamed() throws Exception {
        byte[] request = Corpus.bytes("01_tiny.req1.bin");
        byte[] failure = "00000006999999".getBytes(StandardCharsets.US_ASCII);
        try (ScriptedServer server = answering(request.length, failure)) {
            CliResult result =
                    CliResult.run("-I", corpusProfile("01_tiny", server.port()).toString());

            assertThat(result.exitCode()).isEqualTo(1);
            assertThat(result.out())
                    .contains("  code: \"999999\" (fixed 1 6 in body), success is \"000000\"")
                    .contains("  verdict: failure")
                    .contains("Dry run: 0 of 1 response a success");
        }
    }

    @Test
    void noAnswerIsATimeoutAndExitStatusOne() throws Exception {
        try (ScriptedServer server = new ScriptedServer((index, in, out) -> drain(in))) {
            CliResult result =
                    CliResult.run(
                            "--test",
                            "--timeout=300ms",
                            corpusProfile("01_tiny", server.port()).toString());

            assertThat(result.exitCode()).isEqualTo(1);
            assertThat(result.out()).contains("error: timeout, no full response within 300 ms");
        }
    }

    @Test
    void aBadProfileIsExitStatusTwo() throws Exception {
        Path bad = dir.resolve("bad.ini");
        Files.writeString(bad, "host = 127.0.0.1\nport = 9\n[request]\n");
        assertThat(CliResult.run("--test", bad.toString()).exitCode()).isEqualTo(2);
    }

    @Test
    void aMixIsSentOnceRequestByRequestInFileOrderOnOneConnection() throws Exception {
        List<String> seen = new ArrayList<>();
        List<Integer> connections = new ArrayList<>();
        byte[] success = "00000006000000".getBytes(StandardCharsets.US_ASCII);
        try (ScriptedServer server =
                new ScriptedServer(
                        (index, in, out) -> {
                            while (true) {
                                byte[] head = in.readNBytes(8);
                                if (head.length < 8) {
                                    return;
                                }
                                int length = Integer.parseInt(new String(head));
                                synchronized (seen) {
                                    seen.add(new String(in.readNBytes(length)));
                                    connections.add(index);
                                }
                                out.write(success);
                                out.flush();
                            }
                        })) {
            Path profile = dir.resolve("mix.ini");
            Files.writeString(
                    profile,
                    String.join(
                            "\n",
                            "host = 127.0.0.1",
                            "port = " + server.port(),
                            "keepalive = true",
                            "[request.pay]",
                            "weight = 70",
                            "req_body = PAY",
                            "[request.ask]",
                            "weight = 30",
                            "req_body = ASK",
                            "[response.ask]",
                            "rsp_code_success = 999999",
                            ""));

            CliResult result = CliResult.run("--test", profile.toString());

            assertThat(result.exitCode()).isEqualTo(1);
            assertThat(seen).containsExactly("PAY", "ASK");
            assertThat(connections).containsExactly(0, 0);
            assertThat(result.out())
                    .contains("2 requests, one connection")
                    .contains("[1/2] pay")
                    .contains("[2/2] ask")
                    .contains("success is \"999999\"")
                    .contains("Dry run: 1 of 2 responses a success");
        }
    }

    @Test
    void theJsonHoldsEachExchangesBytesAsHexAsTheCorpusCapturedThem() throws Exception {
        byte[] request = Corpus.bytes("05_json_code.req1.bin");
        byte[] response = Corpus.bytes("05_json_code.rsp1.bin");
        Path json = dir.resolve("dry-run.json");
        try (ScriptedServer server = answering(request.length, response)) {
            CliResult result =
                    CliResult.run(
                            "--test",
                            "--test-json=" + json,
                            corpusProfile("05_json_code", server.port()).toString());

            assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
        }
        DryRunResult written = DryRunResult.read(Files.readString(json));
        assertThat(written.requests()).isOne();
        assertThat(written.successes()).isOne();
        Exchange exchange = written.exchanges().get(0);
        assertThat(exchange.name()).isEqualTo("request");
        assertThat(exchange.verdict()).isEqualTo("success");
        assertThat(exchange.request()).isEqualTo(HexFormat.of().formatHex(request));
        assertThat(exchange.requestBytes()).isEqualTo(request.length);
        assertThat(exchange.response()).isEqualTo(HexFormat.of().formatHex(response));
        assertThat(exchange.framing())
                .isEqualTo(
                        "head 8 bytes, length field (bytes 1-8) \"00000032\" = 32, body 32 bytes");
        assertThat(exchange.code()).isEqualTo("0000");
        assertThat(exchange.whole()).isTrue();
    }

    @Test
    void envValuesAndSecretFileLinesAreMaskedWhereverTheyAppearEchoesToo() throws Exception {
        Files.writeString(dir.resolve("cards.txt"), "4111222233334444\n");
        Files.writeString(dir.resolve("plain.txt"), "branch-7\n");
        Path profile = dir.resolve("secret.ini");
        Files.writeString(
                profile,
                String.join(
                        "\n",
                        "host = 127.0.0.1",
                        "port = 9",
                        "[request]",
                        "req_body = pin=$(PIN);card=$(CARD);at=$(BRANCH)",
                        "[parameters]",
                        "PIN = ENV, TEST_PIN",
                        "CARD = FILE, cards.txt",
                        "BRANCH = FILE, plain.txt",
                        ""));
        Path json = dir.resolve("masked.json");
        String body = "pin=9876;card=4111222233334444;at=branch-7";
        // The target echoes the request's body back as its response's.
        byte[] response = ("0000" + String.format("%08d", body.length()) + body).getBytes();
        Path echoing = dir.resolve("echo.ini");
        Files.writeString(
                echoing,
                Files.readString(profile)
                        + String.join(
                                "\n",
                                "[response]",
                                "rsp_headlen = 12",
                                "rsp_len_beg = 5",
                                "rsp_len_len = 8",
                                "rsp_code_type = fixed",
                                "rsp_code_location = head",
                                "rsp_code_location_tag = 1 4",
                                "rsp_code_success = 0000",
                                ""));
        try (ScriptedServer server = answering(8 + body.length(), response)) {
            Files.writeString(
                    echoing,
                    Files.readString(echoing).replace("port = 9", "port = " + server.port()));
            CliResult result =
                    CliResult.runWith(
                            name -> name.equals("TEST_PIN") ? "9876" : null,
                            "--test",
                            "--test-json=" + json,
                            "--test-mask-env",
                            "--test-mask-file=cards.txt",
                            echoing.toString());

            assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
            assertThat(result.out())
                    .contains("Masked (** in hex, * in text): PIN (ENV), CARD (FILE cards.txt)")
                    .doesNotContain("9876")
                    .doesNotContain("4111222233334444")
                    .doesNotContain("39 38 37 36")
                    .contains(";at=branch|");
        }
        DryRunResult written = DryRunResult.read(Files.readString(json));
        assertThat(written.masked()).containsExactly("PIN (ENV)", "CARD (FILE cards.txt)");
        Exchange exchange = written.exchanges().get(0);
        String pin = HexFormat.of().formatHex("9876".getBytes());
        String card = HexFormat.of().formatHex("4111222233334444".getBytes());
        for (String hex : List.of(exchange.request(), exchange.response())) {
            assertThat(hex)
                    .doesNotContain(pin)
                    .doesNotContain(card)
                    .contains("**".repeat(4) + HexFormat.of().formatHex(";card=".getBytes()))
                    .contains("**".repeat(16))
                    .contains(HexFormat.of().formatHex("branch-7".getBytes()));
        }
        assertThat(exchange.request().length()).isEqualTo(2 * exchange.requestBytes());
    }

    @Test
    void theMaskAndJsonFlagsNeedTheDryRun() throws Exception {
        CliResult result =
                CliResult.run("-d1s", "--test-mask-env", corpusProfile("01_tiny", 9).toString());

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).contains("are for a dry run: add --test");
    }

    @Test
    void worksWithTheDemoTarget() throws Exception {
        CliResult result =
                CliResult.run(
                        "--test", "--demo-target", corpusProfile("02_xml_body", 9).toString());

        assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
        assertThat(result.out()).contains("verdict: success");
    }

    /** A two-request mix with {@code tls = true}, for the demo target. */
    private Path tlsMix(boolean keepAlive, String... commonLines) throws IOException {
        Path file = dir.resolve("tls-mix.ini");
        List<String> lines = new ArrayList<>(List.of("[common]", "host = 127.0.0.1", "port = 9"));
        lines.add("keepalive = " + keepAlive);
        lines.add("tls = true");
        lines.addAll(List.of(commonLines));
        lines.addAll(
                List.of(
                        "[request.pay]",
                        "weight = 1",
                        "req_body = PAY",
                        "[request.ask]",
                        "weight = 1",
                        "req_body = ASK",
                        ""));
        Files.writeString(file, String.join("\n", lines));
        return file;
    }

    private static int occurrences(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            count++;
        }
        return count;
    }

    @Test
    void aTlsProfileShakesHandsOnEachConnectionAsTheLoadWould() throws Exception {
        CliResult result = CliResult.run("--test", "--demo-target", tlsMix(false).toString());

        assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
        assertThat(result.out())
                .contains("2 requests, one connection per request, TLS by ")
                .contains("Dry run: 2 of 2 responses a success");
        assertThat(occurrences(result.out(), "  TLS handshake done: TLSv1.")).isEqualTo(2);
        assertThat(dumped(between(result.out(), "[1/2] pay\n  request, ", "  connected")))
                .isEqualTo("00000003PAY".getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void aCertificateThatDoesNotNameTheServerFailsEachRequest() throws Exception {
        CliResult result =
                CliResult.run(
                        "--test",
                        "--demo-target",
                        "--tls-server-name=elsewhere.invalid",
                        tlsMix(true).toString());

        assertThat(result.exitCode()).as(result.out() + result.err()).isEqualTo(1);
        assertThat(occurrences(result.out(), "  error: tls: the server's certificate does not"))
                .isEqualTo(2);
        assertThat(result.out())
                .doesNotContain("TLS handshake done")
                .contains("Dry run: 0 of 2 responses a success");
    }

    @Test
    void aServerThatDoesNotSpeakTlsIsNamedSo() throws Exception {
        byte[] plain = "00000006000000".getBytes(StandardCharsets.US_ASCII);
        try (ScriptedServer server = answering(1, plain)) {
            Path profile = tlsMix(true, "tls_verify = false");
            Files.writeString(
                    profile,
                    Files.readString(profile).replace("port = 9", "port = " + server.port()));

            CliResult result = CliResult.run("--test", "--timeout=5s", profile.toString());

            assertThat(result.exitCode()).as(result.out() + result.err()).isEqualTo(1);
            assertThat(result.out()).contains("  error: tls: the server does not speak TLS");
        }
    }
}
