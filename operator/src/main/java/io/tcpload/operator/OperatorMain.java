package io.tcpload.operator;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfigurationBuilder;
import io.javaoperatorsdk.operator.monitoring.micrometer.MicrometerMetrics;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tcpload.operator.crd.Phase;
import io.tcpload.operator.reconciler.HttpRunnerClient;
import io.tcpload.operator.reconciler.TcpLoadTestReconciler;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;

/**
 * The operator process, wired by hand: the JOSDK {@link Operator} with the {@link
 * TcpLoadTestReconciler}, leader election on a Lease when asked, and one HTTP port serving {@code
 * /healthz}, {@code /readyz} (200 once the controller's informers are up) and {@code /metrics}
 * (JOSDK's Micrometer metrics and {@code tcpload_tests{phase}}).
 *
 * <p>Status and resources are patched without server-side apply, in production as in the tests
 * against the mock API server (which has none): what is tested is what runs.
 */
public final class OperatorMain implements AutoCloseable {
    static final int RECONCILE_THREADS = 8;

    private final Operator operator;
    private final HttpServer http;
    private final TcpLoadTestReconciler reconciler;

    private OperatorMain(Operator operator, HttpServer http, TcpLoadTestReconciler reconciler) {
        this.operator = operator;
        this.http = http;
        this.reconciler = reconciler;
    }

    public static void main(String[] args) throws IOException {
        OperatorSettings settings = OperatorSettings.fromEnvironment(System::getenv);
        OperatorMain main = start(new KubernetesClientBuilder().build(), settings);
        Runtime.getRuntime().addShutdownHook(new Thread(main::close, "tcpload-operator-stop"));
    }

    /**
     * Starts the operator on {@code client} and its HTTP port.
     *
     * @throws IOException when the HTTP port cannot be bound
     */
    public static OperatorMain start(KubernetesClient client, OperatorSettings settings)
            throws IOException {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        TcpLoadTestReconciler reconciler =
                new TcpLoadTestReconciler(
                        settings.runnerImage(),
                        settings.runnerPort(),
                        new HttpRunnerClient(settings.runnerPort()),
                        Clock.systemUTC());
        for (Phase phase : Phase.values()) {
            Gauge.builder("tcpload.tests", reconciler, r -> r.count(phase))
                    .description("TcpLoadTests by phase")
                    .tag("phase", phase.name())
                    .register(registry);
        }
        Operator operator =
                new Operator(
                        overrider -> {
                            overrider
                                    .withKubernetesClient(client)
                                    // Per-resource series would grow with every test ever run.
                                    .withMetrics(
                                            MicrometerMetrics.withoutPerResourceMetrics(registry))
                                    // Reconciles wait on runners (2 s timeouts at worst); a few
                                    // threads keep up with many tests and keep the idle
                                    // footprint small.
                                    .withConcurrentReconciliationThreads(RECONCILE_THREADS)
                                    .withUseSSAToPatchPrimaryResource(false)
                                    .withSSABasedCreateUpdateMatchForDependentResources(false)
                                    .withCloseClientOnStop(false)
                                    .withReconciliationTerminationTimeout(Duration.ofSeconds(5));
                            if (settings.leaderElection()) {
                                overrider.withLeaderElectionConfiguration(
                                        LeaderElectionConfigurationBuilder
                                                .aLeaderElectionConfiguration(
                                                        OperatorSettings.LEASE_NAME)
                                                .withLeaseNamespace(settings.leaseNamespace())
                                                .build());
                            }
                        });
        operator.register(
                reconciler,
                config -> {
                    if (settings.watchNamespaces().isEmpty()) {
                        config.watchingAllNamespaces();
                    } else {
                        config.settingNamespaces(settings.watchNamespaces());
                    }
                });
        HttpServer http = HttpServer.create(new InetSocketAddress(settings.httpPort()), 16);
        http.setExecutor(
                Executors.newSingleThreadExecutor(
                        task -> {
                            Thread thread = new Thread(task, "tcpload-operator-http");
                            thread.setDaemon(true);
                            return thread;
                        }));
        http.createContext("/healthz", exchange -> send(exchange, 200, "ok\n"));
        http.createContext(
                "/readyz",
                exchange -> {
                    boolean ready =
                            operator.getRuntimeInfo().isStarted()
                                    && operator.getRuntimeInfo().allEventSourcesAreHealthy();
                    send(exchange, ready ? 200 : 503, ready ? "ready\n" : "starting\n");
                });
        http.createContext("/metrics", exchange -> send(exchange, 200, registry.scrape()));
        http.start();
        operator.start();
        return new OperatorMain(operator, http, reconciler);
    }

    /** The bound HTTP port. */
    public int httpPort() {
        return http.getAddress().getPort();
    }

    /** The reconciler, for its counts. */
    public TcpLoadTestReconciler reconciler() {
        return reconciler;
    }

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        try (exchange) {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    /** Stops reconciling and serving. */
    @Override
    public void close() {
        operator.stop();
        http.stop(0);
    }
}
