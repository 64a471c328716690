package io.tcpload.runner.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.ProfileLoader;
import io.tcpload.runner.profile.ResponseSpec;
import io.tcpload.runner.testing.Corpus;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DemoServerTest {
    private static final int READ_TIMEOUT_MS = 5_000;

    private final List<DemoServer> servers = new ArrayList<>();

    @AfterEach
    void closeServers() {
        servers.forEach(DemoServer::close);
    }

    private DemoServer start(Profile profile, ServeOptions options) throws InterruptedException {
        DemoServer server = DemoServer.start(profile, options);
        servers.add(server);
        return server;
    }

    private static Profile profile(String name) {
        return switch (name) {
            case "01_tiny" -> Corpus.tinyProfile();
            case "02_xml_body" -> Corpus.xmlBodyProfile();
            case "05_json_code" -> Corpus.jsonCodeProfile();
            case "09_http" -> Corpus.httpProfile();
            default -> throw new IllegalArgumentException(name);
        };
    }

    private static Socket connect(DemoServer server) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", server.port()), READ_TIMEOUT_MS);
        socket.setSoTimeout(READ_TIMEOUT_MS);
        socket.setTcpNoDelay(true);
        return socket;
    }

    /** Reads one whole response as the profile frames it and returns the code it carries. */
    private static String readCode(Profile profile, InputStream in) throws IOException {
        ResponseSpec spec = profile.response();
        if (profile.request().http()) {
            return TestJudge.httpCode(spec, readHttpResponse(in));
        }
        DataInputStream data = new DataInputStream(in);
        byte[] head = new byte[spec.headLength()];
        data.readFully(head);
        byte[] body = new byte[TestJudge.declaredSize(spec, head) - head.length];
        data.readFully(body);
        return TestJudge.code(spec, head, body);
    }

    /** Reads up to and including the blank line that ends an HTTP head. */
    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed inside the HTTP head: " + head);
            }
            head.write(b);
        }
        return head.toString(StandardCharsets.US_ASCII);
    }

    private static byte[] readHttpResponse(InputStream in) throws IOException {
        String head = readHead(in);
        assertThat(head).startsWith("HTTP/1.1 200 OK\r\n");
        int at = head.indexOf("Content-Length: ") + "Content-Length: ".length();
        int length = Integer.parseInt(head.substring(at, head.indexOf('\r', at)));
        byte[] body = new DataInputStream(in).readNBytes(length);
        assertThat(body).hasSize(length);
        ByteArrayOutputStream response = new ByteArrayOutputStream();
        response.writeBytes(head.getBytes(StandardCharsets.US_ASCII));
        response.writeBytes(body);
        return response.toByteArray();
    }

    @ParameterizedTest
    @CsvSource({"01_tiny", "02_xml_body", "05_json_code", "09_http"})
    void answersEachCorpusRequestOnItsOwnConnection(String name) throws Exception {
        Profile profile = profile(name);
        DemoServer server = start(profile, ServeOptions.defaults());
        for (int n = 1; n <= 3; n++) {
            try (Socket socket = connect(server)) {
                socket.getOutputStream().write(Corpus.bytes(name + ".req" + n + ".bin"));
                assertThat(readCode(profile, socket.getInputStream()))
                        .isEqualTo(profile.response().codeSuccess());
            }
        }
        assertThat(server.requestsServed()).isEqualTo(3);
    }

    @ParameterizedTest
    @CsvSource({"01_tiny", "02_xml_body", "05_json_code", "09_http"})
    void servesTheCorpusProfilesAsLoadedFromTheirFiles(String name) throws Exception {
        Path ini = Path.of(getClass().getResource("/wrktcp-corpus/" + name + ".ini").toURI());
        Profile profile = ProfileLoader.load(ini).profile();
        DemoServer server = start(profile, ServeOptions.defaults());
        try (Socket socket = connect(server)) {
            socket.getOutputStream().write(Corpus.bytes(name + ".req1.bin"));
            assertThat(readCode(profile, socket.getInputStream()))
                    .isEqualTo(profile.response().codeSuccess());
        }
    }

    @ParameterizedTest
    @CsvSource({"01_tiny", "02_xml_body", "05_json_code", "09_http"})
    void answersManyRequestsOnOneConnectionInOrderEvenPipelined(String name) throws Exception {
        Profile profile = profile(name);
        DemoServer server = start(profile, ServeOptions.defaults());
        byte[] one = Corpus.bytes(name + ".req1.bin");
        byte[] two = Corpus.bytes(name + ".req2.bin");
        try (Socket socket = connect(server)) {
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            String success = profile.response().codeSuccess();
            out.write(one);
            assertThat(readCode(profile, in)).isEqualTo(success);
            out.write(two);
            assertThat(readCode(profile, in)).isEqualTo(success);
            ByteArrayOutputStream both = new ByteArrayOutputStream();
            both.writeBytes(one);
            both.writeBytes(two);
            out.write(both.toByteArray()); // two requests in one write
            assertThat(readCode(profile, in)).isEqualTo(success);
            assertThat(readCode(profile, in)).isEqualTo(success);
            // a request split in three writes
            out.write(one, 0, 3);
            out.flush();
            out.write(one, 3, one.length / 2 - 3);
            out.flush();
            out.write(one, one.length / 2, one.length - one.length / 2);
            assertThat(readCode(profile, in)).isEqualTo(success);
        }
        assertThat(server.requestsServed()).isEqualTo(5);
    }

    @ParameterizedTest
    @CsvSource({"01_tiny", "09_http"})
    void failureRateOneGivesOnlyFailureCodes(String name) throws Exception {
        Profile profile = profile(name);
        DemoServer server = start(profile, ServeOptions.defaults().withFailureRate(1.0));
        String failure = ResponseFactory.forProfile(profile).failureCode();
        try (Socket socket = connect(server)) {
            for (int i = 0; i < 5; i++) {
                socket.getOutputStream().write(Corpus.bytes(name + ".req1.bin"));
                assertThat(readCode(profile, socket.getInputStream())).isEqualTo(failure);
            }
        }
    }

    @Test
    void halfFailureRateGivesBothCodes() throws Exception {
        Profile profile = Corpus.tinyProfile();
        DemoServer server = start(profile, ServeOptions.defaults().withFailureRate(0.5));
        List<String> codes = new ArrayList<>();
        try (Socket socket = connect(server)) {
            for (int i = 0; i < 200; i++) {
                socket.getOutputStream().write(Corpus.bytes("01_tiny.req1.bin"));
                codes.add(readCode(profile, socket.getInputStream()));
            }
        }
        // 200 fair coin flips all landing the same way: probability 2^-199.
        assertThat(codes).contains("000000", "999999").containsOnly("000000", "999999");
    }

    @Test
    void delayHoldsEachResponseBack() throws Exception {
        Profile profile = Corpus.tinyProfile();
        long delayMs = 200;
        DemoServer server = start(profile, ServeOptions.defaults().withDelayMs(delayMs));
        try (Socket socket = connect(server)) {
            long startNs = System.nanoTime();
            socket.getOutputStream().write(Corpus.bytes("01_tiny.req1.bin"));
            assertThat(readCode(profile, socket.getInputStream())).isEqualTo("000000");
            assertThat(Duration.ofNanos(System.nanoTime() - startNs))
                    .isGreaterThanOrEqualTo(Duration.ofMillis(delayMs));
        }
    }

    @Test
    void delayedPipelinedResponsesKeepTheirOrder() throws Exception {
        Profile profile = Corpus.tinyProfile();
        DemoServer server =
                start(profile, ServeOptions.defaults().withDelayMs(20).withFailureRate(0.5));
        try (Socket socket = connect(server)) {
            ByteArrayOutputStream many = new ByteArrayOutputStream();
            for (int i = 0; i < 50; i++) {
                many.writeBytes(Corpus.bytes("01_tiny.req1.bin"));
            }
            socket.getOutputStream().write(many.toByteArray());
            for (int i = 0; i < 50; i++) {
                assertThat(readCode(profile, socket.getInputStream())).isIn("000000", "999999");
            }
        }
        assertThat(server.requestsServed()).isEqualTo(50);
    }

    @Test
    void garbageClosesTheConnection() throws Exception {
        DemoServer server = start(Corpus.tinyProfile(), ServeOptions.defaults());
        try (Socket socket = connect(server)) {
            socket.getOutputStream()
                    .write("GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(socket.getInputStream().read()).isEqualTo(-1);
        }
        assertThat(server.requestsServed()).isZero();
    }

    @Test
    void oversizedDeclaredRequestClosesTheConnection() throws Exception {
        DemoServer server = start(Corpus.tinyProfile(), ServeOptions.defaults());
        try (Socket socket = connect(server)) {
            socket.getOutputStream().write("99999999abc".getBytes(StandardCharsets.US_ASCII));
            assertThat(socket.getInputStream().read()).isEqualTo(-1);
        }
    }

    @Test
    void httpConnectionCloseIsHonoured() throws Exception {
        Profile profile = Corpus.httpProfile();
        DemoServer server = start(profile, ServeOptions.defaults());
        String request =
                new String(Corpus.bytes("09_http.req1.bin"), StandardCharsets.ISO_8859_1)
                        .replace("Host: www.wrktcp.com\r\n", "Host: x\r\nConnection: close\r\n");
        try (Socket socket = connect(server)) {
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            byte[] response = readHttpResponse(socket.getInputStream());
            assertThat(new String(response, StandardCharsets.US_ASCII))
                    .contains("Connection: close");
            assertThat(socket.getInputStream().read()).isEqualTo(-1);
        }
    }

    @ParameterizedTest(name = "delay {0} ms")
    @CsvSource({"0", "20"})
    void aHeadRequestGetsTheHeadAloneAndTheConnectionGoesOn(long delayMs) throws Exception {
        DemoServer server =
                start(Corpus.httpProfile(), ServeOptions.defaults().withDelayMs(delayMs));
        String head = "HEAD /pay HTTP/1.1\r\nHost: x\r\n\r\n";
        String get = "GET /pay HTTP/1.1\r\nHost: x\r\n\r\n";
        try (Socket socket = connect(server)) {
            // Pipelined, so that a body sent after the first head would show as the second answer.
            socket.getOutputStream().write((head + get + head).getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            String first = readHead(in);
            byte[] full = readHttpResponse(in);
            String third = readHead(in);

            String fullText = new String(full, StandardCharsets.US_ASCII);
            assertThat(first).startsWith("HTTP/1.1 200 OK\r\n");
            // The head a GET gets, Content-Length included, and nothing after it.
            assertThat(fullText).startsWith(first);
            assertThat(full.length).isGreaterThan(first.length());
            assertThat(third).isEqualTo(first);
            socket.setSoTimeout(200);
            assertThatThrownBy(() -> in.read()).isInstanceOf(SocketTimeoutException.class);
        }
    }

    @Test
    void busyPortFailsClearly() throws Exception {
        DemoServer first = start(Corpus.tinyProfile(), ServeOptions.defaults());
        List<Thread> before = serverThreads();
        assertThatThrownBy(
                        () ->
                                start(
                                        Corpus.tinyProfile(),
                                        ServeOptions.defaults().withPort(first.port())))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cannot listen on 127.0.0.1:" + first.port());
        // the failed start stopped the threads it had started
        assertThat(before).containsAll(serverThreads());
    }

    @Test
    void closeStopsEveryServerThread() throws Exception {
        DemoServer server =
                DemoServer.start(Corpus.tinyProfile(), ServeOptions.defaults().withThreads(3));
        try (Socket socket = connect(server)) {
            socket.getOutputStream().write(Corpus.bytes("01_tiny.req1.bin"));
            assertThat(readCode(Corpus.tinyProfile(), socket.getInputStream())).isEqualTo("000000");
        }
        assertThat(serverThreads()).isNotEmpty();
        server.close();
        assertThat(serverThreads()).isEmpty();
        server.close(); // closing twice is harmless
        Awaitility.await()
                .atMost(Duration.ofSeconds(5))
                .untilAsserted(
                        () -> {
                            try (Socket socket = new Socket()) {
                                assertThatThrownBy(
                                                () ->
                                                        socket.connect(
                                                                new InetSocketAddress(
                                                                        "127.0.0.1", server.port()),
                                                                1000))
                                        .isInstanceOf(IOException.class);
                            }
                        });
    }

    private static List<Thread> serverThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .filter(thread -> thread.getName().startsWith("tcpload-serve"))
                .toList();
    }
}
