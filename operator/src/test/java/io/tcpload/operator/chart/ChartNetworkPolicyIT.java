package io.tcpload.operator.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The runners' NetworkPolicies, rendered by the real Helm. */
class ChartNetworkPolicyIT {
    @Test
    void offByDefault() {
        assertThat(HelmChart.ofType(HelmChart.render(Scenario.DEFAULTS), NetworkPolicy.class))
                .isEmpty();
        assertThat(
                        HelmChart.ofType(
                                HelmChart.render(Scenario.NAMESPACED_RBAC), NetworkPolicy.class))
                .isEmpty();
    }

    @Test
    void oneInEachWatchedNamespaceLetsOnlyTheOperatorAndTheScrapersReachTheRunners() {
        List<NetworkPolicy> policies =
                HelmChart.ofType(
                        HelmChart.render(Scenario.NETWORK_POLICIES_ON), NetworkPolicy.class);

        assertThat(policies)
                .extracting(policy -> policy.getMetadata().getNamespace())
                .containsExactly("team-a", "team-b");
        for (NetworkPolicy policy : policies) {
            assertThat(policy.getSpec().getPodSelector().getMatchLabels())
                    .containsEntry("app.kubernetes.io/name", "tcpload-runner")
                    .containsEntry("app.kubernetes.io/managed-by", "tcpload-operator");
            assertThat(policy.getSpec().getPolicyTypes())
                    .as("ingress only: the runners still reach their target")
                    .containsExactly("Ingress");
            assertThat(policy.getSpec().getIngress()).hasSize(1);
            var rule = policy.getSpec().getIngress().get(0);
            assertThat(rule.getPorts())
                    .singleElement()
                    .satisfies(
                            port -> {
                                assertThat(port.getPort()).isEqualTo(new IntOrString("metrics"));
                                assertThat(port.getProtocol()).isEqualTo("TCP");
                            });
            assertThat(rule.getFrom()).hasSize(2);
            NetworkPolicyPeer operator = rule.getFrom().get(0);
            assertThat(operator.getNamespaceSelector().getMatchLabels())
                    .containsExactly(
                            java.util.Map.entry(
                                    "kubernetes.io/metadata.name", HelmChart.NAMESPACE));
            assertThat(operator.getPodSelector().getMatchLabels())
                    .containsEntry("app.kubernetes.io/name", "tcpload-operator")
                    .containsEntry("app.kubernetes.io/instance", HelmChart.RELEASE);
            NetworkPolicyPeer prometheus = rule.getFrom().get(1);
            assertThat(prometheus.getPodSelector().getMatchLabels())
                    .containsEntry("app.kubernetes.io/name", "prometheus");
        }
    }

    @Test
    void anOperatorOfEveryNamespaceCannotHaveThemAndIsToldWhy() {
        assertThatThrownBy(
                        () -> HelmChart.template(HelmChart.values("networkPolicy.enabled", true)))
                .hasMessageContaining("networkPolicy.enabled needs watchNamespaces");
    }
}
