package io.tcpload.operator.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.ResourceRuleBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectRulesReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectRulesReviewBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.tcpload.operator.OperatorMain;
import io.tcpload.operator.OperatorSettings;
import io.tcpload.operator.crd.Phase;
import io.tcpload.operator.crd.TcpLoadTest;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.operator.crd.TcpLoadTestStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two operator replicas with leader election against one mock API server: only the holder of the
 * Lease reconciles, and when it stops, the other takes the Lease over and runs the next test. The
 * Lease lasts 2 s here (15 s in a pod), so that the take-over is quick.
 */
class LeaderElectionIT {
    private static final String LEASE_NAMESPACE = "tcpload-system";
    private static final Duration LEASE = Duration.ofSeconds(2);
    private static final Duration RUN_BOUND = Duration.ofSeconds(30);

    @TempDir Path workDir;
    private OperatorHarness world;
    private final List<AutoCloseable> opened = new ArrayList<>();

    /** Leases lost while running, by replica: none may be, in this test. */
    private final Map<String, AtomicInteger> leasesLost = new ConcurrentHashMap<>();

    @BeforeEach
    void startWorld() throws Exception {
        world = new OperatorHarness(workDir, false);
        // Before it runs for leader, the SDK asks for its access to Leases with a
        // SelfSubjectRulesReview, which the API server answers from RBAC. The CRUD mode only
        // stores objects: it refuses this one (422, "SelfSubjectRulesReview is invalid": it has
        // no name), and could not compute its status anyway. Answered here as a cluster with the
        // chart's Role would. The Lease itself is plain CRUD, which the mock server does.
        world.server
                .expect()
                .post()
                .withPath("/apis/authorization.k8s.io/v1/selfsubjectrulesreviews")
                .andReturn(201, leaseAccess())
                .always();
    }

