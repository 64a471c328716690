package io.tcpload.operator.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.tcpload.operator.crd.CapacityStatus;
import io.tcpload.operator.crd.Phase;
import io.tcpload.operator.crd.SearchSettings;
import io.tcpload.operator.crd.SearchStep;
import io.tcpload.operator.crd.TcpLoadTest;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.operator.crd.TcpLoadTestStatus;
import io.tcpload.runner.profile.ProfileLoader;
import io.tcpload.runner.search.SearchSpec;
import io.tcpload.runner.serve.DemoServer;
import io.tcpload.runner.serve.ServeOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A capacity search ({@code spec.search}) in a cluster: the real operator against the mock API
 * server drives the steps of two real runners (the kubelet double's) over their control channel,
 * against a loopback demo target of eight workers of 4 ms, a known capacity of 2,000 requests a
 * second.
 */
class CapacitySearchIT {
    /** The demo target's capacity: 8 workers × 1000 / 4 ms. */
    private static final double KNEE = 2000;

    private static final Duration SEARCH_BOUND = Duration.ofSeconds(90);
    private static final AtomicInteger NAMESPACES = new AtomicInteger();

    @TempDir static Path workDir;
    private static OperatorHarness world;
    private static DemoServer kneed;

    /** Runner 1 of the test named {@code lost} is killed this long after it began running. */
    private static final Duration KILL_AFTER = Duration.ofMillis(9_000);

    @BeforeAll
    static void startWorld() throws Exception {
        world = new OperatorHarness(workDir);
        world.kubelet.behaving(
                (job, index) ->
                        job.getMetadata().getName().startsWith("lost-runner") && index == 1
                                ? PodBehaviour.killedAfter(KILL_AFTER, "OOMKilled")
                                : PodBehaviour.NORMAL);
        String withoutPort = OperatorHarness.PROFILE_TEMPLATE.replace("PORT", "1");
        kneed =
                DemoServer.start(
                        ProfileLoader.parse(withoutPort, workDir.resolve("kneed.ini")).profile(),
                        new ServeOptions("127.0.0.1", 0, 0.0, 0, 1, 0, 0, Optional.empty(), 8, 4));
    }

    @AfterAll
    static void stopWorld() {
        if (world != null) {
            world.close();
        }
        if (kneed != null) {
            kneed.close();
        }
    }

    /** Two runners, 64 connections each, searching 500..4000/s as examples/capacity.yaml does. */
    private static TcpLoadTestSpec searchSpec() {
        TcpLoadTestSpec spec = new TcpLoadTestSpec();
        spec.setProfile(
                OperatorHarness.PROFILE_TEMPLATE.replace("PORT", Integer.toString(kneed.port())));
        spec.setRunners(2);
        spec.setThreads(1);
        spec.setConnections(128);
        spec.setKeepAlive(true);
        spec.setDuration(null);
        spec.setStartTimeoutSeconds(20);
        // Generous, so that a loaded machine's pauses do not break it: the backlog finds the knee.
        SearchSettings search = new SearchSettings(List.of("p99 < 250ms"), 500L, 4000L);
        search.setStep("3s");
        search.setWarmup("500ms");
        search.setPrecision("3%");
        spec.setSearch(search);
        spec.setThresholds(List.of("successRatio >= 0.99"));
        return spec;
    }

    private static String create(String name, TcpLoadTestSpec spec) {
        String namespace = world.createNamespace("search-" + NAMESPACES.incrementAndGet());
        TcpLoadTest test = new TcpLoadTest();
        test.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
        test.setSpec(spec);
        world.client.resources(TcpLoadTest.class).inNamespace(namespace).resource(test).create();
        return namespace;
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

    @Test
    void twoRunnersFindTheKneeStepByStepAndTheStatusHoldsEveryStep() throws Exception {
        long beganNs = System.nanoTime();
        String namespace = create("knee", searchSpec());
        List<Integer> stepsSeen = new ArrayList<>();

        // The operator keeps nothing of a search in memory: one restarted in the middle of it
        // carries on from the status.
        await().atMost(SEARCH_BOUND)
                .pollInterval(Duration.ofMillis(100))
                .until(() -> watch(namespace, "knee", stepsSeen, 3));
        world.restartOperator();
        await().atMost(SEARCH_BOUND)
                .pollInterval(Duration.ofMillis(100))
                .until(() -> watch(namespace, "knee", stepsSeen, Integer.MAX_VALUE));
        double wallSeconds = (System.nanoTime() - beganNs) / 1e9;
        TcpLoadTestStatus status = status(namespace, "knee");
        CapacityStatus capacity = status.getCapacity();

        assertThat(status.getPhase()).as(status.getMessage()).isEqualTo(Phase.Succeeded);
        assertThat(capacity.getEnd()).as(capacity.getMessage()).isEqualTo("found");
        // Never above the knee; the bound below keeps a pause of the loaded machine in one short
        // step, which narrows the search below the rate it failed (as ExamplesTest's).
        assertThat(capacity.getRate()).isBetween(KNEE * 0.75, KNEE);
        assertThat(capacity.getMessage()).contains("held again for its confirmation step");
        assertThat(capacity.getCurrent()).isNull();
        List<SearchStep> steps = capacity.getSteps();
        assertThat(steps).hasSizeBetween(3, 12);
        for (int i = 0; i < steps.size(); i++) {
            SearchStep step = steps.get(i);
            assertThat(step.getNumber()).isEqualTo(i + 1);
            assertThat(step.getStartAtMs()).isNotNull();
            assertThat(step.getAchievedRate()).isPositive();
            assertThat(step.getP99Ms()).isPositive();
            assertThat(step.getMeanMs()).isPositive();
            assertThat(step.getHeld() || !step.getReasons().isEmpty()).isTrue();
            if (i > 0) {
                // Each step after the one before, all runners together.
                assertThat(step.getStartAtMs()).isGreaterThan(steps.get(i - 1).getStartAtMs());
            }
        }
        assertThat(steps.get(0).getTargetRate()).isEqualTo(500.0);
        assertThat(steps.get(0).getKind()).isEqualTo("grow");
        SearchStep last = steps.get(steps.size() - 1);
        assertThat(last.getKind()).isEqualTo("confirm");
        assertThat(last.getHeld()).isTrue();
        assertThat(last.getTargetRate()).isEqualTo(capacity.getRate());
        assertThat(capacity.getConfirmation().getNumber()).isEqualTo(last.getNumber());
        assertThat(capacity.getWallTimeMs()).isPositive();
        assertThat(stepsSeen).as("the current step shown live").contains(1, steps.size());
        // The summary and the thresholds are the confirmation step's: every runner's last.
        assertThat(status.getSummary().getTps())
                .isCloseTo(last.getAchievedRate(), withPercentage(5));
        assertThat(status.getMessage())
                .startsWith(
                        "Capacity "
                                + SearchSpec.formatRate(capacity.getRate())
                                + " requests/sec (SLO p99 < 250ms)")
                .contains("Every threshold held: successRatio >= 0.99.");
        assertThat(status.getRunners())
                .hasSize(2)
                .allSatisfy(row -> assertThat(row.getRequests()).isPositive());
        await().atMost(Duration.ofSeconds(10))
                .until(() -> countEvents(namespace, "StepJudged") >= steps.size());
        System.out.printf(
                "capacity search in a cluster: %s/s in %d steps, %.1f s from create to Succeeded"
                        + " (search %.1f s)%n",
                SearchSpec.formatRate(capacity.getRate()),
                steps.size(),
                wallSeconds,
                capacity.getWallTimeMs() / 1000.0);
    }

    /**
     * Notes the step told, live, as {@code kubectl get -o wide} shows it; whether the test has
     * finished or is told step {@code untilStep}.
     */
    private static boolean watch(
            String namespace, String name, List<Integer> stepsSeen, int untilStep) {
        TcpLoadTestStatus status = status(namespace, name);
        if (status == null) {
            return false;
        }
        if (status.getCapacity() != null && status.getCapacity().getCurrent() != null) {
            int number = status.getCapacity().getCurrent().getNumber();
            if (stepsSeen.isEmpty() || stepsSeen.get(stepsSeen.size() - 1) != number) {
                stepsSeen.add(number);
            }
            if (number >= untilStep) {
                return true;
            }
        }
        return status.getPhase() != null && status.getPhase().finished();
    }

    @Test
    void aRunnerLostInAStepEndsTheSearchFailedWithTheStepsSoFar() {
        String namespace = create("lost-runner", searchSpec());

        await().atMost(SEARCH_BOUND)
                .pollInterval(Duration.ofMillis(100))
                .until(
                        () -> {
                            TcpLoadTestStatus status = status(namespace, "lost-runner");
                            return status != null
                                    && status.getPhase() != null
                                    && status.getPhase().finished();
                        });
        TcpLoadTestStatus status = status(namespace, "lost-runner");
        CapacityStatus capacity = status.getCapacity();

        assertThat(status.getPhase()).isEqualTo(Phase.Failed);
        assertThat(status.getMessage())
                .startsWith("The capacity search stopped: ")
                .containsPattern(
                        "runner 1 \\(pod lost-runner-runners-1-\\w+\\) lost at \\d+ s: OOMKilled: exit code 137 \\(in step \\d+\\)")
                .contains("the search stopped after");
        assertThat(capacity.getEnd()).isEqualTo("stopped");
        assertThat(capacity.getCurrent()).isNull();
        // Killed 9 s in: the first step (from about 1.5 s, 3.5 s long) was judged on both runners.
        assertThat(capacity.getSteps()).as(status.getMessage()).isNotEmpty();
        assertThat(capacity.getSteps().get(0).getTargetRate()).isEqualTo(500.0);
        assertThat(
                        status.getConditions().stream()
                                .filter(c -> c.getType().equals(TcpLoadTestStatus.COMPLETED))
                                .findFirst()
                                .orElseThrow()
                                .getReason())
                .isEqualTo("RunnerFailed");
        // The other runner is told the search ended and to finish: it does not wait for ever.
        List<String> pods = world.kubelet.podNames("lost-runner-runners");
        await().atMost(Duration.ofSeconds(30)).until(() -> !world.kubelet.runnerAlive(pods.get(0)));
    }

    private static long countEvents(String namespace, String reason) {
        return world.client.v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(event -> reason.equals(event.getReason()))
                .count();
    }
}
