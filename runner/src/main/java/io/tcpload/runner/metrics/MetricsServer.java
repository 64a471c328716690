package io.tcpload.runner.metrics;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The runner's HTTP endpoint: {@code /metrics} (Prometheus text or OpenMetrics, as the scraper's
 * {@code Accept} asks), {@code /stats} (the live {@link LiveStats} as JSON), {@code /healthz} (200
 * while the process serves) and {@code /readyz} (200 once the load has started, 503 before). Only
 * GET and HEAD are answered.
 *
 * <p>Threading: requests are served by one daemon thread of its own, never an event loop; {@link
 * #close} may be called from any thread and waits at most a second for a request in progress.
 */
public final class MetricsServer implements AutoCloseable {
    static final String TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8";
    static final String OPENMETRICS_FORMAT =
            "application/openmetrics-text; version=1.0.0; charset=utf-8";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final ExecutorService executor;
    private final MetricsBridge bridge;

    private MetricsServer(HttpServer server, ExecutorService executor, MetricsBridge bridge) {
        this.server = server;
        this.executor = executor;
        this.bridge = bridge;
    }

    /**
     * Starts serving {@code bridge} on {@code host:port} ({@code port} 0 picks a free one).
     *
     * @throws IOException when the address cannot be bound
     */
    public static MetricsServer start(String host, int port, MetricsBridge bridge)
            throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 16);
        ExecutorService executor =
                Executors.newSingleThreadExecutor(
                        task -> {
                            Thread thread = new Thread(task, "tcpload-metrics");
                            thread.setDaemon(true);
                            return thread;
                        });
        server.setExecutor(executor);
        MetricsServer metrics = new MetricsServer(server, executor, bridge);
        server.createContext("/", metrics.handler());
        server.start();
        return metrics;
    }

    /** The port bound. */
    public int port() {
        return server.getAddress().getPort();
    }

    private HttpHandler handler() {
        return exchange -> {
            try (exchange) {
                String method = exchange.getRequestMethod();
                if (!method.equals("GET") && !method.equals("HEAD")) {
                    exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                    send(exchange, 405, "text/plain; charset=utf-8", "only GET and HEAD\n");
                    return;
                }
                switch (exchange.getRequestURI().getPath()) {
                    case "/metrics" -> metrics(exchange);
                    case "/stats" ->
                            send(exchange, 200, "application/json", statsJson(bridge.stats()));
                    case "/healthz" -> send(exchange, 200, "text/plain; charset=utf-8", "ok\n");
                    case "/readyz" ->
                            send(
                                    exchange,
                                    bridge.ready() ? 200 : 503,
                                    "text/plain; charset=utf-8",
                                    bridge.ready() ? "ready\n" : "waiting for the load to start\n");
                    default ->
                            send(
                                    exchange,
                                    404,
                                    "text/plain; charset=utf-8",
                                    "not found: try /metrics, /stats, /healthz, /readyz\n");
                }
            }
        };
    }

    private void metrics(HttpExchange exchange) throws IOException {
        String accept = exchange.getRequestHeaders().getFirst("Accept");
        boolean openMetrics =
                accept != null
                        && accept.toLowerCase(Locale.ROOT).contains("application/openmetrics-text");
        String contentType = openMetrics ? OPENMETRICS_FORMAT : TEXT_FORMAT;
        send(exchange, 200, contentType, bridge.registry().scrape(contentType));
    }

    static String statsJson(LiveStats stats) {
        try {
            return JSON.writeValueAsString(stats);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void send(HttpExchange exchange, int status, String contentType, String body)
            throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    /** Stops serving and releases the port. */
    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
        try {
            executor.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
