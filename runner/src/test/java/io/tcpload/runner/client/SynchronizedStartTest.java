package io.tcpload.runner.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.Target;
import io.tcpload.runner.serve.DemoServer;
import io.tcpload.runner.serve.ServeOptions;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.template.RequestTemplate;
import io.tcpload.runner.template.RunnerSlice;
import io.tcpload.runner.testing.Corpus;
import io.tcpload.runner.testing.ScriptedServer;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Runners of a distributed test are armed before their start instant (loops up, connections open,
 * nothing sent) and each loop begins on its own at the instant: two engines in this process, given
 * the same instant, begin within a few milliseconds of it and of each other, and the target sees no
 * request before it.
 */
class SynchronizedStartTest {
    private static final String PROFILE =
            "[common]\nhost = 127.0.0.1\nport = 1\n[request]\nreq_body = this is a test\n"
                    + "[response]\n";

    /** How far apart two runners on this machine may begin; the operator's target is 50 ms. */
    private static final long SKEW_BOUND_US = 20_000;

    /**
     * How much earlier than the instant a begin may read: the wall clock is read in whole
     * microseconds on two threads, and a slewing clock may move a little between the readings.
     */
    private static final long CLOCK_READING_US = 1_000;

    private static final Duration BOUND = Duration.ofSeconds(10);

    /** A thread per engine: each blocks until its run ends. */
    private final ExecutorService engines = Executors.newFixedThreadPool(2);

    @Test
    void twoRunnersGivenTheSameInstantBeginTogetherAtIt() throws Exception {
        Profile profile = Corpus.parse(PROFILE);
        try (DemoServer server =
                DemoServer.start(profile, ServeOptions.defaults().withBindHost("127.0.0.1"))) {
            Profile target = profile.withTarget(new Target("127.0.0.1", server.port()));
            StartGate gateA = StartGate.awaiting();
            StartGate gateB = StartGate.awaiting();
            CountDownLatch ready = new CountDownLatch(2);
            // One runner keeps its connections, the other opens one per request.
            CompletableFuture<RunSummary> a =
                    runAsync(target.withKeepAlive(true), true, gateA, ready);
            CompletableFuture<RunSummary> b =
                    runAsync(target.withKeepAlive(false), false, gateB, ready);
            assertThat(ready.await(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(server.requestsServed()).as("nothing is sent before the start").isZero();

            long atEpochMs = System.currentTimeMillis() + 300;
            gateA.open(atEpochMs);
            gateB.open(atEpochMs);

            List<RunSummary> runs =
                    List.of(
                            a.get(BOUND.toSeconds(), TimeUnit.SECONDS),
                            b.get(BOUND.toSeconds(), TimeUnit.SECONDS));
            long firstUs = Long.MAX_VALUE;
            long lastUs = Long.MIN_VALUE;
            for (RunSummary run : runs) {
                assertThat(run.counts().requests()).isPositive();
                assertThat(run.counts().connectErrors()).isZero();
                assertThat(run.startEpochUs())
                        .isGreaterThanOrEqualTo(atEpochMs * 1000 - CLOCK_READING_US);
                assertThat(run.lastStartEpochUs()).isGreaterThanOrEqualTo(run.startEpochUs());
                firstUs = Math.min(firstUs, run.startEpochUs());
                lastUs = Math.max(lastUs, run.lastStartEpochUs());
            }
            assertThat(lastUs - firstUs).as("start skew, us").isLessThan(SKEW_BOUND_US);
            assertThat(lastUs - atEpochMs * 1000).as("late by, us").isLessThan(SKEW_BOUND_US);
        }
    }

    @Test
    void anArmedRunnerHasItsConnectionsOpenAndWritesNothingBeforeTheInstant() throws Exception {
        Queue<Long> firstByteEpochUs = new ConcurrentLinkedQueue<>();
        try (ScriptedServer server =
                new ScriptedServer(
                        (index, in, out) -> {
                            if (in.read() >= 0) {
                                firstByteEpochUs.add(StartGate.nowEpochUs());
                            }
                            // Never answers: the run ends by its duration, not by a response.
                            in.readAllBytes();
                        })) {
            Profile target =
                    Corpus.parse(PROFILE).withTarget(new Target("127.0.0.1", server.port()));
            StartGate gate = StartGate.awaiting();
            CountDownLatch ready = new CountDownLatch(1);
            CompletableFuture<RunSummary> run = runAsync(target, false, gate, ready);
            assertThat(ready.await(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
            // Open on the client's side when ready; the server's accepting thread may lag.
            await().atMost(BOUND).until(() -> server.accepted() == 4);
            assertThat(firstByteEpochUs).as("bytes received before the start").isEmpty();

            long atEpochMs = System.currentTimeMillis() + 300;
            gate.open(atEpochMs);

            await().atMost(BOUND).until(() -> firstByteEpochUs.size() == 4);
            assertThat(firstByteEpochUs)
                    .allSatisfy(
                            us ->
                                    assertThat(us)
                                            .isGreaterThanOrEqualTo(
                                                    atEpochMs * 1000 - CLOCK_READING_US));
            assertThat(run.get(BOUND.toSeconds(), TimeUnit.SECONDS).startEpochUs())
                    .isGreaterThanOrEqualTo(atEpochMs * 1000 - CLOCK_READING_US);
            assertThat(server.accepted()).as("no connection opened at the instant").isEqualTo(4);
        }
    }

    /** Runs two loops and four connections for 400 ms, once {@code gate} opens. */
    private CompletableFuture<RunSummary> runAsync(
            Profile profile, boolean keepAlive, StartGate gate, CountDownLatch ready) {
        LoadEngine engine =
                new LoadEngine(
                        profile,
                        new LoadConfig(2, 4, 400, 2_000, keepAlive, 1, 0),
                        RequestTemplate.compile(profile, RunnerSlice.SINGLE),
                        Transport.select("auto"));
        InetSocketAddress address =
                new InetSocketAddress(profile.target().host(), profile.target().port());
        ProgressListener listener =
                new ProgressListener() {
                    @Override
                    public void onSecond(Progress progress) {}

                    @Override
                    public void onReady() {
                        ready.countDown();
                    }
                };
        return CompletableFuture.supplyAsync(
                () -> {
                    try {
                        return engine.run(address, listener, new RunControl(), gate);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                },
                engines);
    }

    @AfterEach
    void stopEngines() throws InterruptedException {
        engines.shutdownNow();
        assertThat(engines.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
}
