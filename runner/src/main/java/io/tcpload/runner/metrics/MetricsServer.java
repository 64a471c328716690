package io.tcpload.runner.metrics;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
 * while the process serves) and {@code /readyz} (200 once the load has started or waits ready for
 * its start instant, 503 before). These answer GET and HEAD.
 *
 * <p>With a {@link ControlChannel}, also: {@code POST /start?at=EPOCH_MS} sets the start instant
 * (200; the same instant again is accepted, another is 409; {@code /stats} shows it as {@code
 * startAtEpochMs} from then on), {@code GET /result} answers the final JSON result (409 until the
 * run has finished) and {@code POST /finish} lets the runner exit.
 *
 * <p>Threading: requests are served by one daemon thread of its own, never an event loop; {@link
 * #close} may be called from any thread and waits at most a second for a request in progress.
 */
public final class MetricsServer implements AutoCloseable {
    static final String TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8";
    static final String OPENMETRICS_FORMAT =
            "application/openmetrics-text; version=1.0.0; charset=utf-8";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PLAIN = "text/plain; charset=utf-8";

    private final HttpServer server;
    private final ExecutorService executor;
    private final MetricsBridge bridge;
    private final ControlChannel control;

    private MetricsServer(
            HttpServer server,
            ExecutorService executor,
            MetricsBridge bridge,
            ControlChannel control) {
        this.server = server;
        this.executor = executor;
        this.bridge = bridge;
        this.control = control;
    }

    /**
     * Starts serving {@code bridge} on {@code host:port} ({@code port} 0 picks a free one).
     *
     * @throws IOException when the address cannot be bound
     */
    public static MetricsServer start(String host, int port, MetricsBridge bridge)
            throws IOException {
        return start(host, port, bridge, null);
    }

    /**
     * Starts serving {@code bridge} and, when not null, the {@code control} endpoints.
     *
     * @throws IOException when the address cannot be bound
     */
    public static MetricsServer start(
            String host, int port, MetricsBridge bridge, ControlChannel control)
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
        MetricsServer metrics = new MetricsServer(server, executor, bridge, control);
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
                String path = exchange.getRequestURI().getPath();
                if (control != null && method.equals("POST")) {
                    post(exchange, path);
                    return;
                }
                if (!method.equals("GET") && !method.equals("HEAD")) {
                    exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                    send(exchange, 405, "text/plain; charset=utf-8", "only GET and HEAD\n");
                    return;
                }
                switch (path) {
                    case "/metrics" -> metrics(exchange);
                    case "/result" -> result(exchange);
                    case "/stats" ->
                            send(
                                    exchange,
                                    200,
                                    "application/json",
                                    statsJson(
                                            bridge.stats(),
                                            control == null
                                                    ? null
                                                    : control.gate().startAtEpochMs()));
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

    private void post(HttpExchange exchange, String path) throws IOException {
        switch (path) {
            case "/start" -> start(exchange);
            case "/finish" -> {
                // Answered first: once told, the runner closes this endpoint and exits.
                send(exchange, 200, PLAIN, "finishing\n");
                control.finish();
            }
            default -> {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                send(exchange, 405, PLAIN, "POST only to /start and /finish\n");
            }
        }
    }

    private void start(HttpExchange exchange) throws IOException {
        String query = exchange.getRequestURI().getQuery();
        long atEpochMs;
        try {
            if (query == null || !query.startsWith("at=")) {
                throw new NumberFormatException();
            }
            atEpochMs = Long.parseLong(query.substring(3));
        } catch (NumberFormatException e) {
            send(exchange, 400, PLAIN, "give the start as /start?at=EPOCH_MILLISECONDS\n");
            return;
        }
        if (control.gate().open(atEpochMs)) {
            send(exchange, 200, PLAIN, "starting at " + atEpochMs + "\n");
        } else {
            send(
                    exchange,
                    409,
                    PLAIN,
                    "already starting at " + control.gate().startAtEpochMs() + "\n");
        }
    }

    private void result(HttpExchange exchange) throws IOException {
        if (control == null) {
            send(exchange, 404, PLAIN, "no result here: the runner was not started for it\n");
            return;
        }
        var result = control.result();
        if (result.isPresent()) {
            send(exchange, 200, "application/json", result.get());
        } else {
            send(exchange, 409, PLAIN, "the run has not finished\n");
        }
    }

    private void metrics(HttpExchange exchange) throws IOException {
        String accept = exchange.getRequestHeaders().getFirst("Accept");
        boolean openMetrics =
                accept != null
                        && accept.toLowerCase(Locale.ROOT).contains("application/openmetrics-text");
        String contentType = openMetrics ? OPENMETRICS_FORMAT : TEXT_FORMAT;
        send(exchange, 200, contentType, bridge.registry().scrape(contentType));
    }

    /**
     * The live stats, and the start instant this runner was told, when it was ({@code
     * startAtEpochMs}): an orchestrator that lost track of the instant it set finds it here.
     */
    static String statsJson(LiveStats stats, Long startAtEpochMs) {
        ObjectNode node = JSON.valueToTree(stats);
        if (startAtEpochMs != null && startAtEpochMs > 0) {
            node.put("startAtEpochMs", startAtEpochMs);
        }
        try {
            return JSON.writeValueAsString(node);
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
