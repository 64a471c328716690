package io.tcpload.operator.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.tcpload.operator.crd.Phase;
import io.tcpload.operator.crd.ProfileSource;
import io.tcpload.operator.crd.TcpLoadTest;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.operator.kubelet.OperatorHarness;
import io.tcpload.operator.kubelet.PodBehaviour;
import io.tcpload.operator.reconciler.TcpLoadTestReconciler;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chart grants the operator exactly what it uses: the real operator runs tests that take every
 * path it has to the API server (a success with a ConfigMap-sourced profile and a TTL, a failure
 * before the start that deletes its runners, a test with an earlier operator's finalizer), every
 * request it makes is recorded, and the permissions they need are compared with the rules Helm
 * renders, cluster-wide and per namespace: nothing missing, nothing unused.
 */
class RbacUsageIT {
    private static final Duration BOUND = Duration.ofSeconds(60);

    /**
     * Needed where no test here can lead the operator: a status write that meets a conflict reads
     * the test again before it retries.
     */
    private static final Set<String> ON_RARE_PATHS = Set.of("tcpload.io/tcploadtests:get");

    @TempDir static Path workDir;
    private static OperatorHarness world;
    private static Set<String> used;

    @BeforeAll
    static void runTheOperator() throws Exception {
        world = new OperatorHarness(workDir);
        String namespace = "rbac";
        world.client
                .namespaces()
                .resource(
                        new NamespaceBuilder()
                                .withNewMetadata()
                                .withName(namespace)
                                .endMetadata()
                                .build())
                .create();
        world.client
                .configMaps()
                .inNamespace(namespace)
                .resource(
                        new ConfigMapBuilder()
                                .withNewMetadata()
                                .withName("profiles")
                                .endMetadata()
                                .withData(Map.of("bank.ini", world.profile))
                                .build())
                .create();
        world.kubelet.behaving(
                (job, index) ->
                        job.getMetadata().getName().startsWith("refused")
                                ? PodBehaviour.refused("exceeded quota: compute")
                                : PodBehaviour.NORMAL);

        TcpLoadTestSpec fromConfigMap = spec();
        fromConfigMap.setProfile(null);
        fromConfigMap.setProfileFrom(ProfileSource.configMap("profiles", "bank.ini"));
        fromConfigMap.setTtlSecondsAfterFinished(1);
        create(namespace, "ttl", fromConfigMap, List.of());
        create(namespace, "refused", spec(), List.of());
        create(namespace, "old", spec(), List.of(TcpLoadTestReconciler.OLD_FINALIZER));

        await().atMost(BOUND).until(() -> finished(namespace, "ttl"));
        await().atMost(BOUND).until(() -> finished(namespace, "refused"));
        await().atMost(BOUND).until(() -> finished(namespace, "old"));
        // The TTL's and the refusal's deletions.
        await().atMost(BOUND)
                .until(
                        () ->
                                world
                                        .client
                                        .batch()
                                        .v1()
                                        .jobs()
                                        .inNamespace(namespace)
                                        .list()
                                        .getItems()
                                        .stream()
                                        .noneMatch(
                                                job ->
                                                        job.getMetadata()
                                                                .getName()
                                                                .startsWith("ttl")));
        used = new TreeSet<>();
        for (OperatorHarness.ApiRequest request : world.operatorRequests()) {
            String permission = permission(request);
            // Anyone may ask what they may do (the SDK asks before it reconciles).
            if (!permission.startsWith("authorization.k8s.io/")) {
                used.add(permission);
            }
        }
        used.addAll(ON_RARE_PATHS);
    }

    @AfterAll
    static void stop() {
        if (world != null) {
            world.close();
        }
    }

    @Test
    void theClusterWideRoleIsExactlyWhatTheOperatorUsed() {
        List<ClusterRole> roles =
                HelmChart.ofType(HelmChart.render(Scenario.DEFAULTS), ClusterRole.class).stream()
                        .filter(RbacUsageIT::theOperators)
                        .toList();

        assertThat(roles).hasSize(1);
        assertThat(permissions(roles.get(0).getRules())).isEqualTo(used);
    }

    @Test
    void eachWatchedNamespacesRoleIsExactlyWhatTheOperatorUsed() {
        List<Role> roles =
                HelmChart.ofType(HelmChart.render(Scenario.NAMESPACED_RBAC), Role.class).stream()
                        .filter(role -> !role.getMetadata().getName().endsWith("-leader-election"))
                        .toList();

        assertThat(roles).hasSize(Scenario.NAMESPACED_RBAC.watchNamespaces().size());
        for (Role role : roles) {
            assertThat(permissions(role.getRules()))
                    .as(role.getMetadata().getNamespace())
                    .isEqualTo(used);
        }
    }

    /** The operator's role, not the aggregated ones the chart gives users. */
    private static boolean theOperators(ClusterRole role) {
        Map<String, String> labels = role.getMetadata().getLabels();
        return labels == null
                || labels.keySet().stream()
                        .noneMatch(key -> key.startsWith("rbac.authorization.k8s.io/aggregate-to"));
    }

    /** {@code group/resource[/subresource]:verb}, as an RBAC rule grants it. */
    static String permission(OperatorHarness.ApiRequest request) {
        String path = request.path();
        String plain = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        String[] parts = plain.substring(1).split("/");
        String group;
        int at;
        if (parts[0].equals("api")) {
            group = "";
            at = 2;
        } else {
            group = parts[1];
            at = 3;
        }
        if (at < parts.length && parts[at].equals("namespaces") && at + 2 < parts.length) {
            at += 2;
        }
        String resource = parts[at];
        boolean named = at + 1 < parts.length;
        if (at + 2 < parts.length) {
            resource += "/" + parts[at + 2];
        }
        String verb =
                switch (request.method()) {
                    case "GET" -> request.watch() ? "watch" : named ? "get" : "list";
                    case "POST" -> "create";
                    case "PUT" -> "update";
                    case "PATCH" -> "patch";
                    case "DELETE" -> named ? "delete" : "deletecollection";
                    default -> request.method().toLowerCase(java.util.Locale.ROOT);
                };
        return group + "/" + resource + ":" + verb;
    }

    private static Set<String> permissions(List<PolicyRule> rules) {
        Set<String> permissions = new TreeSet<>();
        for (PolicyRule rule : rules) {
            for (String group : rule.getApiGroups()) {
                for (String resource : rule.getResources()) {
                    for (String verb : rule.getVerbs()) {
                        permissions.add(group + "/" + resource + ":" + verb);
                    }
                }
            }
        }
        return permissions;
    }

    private static TcpLoadTestSpec spec() {
        TcpLoadTestSpec spec = new TcpLoadTestSpec();
        spec.setProfile(world.profile);
        spec.setRunners(1);
        spec.setThreads(1);
        spec.setConnections(2);
        spec.setDuration("1s");
        spec.setStartTimeoutSeconds(60);
        return spec;
    }

    private static void create(
            String namespace, String name, TcpLoadTestSpec spec, List<String> finalizers) {
        TcpLoadTest test = new TcpLoadTest();
        test.setMetadata(
                new ObjectMetaBuilder()
                        .withName(name)
                        .withNamespace(namespace)
                        .withFinalizers(finalizers)
                        .build());
        test.setSpec(spec);
        world.client.resources(TcpLoadTest.class).inNamespace(namespace).resource(test).create();
    }

    private static boolean finished(String namespace, String name) {
        TcpLoadTest test =
                world.client
                        .resources(TcpLoadTest.class)
                        .inNamespace(namespace)
                        .withName(name)
                        .get();
        return test != null
                && test.getStatus() != null
                && test.getStatus().getPhase() != null
                && test.getStatus().getPhase().finished()
                && test.getStatus().getPhase() != Phase.Pending;
    }
}
