package io.tcpload.operator.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.tcpload.operator.crd.Phase;
import io.tcpload.operator.crd.TcpLoadTest;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.operator.kubelet.OperatorHarness;
import io.tcpload.runner.client.LoadConfig;
import io.tcpload.runner.client.LoadEngine;
import io.tcpload.runner.client.RunControl;
import io.tcpload.runner.client.Transport;
import io.tcpload.runner.endpoint.LiveStatsTracker;
import io.tcpload.runner.endpoint.RunnerEndpoint;
import io.tcpload.runner.metrics.MetricLabels;
import io.tcpload.runner.metrics.MetricsBridge;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.ProfileLoader;
import io.tcpload.runner.profile.Target;
import io.tcpload.runner.rate.RateSchedule;
import io.tcpload.runner.serve.DemoServer;
import io.tcpload.runner.serve.ServeOptions;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.template.RequestTemplate;
import io.tcpload.runner.template.RunnerSlice;
import io.tcpload.runner.testing.Prometheus;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every PromQL query of the shipped Grafana dashboard, run by a real Prometheus that scrapes a live
 * runner in rate mode and a live operator: each must evaluate without error and return data.
 * Skipped where Prometheus is not installed.
 */
class DashboardQueriesIT {
    private static final String NAMESPACE = "perf";

    /** A dot, so that the dashboard's regular-expression filters must match it escaped. */
    private static final String TEST = "balance.inquiry";

    private static final long RUN_MS = 20_000;
    private static final double RATE_PER_SECOND = 400;
    private static final String PROFILE =
            "[common]\nhost = 127.0.0.1\nport = 1\nkeepalive = true\n"
                    + "[request]\nreq_body = <req><trace>$(TRACE)</trace></req>\n"
                    + "[response]\nrsp_code_type = xml\nrsp_code_location_tag = <retCode>\n"
                    + "rsp_code_success = 000000\n"
                    + "[parameters]\nTRACE = COUNTER, 1, 99999999, 1, %08ld\n";

    /**
     * The operator counts failed reconciliations only once one has failed, which a healthy operator
     * never does; such a query must evaluate, and may be empty.
     */
    private static final Pattern ONLY_AFTER_A_FAILURE = Pattern.compile("reconciliations_failed");

