package io.tcpload.operator.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleRef;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The operator gets exactly the permissions it uses: no wildcard, nothing more, nothing less. */
class ChartRbacIT {
    /** What the operator does with the API, as "group/resource:verb". */
    private static final Set<String> OPERATOR_PERMISSIONS =
            permissions(
                    Map.of(
                            "tcpload.io/tcploadtests", "get list watch patch",
                            "tcpload.io/tcploadtests/status", "patch",
                            "batch/jobs", "list watch create delete",
                            "/configmaps", "get list watch create delete",
                            "/pods", "list watch",
                            "/events", "list watch create",
                            // The runners' token Secret: created, never read.
                            "/secrets", "create"));

    private static final Set<String> LEADER_PERMISSIONS =
            permissions(Map.of("coordination.k8s.io/leases", "get create update"));

    private static final String FULLNAME = HelmChart.RELEASE + "-tcpload-operator";

    @ParameterizedTest
    @EnumSource(Scenario.class)
    void noRuleUsesAWildcardOrANonResourceUrl(Scenario scenario) {
        for (PolicyRule rule : allRules(HelmChart.render(scenario))) {
            assertThat(rule.getVerbs()).doesNotContain("*").isNotEmpty();
            assertThat(rule.getResources()).doesNotContain("*").isNotEmpty();
            assertThat(rule.getApiGroups()).doesNotContain("*").isNotEmpty();
            assertThat(rule.getResources()).allSatisfy(r -> assertThat(r).doesNotContain("*"));
            assertThat(rule.getNonResourceURLs()).isNullOrEmpty();
            assertThat(rule.getResourceNames()).isNullOrEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(Scenario.class)
    void grantsExactlyWhatTheOperatorUses(Scenario scenario) {
        List<KubernetesResource> objects = HelmChart.render(scenario);
        Set<String> granted = permissions(allRules(objects));

        Set<String> expected = new TreeSet<>();
        if (scenario.rbac()) {
            expected.addAll(OPERATOR_PERMISSIONS);
            if (scenario.leaderElection()) {
                expected.addAll(LEADER_PERMISSIONS);
            }
        }
        assertThat(granted).isEqualTo(expected);
    }

    @Test
    void clusterWideByDefault() {
        List<KubernetesResource> objects = HelmChart.render(Scenario.DEFAULTS);
        ClusterRole role = single(operators(HelmChart.ofType(objects, ClusterRole.class)));
        ClusterRoleBinding binding = single(HelmChart.ofType(objects, ClusterRoleBinding.class));

        assertThat(role.getAggregationRule()).isNull();
        assertThat(permissions(role.getRules())).isEqualTo(OPERATOR_PERMISSIONS);
        assertThat(binding.getRoleRef())
                .isEqualTo(new RoleRef("rbac.authorization.k8s.io", "ClusterRole", FULLNAME));
        assertThat(binding.getSubjects()).containsExactly(operatorAccount());
        assertThat(HelmChart.ofType(objects, Role.class)).isEmpty();
        assertThat(HelmChart.ofType(objects, RoleBinding.class)).isEmpty();
        assertThat(env(objects)).containsEntry("TCPLOAD_WATCH_NAMESPACES", "");
    }

    @Test
    void listedNamespacesGetARoleEachAndNothingClusterWide() {
        List<KubernetesResource> objects = HelmChart.render(Scenario.NAMESPACED_RBAC);

        // Only the roles aggregated for people are cluster-wide.
        assertThat(operators(HelmChart.ofType(objects, ClusterRole.class))).isEmpty();
        assertThat(HelmChart.ofType(objects, ClusterRoleBinding.class)).isEmpty();
        List<Role> roles = HelmChart.ofType(objects, Role.class);
        assertThat(roles)
                .extracting(r -> r.getMetadata().getNamespace())
                .containsExactly("team-a", "team-b");
        assertThat(roles)
                .allSatisfy(
                        r -> assertThat(permissions(r.getRules())).isEqualTo(OPERATOR_PERMISSIONS));
        List<RoleBinding> bindings = HelmChart.ofType(objects, RoleBinding.class);
        assertThat(bindings)
                .extracting(b -> b.getMetadata().getNamespace())
                .containsExactly("team-a", "team-b");
        assertThat(bindings)
                .allSatisfy(
                        b -> {
                            assertThat(b.getRoleRef())
                                    .isEqualTo(
                                            new RoleRef(
                                                    "rbac.authorization.k8s.io", "Role", FULLNAME));
                            assertThat(b.getSubjects()).containsExactly(operatorAccount());
                        });
        assertThat(env(objects)).containsEntry("TCPLOAD_WATCH_NAMESPACES", "team-a,team-b");
    }

    @Test
    void oneReplicaRunsWithoutLeaderElectionAndIsReplacedNotRolled() {
        List<KubernetesResource> objects = HelmChart.render(Scenario.DEFAULTS);

        assertThat(permissions(allRules(objects))).doesNotContainAnyElementsOf(LEADER_PERMISSIONS);
        assertThat(env(objects)).containsEntry("TCPLOAD_LEADER_ELECTION", "false");
        assertThat(deployment(objects).getSpec().getStrategy().getType()).isEqualTo("Recreate");
    }

    @Test
    void replicasElectALeaderThroughALeaseInTheReleaseNamespace() {
        for (Scenario scenario : List.of(Scenario.REPLICATED, Scenario.LEADER_ELECTION_ON)) {
            List<KubernetesResource> objects = HelmChart.render(scenario);
            Role lease =
                    single(
                            HelmChart.ofType(objects, Role.class).stream()
                                    .filter(
                                            r ->
                                                    r.getMetadata()
                                                            .getName()
                                                            .endsWith("-leader-election"))
                                    .toList());
            assertThat(lease.getMetadata().getNamespace()).isEqualTo(HelmChart.NAMESPACE);
            assertThat(permissions(lease.getRules())).isEqualTo(LEADER_PERMISSIONS);
            RoleBinding binding =
                    single(
                            HelmChart.ofType(objects, RoleBinding.class).stream()
                                    .filter(
                                            b ->
                                                    b.getRoleRef()
                                                            .getName()
                                                            .equals(lease.getMetadata().getName()))
                                    .toList());
            assertThat(binding.getMetadata().getNamespace()).isEqualTo(HelmChart.NAMESPACE);
            assertThat(binding.getSubjects()).containsExactly(operatorAccount());

            Map<String, String> env = env(objects);
            assertThat(env).containsEntry("TCPLOAD_LEADER_ELECTION", "true");
            EnvVar leaseNamespace =
                    deployment(objects)
                            .getSpec()
                            .getTemplate()
                            .getSpec()
                            .getContainers()
                            .get(0)
                            .getEnv()
                            .stream()
                            .filter(e -> e.getName().equals("TCPLOAD_LEASE_NAMESPACE"))
                            .findFirst()
                            .orElseThrow();
            assertThat(leaseNamespace.getValueFrom().getFieldRef().getFieldPath())
                    .isEqualTo("metadata.namespace");
            assertThat(deployment(objects).getSpec().getStrategy().getType())
                    .isEqualTo("RollingUpdate");
        }
    }

    @Test
    void rbacAndServiceAccountCanBeLeftToTheUser() {
        List<KubernetesResource> objects = HelmChart.render(Scenario.RBAC_AND_ACCOUNT_BY_USER);

        assertThat(allRules(objects)).isEmpty();
        assertThat(HelmChart.ofType(objects, RoleBinding.class)).isEmpty();
        assertThat(HelmChart.ofType(objects, ClusterRoleBinding.class)).isEmpty();
        assertThat(deployment(objects).getSpec().getTemplate().getSpec().getServiceAccountName())
                .isEqualTo("tcpload");
    }

    private static Subject operatorAccount() {
        return new Subject(null, "ServiceAccount", FULLNAME, HelmChart.NAMESPACE);
    }

    /** The operator's rules: every Role and ClusterRole but those aggregated for people. */
    private static List<PolicyRule> allRules(List<KubernetesResource> objects) {
        return Stream.concat(
                        HelmChart.ofType(objects, ClusterRole.class).stream()
                                .filter(r -> !aggregated(r))
                                .flatMap(r -> r.getRules().stream()),
                        HelmChart.ofType(objects, Role.class).stream()
                                .flatMap(r -> r.getRules().stream()))
                .toList();
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

    private static Set<String> permissions(Map<String, String> verbsByResource) {
        return verbsByResource.entrySet().stream()
                .flatMap(
                        e ->
                                Stream.of(e.getValue().split(" "))
                                        .map(verb -> e.getKey() + ":" + verb))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static Deployment deployment(List<KubernetesResource> objects) {
        return single(HelmChart.ofType(objects, Deployment.class));
    }

    private static Map<String, String> env(List<KubernetesResource> objects) {
        return deployment(objects)
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0)
                .getEnv()
                .stream()
                .filter(e -> e.getValue() != null)
                .collect(Collectors.toMap(EnvVar::getName, EnvVar::getValue));
    }

    private static <T> T single(List<T> list) {
        assertThat(list).hasSize(1);
        return list.get(0);
    }

    private static List<ClusterRole> operators(List<ClusterRole> roles) {
        return roles.stream().filter(r -> !aggregated(r)).toList();
    }

    private static boolean aggregated(ClusterRole role) {
        return role.getMetadata().getLabels() != null
                && role.getMetadata().getLabels().keySet().stream()
                        .anyMatch(k -> k.startsWith("rbac.authorization.k8s.io/aggregate-to-"));
    }

    @Test
    void namespaceEditorsMayRunTestsAndViewersReadThem() {
        List<ClusterRole> aggregated =
                HelmChart.ofType(HelmChart.render(Scenario.DEFAULTS), ClusterRole.class).stream()
                        .filter(ChartRbacIT::aggregated)
                        .toList();
        ClusterRole edit = role(aggregated, "-edit");
        ClusterRole view = role(aggregated, "-view");

        assertThat(edit.getMetadata().getLabels())
                .containsEntry("rbac.authorization.k8s.io/aggregate-to-edit", "true")
                .containsEntry("rbac.authorization.k8s.io/aggregate-to-admin", "true");
        assertThat(permissions(edit.getRules()))
                .contains(
                        "tcpload.io/tcploadtests:create",
                        "tcpload.io/tcploadtests:delete",
                        "tcpload.io/tcploadtests:list")
                .doesNotContain("tcpload.io/tcploadtests/status:patch");
        assertThat(view.getMetadata().getLabels())
                .containsEntry("rbac.authorization.k8s.io/aggregate-to-view", "true");
        assertThat(permissions(view.getRules()))
                .containsExactlyInAnyOrder(
                        "tcpload.io/tcploadtests:get",
                        "tcpload.io/tcploadtests:list",
                        "tcpload.io/tcploadtests:watch",
                        "tcpload.io/tcploadtests/status:get",
                        "tcpload.io/tcploadtests/status:list",
                        "tcpload.io/tcploadtests/status:watch");
    }

    private static ClusterRole role(List<ClusterRole> roles, String suffix) {
        return roles.stream()
                .filter(r -> r.getMetadata().getName().endsWith(suffix))
                .findFirst()
                .orElseThrow();
    }
}
