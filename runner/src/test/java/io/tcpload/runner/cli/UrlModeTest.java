package io.tcpload.runner.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tcpload.runner.report.JsonResult;
import io.tcpload.runner.serve.DemoServer;
import io.tcpload.runner.serve.ServeOptions;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.testing.Corpus;
import io.tcpload.runner.testing.HttpRequests;
import io.tcpload.runner.testing.HttpRequests.Request;
import io.tcpload.runner.testing.Nginx;
import io.tcpload.runner.testing.ScriptedServer;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** wrk's URL mode through the real command line, against loopback servers. */
class UrlModeTest {
    private static final Pattern REQUESTS = Pattern.compile("(?m)^  (\\d+) requests in ");

    @TempDir Path dir;

    static long requests(CliResult result) {
        Matcher m = REQUESTS.matcher(result.out());
        assertThat(m.find()).as(result.out()).isTrue();
        return Long.parseLong(m.group(1));
    }

    private static Request first(BlockingQueue<Request> received) {
        assertThat(received).isNotEmpty();
        return received.peek();
    }

    @Test
    void loadsTheDemoTargetAndPrintsTheReport() throws Exception {
        try (DemoServer server =
                DemoServer.start(Corpus.profile("09_http", 1), ServeOptions.defaults())) {
            CliResult result =
                    CliResult.run(
                            "-t1", "-c2", "-d500ms", "http://127.0.0.1:" + server.port() + "/x");

            assertThat(result.exitCode()).as(result.err()).isZero();
            assertThat(result.out())
                    // Like wrk, a URL run names the URL alone.
                    .startsWith(
                            "Running 500ms loadtest @ http://127.0.0.1:" + server.port() + "/x\n")
                    .contains("  1 threads and 2 connections", "Requests/sec:", "Transfer/sec:")
                    .doesNotContain("Socket errors", "Non-2xx");
            assertThat(requests(result)).isPositive();
        }
    }

    @Test
    void headersMethodAndBodyReachTheWire() throws Exception {
        BlockingQueue<Request> received = new ArrayBlockingQueue<>(100);
        try (ScriptedServer server = new ScriptedServer(HttpRequests.responder(200, received))) {
            CliResult result =
                    CliResult.run(
                            "-d300ms",
                            "-H",
                            "X-Test: yes",
                            "--header=Accept: text/plain",
                            "--method",
                            "POST",
                            "--body",
                            "hello",
                            "http://127.0.0.1:" + server.port() + "/pay?id=7");

            assertThat(result.exitCode()).as(result.err()).isZero();
            assertThat(server.failures()).isEmpty();
            Request request = first(received);
            assertThat(request.requestLine()).isEqualTo("POST /pay?id=7 HTTP/1.1");
            assertThat(request.header("Host")).isEqualTo("127.0.0.1:" + server.port());
            assertThat(request.header("X-Test")).isEqualTo("yes");
            assertThat(request.header("Accept")).isEqualTo("text/plain");
            assertThat(request.header("Content-Length")).isEqualTo("5");
            assertThat(request.body()).isEqualTo("hello");
            assertThat(received).allMatch(r -> r.equals(request));
            assertThat(requests(result)).isPositive();
        }
    }

    @Test
    void aGetWithoutBodyHasNoContentLength() throws Exception {
        BlockingQueue<Request> received = new ArrayBlockingQueue<>(100);
        try (ScriptedServer server = new ScriptedServer(HttpRequests.responder(200, received))) {
            CliResult result = CliResult.run("-d300ms", "http://127.0.0.1:" + server.port());

            assertThat(result.exitCode()).as(result.err()).isZero();
            Request request = first(received);
            assertThat(request.requestLine()).isEqualTo("GET / HTTP/1.1");
            assertThat(request.headers()).containsExactly("Host: 127.0.0.1:" + server.port());
            assertThat(request.body()).isEmpty();
        }
    }

