package io.tcpload.operator.reconciler;

import io.tcpload.operator.status.ClockEstimate;
import io.tcpload.operator.status.ClockSample;
import io.tcpload.operator.status.RunnerProbe;
import io.tcpload.operator.status.StepInstruction;
import io.tcpload.runner.client.StartGate;
import io.tcpload.runner.contract.LiveStats;
import io.tcpload.runner.contract.RunnerProtocol;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Talks to runner pods at {@code http://POD_IP:PORT} with short timeouts, so that a runner that
 * hangs never holds a reconcile for long; the control paths with the test's token. Thread-safe.
 *
 * <p>Every {@code /stats} round trip also reads the runner's clock ({@link ClockSample}); the last
 * readings of each pod are kept here, in memory only, for the offset told with the start. An
 * operator restarted has fewer readings, not wrong ones: the estimate only gets better with more.
 */
public final class HttpRunnerClient implements RunnerClient {
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    /** Readings of a pod not asked for this long are dropped (its IP may go to another pod). */
    static final Duration FORGET_AFTER = Duration.ofMinutes(1);

    /** A pod's readings, and when it was last asked. */
    private record Readings(ClockEstimate estimate, long lastUs) {}

    private final Map<String, Readings> clocks = new ConcurrentHashMap<>();
    private final Clock clock;

    private final HttpClient http =
            HttpClient.newBuilder()
                    .connectTimeout(TIMEOUT)
                    .version(HttpClient.Version.HTTP_1_1)
                    .build();
    private final int port;

    public HttpRunnerClient(int port) {
        this(port, Clock.systemUTC());
    }

    HttpRunnerClient(int port, Clock clock) {
        this.port = port;
        this.clock = clock;
    }

    @Override
    public Map<String, RunnerProbe> stats(Collection<String> podIps) {
        forgetOld();
        Map<String, CompletableFuture<RunnerProbe>> asked = new LinkedHashMap<>();
        for (String podIp : podIps) {
            long sentUs = StartGate.epochUs(clock);
            asked.put(
                    podIp,
                    http.sendAsync(
                                    get(podIp, RunnerProtocol.STATS),
                                    HttpResponse.BodyHandlers.ofString())
                            .thenApply(
                                    response ->
                                            probe(
                                                    podIp,
                                                    response,
                                                    sentUs,
                                                    StartGate.epochUs(clock)))
                            .exceptionally(failure -> RunnerProbe.UNREACHABLE));
        }
        Map<String, RunnerProbe> probes = new LinkedHashMap<>();
        asked.forEach((podIp, probe) -> probes.put(podIp, probe.join()));
        return probes;
    }

    private RunnerProbe probe(
            String podIp, HttpResponse<String> response, long sentUs, long receivedUs) {
        if (response.statusCode() != 200) {
            return RunnerProbe.UNREACHABLE;
        }
        LiveStats stats;
        try {
            stats = LiveStats.fromJson(response.body());
        } catch (IllegalArgumentException e) {
            return RunnerProbe.UNREACHABLE;
        }
        ClockSample sample = ClockSample.of(sentUs, stats.nowEpochUs(), receivedUs);
        Readings readings =
                clocks.compute(
                        podIp,
                        (ip, before) ->
                                new Readings(
                                        (before == null ? ClockEstimate.NONE : before.estimate())
                                                .with(sample),
                                        receivedUs));
        return RunnerProbe.of(stats).withEstimatedOffsetUs(readings.estimate().offsetUs());
    }

    /** The estimate of the runner at {@code podIp}'s clock offset; 0 without readings. */
    long estimatedOffsetUs(String podIp) {
        Readings readings = clocks.get(podIp);
        return readings == null ? 0 : readings.estimate().offsetUs();
    }

    private void forgetOld() {
        long beforeUs = StartGate.epochUs(clock) - FORGET_AFTER.toNanos() / 1000;
        clocks.values().removeIf(readings -> readings.lastUs() < beforeUs);
    }

    @Override
    public Optional<String> result(String podIp, String token) {
        try {
            HttpResponse<String> response = send(get(podIp, RunnerProtocol.RESULT, token));
            return response.statusCode() == 200 ? Optional.of(response.body()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * Told one after another, the last runner would hear of the instant a round trip per runner
     * later, and past it with enough runners.
     */
    @Override
    public void start(Collection<String> podIps, long atEpochMs, String token) {
        tellAll(
                podIps,
                podIp -> RunnerProtocol.startAt(atEpochMs, estimatedOffsetUs(podIp)),
                token,
                "the start",
                true);
    }

    /** Told all at once, as the start: every runner begins the step at one instant. */
    @Override
    public void step(Collection<String> podIps, StepInstruction step, String token) {
        tellAll(
                podIps,
                podIp ->
                        RunnerProtocol.step(
                                step.number(),
                                step.ratePerSecond(),
                                step.warmupMs(),
                                step.durationMs(),
                                step.atEpochMs(),
                                estimatedOffsetUs(podIp)),
                token,
                "step " + step.number(),
                false);
    }

    @Override
    public Optional<String> stepResult(String podIp, int number, String token) {
        try {
            HttpResponse<String> response =
                    send(get(podIp, RunnerProtocol.stepResult(number), token));
            return response.statusCode() == 200 ? Optional.of(response.body()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    @Override
    public void endSteps(Collection<String> podIps, String token) {
        List<CompletableFuture<HttpResponse<Void>>> told = new ArrayList<>();
        for (String podIp : podIps) {
            told.add(
                    http.sendAsync(
                            post(podIp, RunnerProtocol.stepEnd(), token),
                            HttpResponse.BodyHandlers.discarding()));
        }
        for (CompletableFuture<HttpResponse<Void>> answer : told) {
            try {
                answer.join();
            } catch (CompletionException e) {
                // Told again on the next look, until its /stats shows it finished.
            }
        }
    }

    /**
     * Posts {@code pathOf} each runner to every runner at once and waits for every answer.
     *
     * @param what what is told, for messages
     * @param conflictTaken whether a 409 is taken as told (a runner told another start instant says
     *     so on its {@code /stats}, and the status computer fails the test for it)
     */
    private void tellAll(
            Collection<String> podIps,
            Function<String, String> pathOf,
            String token,
            String what,
            boolean conflictTaken) {
        Map<String, CompletableFuture<HttpResponse<String>>> told = new LinkedHashMap<>();
        for (String podIp : podIps) {
            told.put(
                    podIp,
                    http.sendAsync(
                            post(podIp, pathOf.apply(podIp), token),
                            HttpResponse.BodyHandlers.ofString()));
        }
        for (Map.Entry<String, CompletableFuture<HttpResponse<String>>> runner : told.entrySet()) {
            HttpResponse<String> response;
            try {
                response = runner.getValue().join();
            } catch (CompletionException e) {
                Throwable cause = e.getCause() == null ? e : e.getCause();
                throw new IllegalStateException(
                        "cannot tell runner "
                                + runner.getKey()
                                + " "
                                + what
                                + ": "
                                + cause.getMessage(),
                        cause);
            }
            int status = response.statusCode();
            if (status == 401) {
                throw new IllegalStateException(
                        "runner "
                                + runner.getKey()
                                + " refused this operator's token (401) for "
                                + what
                                + ": its Secret does not hold the token this operator's key"
                                + " derives");
            }
            if (status != 200 && !(status == 409 && conflictTaken)) {
                String body = response.body() == null ? "" : response.body().strip();
                throw new IllegalStateException(
                        "runner "
                                + runner.getKey()
                                + " answered "
                                + status
                                + " to "
                                + what
                                + (body.isEmpty() ? "" : ": " + body));
            }
        }
    }

    @Override
    public void finish(String podIp, String token) {
        // Not waited for: a hundred runners are told at once, and one that does not answer
        // exits by itself once its --hold-result time is up.
        http.sendAsync(
                post(podIp, RunnerProtocol.FINISH, token), HttpResponse.BodyHandlers.discarding());
    }

    private HttpResponse<String> send(HttpRequest request) throws IOException {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    private HttpRequest get(String podIp, String path) {
        return HttpRequest.newBuilder(uri(podIp, path)).timeout(TIMEOUT).GET().build();
    }

    private HttpRequest get(String podIp, String path, String token) {
        return HttpRequest.newBuilder(uri(podIp, path))
                .timeout(TIMEOUT)
                .header("Authorization", RunnerProtocol.BEARER + token)
                .GET()
                .build();
    }

    private HttpRequest post(String podIp, String path, String token) {
        return HttpRequest.newBuilder(uri(podIp, path))
                .timeout(TIMEOUT)
                .header("Authorization", RunnerProtocol.BEARER + token)
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
    }

    private URI uri(String podIp, String path) {
        String host = podIp.indexOf(':') >= 0 ? "[" + podIp + "]" : podIp;
        return URI.create("http://" + host + ":" + port + path);
    }
}
