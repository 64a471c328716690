package io.tcpload.operator.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.tcpload.operator.crd.Phase;
import io.tcpload.operator.crd.TcpLoadTest;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.operator.crd.TcpLoadTestStatus;
import io.tcpload.operator.status.EventReason;
import io.tcpload.runner.contract.RunnerProtocol;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Only the operator steers a test, and its runners start together on clocks that disagree: the real
 * operator, the mock API server, the kubelet double and real runners on loopback.
 */
class ControlIT {
    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @TempDir static Path workDir;
    private static OperatorHarness world;

    @BeforeAll
    static void startWorld() throws Exception {
        world = new OperatorHarness(workDir);
    }

    @AfterAll
    static void stopWorld() {
        if (world != null) {
            world.close();
        }
    }

    @Test
    void aStrangersStartAndFinishAreRefusedAndTheTestStillSucceeds() throws Exception {
        String namespace = world.createNamespace("stranger");
        world.kubelet.behaving((job, index) -> PodBehaviour.NORMAL);
        TcpLoadTestSpec spec = spec(1);
        spec.setDuration("2s");
        create(namespace, "steered", spec);

        String base =
                "http://" + runningPodIp(namespace, "steered") + ":" + world.settings.runnerPort();
        await().atMost(BOUND)
                .ignoreExceptions()
                .until(() -> send(base + RunnerProtocol.HEALTHZ, "GET").statusCode() == 200);
        long in2099 = 4_070_908_800_000L;
        assertThat(send(base + RunnerProtocol.startAt(in2099), "POST").statusCode()).isEqualTo(401);
        assertThat(send(base + RunnerProtocol.FINISH, "POST").statusCode()).isEqualTo(401);
        assertThat(send(base + RunnerProtocol.RESULT, "GET").statusCode()).isEqualTo(401);
        assertThat(send(base + RunnerProtocol.STATS, "GET").statusCode())
                .as("the stats stay open to scrapers")
                .isEqualTo(200);

        TcpLoadTestStatus status = awaitFinished(namespace, "steered");
        assertThat(status.getPhase()).as(status.getMessage()).isEqualTo(Phase.Succeeded);
        assertThat(status.getStartAtMs()).isLessThan(in2099);
        assertThat(status.getSummary().getRequests()).isPositive();
    }

    @Test
    void aRunnerToldAnotherInstantFailsTheTestSayingSo() throws Exception {
        String namespace = world.createNamespace("mismatch");
        // Runner 1 never gets ready, so the operator sets no instant; runner 0 is told one by
        // someone holding the token.
        world.kubelet.behaving(
                (job, index) ->
                        index == 1
                                ? PodBehaviour.neverReady("ImagePullBackOff")
                                : PodBehaviour.NORMAL);
        TcpLoadTest test = create(namespace, "other", spec(2));
        String token = world.settings.controlKey().tokenFor(test.getMetadata().getUid());
        String base =
                "http://" + runningPodIp(namespace, "other") + ":" + world.settings.runnerPort();
        long atMs = System.currentTimeMillis() + 60_000;
        await().atMost(BOUND)
                .ignoreExceptions()
                .until(
                        () ->
                                send(base + RunnerProtocol.startAt(atMs), "POST", token)
                                                .statusCode()
                                        == 200);

        TcpLoadTestStatus status = awaitFinished(namespace, "other");

        assertThat(status.getPhase()).isEqualTo(Phase.Failed);
        assertThat(status.getMessage())
                .contains("was told to start at")
                .contains("before this test recorded any start instant")
                .contains("something other than this operator steered it");
        assertThat(status.getStartAtMs()).as("never adopted").isNull();
        await().atMost(BOUND)
                .until(
                        () ->
                                world
                                        .client
                                        .v1()
                                        .events()
                                        .inNamespace(namespace)
                                        .list()
                                        .getItems()
                                        .stream()
                                        .anyMatch(
                                                e ->
                                                        EventReason.StartInstantMismatch.name()
                                                                .equals(e.getReason())));
    }

    @Test
    void aRunnerWhoseClockIs50msAheadStillStartsWithinMillisecondsOfTheOther() {
        String namespace = world.createNamespace("clocks");
        world.kubelet.behaving(
                (job, index) ->
                        index == 1
                                ? PodBehaviour.clockAhead(Duration.ofMillis(50))
                                : PodBehaviour.NORMAL);
        create(namespace, "skewed", spec(2));

        TcpLoadTestStatus status = awaitFinished(namespace, "skewed");

        assertThat(status.getPhase()).as(status.getMessage()).isEqualTo(Phase.Succeeded);
        assertThat(status.getStartSkewMs()).isNotNull().isLessThan(10);
        assertThat(status.getMaxClockOffsetMs()).isNotNull().isBetween(40.0, 60.0);
        assertThat(status.getRunners())
                .allSatisfy(row -> assertThat(row.getStartTime()).isNotNull());
    }

    private static TcpLoadTestSpec spec(int runners) {
        TcpLoadTestSpec spec = new TcpLoadTestSpec();
        spec.setProfile(world.profile);
        spec.setRunners(runners);
        spec.setThreads(1);
        spec.setConnections(2 * runners);
        spec.setDuration("1s");
        spec.setStartTimeoutSeconds(20);
        return spec;
    }

    private static TcpLoadTest create(String namespace, String name, TcpLoadTestSpec spec) {
        TcpLoadTest test = new TcpLoadTest();
        test.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
        test.setSpec(spec);
        return world.client
                .resources(TcpLoadTest.class)
                .inNamespace(namespace)
                .resource(test)
                .create();
    }

    private static TcpLoadTestStatus awaitFinished(String namespace, String name) {
        await().atMost(BOUND)
                .pollInterval(Duration.ofMillis(100))
                .until(
                        () -> {
                            TcpLoadTestStatus status = status(namespace, name);
                            return status != null
                                    && status.getPhase() != null
                                    && status.getPhase().finished();
                        });
        return status(namespace, name);
    }

    private static TcpLoadTestStatus status(String namespace, String name) {
        TcpLoadTest test =
                world.client
                        .resources(TcpLoadTest.class)
                        .inNamespace(namespace)
                        .withName(name)
                        .get();
        return test == null ? null : test.getStatus();
    }

    /** The IP of the test's runner 0 once its pod runs. */
    private static String runningPodIp(String namespace, String test) {
        String[] ip = new String[1];
        await().atMost(BOUND)
                .pollInterval(Duration.ofMillis(50))
                .until(
                        () -> {
                            List<Pod> pods =
                                    world.client.pods().inNamespace(namespace).list().getItems();
                            for (Pod pod : pods) {
                                if (pod.getMetadata().getName().startsWith(test + "-runners-0-")
                                        && pod.getStatus() != null
                                        && "Running".equals(pod.getStatus().getPhase())
                                        && pod.getStatus().getPodIP() != null) {
                                    ip[0] = pod.getStatus().getPodIP();
                                    return true;
                                }
                            }
                            return false;
                        });
        return ip[0];
    }

    private static HttpResponse<String> send(String uri, String method) throws Exception {
        return send(uri, method, null);
    }

    private static HttpResponse<String> send(String uri, String method, String token)
            throws Exception {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create(uri))
                        .timeout(Duration.ofSeconds(2))
                        .method(method, HttpRequest.BodyPublishers.noBody());
        if (token != null) {
            request.header("Authorization", RunnerProtocol.BEARER + token);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
