package io.tcpload.operator.reconciler;

import io.tcpload.operator.status.RunnerProbe;
import io.tcpload.runner.contract.LiveStats;
import io.tcpload.runner.contract.RunnerProtocol;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Talks to runner pods at {@code http://POD_IP:PORT} with short timeouts, so that a runner that
 * hangs never holds a reconcile for long. Thread-safe.
 */
public final class HttpRunnerClient implements RunnerClient {
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    private final HttpClient http =
            HttpClient.newBuilder()
                    .connectTimeout(TIMEOUT)
                    .version(HttpClient.Version.HTTP_1_1)
                    .build();
    private final int port;

    public HttpRunnerClient(int port) {
        this.port = port;
    }

    @Override
    public Map<String, RunnerProbe> stats(Collection<String> podIps) {
        Map<String, CompletableFuture<RunnerProbe>> asked = new LinkedHashMap<>();
        for (String podIp : podIps) {
            asked.put(
                    podIp,
                    http.sendAsync(
                                    get(podIp, RunnerProtocol.STATS),
                                    HttpResponse.BodyHandlers.ofString())
                            .thenApply(HttpRunnerClient::probe)
                            .exceptionally(failure -> RunnerProbe.UNREACHABLE));
        }
        Map<String, RunnerProbe> probes = new LinkedHashMap<>();
        asked.forEach((podIp, probe) -> probes.put(podIp, probe.join()));
        return probes;
    }

    private static RunnerProbe probe(HttpResponse<String> response) {
        if (response.statusCode() != 200) {
            return RunnerProbe.UNREACHABLE;
        }
        try {
            return RunnerProbe.of(LiveStats.fromJson(response.body()));
        } catch (IllegalArgumentException e) {
            return RunnerProbe.UNREACHABLE;
        }
    }

    @Override
    public Optional<String> result(String podIp) {
        try {
            HttpResponse<String> response = send(get(podIp, RunnerProtocol.RESULT));
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
    public void start(Collection<String> podIps, long atEpochMs) {
        Map<String, CompletableFuture<HttpResponse<Void>>> told = new LinkedHashMap<>();
        for (String podIp : podIps) {
            told.put(
                    podIp,
                    http.sendAsync(
                            post(podIp, RunnerProtocol.startAt(atEpochMs)),
                            HttpResponse.BodyHandlers.discarding()));
        }
        for (Map.Entry<String, CompletableFuture<HttpResponse<Void>>> runner : told.entrySet()) {
            int status;
            try {
                status = runner.getValue().join().statusCode();
            } catch (CompletionException e) {
                Throwable cause = e.getCause() == null ? e : e.getCause();
                throw new IllegalStateException(
                        "cannot tell runner "
                                + runner.getKey()
                                + " the start: "
                                + cause.getMessage(),
                        cause);
            }
            if (status != 200 && status != 409) {
                throw new IllegalStateException(
                        "runner " + runner.getKey() + " answered " + status + " to the start");
            }
        }
    }

    @Override
    public void finish(String podIp) {
        try {
            send(post(podIp, RunnerProtocol.FINISH));
        } catch (IOException e) {
            // It exits by itself once its --hold-result time is up.
        }
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

    private HttpRequest post(String podIp, String path) {
        return HttpRequest.newBuilder(uri(podIp, path))
                .timeout(TIMEOUT)
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
    }

    private URI uri(String podIp, String path) {
        String host = podIp.indexOf(':') >= 0 ? "[" + podIp + "]" : podIp;
        return URI.create("http://" + host + ":" + port + path);
    }
}
