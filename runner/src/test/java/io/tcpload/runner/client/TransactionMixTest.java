package io.tcpload.runner.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.ProfileLoader;
import io.tcpload.runner.stats.Histograms;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.stats.RunSummary.RequestStats;
import io.tcpload.runner.testing.EngineRun;
import io.tcpload.runner.testing.ScriptedServer;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A 70/20/10 transaction mix over loopback against a target that counts what it gets: each
 * connection's order, the shares, the per-request counts against the target's own, per-request
 * judging, and one slowed request that moves only its own percentiles.
 */
class TransactionMixTest {
    private static final byte[] SUCCESS = "00000006000000".getBytes(StandardCharsets.US_ASCII);

    private final List<ScriptedServer> servers = new ArrayList<>();

    @AfterEach
    void closeServers() throws Exception {
        for (ScriptedServer server : servers) {
            server.close();
        }
    }

    /** What the target saw: per connection the names in order, per name the answers. */
    private static final class Seen {
        final Map<Integer, List<String>> byConnection = new ConcurrentHashMap<>();
        final Map<String, LongAdder> answered = new ConcurrentHashMap<>();
        final AtomicInteger total = new AtomicInteger();
    }

    /**
     * A target that reads 8-digit length-prefixed requests whose body is a request's name, answers
     * the first {@code answerAtMost} of them with the code 000000 after {@code delayMs.apply(name)}
     * ms, and holds the rest unanswered.
     */
    private ScriptedServer target(Seen seen, int answerAtMost, Function<String, Long> delayMs)
            throws Exception {
        ScriptedServer server =
                new ScriptedServer(
                        (index, in, out) -> {
                            List<String> order = new CopyOnWriteArrayList<>();
                            seen.byConnection.put(index, order);
                            while (true) {
                                byte[] head = in.readNBytes(8);
                                if (head.length < 8) {
                                    return;
                                }
                                int length =
                                        Integer.parseInt(
                                                new String(head, StandardCharsets.US_ASCII));
                                String name =
                                        new String(
                                                in.readNBytes(length), StandardCharsets.US_ASCII);
                                if (seen.total.incrementAndGet() > answerAtMost) {
                                    in.readAllBytes(); // hold it until the client goes
                                    return;
                                }
                                order.add(name);
                                long delay = delayMs.apply(name);
                                if (delay > 0) {
                                    Thread.sleep(delay);
                                }
                                seen.answered
                                        .computeIfAbsent(name, n -> new LongAdder())
                                        .increment();
                                answer(out, SUCCESS);
                            }
                        });
        servers.add(server);
        return server;
    }

    private static void answer(OutputStream out, byte[] response) throws Exception {
        out.write(response);
        out.flush();
    }

    private static Profile mix(int port, String extra) throws Exception {
        String text =
                String.join(
                        "\n",
                        "[common]",
                        "host = 127.0.0.1",
                        "port = " + port,
                        "keepalive = true",
                        "[request.authorise]",
                        "weight = 70",
                        "req_body = authorise",
                        "[request.balance]",
                        "weight = 20",
                        "req_body = balance",
                        "[request.reversal]",
                        "weight = 10",
                        "req_body = reversal",
                        extra,
                        "");
        return ProfileLoader.parse(text, Path.of("mix.ini")).profile();
    }

    @Test
    void eachConnectionSendsTheMixInEveryHundredAndTheCountsAreTheTargets() throws Exception {
        Seen seen = new Seen();
        int answered = 2_000;
        ScriptedServer server = target(seen, answered, name -> 0L);
        Profile profile = mix(server.port(), "[response.reversal]\nrsp_code_success = 999999");

        RunSummary summary = EngineRun.run(profile, EngineRun.config(2, 4, 2_500, 10_000, true));

        assertThat(server.failures()).isEmpty();
        assertThat(seen.total.get()).isGreaterThan(answered);
        // Every window of a hundred consecutive requests of a connection holds 70/20/10 exactly.
        for (List<String> order : seen.byConnection.values()) {
            for (int start = 0; start + 100 <= order.size(); start++) {
                Map<String, Long> window =
                        order.subList(start, start + 100).stream()
                                .collect(Collectors.groupingBy(n -> n, Collectors.counting()));
                assertThat(window)
                        .containsEntry("authorise", 70L)
                        .containsEntry("balance", 20L)
                        .containsEntry("reversal", 10L);
            }
        }
        // Connections start at different places of the round.
        assertThat(seen.byConnection.values().stream().map(o -> o.subList(0, 10)).distinct())
                .hasSize(4);

        List<RequestStats> rows = summary.byRequest();
        assertThat(rows)
                .extracting(RequestStats::name)
                .containsExactly("authorise", "balance", "reversal");
        for (RequestStats row : rows) {
            assertThat(row.requests())
                    .as(row.name())
                    .isEqualTo(seen.answered.get(row.name()).sum());
        }
        assertThat(summary.counts().requests()).isEqualTo(answered);
        // The target answers 000000 to all; [response.reversal] wants 999999 of reversals only.
        assertThat(rows.get(0).failures()).isZero();
        assertThat(rows.get(1).failures()).isZero();
        assertThat(rows.get(2).successes()).isZero();
        assertThat(rows.get(2).failures()).isEqualTo(summary.counts().failures());
        // The rows add up to the totals exactly, histograms included.
        Histogram added = Histograms.create();
        rows.forEach(row -> added.add(row.latencyUs()));
        assertThat(added).isEqualTo(summary.latencyUs());
        assertThat(rows.stream().mapToLong(RequestStats::successes).sum())
                .isEqualTo(summary.counts().successes());
    }

    @Test
    void slowingOneRequestAtTheTargetMovesOnlyItsOwnP99() throws Exception {
        Seen seen = new Seen();
        long slowMs = 100;
        ScriptedServer server =
                target(seen, 1_000_000, name -> name.equals("balance") ? slowMs : 0L);
        Profile profile = mix(server.port(), "");

        RunSummary summary = EngineRun.run(profile, EngineRun.config(1, 4, 1_500, 10_000, true));

        Map<String, RequestStats> rows =
                summary.byRequest().stream().collect(Collectors.toMap(RequestStats::name, r -> r));
        assertThat(rows.get("balance").requests()).isPositive();
        assertThat(rows.get("balance").latencyUs().getValueAtPercentile(99))
                .isGreaterThanOrEqualTo(slowMs * 1000);
        assertThat(rows.get("authorise").latencyUs().getValueAtPercentile(99))
                .isLessThan(slowMs * 1000 / 2);
        assertThat(rows.get("reversal").latencyUs().getValueAtPercentile(99))
                .isLessThan(slowMs * 1000 / 2);
    }

    @Test
    void aPlainProfileHasNoRows() throws Exception {
        Seen seen = new Seen();
        ScriptedServer server = target(seen, 200, name -> 0L);
        Profile profile =
                ProfileLoader.parse(
                                "host = 127.0.0.1\nport = "
                                        + server.port()
                                        + "\nkeepalive = true\n[request]\nreq_body = one\n",
                                Path.of("one.ini"))
                        .profile();

        RunSummary summary = EngineRun.run(profile, EngineRun.config(1, 1, 1_000, 10_000, true));

        assertThat(summary.counts().requests()).isEqualTo(200);
        assertThat(summary.byRequest()).isEmpty();
    }
}
