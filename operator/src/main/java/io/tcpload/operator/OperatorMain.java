package io.tcpload.operator;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
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
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

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

    /**
     * Set before the operator stops, so that giving up the Lease then is not taken as losing it.
     */
    private final AtomicBoolean closing;

    private OperatorMain(
            Operator operator,
            HttpServer http,
            TcpLoadTestReconciler reconciler,
            AtomicBoolean closing) {
        this.operator = operator;
        this.http = http;
        this.reconciler = reconciler;
        this.closing = closing;
    }

    public static void main(String[] args) throws IOException {
        // Building the API client takes a second or more of start-up (its serialisation registers
        // every model type), and reading the settings as long again: the client is built on a
        // thread of its own meanwhile, so that a second core shortens the time to ready.
        CompletableFuture<KubernetesClient> client = new CompletableFuture<>();
        Thread builder =
                new Thread(
                        () -> {
                            try {
                                client.complete(new KubernetesClientBuilder().build());
                            } catch (RuntimeException | Error e) {
                                client.completeExceptionally(e);
                            }
                        },
                        "tcpload-operator-client");
        builder.setDaemon(true);
        builder.start();
        OperatorSettings settings;
        try {
            settings = OperatorSettings.fromEnvironment(System::getenv);
        } catch (IllegalArgumentException e) {
            // A setting the chart or its user got wrong: say which, without a stack trace.
            System.err.println("tcpload-operator: " + e.getMessage());
            System.exit(2);
            return;
        }
        if (!settings.controlKeyShared()) {
            System.err.println(
                    "tcpload-operator: "
                            + OperatorSettings.CONTROL_KEY_FILE_VARIABLE
                            + " is not set: the runners' tokens are derived from a key of this"
                            + " process only, and tests running when it restarts will fail");
        }
        OperatorMain main = start(built(client), settings);
        Runtime.getRuntime().addShutdownHook(new Thread(main::close, "tcpload-operator-stop"));
    }

    /** The client built on its own thread; what failed there is thrown here, as it was. */
    private static KubernetesClient built(CompletableFuture<KubernetesClient> client) {
        try {
            return client.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    /**
     * Starts the operator on {@code client} and its HTTP port, taking part in leader election, when
     * the settings ask for it, as a pod does: {@link Election#ofThisPod()}.
     *
     * @throws IOException when the HTTP port cannot be bound
     */
    public static OperatorMain start(KubernetesClient client, OperatorSettings settings)
            throws IOException {
        return start(client, settings, Election.ofThisPod());
    }

    /**
     * Starts the operator on {@code client} and its HTTP port; with leader election on, this
     * replica reconciles only while it holds the Lease, as {@code election} says.
     *
     * @throws IOException when the HTTP port cannot be bound
     */
    public static OperatorMain start(
            KubernetesClient client, OperatorSettings settings, Election election)
            throws IOException {
        AtomicBoolean closing = new AtomicBoolean();
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        TcpLoadTestReconciler reconciler =
                new TcpLoadTestReconciler(
                        settings.runnerPolicy(),
                        settings.runnerPort(),
                        new HttpRunnerClient(settings.runnerPort()),
                        settings.controlKey(),
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
                                        leaderElection(settings, election, closing));
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
        TcpLoadTestReconciler.releaseDeleted(client, settings.watchNamespaces());
        return new OperatorMain(operator, http, reconciler, closing);
    }

    /**
     * The SDK's leader election, except for what it does when this replica stops leading. Left to
     * itself it exits the process then, also when the replica is being stopped on purpose: inside
     * the shutdown hook, where exiting blocks for ever. Here a stop on purpose ({@link #close}) is
     * just a stop, and only a Lease lost while running ends the process ({@link
     * Election#onLeaseLost}): a replica that lost it must not go on reconciling beside the new
     * leader.
     */
    private static LeaderElectionConfiguration leaderElection(
            OperatorSettings settings, Election election, AtomicBoolean closing) {
        LeaderElectionConfigurationBuilder builder =
                LeaderElectionConfigurationBuilder.aLeaderElectionConfiguration(
                                OperatorSettings.LEASE_NAME)
                        .withLeaseNamespace(settings.leaseNamespace())
                        .withLeaseDuration(election.leaseDuration())
                        .withRenewDeadline(election.renewDeadline())
                        .withRetryPeriod(election.retryPeriod())
                        .withExitOnStopLeading(false)
                        .withLeaderCallbacks(
                                new LeaderCallbacks(
                                        () -> {},
                                        () -> {
                                            if (!closing.get()) {
                                                election.onLeaseLost().run();
                                            }
                                        },
                                        leader -> {}));
        election.identity().ifPresent(builder::withIdentity);
        return builder.build();
    }

    /**
     * How a replica takes part in leader election. Immutable.
     *
     * @param identity the holder name written in the Lease; empty for the pod's name ({@code
     *     HOSTNAME}), as the SDK takes it
     * @param leaseDuration how long a Lease not renewed keeps its holder: how long the replicas are
     *     without a leader when it dies
     * @param renewDeadline how long the leader keeps trying to renew before it gives the Lease up
     * @param retryPeriod how often the Lease is tried
     * @param onLeaseLost run when this replica loses the Lease while running (never when it is
     *     closed): it must stop reconciling
     */
    public record Election(
            Optional<String> identity,
            Duration leaseDuration,
            Duration renewDeadline,
            Duration retryPeriod,
            Runnable onLeaseLost) {

        /**
         * A pod's: the SDK's durations (15 s, 10 s, 2 s), and a lost Lease ends the process, so
         * that the pod restarts as a follower.
         */
        public static Election ofThisPod() {
            return new Election(
                    Optional.empty(),
                    LeaderElectionConfiguration.LEASE_DURATION_DEFAULT_VALUE,
                    LeaderElectionConfiguration.RENEW_DEADLINE_DEFAULT_VALUE,
                    LeaderElectionConfiguration.RETRY_PERIOD_DEFAULT_VALUE,
                    OperatorMain::exitAfterLosingTheLease);
        }
    }

    /**
     * Ends the process from a thread of its own: the elector calls back while holding its lock, and
     * the shutdown hook, which stops the elector, needs that lock.
     */
    private static void exitAfterLosingTheLease() {
        System.err.println(
                "tcpload-operator: lost the leader Lease; exiting, to restart as a follower");
        Thread exit = new Thread(() -> System.exit(1), "tcpload-operator-exit");
        exit.start();
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
        closing.set(true);
        operator.stop();
        http.stop(0);
    }
}
