package io.tcpload.runner.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real Prometheus server (Debian's package) on loopback for tests, scraping loopback ports every
 * second, with its data and log in a test's folder. Closing it stops the process.
 *
 * <p>Shared by the runner's scrape test and the operator's dashboard test (as a test jar).
 */
public final class Prometheus implements AutoCloseable {
    /** Where Debian installs it; tests that need it are skipped without it. */
    public static final Path BINARY = Path.of("/usr/bin/prometheus");

    private final Process process;
    private final String api;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ObjectMapper json = new ObjectMapper();

    private Prometheus(Process process, String api) {
        this.process = process;
        this.api = api;
    }

    /** Whether the server is installed here. */
    public static boolean installed() {
        return Files.isExecutable(BINARY);
    }

    /**
     * Starts a server in {@code dir} whose jobs each scrape one port of 127.0.0.1, every second.
     *
     * @param jobs job name to the port its target listens on, in the order wanted in the config
     */
    public static Prometheus start(Path dir, Map<String, Integer> jobs) throws IOException {
        StringBuilder config =
                new StringBuilder(
                        "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
                                + "scrape_configs:\n");
        jobs.forEach(
                (job, port) ->
                        config.append("  - job_name: ")
                                .append(job)
                                .append("\n    static_configs:\n      - targets: ['127.0.0.1:")
                                .append(port)
                                .append("']\n"));
        Path configFile = Files.writeString(dir.resolve("prometheus.yml"), config);
        int port = freePort();
        Process process =
                new ProcessBuilder(
                                BINARY.toString(),
                                "--config.file=" + configFile,
                                "--storage.tsdb.path=" + dir.resolve("data"),
                                "--web.listen-address=127.0.0.1:" + port)
                        .redirectErrorStream(true)
                        .redirectOutput(dir.resolve("prometheus.log").toFile())
                        .start();
        return new Prometheus(process, "http://127.0.0.1:" + port);
    }

    /** The base address of its HTTP API. */
    public String api() {
        return api;
    }

    /**
     * The whole answer of an instant query, errors included (Prometheus answers a bad query with a
     * JSON error).
     *
     * @throws IOException while the server is not listening yet, among other causes
     */
    public JsonNode query(String promql) throws IOException, InterruptedException {
        String path = "/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8);
        return json.readTree(send(path).body());
    }

    /** The answer of a GET of {@code pathAndQuery} on its API; an error status is an exception. */
    public JsonNode get(String pathAndQuery) throws IOException, InterruptedException {
        HttpResponse<String> response = send(pathAndQuery);
        if (response.statusCode() != 200) {
            throw new IOException("HTTP " + response.statusCode() + ": " + response.body());
        }
        return json.readTree(response.body());
    }

    private HttpResponse<String> send(String pathAndQuery)
            throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(URI.create(api + pathAndQuery))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** A port free now; Prometheus cannot be told to pick one itself. */
    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
