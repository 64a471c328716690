package io.tcpload.runner.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.Target;
import io.tcpload.runner.serve.DemoServer;
import io.tcpload.runner.serve.ServeOptions;
import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.testing.Corpus;
import io.tcpload.runner.testing.EngineRun;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The engine against the demo target, for every response type (fixed code, XML code, JSON code,
 * HTTP) and every connection mode (one request per connection, keep-alive, keep-alive with four
 * requests in flight). Each run stops as soon as the target has served enough responses; its
 * duration only bounds it.
 */
class DemoTargetLoadTest {
    private static final long BOUND_MS = 3_000;
    private static final long ENOUGH_RESPONSES = 150;

    /** How the engine uses its connections. */
    enum Mode {
        SHORT(false, 1),
        KEEP_ALIVE(true, 1),
        PIPELINE_4(true, 4);

        final boolean keepAlive;
        final int pipeline;

        Mode(boolean keepAlive, int pipeline) {
            this.keepAlive = keepAlive;
            this.pipeline = pipeline;
        }
    }

    static Stream<Arguments> profilesAndModes() {
        Stream.Builder<Arguments> all = Stream.builder();
        for (String name : new String[] {"01_tiny", "02_xml_body", "05_json_code", "09_http"}) {
            for (Mode mode : Mode.values()) {
                all.add(Arguments.of(name, mode));
            }
        }
        return all.build();
    }

    private static RunSummary load(String name, Mode mode, ServeOptions options) throws Exception {
        Profile profile = Corpus.profile(name, 1).withKeepAlive(mode.keepAlive);
        try (DemoServer server = DemoServer.start(profile, options)) {
            Profile local = profile.withTarget(new Target("127.0.0.1", server.port()));
            LoadConfig config =
                    new LoadConfig(1, 2, BOUND_MS, 5_000, mode.keepAlive, mode.pipeline, 0);
            return EngineRun.run(local, config, () -> server.requestsServed() >= ENOUGH_RESPONSES);
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("profilesAndModes")
    void everyResponseOfTheDemoTargetIsASuccess(String name, Mode mode) throws Exception {
        RunSummary summary = load(name, mode, ServeOptions.defaults());

        Counts counts = summary.counts();
        assertThat(summary.errorMessages()).isEmpty();
        assertThat(counts.errors()).isZero();
        assertThat(counts.requests()).isPositive();
        assertThat(counts.successes()).isEqualTo(counts.requests());
        assertThat(counts.failures()).isZero();
        assertThat(counts.non2xx3xx()).isZero();
        assertThat(summary.latencyUs().getTotalCount()).isEqualTo(counts.requests());
        assertThat(counts.bytesRead()).isPositive();
        assertThat(counts.bytesWritten()).isPositive();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("profilesAndModes")
    void failureResponsesAreCountedApartFromSuccesses(String name, Mode mode) throws Exception {
        RunSummary summary = load(name, mode, ServeOptions.defaults().withFailureRate(0.5));

        Counts counts = summary.counts();
        assertThat(counts.errors()).isZero();
        assertThat(counts.successes()).isPositive();
        assertThat(counts.failures()).isPositive();
        assertThat(counts.successes() + counts.failures()).isEqualTo(counts.requests());
    }

    @Test
    void localhostResolvesAndIsLoaded() throws Exception {
        // wrktcp accepted "localhost" but never connected (E7).
        Profile profile = Corpus.profile("01_tiny", 1);
        try (DemoServer server = DemoServer.start(profile, ServeOptions.defaults())) {
            Profile local = profile.withTarget(new Target("localhost", server.port()));
            RunSummary summary =
                    EngineRun.run(
                            local,
                            EngineRun.config(1, 1, BOUND_MS, 5_000, false),
                            () -> server.requestsServed() >= 20);
            assertThat(summary.counts().errors()).isZero();
            assertThat(summary.counts().successes()).isPositive();
        }
    }

    @Test
    void requestsInFlightWhenTheRunEndsAreNotErrors() throws Exception {
        Profile profile = Corpus.profile("01_tiny", 1);
        try (DemoServer server =
                DemoServer.start(profile, ServeOptions.defaults().withDelayMs(300))) {
            Profile local = profile.withTarget(new Target("127.0.0.1", server.port()));
            // Every connection has a request in flight when the second ends.
            RunSummary summary = EngineRun.run(local, EngineRun.config(1, 4, 1_000, 5_000, false));
            assertThat(summary.errorMessages()).isEmpty();
            assertThat(summary.counts().errors()).isZero();
            assertThat(summary.counts().successes()).isPositive();
            assertThat(summary.counts().requests()).isEqualTo(summary.counts().successes());
        }
    }

    @Test
    void workersSaturateAtTheirCapacity() throws Exception {
        // Two workers of 5 ms: 400 a second. Sixteen connections in a closed loop keep the queue
        // full, so the throughput is the capacity and each response waits for the queue ahead.
        Profile profile = Corpus.profile("01_tiny", 1).withKeepAlive(true);
        try (DemoServer server =
                DemoServer.start(profile, ServeOptions.defaults().withWorkers(2, 5))) {
            Profile local = profile.withTarget(new Target("127.0.0.1", server.port()));
            RunSummary summary = EngineRun.run(local, EngineRun.config(1, 16, 2_000, 5_000, true));
            double perSecond = summary.counts().requests() / (summary.runtimeUs() / 1e6);
            assertThat(summary.counts().errors()).isZero();
            assertThat(perSecond).isBetween(360.0, 404.0);
            // Little's law: 16 in the system at 400 a second is 40 ms each.
            assertThat(summary.latencyUs().getValueAtPercentile(50)).isBetween(30_000L, 60_000L);
        }
    }

    @Test
    void belowTheirCapacityWorkersAnswerInTheirServiceTime() throws Exception {
        Profile profile = Corpus.profile("01_tiny", 1).withKeepAlive(true);
        try (DemoServer server =
                DemoServer.start(profile, ServeOptions.defaults().withWorkers(4, 5))) {
            Profile local = profile.withTarget(new Target("127.0.0.1", server.port()));
            // Two connections against four workers: nobody waits for a worker.
            RunSummary summary = EngineRun.run(local, EngineRun.config(1, 2, 1_000, 5_000, true));
            assertThat(summary.counts().errors()).isZero();
            assertThat(summary.latencyUs().getValueAtPercentile(50)).isBetween(5_000L, 9_000L);
        }
    }
}