    @Test
    void theBodyFileIsSentAsItIs() throws Exception {
        String json = "{\"op\": \"pay\",\n \"amount\": \"12.50\", \"note\": \"caf\u00e9\"}\n";
        Path file = dir.resolve("body.json");
        Files.writeString(file, json, StandardCharsets.UTF_8);
        BlockingQueue<Request> received = new ArrayBlockingQueue<>(100);
        try (ScriptedServer server = new ScriptedServer(HttpRequests.responder(200, received))) {
            CliResult result =
                    CliResult.run(
                            "-d300ms",
                            "--method=PUT",
                            "-H",
                            "Content-Type: application/json",
                            "--body-file",
                            file.toString(),
                            "http://127.0.0.1:" + server.port() + "/orders");

            assertThat(result.exitCode()).as(result.err()).isZero();
            Request request = first(received);
            assertThat(request.requestLine()).isEqualTo("PUT /orders HTTP/1.1");
            assertThat(request.header("Content-Type")).isEqualTo("application/json");
            assertThat(request.header("Content-Length"))
                    .isEqualTo(String.valueOf(json.getBytes(StandardCharsets.UTF_8).length));
            assertThat(request.body()).isEqualTo(json);
        }
    }

    @Test
    void aBodyTooBigToCopyPerConnectionIsSentWholeOnEveryPipelinedRequest() throws Exception {
        // Over the size copied per connection: every send writes a duplicate of one buffer.
        StringBuilder body = new StringBuilder();
        for (int i = 0; body.length() < 10_000; i++) {
            body.append("line ").append(i).append('\n');
        }
        Path file = dir.resolve("big.txt");
        Files.writeString(file, body, StandardCharsets.US_ASCII);
        BlockingQueue<Request> received = new ArrayBlockingQueue<>(100);
        try (ScriptedServer server = new ScriptedServer(HttpRequests.responder(200, received))) {
            CliResult result =
                    CliResult.run(
                            "-d300ms",
                            "-c2",
                            "--pipeline",
                            "4",
                            "--method=POST",
                            "--body-file",
                            file.toString(),
                            "http://127.0.0.1:" + server.port() + "/upload");

            assertThat(result.exitCode()).as(result.err()).isZero();
            assertThat(server.failures()).isEmpty();
            Request request = first(received);
            assertThat(request.body()).isEqualTo(body.toString());
            assertThat(received).hasSizeGreaterThan(4).allMatch(r -> r.equals(request));
        }
    }