    @Test
    void everyDashboardQueryReturnsDataFromARealPrometheus(@TempDir Path dir) throws Exception {
        assumeTrue(
                Prometheus.installed(),
                "Prometheus is not installed at "
                        + Prometheus.BINARY
                        + " (apt-get install prometheus)");
        Map<String, String> values =
                new LinkedHashMap<>(GrafanaDashboard.variables(NAMESPACE, TEST));
        // Grafana's $__rate_interval is at least four scrape intervals; Prometheus scrapes every
        // second here.
        values.put("__rate_interval", "5s");
        List<String> queries = GrafanaDashboard.load().expressions(values);
        assertThat(queries).isNotEmpty();

        Profile profile = ProfileLoader.parse(PROFILE, dir.resolve("dashboard.ini")).profile();
        MetricsBridge bridge =
                new MetricsBridge(
                        new MetricLabels(TEST, NAMESPACE, "0"), OptionalDouble.of(RATE_PER_SECOND));
        // A small delay and a few failures, so that latency, failure and error panels have
        // something to show.
        ServeOptions serve = new ServeOptions("127.0.0.1", 0, 0.05, 2, 1);
        try (OperatorHarness operator = new OperatorHarness(dir.resolve("operator"));
                DemoServer target = DemoServer.start(profile, serve);
                RunnerEndpoint metrics =
                        RunnerEndpoint.start(
                                "127.0.0.1", 0, bridge, new LiveStatsTracker("test"), null)) {
            reconcileOneTest(operator);
            Map<String, Integer> jobs = new LinkedHashMap<>();
            jobs.put("tcpload-runners", metrics.port());
            jobs.put("tcpload-operator", operator.operator().httpPort());
            RunControl control = new RunControl();
            try (Prometheus prometheus = Prometheus.start(dir, jobs)) {
                Awaitility.await("prometheus up and scraping both targets")
                        .atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(250))
                        .until(() -> resultSize(prometheus, "up == 1") == 2);

                CompletableFuture<RunSummary> run =
                        startLoad(
                                profile.withTarget(new Target("127.0.0.1", target.port())),
                                bridge,
                                control);
                // Rates need two scrapes of a moving counter inside their 5 s window.
                Awaitility.await("prometheus has a rate for the load")
                        .atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(250))
                        .until(
                                () ->
                                        resultSize(
                                                        prometheus,
                                                        "rate(tcpload_requests_total{result=\"success\"}[5s]) > 0")
                                                == 1);

                for (String query : queries) {
                    assertThat(run).as("the load is still running").isNotDone();
                    if (ONLY_AFTER_A_FAILURE.matcher(query).find()) {
                        assertThat(prometheus.query(query).path("status").asText())
                                .as("status of %s", query)
                                .isEqualTo("success");
                        continue;
                    }
                    Awaitility.await("data for " + query)
                            .atMost(Duration.ofSeconds(10))
                            .pollInterval(Duration.ofMillis(250))
                            .untilAsserted(
                                    () -> {
                                        JsonNode answer = prometheus.query(query);
                                        assertThat(answer.path("status").asText())
                                                .as("status of %s: %s", query, answer)
                                                .isEqualTo("success");
                                        assertThat(answer.at("/data/result"))
                                                .as("result of %s", query)
                                                .isNotEmpty();
                                    });
                }
                control.stop();
                assertThat(run.get(30, TimeUnit.SECONDS).counts().requests()).isPositive();
            } finally {
                control.stop();
            }
        }
    }

    /**
     * One test that fails validation: the operator reconciles it once, which starts its
     * reconciliation counters, and counts it under {@code tcpload_tests{phase="Failed"}}.
     */
    private static void reconcileOneTest(OperatorHarness operator) {
        operator.createNamespace(NAMESPACE);
        TcpLoadTestSpec spec = new TcpLoadTestSpec();
        spec.setProfile(operator.profile.replace("rsp_code_type = xml", "rsp_code_type = yaml"));
        spec.setRunners(1);
        spec.setThreads(1);
        spec.setConnections(1);
        spec.setDuration("2s");
        TcpLoadTest test = new TcpLoadTest();
        test.setMetadata(
                new ObjectMetaBuilder().withName("broken").withNamespace(NAMESPACE).build());
        test.setSpec(spec);
        operator.client.resources(TcpLoadTest.class).inNamespace(NAMESPACE).resource(test).create();
        Awaitility.await("the operator has reconciled the test")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> operator.operator().reconciler().count(Phase.Failed) == 1);
    }

    /**
     * The engine in a thread, at a constant rate, feeding the bridge; stopped by {@code control}.
     */
    private static CompletableFuture<RunSummary> startLoad(
            Profile profile, MetricsBridge bridge, RunControl control) {
        LoadConfig config =
                new LoadConfig(
                        1,
                        4,
                        RUN_MS,
                        5_000,
                        true,
                        1,
                        0,
                        1,
                        RateSchedule.constant(RATE_PER_SECOND, RUN_MS),
                        false,
                        0);
        LoadEngine engine =
                new LoadEngine(
                        profile,
                        config,
                        RequestTemplate.compile(profile, RunnerSlice.SINGLE),
                        Transport.select("auto"));
        InetSocketAddress address =
                new InetSocketAddress(profile.target().host(), profile.target().port());
        return CompletableFuture.supplyAsync(
                () -> {
                    try {
                        return engine.run(address, bridge, control);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                });
    }

    /** The number of series an instant query returns, or -1 while Prometheus cannot answer. */
    private static int resultSize(Prometheus prometheus, String query) {
        try {
            return prometheus.query(query).at("/data/result").size();
        } catch (IOException e) {
            return -1; // not listening yet
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
