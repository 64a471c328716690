package io.tcpload.runner.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.snapshots.Labels;
import io.tcpload.runner.client.ProgressListener;
import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.SecondSample;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Feeds the Prometheus meters from the engine's per-second progress. The event loops never see a
 * meter: once a second this adds the second's counts to Micrometer counters and its histograms to
 * {@link BucketedHistogram}s.
 *
 * <p>Series (Prometheus names; every one carries the {@link MetricLabels}): {@code
 * tcpload_requests_total{result="success|failure"}}, {@code
 * tcpload_errors_total{kind="connect|read|write|timeout|tls"}}, {@code tcpload_latency_seconds},
 * {@code tcpload_connect_seconds} and {@code tcpload_tls_handshake_seconds} (histograms; the last
 * is empty for plain TCP), {@code tcpload_bytes_read_total}, {@code tcpload_bytes_written_total},
 * {@code tcpload_connections_open}, and with a target rate {@code tcpload_target_rate} and {@code
 * tcpload_behind_schedule_total}. For a transaction mix {@code tcpload_requests_total} carries a
 * label {@code request} too, one series per named request and result, so that summing over it still
 * gives the totals.
 *
 * <p>Threading: {@link #onSecond} is called by the thread that runs the engine, one second at a
 * time; the registry's scrape may be called from any thread at any time.
 */
public final class MetricsBridge implements ProgressListener {
    /** The Prometheus text format's content type. */
    public static final String TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8";

    /** OpenMetrics' content type, for a scraper that asks for it. */
    public static final String OPENMETRICS_FORMAT =
            "application/openmetrics-text; version=1.0.0; charset=utf-8";

    /** The target rate's bits, read by the gauge on the scrape thread. */
    private final AtomicLong targetRate = new AtomicLong();

    private final PrometheusMeterRegistry registry =
            new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Counter successes;
    private final Counter failures;

    /** For a mix, per named request (by index), its success and failure counters; else empty. */
    private final List<Counter[]> byRequest = new ArrayList<>();

    private final Counter connectErrors;
    private final Counter readErrors;
    private final Counter writeErrors;
    private final Counter timeouts;
    private final Counter tlsErrors;
    private final Counter bytesRead;
    private final Counter bytesWritten;
    private final Counter behindSchedule;
    private final AtomicInteger openConnections = new AtomicInteger();
    private final BucketedHistogram latency;
    private final BucketedHistogram connect;
    private final BucketedHistogram handshake;

    /** A capacity search's step number, its rate and the best rate so far; registered once. */
    private final AtomicLong searchStep = new AtomicLong();

    private final AtomicLong searchStepRate = new AtomicLong();
    private final AtomicLong searchBestRate = new AtomicLong();
    private boolean searchRegistered;

    /**
     * @param labels put on every series
     * @param targetRatePerSecond the rate asked for in rate mode; empty otherwise, and then the
     *     rate-mode series are not registered
     */
    public MetricsBridge(MetricLabels labels, OptionalDouble targetRatePerSecond) {
        this(labels, targetRatePerSecond, List.of());
    }

    /**
     * As {@link #MetricsBridge(MetricLabels, OptionalDouble)}, for a run of a transaction mix whose
     * requests are named {@code requestNames} (by index); empty for a run of one request.
     */
    public MetricsBridge(
            MetricLabels labels, OptionalDouble targetRatePerSecond, List<String> requestNames) {
        List<Tag> tags = new ArrayList<>();
        labels.asMap().forEach((name, value) -> tags.add(Tag.of(name, value)));
        registry.config().commonTags(tags);

        if (requestNames.isEmpty()) {
            successes = counter("tcpload.requests", "Complete responses", "result", "success");
            failures = counter("tcpload.requests", "Complete responses", "result", "failure");
        } else {
            // One label set per meter name: with a mix every sample names its request.
            successes = null;
            failures = null;
            for (String name : requestNames) {
                byRequest.add(
                        new Counter[] {
                            requestCounter(name, "success"), requestCounter(name, "failure")
                        });
            }
        }
        String errorsHelp = "Socket-level errors";
        connectErrors = counter("tcpload.errors", errorsHelp, "kind", "connect");
        readErrors = counter("tcpload.errors", errorsHelp, "kind", "read");
        writeErrors = counter("tcpload.errors", errorsHelp, "kind", "write");
        timeouts = counter("tcpload.errors", errorsHelp, "kind", "timeout");
        tlsErrors = counter("tcpload.errors", errorsHelp, "kind", "tls");
        bytesRead =
                Counter.builder("tcpload.bytes.read")
                        .description("Bytes received")
                        .register(registry);
        bytesWritten =
                Counter.builder("tcpload.bytes.written")
                        .description("Bytes sent")
                        .register(registry);
        Gauge.builder("tcpload.connections.open", openConnections, AtomicInteger::get)
                .description("Connections established and not yet closed")
                .register(registry);
        if (targetRatePerSecond.isPresent()) {
            targetRate.set(Double.doubleToRawLongBits(targetRatePerSecond.getAsDouble()));
            Gauge.builder(
                            "tcpload.target.rate",
                            targetRate,
                            bits -> Double.longBitsToDouble(bits.get()))
                    .description("Requests per second asked for")
                    .register(registry);
            behindSchedule =
                    Counter.builder("tcpload.behind.schedule")
                            .description("Requests sent more than 1 ms after their intended time")
                            .register(registry);
        } else {
            behindSchedule = null;
        }

        Labels seriesLabels = Labels.of(labels.pairs().toArray(String[]::new));
        latency =
                new BucketedHistogram(
                        "tcpload_latency_seconds",
                        "Response latency, from the first byte written to the full response",
                        seriesLabels);
        connect =
                new BucketedHistogram("tcpload_connect_seconds", "TCP connect time", seriesLabels);
        registry.getPrometheusRegistry().register(latency);
        handshake =
                new BucketedHistogram(
                        "tcpload_tls_handshake_seconds",
                        "TLS handshake time, from the TCP connect to the handshake's end",
                        seriesLabels);
        registry.getPrometheusRegistry().register(connect);
        registry.getPrometheusRegistry().register(handshake);
    }

    private Counter requestCounter(String request, String result) {
        return Counter.builder("tcpload.requests")
                .description("Complete responses")
                .tags(Tags.of("request", request, "result", result))
                .register(registry);
    }

    private Counter counter(String name, String help, String tag, String value) {
        return Counter.builder(name).description(help).tags(Tags.of(tag, value)).register(registry);
    }

    /** The registry to scrape. */
    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** Whether rate-mode series exist. */
    public boolean rateMode() {
        return behindSchedule != null;
    }

    /** Counts requests sent late in rate mode; ignored without a target rate. */
    public void addBehindSchedule(long requests) {
        if (behindSchedule != null && requests > 0) {
            behindSchedule.increment(requests);
        }
    }

    /** A warm-up's connections: its one figure shown, as a level; none of its counts are. */
    @Override
    public void onWarmingUp(int count) {
        openConnections.set(count);
    }

    @Override
    public void onSecond(Progress progress) {
        SecondSample second = progress.second();
        Counts counts = second.counts();
        if (byRequest.isEmpty()) {
            add(successes, counts.successes());
            add(failures, counts.failures());
        } else if (progress.byRequest() != null) {
            for (int i = 0; i < byRequest.size() && i < progress.byRequest().size(); i++) {
                add(byRequest.get(i)[0], progress.byRequest().successes(i));
                add(byRequest.get(i)[1], progress.byRequest().failures(i));
            }
        }
        add(connectErrors, counts.connectErrors());
        add(readErrors, counts.readErrors());
        add(writeErrors, counts.writeErrors());
        add(timeouts, counts.timeouts());
        add(tlsErrors, counts.tlsErrors());
        add(bytesRead, counts.bytesRead());
        add(bytesWritten, counts.bytesWritten());
        openConnections.set(progress.openConnections());
        if (progress.paced() != null) {
            // Stages move the target from second to second.
            targetRate.set(Double.doubleToRawLongBits(progress.paced().targetRate()));
            addBehindSchedule(progress.paced().late());
        }
        latency.add(progress.latencyUs());
        connect.add(progress.connectUs());
        handshake.add(progress.handshakeUs());
    }

    /**
     * A capacity search's current step: {@code tcpload_search_step} (its number), {@code
     * tcpload_search_step_rate} (its rate, the whole test's) and {@code tcpload_search_best_rate}
     * (the highest rate that held so far, 0 before any). Registered at the first call.
     */
    public synchronized void searchStep(int number, double rate, double bestSoFar) {
        if (!searchRegistered) {
            searchRegistered = true;
            Gauge.builder("tcpload.search.step", searchStep, AtomicLong::get)
                    .description("The capacity search's current step, from 1")
                    .register(registry);
            Gauge.builder(
                            "tcpload.search.step.rate",
                            searchStepRate,
                            bits -> Double.longBitsToDouble(bits.get()))
                    .description("The current step's rate, requests per second for the test")
                    .register(registry);
            Gauge.builder(
                            "tcpload.search.best.rate",
                            searchBestRate,
                            bits -> Double.longBitsToDouble(bits.get()))
                    .description("The highest rate that held its objective so far")
                    .register(registry);
        }
        searchStep.set(number);
        searchStepRate.set(Double.doubleToRawLongBits(rate));
        searchBestRate.set(Double.doubleToRawLongBits(bestSoFar));
    }

    private static void add(Counter counter, long amount) {
        if (amount > 0) {
            counter.increment(amount);
        }
    }
}
