package io.tcpload.operator.chart;

import java.util.List;
import java.util.Map;

/** The chart's switches, each as the values that turn it on. */
enum Scenario {
    DEFAULTS(HelmChart.values()),
    NAMESPACED_RBAC(HelmChart.values("watchNamespaces", List.of("team-a", "team-b"))),
    MONITORS_ON(
            HelmChart.values(
                    "metrics.serviceMonitor.enabled", true,
                    "metrics.podMonitor.enabled", true,
                    "metrics.serviceMonitor.labels", Map.of("release", "prometheus"))),
    MONITORS_ON_NAMESPACED(
            HelmChart.values(
                    "watchNamespaces", List.of("team-a"),
                    "metrics.serviceMonitor.enabled", true,
                    "metrics.podMonitor.enabled", true)),
    NETWORK_POLICIES_ON(
            HelmChart.values(
                    "watchNamespaces", List.of("team-a", "team-b"), "networkPolicy.enabled", true)),
    SCRAPE_ANNOTATIONS_OFF(HelmChart.values("metrics.scrapeAnnotations", false)),
    DASHBOARDS_OFF(HelmChart.values("dashboards.enabled", false)),
    REPLICATED(HelmChart.values("replicas", 3)),
    LEADER_ELECTION_ON(HelmChart.values("leaderElection.enabled", true)),
    RBAC_AND_ACCOUNT_BY_USER(
            HelmChart.values(
                    "rbac.create", false,
                    "serviceAccount.create", false,
                    "serviceAccount.name", "tcpload")),
    RUNNER_DEFAULTS_AND_ALLOW_LISTS(
            HelmChart.values(
                    "runnerImage.pullPolicy", "IfNotPresent",
                    "runnerDefaults.imagePullSecrets", List.of(Map.of("name", "registry")),
                    "runnerDefaults.nodeSelector", Map.of("pool", "load"),
                    "runnerDefaults.tolerations",
                            List.of(
                                    Map.of(
                                            "key", "load",
                                            "operator", "Exists",
                                            "effect", "NoSchedule")),
                    "runnerDefaults.resources",
                            Map.of(
                                    "requests", Map.of("cpu", "2", "memory", "1Gi"),
                                    "limits", Map.of("memory", "2Gi")),
                    "runnerDefaults.annotations", Map.of("sidecar.istio.io/inject", "false"),
                    "runnerDefaults.securityContext", Map.of("fsGroup", 2000),
                    "runnerPolicy.allowedImages",
                            List.of("registry.example.com/load/*", "ghcr.io/tcpload/*"),
                    "runnerPolicy.allowedServiceAccounts", List.of("loader", "perf-*")));

    final Map<String, Object> values;

    Scenario(Map<String, Object> values) {
        this.values = values;
    }

    boolean namespaced() {
        return values.containsKey("watchNamespaces");
    }

    @SuppressWarnings("unchecked")
    List<String> watchNamespaces() {
        return (List<String>) values.getOrDefault("watchNamespaces", List.of());
    }

    boolean leaderElection() {
        return this == REPLICATED || this == LEADER_ELECTION_ON;
    }

    boolean monitors() {
        return this == MONITORS_ON || this == MONITORS_ON_NAMESPACED;
    }

    boolean dashboards() {
        return this != DASHBOARDS_OFF;
    }

    boolean rbac() {
        return this != RBAC_AND_ACCOUNT_BY_USER;
    }
}