    @Test
    void serverErrorsAreFailuresAndKeepWrksNon2xxLine() throws Exception {
        BlockingQueue<Request> received = new ArrayBlockingQueue<>(100);
        try (ScriptedServer server = new ScriptedServer(HttpRequests.responder(500, received))) {
            Path json = dir.resolve("result.json");
            CliResult result =
                    CliResult.run(
                            "-d300ms",
                            "--json",
                            json.toString(),
                            "http://127.0.0.1:" + server.port());

            assertThat(result.exitCode()).as(result.err()).isZero();
            long requests = requests(result);
            assertThat(requests).isPositive();
            // Each complete response is a request, as in wrk, with the statuses reported apart;
            // a 500 is a failure, not a success.
            assertThat(result.out())
                    .contains("  Non-2xx or 3xx responses: " + requests + "\n")
                    .contains("  Failure responses: " + requests + "\n")
                    .contains("(Success:0.00/Failure:")
                    .doesNotContain("Socket errors");
            RunSummary summary = JsonResult.read(Files.readString(json));
            assertThat(summary.counts().failures()).isEqualTo(requests);
            assertThat(summary.counts().successes()).isZero();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(ints = {200, 201, 302})
    void twoAndThreeHundredsAreSuccesses(int status) throws Exception {
        BlockingQueue<Request> received = new ArrayBlockingQueue<>(100);
        try (ScriptedServer server = new ScriptedServer(HttpRequests.responder(status, received))) {
            CliResult result = CliResult.run("-d300ms", "http://127.0.0.1:" + server.port());

            assertThat(result.exitCode()).as(result.err()).isZero();
            assertThat(requests(result)).isPositive();
            assertThat(result.out())
                    .contains("/Failure:0.00)")
                    .doesNotContain("Failure responses", "Non-2xx", "Socket errors");
        }
    }

    @Test
    void aHugeDeclaredBodyIsReadUntilTheTimeoutNotRefusedForItsSize() throws Exception {
        byte[] head =
                "HTTP/1.1 200 OK\r\nContent-Length: 999999999999\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII);
        try (ScriptedServer server =
                new ScriptedServer(
                        (index, in, out) -> {
                            out.write(head);
                            out.write(new byte[64 * 1024]);
                            out.flush();
                            // The body never ends: hold the connection until the client goes.
                            in.transferTo(OutputStream.nullOutputStream());
                        })) {
            Path json = dir.resolve("huge.json");
            CliResult result =
                    CliResult.run(
                            "-d1s",
                            "-T300ms",
                            "--json",
                            json.toString(),
                            "http://127.0.0.1:" + server.port() + "/");

            assertThat(result.exitCode()).as(result.err()).isZero();
            RunSummary summary = JsonResult.read(Files.readString(json));
            assertThat(summary.counts().timeouts()).as(result.err()).isPositive();
            assertThat(summary.counts().readErrors()).as(result.err()).isZero();
            assertThat(result.err() + result.out())
                    .doesNotContain("max_response_bytes")
                    .doesNotContain("exceeds");
        }
    }

    @Test
    void headRequestsAgainstNginxCountEveryAnswerAndNoError(@TempDir Path dir) throws Exception {
        assumeTrue(Nginx.installed(), "nginx is not installed (apt-get install nginx-light)");
        try (Nginx nginx = Nginx.start(dir)) {
            CliResult result =
                    CliResult.run(
                            "-d1s", "-c2", "--pipeline", "3", "--method", "HEAD", nginx.url());

            assertThat(result.exitCode()).isZero();
            Matcher requests = Pattern.compile("(\\d+) requests in").matcher(result.out());
            assertThat(requests.find()).isTrue();
            assertThat(Long.parseLong(requests.group(1))).isGreaterThan(100);
            assertThat(result.out())
                    .doesNotContain("Socket errors")
                    .doesNotContain("Failure responses")
                    .doesNotContain("Non-2xx");
            // nginx answered HEAD with its usual head (Content-Length: 13) and sent no body.
            assertThat(nginx.accessLogLines())
                    .isNotEmpty()
                    .allSatisfy(
                            line ->
                                    assertThat(line)
                                            .contains("\"HEAD /index.html HTTP/1.1\" 200 0 "));
        }
    }

    @Test
    void aDownloadLargerThanAnyProfilesCapCountsAsWrkWould(@TempDir Path dir) throws Exception {
        assumeTrue(Nginx.installed(), "nginx is not installed (apt-get install nginx-light)");
        // Above the 16 MiB max_response_bytes a profile has by default: a URL run keeps no body.
        byte[] file = new byte[20 * 1024 * 1024];
        java.util.Arrays.fill(file, (byte) 'x');
        Files.write(dir.resolve("big.bin"), file);
        try (Nginx nginx = Nginx.start(dir)) {
            CliResult result =
                    CliResult.run("-d1s", "-c2", nginx.url().replace("index.html", "big.bin"));

            assertThat(result.exitCode()).isZero();
            Matcher requests = Pattern.compile("(\\d+) requests in").matcher(result.out());
            assertThat(requests.find()).isTrue();
            assertThat(Long.parseLong(requests.group(1))).isPositive();
            assertThat(result.out())
                    .doesNotContain("Socket errors")
                    .doesNotContain("Failure responses");
            assertThat(result.err()).doesNotContain("max_response_bytes");
        }
    }
}