    @AfterEach
    void stopWorld() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
        if (world != null) {
            world.close();
        }
    }

    @Test
    void onlyTheLeaderReconcilesAndTheOtherTakesOverWhenItStops() throws Exception {
        // Both run for leader at once; the Lease's resourceVersion lets only one take it.
        Map<String, OperatorMain> replicas =
                Map.of("replica-a", replica("replica-a"), "replica-b", replica("replica-b"));
        await().atMost(RUN_BOUND).until(() -> leaseHolder().isPresent());
        String leader = leaseHolder().orElseThrow();
        String follower = leader.equals("replica-a") ? "replica-b" : "replica-a";
        OperatorMain first = replicas.get(leader);
        OperatorMain second = replicas.get(follower);

        String before = world.createNamespace("before");
        List<Phase> phases = watchPhases(before, "led");
        create(before, "led");
        TcpLoadTestStatus led = awaitFinished(before, "led");

        assertThat(led.getPhase()).as(led.getMessage()).isEqualTo(Phase.Succeeded);
        assertThat(reconciled(second)).as("tests the follower reconciled").isZero();
        assertThat(jobs(before)).isEqualTo(1);
        await().atMost(RUN_BOUND).until(() -> eventReasons(before).contains("Succeeded"));
        assertThat(eventReasons(before))
                .as("each step once: one reconciler")
                .containsExactlyInAnyOrder(
                        "RunnersCreated", "RunnersReady", "Started", "Succeeded");
        assertThat(phases)
                .as("the phases as written, repeats of one phase merged")
                .containsExactly(Phase.Starting, Phase.Running, Phase.Succeeded);
        assertThat(first.reconciler().count(Phase.Succeeded)).isEqualTo(1);
        assertThat(reconciled(second)).as("tests the follower reconciled").isZero();
        assertThat(leaseHolder()).contains(leader);

        first.close();
        // Created while nobody leads: the Lease is still the stopped leader's until it expires.
        String after = world.createNamespace("after");
        create(after, "taken-over");
        await().atMost(LEASE.multipliedBy(5))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> leaseHolder().equals(Optional.of(follower)));
        TcpLoadTestStatus takenOver = awaitFinished(after, "taken-over");

        assertThat(takenOver.getPhase()).as(takenOver.getMessage()).isEqualTo(Phase.Succeeded);
        assertThat(jobs(after)).isEqualTo(1);
        await().atMost(RUN_BOUND).until(() -> eventReasons(after).contains("Succeeded"));
        assertThat(eventReasons(after))
                .containsExactlyInAnyOrder(
                        "RunnersCreated", "RunnersReady", "Started", "Succeeded");
        // The new leader looked at every test, the one finished before it led included.
        assertThat(second.reconciler().count(Phase.Succeeded)).isEqualTo(2);
        assertThat(eventReasons(before)).as("the finished test was not run again").hasSize(4);
        assertThat(leasesLost)
                .as("a replica closed gives its leadership up; it does not lose it")
                .allSatisfy((replica, lost) -> assertThat(lost.get()).isZero());
    }

    /** A replica with its own client and HTTP port, and the short Lease. */
    private OperatorMain replica(String identity) throws Exception {
        KubernetesClient client = world.server.createClient();
        opened.add(client);
        AtomicInteger lost = leasesLost.computeIfAbsent(identity, name -> new AtomicInteger());
        OperatorMain replica =
                OperatorMain.start(
                        client,
                        new OperatorSettings(
                                java.util.Set.of(),
                                world.settings.runnerImage(),
                                world.settings.runnerPort(),
                                true,
                                LEASE_NAMESPACE,
                                0,
                                world.settings.runnerDefaults(),
                                world.settings.allowedRunnerImages(),
                                world.settings.allowedRunnerServiceAccounts(),
                                // Every replica holds the one key, as the chart's Secret gives.
                                world.settings.controlKey(),
                                true),
                        new OperatorMain.Election(
                                Optional.of(identity),
                                LEASE,
                                LEASE.multipliedBy(3).dividedBy(4),
                                Duration.ofMillis(200),
                                lost::incrementAndGet));
        opened.add(replica);
        return replica;
    }

    private Optional<String> leaseHolder() {
        Lease lease =
                world.client
                        .resources(Lease.class)
                        .inNamespace(LEASE_NAMESPACE)
                        .withName(OperatorSettings.LEASE_NAME)
                        .get();
        return lease == null || lease.getSpec() == null
                ? Optional.empty()
                : Optional.ofNullable(lease.getSpec().getHolderIdentity());
    }

    /** Tests this replica reconciled at all, in any phase. */
    private static long reconciled(OperatorMain replica) {
        long count = 0;
        for (Phase phase : Phase.values()) {
            count += replica.reconciler().count(phase);
        }
        return count;
    }

    /** Every phase the test's status is written with, in order, repeats of one phase merged. */
    private List<Phase> watchPhases(String namespace, String name) {
        List<Phase> phases = new CopyOnWriteArrayList<>();
        Watch watch =
                world.client
                        .resources(TcpLoadTest.class)
                        .inNamespace(namespace)
                        .withName(name)
                        .watch(
                                new Watcher<>() {
                                    @Override
                                    public void eventReceived(Action action, TcpLoadTest test) {
                                        Phase phase =
                                                test.getStatus() == null
                                                        ? null
                                                        : test.getStatus().getPhase();
                                        if (phase != null
                                                && (phases.isEmpty()
                                                        || phases.get(phases.size() - 1)
                                                                != phase)) {
                                            phases.add(phase);
                                        }
                                    }

                                    @Override
                                    public void onClose(WatcherException cause) {}
                                });
        opened.add(watch);
        return phases;
    }

    private void create(String namespace, String name) {
        TcpLoadTestSpec spec = new TcpLoadTestSpec();
        spec.setProfile(world.profile);
        spec.setRunners(2);
        spec.setThreads(1);
        spec.setConnections(2);
        spec.setDuration("1s");
        spec.setStartTimeoutSeconds(20);
        TcpLoadTest test = new TcpLoadTest();
        test.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
        test.setSpec(spec);
        world.client.resources(TcpLoadTest.class).inNamespace(namespace).resource(test).create();
    }

    private TcpLoadTestStatus awaitFinished(String namespace, String name) {
        await().atMost(RUN_BOUND)
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

    private TcpLoadTestStatus status(String namespace, String name) {
        return world.client
                .resources(TcpLoadTest.class)
                .inNamespace(namespace)
                .withName(name)
                .get()
                .getStatus();
    }

    private long jobs(String namespace) {
        return world.client.batch().v1().jobs().inNamespace(namespace).list().getItems().size();
    }

    private List<String> eventReasons(String namespace) {
        return world.client.v1().events().inNamespace(namespace).list().getItems().stream()
                .map(io.fabric8.kubernetes.api.model.Event::getReason)
                .toList();
    }

    /** The review's answer for the chart's Role: get, create and update on Leases. */
    private static SelfSubjectRulesReview leaseAccess() {
        return new SelfSubjectRulesReviewBuilder()
                .withNewSpec()
                .withNamespace(LEASE_NAMESPACE)
                .endSpec()
                .withNewStatus()
                .withIncomplete(false)
                .withResourceRules(
                        new ResourceRuleBuilder()
                                .withApiGroups("coordination.k8s.io")
                                .withResources("leases")
                                .withVerbs("get", "create", "update")
                                .build())
                .endStatus()
                .build();
    }
}
